package signet

import (
	"crypto/ed25519"
	"fmt"
)

// Ed25519 public keys are checked when a key is made from one, in every
// encoding (NewKey, PEM, JWK, PASERK), because crypto/ed25519 does not:
//
//   - A point of small order (order 1, 2, 4 or 8) makes a key under which
//     signatures prove nothing. Verification checks [S]B = R + [k]A, with k
//     a hash of the message; for the identity A = (0, 1), [k]A vanishes for
//     every k, so the one signature R = identity, S = 0 verifies every
//     message, and for the other small-order points a fixed signature
//     verifies one message in 2, 4 or 8.
//   - A non-canonical encoding (a y coordinate of p = 2^255 - 19 or more)
//     names a point that has another, canonical encoding: two keys that
//     differ as bytes would be the same key, and RFC 8032 §5.1.3 refuses
//     it.
//
// Both are refused with ErrWeakKey. Encodings that are no point of the
// curve at all are not refused here: crypto/ed25519 verifies nothing with
// them, and the PASERK test vectors use such bytes as public keys.

// smallOrderY are the y coordinates of the eight points of small order,
// little-endian as Ed25519 encodes them (without the sign bit of x): 1 (the
// identity), p-1 (order 2), 0 (the two points of order 4) and the two
// values shared by the four points of order 8, the roots of
// d·y⁴ + 2y² - 1 = 0. TestSmallOrderTable derives them.
var smallOrderY = [...][ed25519.PublicKeySize]byte{
	{0x01},
	{0xec, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
	{},
	{0xc7, 0x17, 0x6a, 0x70, 0x3d, 0x4d, 0xd8, 0x4f, 0xba, 0x3c, 0x0b, 0x76, 0x0d, 0x10, 0x67, 0x0f,
		0x2a, 0x20, 0x53, 0xfa, 0x2c, 0x39, 0xcc, 0xc6, 0x4e, 0xc7, 0xfd, 0x77, 0x92, 0xac, 0x03, 0x7a},
	{0x26, 0xe8, 0x95, 0x8f, 0xc2, 0xb2, 0x27, 0xb0, 0x45, 0xc3, 0xf4, 0x89, 0xf2, 0xef, 0x98, 0xf0,
		0xd5, 0xdf, 0xac, 0x05, 0xd3, 0xc6, 0x33, 0x39, 0xb1, 0x38, 0x02, 0x88, 0x6d, 0x53, 0xfc, 0x05},
}

// fieldPrime is p = 2^255 - 19, little-endian.
var fieldPrime = [ed25519.PublicKeySize]byte{
	0xed, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f,
}

// checkEd25519Public refuses a non-canonical or small-order Ed25519 public
// key (32 bytes) with ErrWeakKey. The key is public: the comparisons need
// not be constant-time.
func checkEd25519Public(pk []byte) error {
	var y [ed25519.PublicKeySize]byte
	copy(y[:], pk)
	y[31] &= 0x7f // the sign of x
	if !lessLE(y, fieldPrime) {
		return fmt.Errorf("%w: Ed25519 public key is not canonically encoded (y ≥ 2^255 - 19)", ErrWeakKey)
	}
	for _, s := range smallOrderY {
		if y == s {
			return fmt.Errorf("%w: Ed25519 public key is a point of small order: one signature would verify many messages", ErrWeakKey)
		}
	}
	return nil
}

// lessLE reports whether a < b, both little-endian.
func lessLE(a, b [ed25519.PublicKeySize]byte) bool {
	for i := len(a) - 1; i >= 0; i-- {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}
