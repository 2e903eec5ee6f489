//go:build !race

package jwt_test

import (
	"errors"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/tokentest"
	"github.com/signet-go/signet/jwt"
)

// TestAllocations pins the allocation counts the benchmarks report (they
// are exact, unlike times): a forged token costs none, signing one (the
// token), verifying into Claims two (payload and aud).
func TestAllocations(t *testing.T) {
	k := mustKey(t, signet.HS256)
	c := jwt.Claims{Issuer: "https://issuer.example", Subject: "user@example.com", Audience: jwt.Audience{"api"},
		ExpiresAt: jwt.At(now.Add(time.Hour)), IssuedAt: jwt.At(now)}
	tok, err := jwt.Sign(k, c)
	if err != nil {
		t.Fatal(err)
	}
	forged := flipSignature(tok)
	p := jwt.Policy{Now: fixed(now), Audience: []string{"api"}}
	for _, m := range []struct {
		name string
		max  float64
		f    func()
	}{
		{"sign", 1, func() { _, _ = jwt.Sign(k, c) }},
		{"verify", 2, func() { _, _ = jwt.Verify[jwt.Claims](k, tok, p) }},
		{"forged", 0, func() { _, _ = jwt.Verify[jwt.Claims](k, forged, p) }},
	} {
		if got := testing.AllocsPerRun(100, m.f); got > m.max {
			t.Errorf("%s: %.0f allocations, want at most %.0f", m.name, got, m.max)
		}
	}
}

// TestAllocationsKeysTakingTurns: keys made by WithKeyID share a cached
// header; verifying with them in turn does not rebuild it on every call,
// so refusing a forgery still allocates nothing.
func TestAllocationsKeysTakingTurns(t *testing.T) {
	base := mustKey(t, signet.HS256)
	a, b := base.WithKeyID("a"), base.WithKeyID("b")
	ta, _ := jwt.Sign(a, jwt.Claims{Subject: "a", ExpiresAt: 4102444800})
	tb, _ := jwt.Sign(b, jwt.Claims{Subject: "b", ExpiresAt: 4102444800})
	fa, fb := flipSignature(ta), flipSignature(tb)
	for _, v := range []struct {
		k   *signet.Key
		tok string
	}{{a, fa}, {b, fb}} {
		if _, _, err := jwt.VerifyBytes(v.k, v.tok, jwt.Policy{}); !errors.Is(err, signet.ErrSignatureInvalid) {
			t.Fatalf("forgery: %v, want ErrSignatureInvalid", err)
		}
	}
	if allocs := testing.AllocsPerRun(100, func() {
		jwt.VerifyBytes(a, fa, jwt.Policy{})
		jwt.VerifyBytes(b, fb, jwt.Policy{})
	}); allocs != 0 {
		t.Fatalf("refusing forgeries with keys taking turns: %v allocations", allocs)
	}
}

// TestAllocationsForgedHMAC pins the README's claim, "a JWT with a forged
// HMAC signature is refused without allocating", for each HMAC algorithm
// and for the key found by kid in a key set as for a single key. Refusing
// a forged public-key signature costs what the primitive allocates (see
// the benchmarks' floors), and other formats allocate once (their
// allocation tests): the claim is made for HMAC JWTs only.
func TestAllocationsForgedHMAC(t *testing.T) {
	for _, alg := range []signet.Algorithm{signet.HS256, signet.HS384, signet.HS512} {
		k, err := signet.GenerateKeyWithID(alg, "k1")
		if err != nil {
			t.Fatal(err)
		}
		other, err := signet.GenerateKeyWithID(alg, "k2")
		if err != nil {
			t.Fatal(err)
		}
		set, err := signet.NewKeySet(other, k)
		if err != nil {
			t.Fatal(err)
		}
		tok, err := jwt.Sign(k, jwt.Claims{Subject: "u1", Audience: jwt.Audience{"api"}, ExpiresAt: jwt.At(now.Add(time.Hour))})
		if err != nil {
			t.Fatal(err)
		}
		forged := flipSignature(tok)
		p := jwt.Policy{Now: fixed(now), Audience: []string{"api"}}
		for _, keys := range []struct {
			name string
			keys signet.Keys
		}{{"key", k}, {"key set, by kid", set}} {
			if _, err := jwt.Verify[jwt.Claims](keys.keys, forged, p); !errors.Is(err, signet.ErrSignatureInvalid) {
				t.Fatalf("%s %s: forgery: %v, want ErrSignatureInvalid", alg, keys.name, err)
			}
			if got := testing.AllocsPerRun(100, func() { _, _ = jwt.Verify[jwt.Claims](keys.keys, forged, p) }); got != 0 {
				t.Errorf("%s %s: refusing a forgery made %.0f allocations, want 0", alg, keys.name, got)
			}
		}
	}
}

