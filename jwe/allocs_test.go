//go:build !race

package jwe_test

import (
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwe"
	"github.com/signet-go/signet/jwt"
)

// TestAllocations pins the allocation counts of the dir hot path (they are
// exact, unlike times): encrypting claims makes one allocation, the
// token; decrypting into jwt.Claims two, the plaintext and aud; a forged
// token one, the buffer its ciphertext is decoded into.
func TestAllocations(t *testing.T) {
	k := mustEncKey(t, signet.Dir, signet.A256GCM, secretOf(32))
	c := jwt.Claims{Issuer: "https://issuer.example", Subject: "user@example.com", Audience: jwt.Audience{"api"},
		ExpiresAt: jwt.At(now.Add(time.Hour)), IssuedAt: jwt.At(now)}
	tok, err := jwe.Encrypt(k, c)
	if err != nil {
		t.Fatal(err)
	}
	forged := withSegment(tok, 4, func(s string) string { return flipBit(s, 0) })
	p := jwe.Policy{Now: fixed(now), Audience: []string{"api"}}
	for _, m := range []struct {
		name string
		max  float64
		f    func()
	}{
		{"encrypt", 1, func() { _, _ = jwe.Encrypt(k, c) }},
		{"decrypt", 2, func() { _, _ = jwe.Decrypt[jwt.Claims](k, tok, p) }},
		{"forged", 1, func() { _, _ = jwe.Decrypt[jwt.Claims](k, forged, p) }},
	} {
		if got := testing.AllocsPerRun(100, m.f); got > m.max {
			t.Errorf("%s: %.0f allocations, want at most %.0f", m.name, got, m.max)
		}
	}
}
