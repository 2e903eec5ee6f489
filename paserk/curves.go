package paserk

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"fmt"
	"math/big"

	"github.com/signet-go/signet"
)

// compressP384 returns the SEC 1 compressed encoding of pub (49 bytes:
// 0x02 or 0x03 for the parity of y, then x), the k3.public encoding.
func compressP384(pub *ecdsa.PublicKey) ([]byte, error) {
	u, err := pub.Bytes() // 0x04 ‖ x ‖ y, validated
	out := compressPoint(u)
	if err != nil || out == nil {
		return nil, fmt.Errorf("%w: paserk: invalid P-384 public key", signet.ErrWeakKey)
	}
	return out, nil
}

// compressPoint returns the compressed form of an uncompressed P-384 point
// u (0x04 ‖ x ‖ y), or nil if u is not 97 bytes.
func compressPoint(u []byte) []byte {
	if len(u) != 97 || u[0] != 4 {
		return nil
	}
	out := make([]byte, 49)
	out[0] = 2 | u[96]&1
	copy(out[1:], u[1:49])
	return out
}

// decompressP384 reads a compressed P-384 point, refusing one that is not
// on the curve (or not in compressed form) with ErrWeakKey.
func decompressP384(c []byte) (*ecdsa.PublicKey, error) {
	x, y := elliptic.UnmarshalCompressed(elliptic.P384(), c)
	if x == nil {
		return nil, fmt.Errorf("%w: paserk: not a compressed P-384 point on the curve", signet.ErrWeakKey)
	}
	u := make([]byte, 97)
	u[0] = 4
	x.FillBytes(u[1:49])
	y.FillBytes(u[49:])
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P384(), u)
	if err != nil {
		return nil, fmt.Errorf("%w: paserk: invalid P-384 point", signet.ErrWeakKey)
	}
	return pub, nil
}

// Curve25519 constants for the Edwards-to-Montgomery map: the field prime
// p = 2^255 - 19 and the twisted Edwards constant d = -121665/121666.
var (
	fieldP = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 255), big.NewInt(19))
	edD    = func() *big.Int {
		d := new(big.Int).ModInverse(big.NewInt(121666), fieldP)
		d.Mul(d, big.NewInt(-121665))
		return d.Mod(d, fieldP)
	}()
)

// edwardsToMontgomery maps an Ed25519 public key to the X25519 public key
// of the birationally equivalent point, u = (1 + y) / (1 - y), as libsodium's
// crypto_sign_ed25519_pk_to_curve25519 does. It refuses, with ErrWeakKey, an
// encoding that is not a point of the curve (non-canonical y, no square
// root for x, a negative zero x) and the identity (y = 1), which has no
// Montgomery image. The key is public, so variable-time arithmetic is fine.
func edwardsToMontgomery(pk []byte) ([]byte, error) {
	bad := fmt.Errorf("%w: paserk: not an Ed25519 public key point", signet.ErrWeakKey)
	if len(pk) != 32 {
		return nil, bad
	}
	le := make([]byte, 32)
	for i := range le {
		le[i] = pk[31-i] // big-endian for math/big
	}
	sign := le[0] >> 7
	le[0] &= 0x7F
	y := new(big.Int).SetBytes(le)
	if y.Cmp(fieldP) >= 0 {
		return nil, bad
	}
	// x² = (y² - 1) / (d·y² + 1) must have a square root.
	y2 := new(big.Int).Mul(y, y)
	y2.Mod(y2, fieldP)
	num := new(big.Int).Sub(y2, big.NewInt(1))
	den := new(big.Int).Mul(edD, y2)
	den.Add(den, big.NewInt(1)).Mod(den, fieldP)
	inv := new(big.Int).ModInverse(den, fieldP)
	if inv == nil {
		return nil, bad
	}
	x2 := num.Mul(num, inv)
	x2.Mod(x2, fieldP)
	if x2.Sign() == 0 {
		if sign == 1 {
			return nil, bad // x = 0 has no negative encoding
		}
	} else if new(big.Int).ModSqrt(x2, fieldP) == nil {
		return nil, bad
	}
	oneMinus := new(big.Int).Sub(big.NewInt(1), y)
	oneMinus.Mod(oneMinus, fieldP)
	inv = new(big.Int).ModInverse(oneMinus, fieldP)
	if inv == nil {
		return nil, bad // y = 1: the identity
	}
	u := new(big.Int).Add(big.NewInt(1), y)
	u.Mul(u, inv).Mod(u, fieldP)
	out := u.FillBytes(make([]byte, 32))
	for i, j := 0, 31; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i] // little-endian, as X25519 wants
	}
	return out, nil
}
