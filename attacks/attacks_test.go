package attacks_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/attacks"
	"github.com/signet-go/signet/httpsig"
	"github.com/signet-go/signet/jwt"
	"github.com/signet-go/signet/paseto"
)

// TestCorpus runs every case of the corpus against signet's own packages,
// as an application would call them (default policies, the case's clock),
// and checks the verdict and, for rejections, the exact sentinel.
func TestCorpus(t *testing.T) {
	cases, err := attacks.Load(".")
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, c := range cases {
		count[c.Format]++
		t.Run(c.ID, func(t *testing.T) {
			err := verify(t, c)
			t.Logf("signet: %v", err)
			if c.Expect == attacks.Accept {
				if err != nil {
					t.Fatalf("%s: want accepted, got %v", c.Title, err)
				}
				return
			}
			want := attacks.Sentinel(c.SignetError)
			if err == nil {
				t.Fatalf("%s: ACCEPTED, want %s (%s)", c.Title, c.SignetError, strings.Join(c.References, ", "))
			}
			if !errors.Is(err, want) {
				t.Fatalf("%s: got %v, want %s", c.Title, err, c.SignetError)
			}
		})
	}
	// The target: at least 40 attacks; the corpus has more, in
	// every format.
	if len(cases) < 45 || count[attacks.JWT] < 25 || count[attacks.PASETO] < 10 || count[attacks.HTTPSig] < 10 {
		t.Fatalf("corpus too small: %v", count)
	}
	t.Logf("cases: %v", count)
}

// verify checks one case with signet and returns its error.
func verify(t *testing.T, c attacks.Case) error {
	t.Helper()
	key, err := c.SignetKey()
	if err != nil {
		t.Fatal(err)
	}
	now := c.Time()
	switch c.Format {
	case attacks.JWT:
		p := jwt.Policy{Now: func() time.Time { return now }, Audience: []string{attacks.Audience}}
		claims, err := jwt.Verify[jwt.Claims](key, c.Token, p)
		if err != nil && (claims.Subject != "" || claims.ExpiresAt != 0) {
			t.Fatalf("claims returned with an error: %+v", claims)
		}
		// The untyped form reads the same claims and must agree.
		if _, errMap := jwt.Verify[jwt.Map](key, c.Token, p); (err == nil) != (errMap == nil) || err != nil && !sameSentinel(err, errMap) {
			t.Fatalf("Verify[Claims]: %v; Verify[Map]: %v", err, errMap)
		}
		return err
	case attacks.PASETO:
		p := paseto.Policy{Now: func() time.Time { return now }, Audience: []string{attacks.Audience}}
		if c.Implicit != "" {
			p.Implicit = []byte(c.Implicit)
		}
		// The key decides the call: a local key decrypts, a public key
		// verifies, whatever the token says it is.
		var claims paseto.Claims
		if key.Symmetric() {
			claims, err = paseto.Decrypt[paseto.Claims](key, c.Token, p)
		} else {
			claims, err = paseto.Verify[paseto.Claims](key, c.Token, p)
		}
		if err != nil && claims.Subject != "" {
			t.Fatalf("claims returned with an error: %+v", claims)
		}
		return err
	case attacks.HTTPSig:
		v, err := httpsig.NewVerifier(key, httpsig.Policy{Now: func() time.Time { return now }, UnsignedBody: true})
		if err != nil {
			t.Fatal(err)
		}
		check := func() error {
			r, err := c.Request()
			if err != nil {
				t.Fatal(err)
			}
			_, err = v.VerifyRequest(r)
			return err
		}
		if c.Replay {
			if err := check(); err != nil {
				t.Fatalf("first presentation refused: %v", err)
			}
		}
		return check()
	}
	t.Fatalf("format %q", c.Format)
	return nil
}

// sameSentinel reports whether a and b wrap the same sentinel of the
// corpus.
func sameSentinel(a, b error) bool {
	for _, name := range attacks.SentinelNames() {
		s := attacks.Sentinel(name)
		if errors.Is(a, s) != errors.Is(b, s) {
			return false
		}
	}
	return true
}

// TestLoadRefusesBadCases: the loader checks the shape of what it reads.
func TestLoadRefusesBadCases(t *testing.T) {
	cases, err := attacks.Load(".")
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, c := range cases {
		if ids[c.ID] {
			t.Fatalf("duplicate id %s", c.ID)
		}
		ids[c.ID] = true
		if !strings.HasPrefix(c.ID, strings.ToLower(c.Format)+"-") {
			t.Errorf("%s: id does not start with its format", c.ID)
		}
		if c.Expect == attacks.Reject && attacks.Sentinel(c.SignetError) == nil {
			t.Errorf("%s: unknown sentinel %q", c.ID, c.SignetError)
		}
	}
	if _, err := attacks.Load(t.TempDir()); err == nil {
		t.Fatal("empty directory loaded")
	}
	if attacks.Sentinel("signet.ErrNope") != nil || attacks.Sentinel("signet.ErrMalformed") != signet.ErrMalformed {
		t.Fatal("Sentinel")
	}
}
