package keys_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/jwt"
	"github.com/signet-go/signet/paserk"
	"github.com/signet-go/signet/paseto"
	"github.com/signet-go/signet/server/keys"
	"github.com/signet-go/signet/server/storage"
)

// snapshot is a JWKS as a client fetched it.
type snapshot struct {
	etag string
	set  *signet.KeySet
}

// fetchJWKS is a client fetching the key set from m and parsing it as a
// client would: JWKs with jwk.ParseSet, v4.public keys from their PASERK.
func fetchJWKS(t testing.TB, m *keys.Manager, alg signet.Algorithm, cache map[string]*snapshot) *snapshot {
	t.Helper()
	rec := httptest.NewRecorder()
	m.JWKSHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/.well-known/jwks.json", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("JWKS: %d", rec.Code)
	}
	etag := rec.Header().Get("Etag")
	if s, ok := cache[etag]; ok {
		return s
	}
	var set *signet.KeySet
	var err error
	if alg == signet.V4Public {
		var doc struct {
			Keys []struct{ KID, PASERK string }
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		var ks []*signet.Key
		for _, e := range doc.Keys {
			k, err := paserk.Decode(e.PASERK)
			if err != nil {
				t.Fatal(err)
			}
			if id, _ := paserk.ID(k); id != e.KID {
				t.Fatalf("published kid %q is not the pid %q of its key", e.KID, id)
			}
			ks = append(ks, k.WithKeyID(e.KID))
		}
		set, err = signet.NewKeySet(ks...)
	} else {
		set, err = jwk.ParseSet(rec.Body.Bytes())
	}
	if err != nil {
		t.Fatal(err)
	}
	s := &snapshot{etag: etag, set: set}
	cache[etag] = s
	return s
}

type issued struct {
	step int
	kid  string
	tok  string
	exp  time.Time
}

func sign(t testing.TB, k *signet.Key, now time.Time, ttl time.Duration) (string, time.Time) {
	t.Helper()
	exp := now.Add(ttl).Truncate(time.Second) // NumericDate: whole seconds
	if k.Algorithm() == signet.V4Public {
		tok, err := paseto.Sign(k, paseto.Claims{Subject: "svc", IssuedAt: now, ExpiresAt: exp},
			paseto.Options{Footer: []byte(`{"kid":"` + k.KeyID() + `"}`)})
		if err != nil {
			t.Fatal(err)
		}
		return tok, exp
	}
	tok, err := jwt.Sign(k, jwt.Claims{Subject: "svc", IssuedAt: jwt.NumericDate(now.Unix()), ExpiresAt: jwt.NumericDate(exp.Unix())})
	if err != nil {
		t.Fatal(err)
	}
	return tok, exp
}

func verify(ks signet.Keys, alg signet.Algorithm, tok string, at time.Time) error {
	now := func() time.Time { return at }
	if alg == signet.V4Public {
		_, err := paseto.Verify[paseto.Claims](ks, tok, paseto.Policy{Now: now})
		return err
	}
	_, err := jwt.Verify[jwt.Claims](ks, tok, jwt.Policy{Now: now})
	return err
}

