//go:build studies

package studies

import (
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/signet-go/signet/bench/lab"
)

var (
	keysOnce sync.Once
	keys     *lab.Keys
	keysErr  error
)

func testKeys(t *testing.T) *lab.Keys {
	t.Helper()
	keysOnce.Do(func() { keys, keysErr = lab.NewKeys() })
	if keysErr != nil {
		t.Fatal(keysErr)
	}
	return keys
}

func spec(t *testing.T, alg string) lab.KeySpec {
	t.Helper()
	s, err := testKeys(t).Spec(alg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// withSignet is signet's adapters and the studies' libraries.
func withSignet() lab.Peers {
	d := lab.DefaultPeers()
	return lab.Peers{JWT: d.JWT[:1], PASETO: d.PASETO[:1], HTTPSig: d.HTTPSig[:1]}.Add(Peers())
}

// flip flips a bit in the middle of a token's last part (signature or
// tag).
func flip(tok string) string {
	b := []byte(tok)
	i := strings.LastIndexAny(tok, ".") + 1
	i += (len(b) - i) / 2
	if b[i] == 'A' {
		b[i] = 'B'
	} else {
		b[i] = 'A'
	}
	return string(b)
}

// TestPeersCases: the benchmark cases build with the studies' peers
// (each passes the lab's self-check: its own token or signature
// verifies, one with a flipped bit does not) and are named as the
// others'.
func TestPeersCases(t *testing.T) {
	peers := withSignet()
	cs, err := lab.Cases(testKeys(t), lab.Options{Quick: true, Parallel: true, Peers: &peers})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, c := range cs {
		seen[c.Name()] = true
	}
	for _, want := range []string{
		"BenchmarkJWT/ES256/Sign/mateothegreat", "BenchmarkJWT/ES256/Verify/mateothegreat",
		"BenchmarkJWT/ES256/Forged/mateothegreat", "BenchmarkJWT/ES256/KeyInit/mateothegreat",
		"BenchmarkPASETO/v4.public/Sign/mateothegreat", "BenchmarkPASETO/v4.public/Verify/mateothegreat",
		"BenchmarkHTTPSig/hmac-sha256/Sign/forcebit", "BenchmarkHTTPSig/hmac-sha256/Verify/Parallel/forcebit",
		"BenchmarkHTTPSig/ed25519/Verify/forcebit", "BenchmarkHTTPSig/ecdsa-p256-sha256/Verify/forcebit",
		"BenchmarkHTTPSig/rsa-pss-sha512/Verify/forcebit",
	} {
		if !seen[want] {
			t.Errorf("no case %s", want)
		}
	}
}

// TestMateothegreatJWT: its own ES256 tokens verify and read back the
// payload, also with the public key alone; signet's tokens verify in it
// and its in signet; a flipped bit, an expired token (its own and
// signet's), a token without exp and another algorithm's token are
// refused.
func TestMateothegreatJWT(t *testing.T) {
	s := spec(t, "ES256")
	m, err := MateothegreatJWT{}.New(s)
	if err != nil {
		t.Fatal(err)
	}
	pub := s
	pub.Private = nil
	mPub, err := MateothegreatJWT{}.New(pub)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := lab.DefaultPeers().JWT[0].New(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []string{"tiny", "small", "medium"} {
		p := lab.NewPayload(size, time.Now())
		tok, err := m.Sign(p)
		if err != nil {
			t.Fatal(err)
		}
		for name, v := range map[string]lab.JWT{"itself": m, "verify-only": mPub} {
			var back lab.Payload
			if err := v.Verify(tok, &back); err != nil {
				t.Errorf("%s: %s refuses its token: %v", size, name, err)
			} else if !reflect.DeepEqual(&back, p) {
				t.Errorf("%s: %s reads\n%+v\nwant\n%+v", size, name, back, *p)
			}
			if v.Verify(flip(tok), &back) == nil {
				t.Errorf("%s: %s accepts a flipped signature", size, name)
			}
		}
		// Interop: the signature and exp; the claims differ in shape (its
		// payload travels in its data claim).
		var back lab.Payload
		if err := sig.Verify(tok, &back); err != nil {
			t.Errorf("%s: signet refuses its token: %v", size, err)
		}
		stok, err := sig.Sign(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Verify(stok, &back); err != nil {
			t.Errorf("%s: refuses signet's token: %v", size, err)
		} else if back.ExpiresAt != p.ExpiresAt {
			t.Errorf("%s: reads signet's exp as %d", size, back.ExpiresAt)
		}
	}

	expired := lab.NewPayload("small", time.Now().Add(-2*time.Hour))
	for name, signer := range map[string]lab.JWT{"its own": m, "signet's": sig} {
		tok, err := signer.Sign(expired)
		if err != nil {
			t.Fatal(err)
		}
		if m.Verify(tok, new(lab.Payload)) == nil {
			t.Errorf("accepts %s token that expired an hour ago", name)
		}
	}
	// VerifyFor: the clock and the audience (a registered aud: signet's
	// token has one; the library's own cannot).
	stok, err := sig.Sign(expired)
	if err != nil {
		t.Fatal(err)
	}
	vf := m.(lab.JWTVerifierFor)
	before := time.Unix(expired.ExpiresAt-60, 0)
	if err := vf.VerifyFor(stok, new(lab.Payload), before, expired.Audience); err != nil {
		t.Errorf("VerifyFor before exp, its audience: %v", err)
	}
	if vf.VerifyFor(stok, new(lab.Payload), before, "https://other.example.com") == nil {
		t.Error("VerifyFor accepts a token for another audience")
	}
	if vf.VerifyFor(stok, new(lab.Payload), time.Unix(expired.ExpiresAt+1, 0), "") == nil {
		t.Error("VerifyFor accepts a token after its exp")
	}
	noExp := lab.NewPayload("small", time.Now())
	noExp.ExpiresAt = 0
	if _, err := m.Sign(noExp); err == nil {
		t.Error("signs a payload without exp")
	}
	gj, err := lab.DefaultPeers().JWT[1].New(s) // golang-jwt v5 signs what it is given
	if err != nil {
		t.Fatal(err)
	}
	tok, err := gj.Sign(noExp)
	if err != nil {
		t.Fatal(err)
	}
	if m.Verify(tok, new(lab.Payload)) == nil {
		t.Error("accepts a token without exp")
	}
	es384, err := lab.DefaultPeers().JWT[0].New(spec(t, "ES384"))
	if err != nil {
		t.Fatal(err)
	}
	if tok, err = es384.Sign(lab.NewPayload("small", time.Now())); err != nil {
		t.Fatal(err)
	}
	if m.Verify(tok, new(lab.Payload)) == nil {
		t.Error("accepts an ES384 token made with another key")
	}
	if _, err := (MateothegreatJWT{}).New(spec(t, "ES384")); err == nil {
		t.Error("binds to ES384, which it cannot sign")
	}
}

// TestMateothegreatPASETO: its own v4.public tokens open to the payload;
// signet's open in it (those with a data claim) and its in signet; a flipped signature byte and an
// expired token are refused; a public key alone is refused at New (its
// PasetoParse takes the secret key).
func TestMateothegreatPASETO(t *testing.T) {
	s := spec(t, "v4.public")
	m, err := MateothegreatPASETO{}.New(s)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := lab.DefaultPeers().PASETO[0].New(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []string{"tiny", "small", "medium"} {
		p := lab.NewPayload(size, time.Now())
		tok, err := m.Seal(p)
		if err != nil {
			t.Fatal(err)
		}
		var back lab.Payload
		if err := m.Open(tok, &back); err != nil {
			t.Errorf("%s: refuses its token: %v", size, err)
		} else if !reflect.DeepEqual(&back, p) {
			t.Errorf("%s: reads\n%+v\nwant\n%+v", size, back, *p)
		}
		if m.Open(flip(tok), &back) == nil {
			t.Errorf("%s: accepts a flipped signature", size)
		}
		if err := sig.Open(tok, &back); err != nil {
			t.Errorf("%s: signet refuses its token: %v", size, err)
		}
		stok, err := sig.Seal(p)
		if err != nil {
			t.Fatal(err)
		}
		// PasetoParse requires a data claim: signet's tokens of the
		// payloads without data are refused.
		if err := m.Open(stok, &back); (err == nil) != (p.Data != nil) {
			t.Errorf("%s: on signet's token: %v", size, err)
		}
	}
	expired := lab.NewPayload("small", time.Now().Add(-2*time.Hour))
	for name, sealer := range map[string]lab.PASETO{"its own": m, "signet's": sig} {
		tok, err := sealer.Seal(expired)
		if err != nil {
			t.Fatal(err)
		}
		if m.Open(tok, new(lab.Payload)) == nil {
			t.Errorf("accepts %s token that expired an hour ago", name)
		}
	}
	pub := s
	pub.Private = nil
	if _, err := (MateothegreatPASETO{}).New(pub); err == nil {
		t.Error("New takes a public key alone")
	}
}

// forcebitDER are the algorithms whose signatures forcebit writes and
// reads as ASN.1 DER rather than RFC 9421's r‖s: signet and it refuse
// each other's.
var forcebitDER = []string{"ecdsa-p256-sha256", "ecdsa-p384-sha384"}

// TestForcebit: for every algorithm, its own signature verifies, also
// with the public key alone, and a flipped bit does not; signet and it
// verify each other's (except ECDSA, pinned: DER); a signature made six
// minutes ago, one by another keyid, and one over another path are
// refused.
func TestForcebit(t *testing.T) {
	sigLib := lab.DefaultPeers().HTTPSig[0]
	for _, alg := range (Forcebit{}).Algs() {
		t.Run(alg, func(t *testing.T) {
			s := spec(t, alg)
			f, err := Forcebit{}.New(s)
			if err != nil {
				t.Fatal(err)
			}
			verifiers := []lab.HTTPSig{f}
			if s.Private != nil {
				pub := s
				pub.Private = nil
				fPub, err := Forcebit{}.New(pub)
				if err != nil {
					t.Fatal(err)
				}
				verifiers = append(verifiers, fPub)
			}
			sig, err := sigLib.New(s)
			if err != nil {
				t.Fatal(err)
			}
			r := request()
			if err := f.Sign(r); err != nil {
				t.Fatal(err)
			}
			for _, v := range verifiers {
				if err := v.Verify(r); err != nil {
					t.Errorf("refuses its own signature: %v", err)
				}
				if v.Verify(flipSig(r)) == nil {
					t.Error("accepts a flipped signature")
				}
			}
			der := slices.Contains(forcebitDER, alg)
			if err := sig.Verify(r); (err == nil) == der {
				t.Errorf("signet on forcebit's signature: %v (DER pinned: %v)", err, der)
			}
			sr := request()
			if err := sig.Sign(sr); err != nil {
				t.Fatal(err)
			}
			if err := f.Verify(sr); (err == nil) == der {
				t.Errorf("forcebit on signet's signature: %v (DER pinned: %v)", err, der)
			}

			at := f.(lab.HTTPSigVerifierAt)
			if err := at.VerifyAt(r, time.Now()); err != nil {
				t.Errorf("VerifyAt now: %v", err)
			}
			if at.VerifyAt(r, time.Now().Add(6*time.Minute)) == nil {
				t.Error("VerifyAt accepts a signature made six minutes ago")
			}
			other := s
			other.KeyID = "another"
			fOther, err := Forcebit{}.New(other)
			if err != nil {
				t.Fatal(err)
			}
			if fOther.Verify(r) == nil {
				t.Error("a verifier for another keyid accepts it")
			}
			moved := r.Clone(r.Context())
			moved.URL.Path = "/api/other"
			if f.Verify(moved) == nil {
				t.Error("accepts the signature on another path")
			}
		})
	}
}

// TestForcebitConcurrent: one adapter value verifies from several
// goroutines at once, as the parallel benchmarks do (its Verifier is not
// safe for concurrent use: the adapter pools them; run with -race).
func TestForcebitConcurrent(t *testing.T) {
	f, err := Forcebit{}.New(spec(t, "hmac-sha256"))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 20 {
				r := request()
				if err := f.Sign(r); err != nil {
					t.Error(err)
					return
				}
				if err := f.Verify(r); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}

// request is the lab's reference request (a JSON POST).
func request() *http.Request {
	r, _ := http.NewRequest(http.MethodPost, "https://example.com/api/resource?param=value",
		strings.NewReader(`{"id":42,"name":"widget","tags":["a","b"],"ok":true}`))
	r.Header.Set("Content-Type", "application/json")
	return r
}

// flipSig returns a copy of r with one bit of its signature flipped.
func flipSig(r *http.Request) *http.Request {
	c := r.Clone(r.Context())
	v := c.Header.Get("Signature")
	i, j := strings.IndexByte(v, ':'), strings.LastIndexByte(v, ':')
	b := []byte(v)
	m := (i + j) / 2
	if b[m] == 'A' {
		b[m] = 'B'
	} else {
		b[m] = 'A'
	}
	c.Header.Set("Signature", string(b))
	return c
}
