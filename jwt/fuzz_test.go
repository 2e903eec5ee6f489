package jwt_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwt"
)

// FuzzVerify feeds arbitrary tokens to Verify: it must never panic, never
// accept a token not signed by the key, and always fail with one of the
// sentinel errors.
func FuzzVerify(f *testing.F) {
	key, err := signet.NewKey(signet.HS256, []byte("0123456789abcdef0123456789abcdef"))
	if err != nil {
		f.Fatal(err)
	}
	exp := `,"exp":` + "1800003600"
	for _, c := range []string{`{"sub":"a"` + exp + `}`, `{"aud":["x","y"],"nbf":1` + exp + `,"x":{"y":[1,2,{"z":null}]}}`, `{}`} {
		f.Add(craft(f, key, `{"alg":"HS256","typ":"JWT"}`, c))
		f.Add(craft(f, key, `{"alg":"HS256","kid":"k\u0031","crit":["x"]}`, c))
	}
	f.Add(craft(f, key, `{"alg":"Ed25519"}`, `{}`)) // EdDSA's RFC 9864 name, not this key's
	f.Add("eyJhbGciOiJub25lIn0.e30.")
	f.Add("....")
	f.Add("a.b.c")
	sentinels := []error{signet.ErrMalformed, signet.ErrTooLarge, signet.ErrSignatureInvalid, signet.ErrAlgorithmMismatch,
		signet.ErrKeyNotFound, signet.ErrUnsupported, signet.ErrExpired, signet.ErrNotYetValid, signet.ErrIssuedInFuture,
		signet.ErrMissingClaim, signet.ErrType, signet.ErrAudience}
	f.Fuzz(func(t *testing.T, tok string) {
		p := jwt.Policy{Now: fixed(time.Unix(1_800_000_000, 0)), Audience: []string{"y"}}
		c, err := jwt.Verify[jwt.Claims](key, tok, p)
		if err == nil {
			// Only a token whose signature the key made can pass: re-sign
			// its signing input and compare.
			dot := strings.LastIndexByte(tok, '.')
			if got := signRaw(t, key, tok[:dot]); got != tok {
				t.Fatalf("accepted a token the key did not sign: %q", tok)
			}
			if c.ExpiresAt == 0 {
				t.Fatalf("accepted without exp: %q", tok)
			}
			if _, err := jwt.Verify[jwt.Map](key, tok, p); err != nil {
				t.Fatalf("Claims accepted, Map refused (%v): %q", err, tok)
			}
			return
		}
		for _, s := range sentinels {
			if errors.Is(err, s) {
				return
			}
		}
		t.Fatalf("error without a sentinel: %v", err)
	})
}

// FuzzClaims signs arbitrary payloads and checks that Verify's view of
// them agrees between its typed and map forms.
func FuzzClaims(f *testing.F) {
	key, _ := signet.NewKey(signet.HS256, []byte("0123456789abcdef0123456789abcdef"))
	for _, s := range []string{`{"exp":1800003600}`, `{"exp":1800003600,"exp":1}`, `{"aud":"a","exp":1.9e9}`, `{"sub":"\u00e9","exp":2e9,"n":[{},{"a":"\ud83d\ude00"}]}`, `{"a":1,"A":2,"exp":2e9}`,
		`{"AUD":"x","exp":2e9}`, `{ "\u017fub":"x"}`, `{"exp":1800000000.5,"nbf":1799999999.9,"iat":18e8}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, payload string) {
		tok := craft(t, key, `{"alg":"HS256"}`, payload)
		p := jwt.Policy{Now: fixed(time.Unix(1_800_000_000, 0)), NoExpiry: true}
		_, err1 := jwt.Verify[jwt.Claims](key, tok, p)
		_, err2 := jwt.Verify[jwt.Map](key, tok, p)
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("Claims: %v, Map: %v, payload %q", err1, err2, payload)
		}
	})
}
