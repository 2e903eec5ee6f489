//go:build !race

package signet_test

import (
	"errors"
	"testing"

	"github.com/signet-go/signet"
)

// TestVerifyHMACAllocations pins what the package doc says: Key.Verify of
// an HMAC allocates nothing, whether the MAC matches or not, and Sign
// into a buffer with room allocates nothing either.
func TestVerifyHMACAllocations(t *testing.T) {
	for _, alg := range []signet.Algorithm{signet.HS256, signet.HS384, signet.HS512, signet.HMACSHA256} {
		k, err := signet.GenerateKey(alg)
		if err != nil {
			t.Fatal(err)
		}
		msg := []byte("header.payload")
		sig, err := k.Sign(nil, msg)
		if err != nil {
			t.Fatal(err)
		}
		bad := append([]byte(nil), sig...)
		bad[0] ^= 1
		if err := k.Verify(msg, bad); !errors.Is(err, signet.ErrSignatureInvalid) {
			t.Fatalf("%s: forged MAC: %v, want ErrSignatureInvalid", alg, err)
		}
		buf := make([]byte, 0, 64)
		for _, c := range []struct {
			name string
			f    func()
		}{
			{"verify", func() { _ = k.Verify(msg, sig) }},
			{"verify forged", func() { _ = k.Verify(msg, bad) }},
			{"sign into a buffer", func() { buf, _ = k.Sign(buf[:0], msg) }},
		} {
			if got := testing.AllocsPerRun(100, c.f); got != 0 {
				t.Errorf("%s %s: %.0f allocations, want 0", alg, c.name, got)
			}
		}
	}
}

// TestAllocationsNewKey: a key made from a caller's secret is one
// allocation (the key, its data and a copy of the secret), and the
// caller's []byte needs no box on the heap to be passed as material.
func TestAllocationsNewKey(t *testing.T) {
	secret := make([]byte, 32)
	for i := range secret {
		secret[i] = byte(i)
	}
	if got := testing.AllocsPerRun(100, func() {
		if _, err := signet.NewKey(signet.HS256, secret); err != nil {
			t.Fatal(err)
		}
	}); got != 1 {
		t.Errorf("NewKey(HS256, secret): %.0f allocations, want 1", got)
	}
}
