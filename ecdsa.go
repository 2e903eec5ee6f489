package signet

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha512"
	"math/big"
)

func sha256Sum(b []byte) [32]byte { return sha256.Sum256(b) }
func sha384Sum(b []byte) [48]byte { return sha512.Sum384(b) }
func sha512Sum(b []byte) [64]byte { return sha512.Sum512(b) }

// scalarInRange reports whether the big-endian integer b is in [1, n-1],
// n the curve order: r and s outside it (the "psychic signature" r = s = 0
// among them) are rejected before any arithmetic.
func scalarInRange(b []byte, sp *spec) bool {
	zero := true
	for _, c := range b {
		if c != 0 {
			zero = false
			break
		}
	}
	if zero {
		return false
	}
	return bytes.Compare(b, sp.order) < 0
}

// lowS replaces s (big-endian, in place) with n - s when s > n/2.
func lowS(s []byte, sp *spec) {
	n := sp.curve.Params().N
	v := new(big.Int).SetBytes(s)
	if v.Cmp(new(big.Int).Rsh(n, 1)) > 0 {
		v.Sub(n, v).FillBytes(s)
	}
}

// derToRaw appends the fixed-size r‖s form of an ASN.1 DER ECDSA signature
// (SEQUENCE of two INTEGERs), each left-padded to size bytes.
func derToRaw(dst, der []byte, size int) ([]byte, bool) {
	seq, rest, ok := derElement(der, 0x30)
	if !ok || len(rest) != 0 {
		return dst, false
	}
	r, seq, ok := derElement(seq, 0x02)
	if !ok {
		return dst, false
	}
	s, seq, ok := derElement(seq, 0x02)
	if !ok || len(seq) != 0 {
		return dst, false
	}
	for _, v := range [2][]byte{r, s} {
		for len(v) > 0 && v[0] == 0 {
			v = v[1:]
		}
		if len(v) > size {
			return dst, false
		}
		for i := len(v); i < size; i++ {
			dst = append(dst, 0)
		}
		dst = append(dst, v...)
	}
	return dst, true
}

// derElement splits one DER element with the given tag off b.
func derElement(b []byte, tag byte) (body, rest []byte, ok bool) {
	if len(b) < 2 || b[0] != tag {
		return nil, nil, false
	}
	n := int(b[1])
	b = b[2:]
	if n&0x80 != 0 {
		if n != 0x81 || len(b) < 1 || b[0] < 0x80 {
			return nil, nil, false
		}
		n = int(b[0])
		b = b[1:]
	}
	if len(b) < n {
		return nil, nil, false
	}
	return b[:n], b[n:], true
}

// rawToDER appends the DER encoding of the signature (r, s), both big-endian
// and at most 127 bytes.
func rawToDER(dst, r, s []byte) []byte {
	r, s = trimInt(r), trimInt(s)
	lr, ls := derIntLen(r), derIntLen(s)
	body := 2 + lr + 2 + ls
	dst = append(dst, 0x30)
	if body >= 0x80 {
		dst = append(dst, 0x81)
	}
	dst = append(dst, byte(body))
	dst = appendDERInt(dst, r, lr)
	return appendDERInt(dst, s, ls)
}

func trimInt(b []byte) []byte {
	for len(b) > 1 && b[0] == 0 {
		b = b[1:]
	}
	return b
}

func derIntLen(b []byte) int {
	if b[0]&0x80 != 0 {
		return len(b) + 1
	}
	return len(b)
}

func appendDERInt(dst, b []byte, l int) []byte {
	dst = append(dst, 0x02, byte(l))
	if l > len(b) {
		dst = append(dst, 0)
	}
	return append(dst, b...)
}
