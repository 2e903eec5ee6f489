package signet_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"testing"

	"github.com/signet-go/signet"
)

// weakEd25519 lists Ed25519 public key encodings signet refuses when a key
// is made: the eight points of small order (five y values, each x sign
// where x ≠ 0 allows both) and non-canonical encodings (y ≥ 2^255 - 19,
// among them the second encodings of y = 0 and y = 1, and x = -0).
func weakEd25519(t testing.TB) map[string][]byte {
	t.Helper()
	h := func(s string) []byte {
		b, err := hex.DecodeString(s)
		if err != nil || len(b) != 32 {
			t.Fatalf("bad hex %q", s)
		}
		return b
	}
	signed := func(b []byte) []byte {
		c := append([]byte(nil), b...)
		c[31] |= 0x80
		return c
	}
	zero := make([]byte, 32)
	identity := append([]byte{1}, make([]byte, 31)...)
	minusOne := h("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")
	order8a := h("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
	order8b := h("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")
	return map[string][]byte{
		"identity (order 1)":          identity,
		"identity, x = -0":            signed(identity),
		"y = -1 (order 2)":            minusOne,
		"y = -1, x = -0":              signed(minusOne),
		"y = 0 (order 4)":             zero,
		"y = 0, negative x (order 4)": signed(zero),
		"order 8, first y":            order8a,
		"order 8, first y, -x":        signed(order8a),
		"order 8, second y":           order8b,
		"order 8, second y, -x":       signed(order8b),
		"y = p (non-canonical 0)":     h("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
		"y = p + 1 (non-canonical 1)": h("eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
		"y = 2^255 - 1":               h("ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
		"y = 2^255 - 1, -x":           h("ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"),
	}
}

// TestEd25519SmallOrderKeys: under a small-order public key one fixed
// signature verifies every message (crypto/ed25519 does not check the
// key), so signet refuses such keys, and non-canonical encodings, when
// they are made from any encoding (NewKey, PEM; JWK and PASERK in their
// packages), with ErrWeakKey (issue 14, item 10).
func TestEd25519SmallOrderKeys(t *testing.T) {
	// The attack, against the primitive: the identity as public key, and
	// R = identity, S = 0 as the signature.
	identity := append([]byte{1}, make([]byte, 31)...)
	forgery := append(append([]byte(nil), identity...), make([]byte, 32)...)
	for i := range 64 {
		msg := fmt.Appendf(nil, "message %d", i)
		if !ed25519.Verify(identity, msg, forgery) {
			t.Fatalf("crypto/ed25519 refused the identity forgery for %q: the premise of this check changed", msg)
		}
	}

	for name, pk := range weakEd25519(t) {
		for _, alg := range []signet.Algorithm{signet.EdDSA, signet.V4Public, signet.Ed25519} {
			k, err := signet.NewKey(alg, ed25519.PublicKey(pk))
			if !errors.Is(err, signet.ErrWeakKey) {
				t.Errorf("%s: NewKey(%s): key %v, error %v, want ErrWeakKey", name, alg, k != nil, err)
			}
		}
		der, err := x509.MarshalPKIXPublicKey(ed25519.PublicKey(pk))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := signet.ParsePEM(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), ""); !errors.Is(err, signet.ErrWeakKey) {
			t.Errorf("%s: ParsePEM: %v, want ErrWeakKey", name, err)
		}
	}

	// Genuine keys are not refused, whatever the sign of x.
	for range 64 {
		pub, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		k, err := signet.NewKey(signet.EdDSA, pub)
		if err != nil {
			t.Fatalf("%x: %v", []byte(pub), err)
		}
		sig := ed25519.Sign(priv, []byte("m"))
		if err := k.Verify([]byte("m"), sig); err != nil {
			t.Fatal(err)
		}
	}
}
