package signet

import (
	"crypto/ecdh"
	"crypto/ed25519"
	"crypto/rand"
	"math/big"
	"testing"
)

// edField returns p = 2^255 - 19 and the curve constant d = -121665/121666.
func edField() (p, d *big.Int) {
	p = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 255), big.NewInt(19))
	d = new(big.Int).ModInverse(big.NewInt(121666), p)
	d.Mul(d, big.NewInt(-121665)).Mod(d, p)
	return p, d
}

// le32 encodes x (< 2^255) little-endian, as Ed25519 encodes y.
func le32(x *big.Int) [32]byte {
	var out [32]byte
	b := x.FillBytes(make([]byte, 32))
	for i := range out {
		out[i] = b[31-i]
	}
	return out
}

// TestSmallOrderTable derives smallOrderY: the identity (y = 1), the
// point of order 2 (y = -1), the two points of order 4 (y = 0) and the
// four of order 8, whose double is of order 4 (y = 0). For a = -1, the
// double of (x, y) has y' = (x² + y²)/(2 - y² + x²), so y' = 0 means
// x² = -y², and the curve equation -x² + y² = 1 + d·x²·y² becomes
// d·y⁴ + 2y² - 1 = 0. The order-8 values are also checked on the
// Montgomery form: X25519 of them, with any scalar, is the all-zero
// output crypto/ecdh refuses as a low-order point.
func TestSmallOrderTable(t *testing.T) {
	p, d := edField()
	want := map[[32]byte]bool{
		le32(big.NewInt(1)):                      true,
		le32(new(big.Int).Sub(p, big.NewInt(1))): true,
		le32(big.NewInt(0)):                      true,
	}
	// y² = (-1 ± √(1+d)) / d; only one sign gives a square.
	root := new(big.Int).ModSqrt(new(big.Int).Add(d, big.NewInt(1)), p)
	if root == nil {
		t.Fatal("1 + d has no square root")
	}
	dInv := new(big.Int).ModInverse(d, p)
	var order8 []*big.Int
	for _, r := range []*big.Int{root, new(big.Int).Sub(p, root)} {
		y2 := new(big.Int).Sub(r, big.NewInt(1))
		y2.Mul(y2, dInv).Mod(y2, p)
		if y := new(big.Int).ModSqrt(y2, p); y != nil {
			order8 = append(order8, y, new(big.Int).Sub(p, y))
		}
	}
	if len(order8) != 2 {
		t.Fatalf("%d order-8 y values, want 2", len(order8))
	}
	for _, y := range order8 {
		want[le32(y)] = true
		// d·y⁴ + 2y² - 1 = 0.
		y2 := new(big.Int).Mul(y, y)
		v := new(big.Int).Mul(d, new(big.Int).Mul(y2, y2))
		v.Add(v, new(big.Int).Lsh(y2, 1)).Sub(v, big.NewInt(1)).Mod(v, p)
		if v.Sign() != 0 {
			t.Fatalf("y = %x is not a root", y)
		}
	}
	got := make(map[[32]byte]bool)
	for _, y := range smallOrderY {
		got[y] = true
	}
	if len(got) != len(smallOrderY) || len(got) != len(want) {
		t.Fatalf("table has %d distinct values, want %d", len(got), len(want))
	}
	for y := range want {
		if !got[y] {
			t.Fatalf("y = %x missing from smallOrderY", y)
		}
	}

	// On the Montgomery curve, u = (1 + y)/(1 - y): every table value but
	// the identity is a low-order u, and a generated key's is not.
	montgomery := func(y *big.Int) []byte {
		u := new(big.Int).Sub(big.NewInt(1), y)
		u.Mod(u, p).ModInverse(u, p)
		u.Mul(u, new(big.Int).Add(big.NewInt(1), y)).Mod(u, p)
		b := le32(u)
		return b[:]
	}
	lowOrder := func(u []byte) bool {
		pub, err := ecdh.X25519().NewPublicKey(u)
		if err != nil {
			t.Fatal(err)
		}
		priv, err := ecdh.X25519().GenerateKey(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		_, err = priv.ECDH(pub)
		return err != nil
	}
	for _, y := range append(order8, big.NewInt(0), new(big.Int).Sub(p, big.NewInt(1))) {
		if !lowOrder(montgomery(y)) {
			t.Fatalf("y = %x is not of low order on the Montgomery curve", y)
		}
	}
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	var yb [32]byte
	copy(yb[:], pub)
	yb[31] &= 0x7f
	for i, j := 0, 31; i < j; i, j = i+1, j-1 {
		yb[i], yb[j] = yb[j], yb[i]
	}
	if lowOrder(montgomery(new(big.Int).SetBytes(yb[:]))) {
		t.Fatal("a generated key is of low order")
	}
	if le32(p) != fieldPrime {
		t.Fatal("fieldPrime is not 2^255 - 19")
	}
}