// TestAllocationsCustomClaims pins the counts of a caller's type with a
// plan (claimsjson.Plan): signing allocates the token alone, verifying the
// payload, aud and the caller's one slice.
func TestAllocationsCustomClaims(t *testing.T) {
	type custom struct {
		UserID   uint     `json:"user_id"`
		Username string   `json:"username"`
		Perms    []string `json:"perms,omitempty"`
		jwt.Claims
	}
	k := mustKey(t, signet.HS256)
	c := custom{UserID: 42, Username: "alice", Perms: []string{"read", "write"}, Claims: jwt.Claims{Issuer: "https://issuer.example",
		Audience: jwt.Audience{"api"}, ExpiresAt: jwt.At(now.Add(time.Hour)), IssuedAt: jwt.At(now)}}
	tok, err := jwt.Sign(k, c)
	if err != nil {
		t.Fatal(err)
	}
	p := jwt.Policy{Now: fixed(now), Audience: []string{"api"}}
	if out, err := jwt.Verify[custom](k, tok, p); err != nil || out.Username != "alice" || len(out.Perms) != 2 {
		t.Fatalf("%+v %v", out, err)
	}
	if got := testing.AllocsPerRun(100, func() { _, _ = jwt.Sign(k, c) }); got > 1 {
		t.Errorf("sign: %.0f allocations, want 1", got)
	}
	if got := testing.AllocsPerRun(100, func() { _, _ = jwt.Verify[custom](k, tok, p) }); got > 3 {
		t.Errorf("verify: %.0f allocations, want at most 3", got)
	}
}

// TestAllocationsNestedClaims: a claims type with a nested struct, a
// slice and a map is read in one pass by its plan (claimsjson.Taker), not
// handed to encoding/json: the payload, aud, the nested struct, the slice
// and the map's two allocations.
func TestAllocationsNestedClaims(t *testing.T) {
	type nested struct {
		jwt.Claims
		Data *tokentest.Nested `json:"data"`
	}
	k := mustKey(t, signet.HS256)
	c := nested{Claims: jwt.Claims{Issuer: "https://issuer.example", Audience: jwt.Audience{"api"}, ExpiresAt: jwt.At(now.Add(time.Hour))},
		Data: &tokentest.Nested{Name: "Ada", Roles: []string{"admin", "dev"}, Attrs: map[string]string{"team": "engines"}}}
	tok, err := jwt.Sign(k, c)
	if err != nil {
		t.Fatal(err)
	}
	p := jwt.Policy{Now: fixed(now), Audience: []string{"api"}}
	if out, err := jwt.Verify[nested](k, tok, p); err != nil || out.Data == nil || out.Data.Attrs["team"] != "engines" || len(out.Data.Roles) != 2 {
		t.Fatalf("%+v %v", out, err)
	}
	if got := testing.AllocsPerRun(100, func() { _, _ = jwt.Verify[nested](k, tok, p) }); got > 6 {
		t.Errorf("verify: %.0f allocations, want at most 6", got)
	}
}
