package attacks_test

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

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

// verify checks one case with signet and returns its error: the verdict
// is Case.Verify's, under the default policies the corpus claims (the
// lab runs the same function). The token formats are also checked the
// way only a test can: no claims come with an error, and the untyped
// form agrees.
func verify(t *testing.T, c attacks.Case) error {
	t.Helper()
	err := c.Verify()
	if errors.Is(err, attacks.ErrFirstRefused) {
		t.Fatalf("first presentation refused: %v", err)
	}
	key, kerr := c.SignetKey()
	if kerr != nil {
		// A key signet refuses to make (a small-order Ed25519 point) is
		// the verdict, and Verify returned that refusal.
		if err == nil || err.Error() != kerr.Error() {
			t.Fatalf("the key is refused (%v), Verify returned %v", kerr, err)
		}
		return err
	}
	switch c.Format {
	case attacks.JWT:
		p := c.JWTPolicy()
		claims, errClaims := jwt.Verify[jwt.Claims](key, c.Token, p)
		if errClaims != nil && (claims.Subject != "" || claims.ExpiresAt != 0) {
			t.Fatalf("claims returned with an error: %+v", claims)
		}
		// The untyped form reads the same claims and must agree.
		if _, errMap := jwt.Verify[jwt.Map](key, c.Token, p); (err == nil) != (errMap == nil) || err != nil && !sameSentinel(err, errMap) {
			t.Fatalf("Verify[Claims]: %v; Verify[Map]: %v", err, errMap)
		}
	case attacks.PASETO:
		var claims paseto.Claims
		var errClaims error
		if key.Symmetric() {
			claims, errClaims = paseto.Decrypt[paseto.Claims](key, c.Token, c.PASETOPolicy())
		} else {
			claims, errClaims = paseto.Verify[paseto.Claims](key, c.Token, c.PASETOPolicy())
		}
		if errClaims != nil && claims.Subject != "" {
			t.Fatalf("claims returned with an error: %+v", claims)
		}
	}
	return err
}

// TestCorpusPolicies: the policies a case is verified with are the zero
// policies of their packages, given only what the case says its verifier
// holds; nothing stricter or looser.
func TestCorpusPolicies(t *testing.T) {
	cases, err := attacks.Load(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		jp := c.JWTPolicy()
		if jp.Now == nil || !jp.Now().Equal(c.Time()) || !slices.Equal(jp.Audience, audiences(c)) {
			t.Fatalf("%s: jwt policy %+v", c.ID, jp)
		}
		jp.Now, jp.Audience = nil, nil
		if !reflect.DeepEqual(jp, jwt.Policy{}) {
			t.Errorf("%s: the jwt policy sets more than the clock and audience: %+v", c.ID, jp)
		}
		pp := c.PASETOPolicy()
		if pp.Now == nil || !pp.Now().Equal(c.Time()) || !slices.Equal(pp.Audience, audiences(c)) || string(pp.Implicit) != c.Implicit {
			t.Fatalf("%s: paseto policy %+v", c.ID, pp)
		}
		pp.Now, pp.Audience, pp.Implicit = nil, nil, nil
		if !reflect.DeepEqual(pp, paseto.Policy{}) {
			t.Errorf("%s: the paseto policy sets more than the clock, audience and implicit assertion: %+v", c.ID, pp)
		}
		hp := c.HTTPSigPolicy()
		if hp.Now == nil || !hp.Now().Equal(c.Time()) {
			t.Fatalf("%s: httpsig policy clock", c.ID)
		}
		hp.Now = nil
		if !reflect.DeepEqual(hp, httpsig.Policy{}) {
			t.Errorf("%s: the httpsig policy sets more than the clock: %+v", c.ID, hp)
		}
		// Every token verifier names its audience, so that no verdict
		// rests on a default that does not enforce aud, except those of
		// the cases about a verifier that names none: they must be
		// refused for their audience.
		switch {
		case c.Format == attacks.HTTPSig && c.Audience != "":
			t.Errorf("%s: audience %q for %s", c.ID, c.Audience, c.Format)
		case c.Format != attacks.HTTPSig && c.Audience == "" && (c.Expect != attacks.Reject || c.SignetError != "signet.ErrAudience"):
			t.Errorf("%s: a %s verifier naming no audience, verdict %s %s: only an audience refusal may rest on it", c.ID, c.Format, c.Expect, c.SignetError)
		}
	}
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

// audiences is the audience list a case's verifier names.
func audiences(c attacks.Case) []string {
	if c.Audience == "" {
		return nil
	}
	return []string{c.Audience}
}
