package paserk

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"testing"

	"github.com/signet-go/signet"
)

// TestEdwardsToMontgomery checks the public-key map against the private
// one (which the k4.seal vectors check): for random Ed25519 keys, the
// X25519 public key of the converted private key is the converted public key.
func TestEdwardsToMontgomery(t *testing.T) {
	for range 200 {
		pub, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		xsk, err := x25519FromEd25519(priv)
		if err != nil {
			t.Fatal(err)
		}
		xpk, err := edwardsToMontgomery(pub)
		if err != nil {
			t.Fatalf("%x: %v", pub, err)
		}
		if want := xsk.PublicKey().Bytes(); !bytes.Equal(xpk, want) {
			t.Fatalf("%x maps to %x, want %x", pub, xpk, want)
		}
	}
}

func TestEdwardsToMontgomeryRefuses(t *testing.T) {
	le := func(b ...byte) []byte { return append(b, make([]byte, 32-len(b))...) }
	p := le(0xed) // p = 2^255 - 19: 0xed, 0xff…, 0x7f
	for i := 1; i < 31; i++ {
		p[i] = 0xff
	}
	p[31] = 0x7f
	negZero := bytes.Clone(p) // y = p - 1 = -1 has x = 0; with the sign bit, x = -0
	negZero[0] = 0xec
	negZero[31] |= 0x80
	minusOne := bytes.Clone(negZero)
	minusOne[31] &= 0x7f
	if _, err := edwardsToMontgomery(minusOne); err != nil {
		t.Fatalf("y = -1 (a point of order 2) refused: %v", err)
	}
	notOnCurve := le(2) // y = 2: x² = 3/(4d+1) is not a square
	for name, pk := range map[string][]byte{
		"y = p":    p,
		"identity": le(1),
		"x = -0":   negZero,
		"no x":     notOnCurve,
		"short":    make([]byte, 31),
	} {
		if _, err := edwardsToMontgomery(pk); !errors.Is(err, signet.ErrWeakKey) {
			t.Errorf("%s: error %v, want ErrWeakKey", name, err)
		}
	}
}
