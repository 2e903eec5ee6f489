//go:build !race

package paseto_test

import (
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/tokentest"
	"github.com/signet-go/signet/paseto"
)

// TestAllocations pins v4.local at one allocation per operation: the token,
// or the decoded buffer that the claims' strings share (the MAC's BLAKE2b
// digest is re-keyed in place, see rekey.go).
func TestAllocations(t *testing.T) {
	k := key(t, signet.V4Local)
	c := paseto.Claims{Issuer: "i", Subject: "s", Audience: "a", ExpiresAt: now.Add(time.Hour), IssuedAt: now}
	o := paseto.Options{Now: fixed(now)}
	tok, err := paseto.Encrypt(k, c, o)
	if err != nil {
		t.Fatal(err)
	}
	p := paseto.Policy{Now: fixed(now), Audience: []string{"a"}}
	if got := testing.AllocsPerRun(100, func() { _, _ = paseto.Encrypt(k, c, o) }); got > 1 {
		t.Errorf("encrypt: %.0f allocations", got)
	}
	if got := testing.AllocsPerRun(100, func() { _, _ = paseto.Decrypt[paseto.Claims](k, tok, p) }); got > 1 {
		t.Errorf("decrypt: %.0f allocations", got)
	}
}

// TestAllocationsCustomClaims pins the counts of a caller's type with a
// plan (claimsjson.Plan): encrypting allocates the token alone,
// decrypting the buffer and the caller's one slice.
func TestAllocationsCustomClaims(t *testing.T) {
	type custom struct {
		UserID   uint     `json:"user_id"`
		Username string   `json:"username"`
		Perms    []string `json:"perms,omitempty"`
		paseto.Claims
	}
	k := key(t, signet.V4Local)
	c := custom{UserID: 42, Username: "alice", Perms: []string{"read", "write"},
		Claims: paseto.Claims{Issuer: "i", Audience: "a", ExpiresAt: now.Add(time.Hour), IssuedAt: now}}
	o := paseto.Options{Now: fixed(now)}
	tok, err := paseto.Encrypt(k, c, o)
	if err != nil {
		t.Fatal(err)
	}
	p := paseto.Policy{Now: fixed(now), Audience: []string{"a"}}
	if out, err := paseto.Decrypt[custom](k, tok, p); err != nil || out.Username != "alice" || len(out.Perms) != 2 {
		t.Fatalf("%+v %v", out, err)
	}
	if got := testing.AllocsPerRun(100, func() { _, _ = paseto.Encrypt(k, c, o) }); got > 1 {
		t.Errorf("encrypt: %.0f allocations, want 1", got)
	}
	if got := testing.AllocsPerRun(100, func() { _, _ = paseto.Decrypt[custom](k, tok, p) }); got > 2 {
		t.Errorf("decrypt: %.0f allocations, want at most 2", got)
	}
}

// TestAllocationsNestedClaims: a claims type with a nested struct, a
// slice and a map is read in one pass by its plan (claimsjson.Taker), not
// handed to encoding/json: the buffer, the nested struct, the slice and
// the map's two allocations. Encrypting it allocates the token alone.
func TestAllocationsNestedClaims(t *testing.T) {
	type nested struct {
		paseto.Claims
		Data *tokentest.Nested `json:"data"`
	}
	k := key(t, signet.V4Local)
	c := nested{Claims: paseto.Claims{Issuer: "i", Audience: "a", ExpiresAt: now.Add(time.Hour), IssuedAt: now},
		Data: &tokentest.Nested{Name: "Ada", Roles: []string{"admin", "dev"}, Attrs: map[string]string{"team": "engines"}}}
	o := paseto.Options{Now: fixed(now)}
	tok, err := paseto.Encrypt(k, c, o)
	if err != nil {
		t.Fatal(err)
	}
	p := paseto.Policy{Now: fixed(now), Audience: []string{"a"}}
	if out, err := paseto.Decrypt[nested](k, tok, p); err != nil || out.Data == nil || out.Data.Attrs["team"] != "engines" || len(out.Data.Roles) != 2 {
		t.Fatalf("%+v %v", out, err)
	}
	if got := testing.AllocsPerRun(100, func() { _, _ = paseto.Encrypt(k, c, o) }); got > 1 {
		t.Errorf("encrypt: %.0f allocations, want 1", got)
	}
	if got := testing.AllocsPerRun(100, func() { _, _ = paseto.Decrypt[nested](k, tok, p) }); got > 5 {
		t.Errorf("decrypt: %.0f allocations, want at most 5", got)
	}
}
