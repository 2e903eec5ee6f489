package keys

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/paserk"
	"github.com/signet-go/signet/server/storage"
)

var wrapAlgs = []signet.Algorithm{signet.ES256, signet.ES384, signet.EdDSA, signet.RS256, signet.PS256, signet.HS256, signet.V4Public}

func newKEK(t testing.TB) *signet.Key {
	t.Helper()
	k, err := signet.GenerateKey(signet.V4Local)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestWrapRoundTrip(t *testing.T) {
	kek := newKEK(t)
	now := time.Unix(1_700_000_000, 0)
	for _, alg := range wrapAlgs {
		t.Run(string(alg), func(t *testing.T) {
			priv, rec, err := generate(alg, kek, now)
			if err != nil {
				t.Fatal(err)
			}
			prefix := wrappedJWS
			if alg == signet.V4Public {
				prefix = wrappedPIE
				if !strings.HasPrefix(rec.ID, "k4.pid.") || !strings.HasPrefix(rec.Public, "k4.public.") {
					t.Fatalf("v4.public record: kid %q public %q", rec.ID, rec.Public)
				}
			} else {
				tp, _ := jwk.Thumbprint(priv)
				if rec.ID != tp || priv.KeyID() != tp {
					t.Fatalf("kid %q / %q, want thumbprint %q", rec.ID, priv.KeyID(), tp)
				}
			}
			if alg.Symmetric() != (rec.Public == "") {
				t.Fatalf("Public = %q", rec.Public)
			}
			if !strings.HasPrefix(rec.Wrapped, prefix) {
				t.Fatalf("Wrapped = %.30q…, want prefix %q", rec.Wrapped, prefix)
			}
			got, err := unwrap(rec, kek)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(priv) || got.KeyID() != rec.ID || got.Algorithm() != alg {
				t.Fatalf("unwrap gave another key (%s %s)", got.Algorithm(), got.KeyID())
			}
		})
	}
}

// TestWrappedHoldsNoSecret: the stored record never holds the private key
// in the clear (the JWK "d", or "k" for HMAC, or the PASERK secret).
func TestWrappedHoldsNoSecret(t *testing.T) {
	kek := newKEK(t)
	for _, alg := range wrapAlgs {
		t.Run(string(alg), func(t *testing.T) {
			priv, rec, err := generate(alg, kek, time.Unix(1_700_000_000, 0))
			if err != nil {
				t.Fatal(err)
			}
			stored, err := json.Marshal(rec)
			if err != nil {
				t.Fatal(err)
			}
			secret, s := "d", ""
			if alg == signet.V4Public {
				seed := priv.Material().(ed25519.PrivateKey).Seed()
				secret, s = "seed", base64.RawURLEncoding.EncodeToString(seed)
				if full, _ := paserk.Encode(priv); strings.Contains(string(stored), full[len("k4.secret."):]) {
					t.Fatal("the stored record contains the k4.secret")
				}
			} else {
				j, err := jwk.Marshal(priv)
				if err != nil {
					t.Fatal(err)
				}
				var members map[string]any
				if err := json.Unmarshal(j, &members); err != nil {
					t.Fatal(err)
				}
				if alg.Symmetric() {
					secret = "k"
				}
				s, _ = members[secret].(string)
			}
			if len(s) < 16 {
				t.Fatalf("no %q in the private key", secret)
			}
			if strings.Contains(string(stored), s) || strings.Contains(string(stored), s[:16]) {
				t.Fatalf("the stored record contains the private %q value", secret)
			}
			for _, p := range []string{`"d"`, `"k"`, `\"d\"`, `\"k\"`, "k4.secret."} {
				if strings.Contains(string(stored), p) {
					t.Fatalf("the stored record contains %s", p)
				}
			}
		})
	}
}

// TestUnwrapRefuses: a wrong KEK, a tampered record, or a wrapped key moved
// into another record are clean errors (signet.ErrSignatureInvalid), never
// a panic and never another key.
func TestUnwrapRefuses(t *testing.T) {
	kek, other := newKEK(t), newKEK(t)
	now := time.Unix(1_700_000_000, 0)
	for _, alg := range wrapAlgs {
		t.Run(string(alg), func(t *testing.T) {
			_, a, err := generate(alg, kek, now)
			if err != nil {
				t.Fatal(err)
			}
			_, b, err := generate(alg, kek, now)
			if err != nil {
				t.Fatal(err)
			}
			swapped := a
			swapped.Wrapped = b.Wrapped
			otherPub := a
			otherPub.Public = b.Public
			tampered := a
			tampered.Wrapped = a.Wrapped[:len(a.Wrapped)-4] + "AAAA"
			if tampered.Wrapped == a.Wrapped {
				tampered.Wrapped = a.Wrapped[:len(a.Wrapped)-4] + "BBBB"
			}
			otherAlg := a
			otherAlg.Algorithm = string(signet.ES512)
			if alg == signet.ES512 {
				otherAlg.Algorithm = string(signet.ES256)
			}
			for name, tc := range map[string]struct {
				rec  storage.Key
				kek  *signet.Key
				want error
			}{
				"wrong KEK":         {a, other, signet.ErrSignatureInvalid},
				"swapped wrapped":   {swapped, kek, signet.ErrSignatureInvalid},
				"tampered wrapped":  {tampered, kek, signet.ErrSignatureInvalid},
				"other algorithm":   {otherAlg, kek, nil},
				"empty wrapped":     {storage.Key{ID: a.ID, Algorithm: a.Algorithm}, kek, signet.ErrMalformed},
				"garbage wrapped":   {storage.Key{ID: a.ID, Algorithm: a.Algorithm, Wrapped: "v4.local.!!!"}, kek, nil},
				"oversized wrapped": {storage.Key{ID: a.ID, Algorithm: a.Algorithm, Wrapped: strings.Repeat("x", maxWrapped+1)}, kek, signet.ErrTooLarge},
				"unknown algorithm": {storage.Key{ID: a.ID, Algorithm: "none", Wrapped: a.Wrapped}, kek, signet.ErrUnsupported},
				"v4.local record":   {storage.Key{ID: a.ID, Algorithm: "v4.local", Wrapped: a.Wrapped}, kek, signet.ErrUnsupported},
			} {
				k, err := unwrap(tc.rec, tc.kek)
				if err == nil || k != nil {
					t.Errorf("%s: unwrap = %v, nil error", name, k)
					continue
				}
				if tc.want != nil && !errors.Is(err, tc.want) {
					t.Errorf("%s: unwrap error %v; want %v", name, err, tc.want)
				}
			}
			if !alg.Symmetric() {
				if k, err := unwrap(otherPub, kek); !errors.Is(err, signet.ErrSignatureInvalid) || k != nil {
					t.Errorf("other public: unwrap = %v, %v", k, err)
				}
			}
		})
	}
}
