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
// token; decrypting into jwt.Claims two, the plaintext and aud (bytes
// only: one); a forged token one, the buffer its ciphertext is decoded
// into; with or without a kid.
func TestAllocations(t *testing.T) {
	k := mustEncKey(t, signet.Dir, signet.A256GCM, secretOf(32))
	c := jwt.Claims{Issuer: "https://issuer.example", Subject: "user@example.com", Audience: jwt.Audience{"api"},
		ExpiresAt: jwt.At(now.Add(time.Hour)), IssuedAt: jwt.At(now)}
	tok, err := jwe.Encrypt(k, c)
	if err != nil {
		t.Fatal(err)
	}
	forged := withSegment(tok, 4, func(s string) string { return flipBit(s, 0) })
	kk, err := signet.NewEncryptionKeyWithID(signet.Dir, signet.A256GCM, "key-1", secretOf(32))
	if err != nil {
		t.Fatal(err)
	}
	ktok, err := jwe.Encrypt(kk, c)
	if err != nil {
		t.Fatal(err)
	}
	p := jwe.Policy{Now: fixed(now), Audience: []string{"api"}}
	for _, m := range []struct {
		name string
		max  float64
		f    func()
	}{
		{"encrypt", 1, func() { _, _ = jwe.Encrypt(k, c) }},
		{"decrypt", 2, func() { _, _ = jwe.Decrypt[jwt.Claims](k, tok, p) }},
		{"forged", 1, func() { _, _ = jwe.Decrypt[jwt.Claims](k, forged, p) }},
		{"encrypt, key with a kid", 1, func() { _, _ = jwe.Encrypt(kk, c) }},
		{"decrypt, key with a kid", 2, func() { _, _ = jwe.Decrypt[jwt.Claims](kk, ktok, p) }},
		{"decrypt bytes, key with a kid", 1, func() { _, _, _ = jwe.DecryptBytes(kk, ktok, jwe.Policy{}) }},
	} {
		if got := testing.AllocsPerRun(100, m.f); got > m.max {
			t.Errorf("%s: %.0f allocations, want at most %.0f", m.name, got, m.max)
		}
	}
}