// TestNoFailedVerificationAcrossRotation is the promise of the rotation
// schedule, checked exhaustively over a timeline of several rotations with
// three instances on one store, each reloading every Reload at its own
// phase: a token any instance signs at time t verifies against every JWKS
// any instance served in [t − MaxAge, t] (a client's cached copy, up to
// max-age old) and in [t, exp] (a client fetching later, until the token
// expires).
func TestNoFailedVerificationAcrossRotation(t *testing.T) {
	for _, tc := range []struct {
		alg    signet.Algorithm
		rotate time.Duration
	}{
		{signet.EdDSA, 5 * time.Second},
		{signet.ES256, 5 * time.Second},
		{signet.V4Public, 5 * time.Second},
		// A period under 2×MaxAge: the publish lead sets the pace.
		{signet.EdDSA, time.Second},
	} {
		alg := tc.alg
		t.Run(string(alg)+"/rotate="+tc.rotate.String(), func(t *testing.T) {
			const (
				step     = 250 * time.Millisecond
				steps    = 200 // 50 s: ten periods of 5 s
				managers = 3
			)
			clk := newClock()
			mem := storage.NewMemory(clk.Now)
			cfg := fastConfig(t, clk, mustKEK(t), alg)
			cfg.Rotate = tc.rotate // MaxAge 2 s, tokens of 5 s, reload 1 s
			ms := make([]*keys.Manager, managers)
			for i := range ms {
				ms[i] = mustNew(t, mem, cfg)
			}
			perReload := int(cfg.Reload / step)
			cache := map[string]*snapshot{}
			snaps := make([][]*snapshot, steps) // [step][instance], nil before it loaded
			var tokens []issued
			for s := range steps {
				now := t0.Add(time.Duration(s) * step)
				clk.Set(now)
				snaps[s] = make([]*snapshot, managers)
				for i, m := range ms {
					// Instance i reloads on its own phase; a store
					// read is never needed to sign or publish.
					if s == 0 || (s+i)%perReload == 0 {
						mustRefresh(t, m)
					}
				}
				for i, m := range ms {
					snaps[s][i] = fetchJWKS(t, m, alg, cache)
				}
				for _, m := range ms {
					k, err := m.Signer(context.Background())
					if err != nil {
						t.Fatal(err)
					}
					tok, exp := sign(t, k, now, cfg.MaxTokenTTL)
					tokens = append(tokens, issued{step: s, kid: k.KeyID(), tok: tok, exp: exp})
				}
			}
			checks, kids := 0, map[string]bool{}
			verified := map[[2]string]bool{} // (token, JWKS etag) verified
			check := func(sn *snapshot, tk issued, at time.Time) error {
				if verified[[2]string{tk.tok, sn.etag}] {
					return nil
				}
				verified[[2]string{tk.tok, sn.etag}] = true
				return verify(sn.set, alg, tk.tok, at)
			}
			maxAgeSteps, ttlSteps := int(cfg.MaxAge/step), int(cfg.MaxTokenTTL/step)
			for _, tk := range tokens {
				kids[tk.kid] = true
				signedAt := t0.Add(time.Duration(tk.step) * step)
				// A JWKS cached before the token was signed, checked when
				// the token arrives.
				for f := max(0, tk.step-maxAgeSteps); f <= tk.step; f++ {
					for i, sn := range snaps[f] {
						if err := check(sn, tk, signedAt); err != nil {
							t.Fatalf("token of step %d (kid %.12s…) fails against instance %d's JWKS of step %d (cached %v): %v",
								tk.step, tk.kid, i, f, time.Duration(tk.step-f)*step, err)
						}
						checks++
					}
				}
				// A JWKS fetched later, until the token expires.
				for f := tk.step; f <= tk.step+ttlSteps && f < steps; f++ {
					at := t0.Add(time.Duration(f) * step)
					for i, sn := range snaps[f] {
						if _, ok := sn.set.Lookup(tk.kid); !ok { // a JWKS without the key fails whatever the time
							t.Fatalf("token of step %d (kid %.12s…) has no key in instance %d's JWKS of step %d (%v later)",
								tk.step, tk.kid, i, f, at.Sub(signedAt))
						}
						if at.Before(tk.exp) {
							if err := check(sn, tk, at); err != nil {
								t.Fatalf("token of step %d fails at step %d against instance %d's JWKS: %v", tk.step, f, i, err)
							}
						}
						checks++
					}
				}
			}
			if len(kids) < 9 || checks < 10000 {
				t.Fatalf("vacuous: %d signing keys, %d checks", len(kids), checks)
			}
			t.Logf("%d tokens, %d signing keys, %d JWKS versions, %d checks (%d signature verifications), none failed", len(tokens), len(kids), len(cache), checks, len(verified))
		})
	}
}
