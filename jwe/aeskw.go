package jwe

import (
	"crypto/cipher"
	"crypto/subtle"
	"encoding/binary"
)

// AES Key Wrap (RFC 3394 §2.2.1, the default IV), as RFC 7518 §4.4 uses
// it: a key of n 64-bit blocks becomes n+1 blocks.

var kwIV = [8]byte{0xA6, 0xA6, 0xA6, 0xA6, 0xA6, 0xA6, 0xA6, 0xA6}

// kwWrap appends the wrap of key (a multiple of 8 bytes, at least 16) under
// the block cipher kek to dst. buf is scratch of 16 bytes on the heap
// (block ciphers are interfaces: a stack array would escape anyway).
func kwWrap(dst []byte, kek cipher.Block, key []byte) []byte {
	n := len(key) / 8
	start := len(dst)
	dst = append(dst, kwIV[:]...)
	dst = append(dst, key...)
	out := dst[start:]
	b := make([]byte, 16)
	for j := 0; j < 6; j++ {
		for i := 1; i <= n; i++ {
			copy(b[:8], out[:8])
			copy(b[8:], out[8*i:8*i+8])
			kek.Encrypt(b, b)
			t := uint64(n*j + i)
			binary.BigEndian.PutUint64(out[:8], binary.BigEndian.Uint64(b[:8])^t)
			copy(out[8*i:8*i+8], b[8:])
		}
	}
	return dst
}

// kwUnwrap unwraps wrapped (n+1 blocks) into dst (n blocks, at least 2);
// ok is false when the integrity check fails. The check is in constant
// time; on failure dst holds nothing of use.
func kwUnwrap(dst []byte, kek cipher.Block, wrapped []byte) ([]byte, bool) {
	if len(wrapped)%8 != 0 || len(wrapped) < 24 {
		return dst, false
	}
	n := len(wrapped)/8 - 1
	start := len(dst)
	dst = append(dst, wrapped[8:]...)
	r := dst[start:]
	b := make([]byte, 16)
	a := binary.BigEndian.Uint64(wrapped[:8])
	for j := 5; j >= 0; j-- {
		for i := n; i >= 1; i-- {
			t := uint64(n*j + i)
			binary.BigEndian.PutUint64(b[:8], a^t)
			copy(b[8:], r[8*(i-1):8*i])
			kek.Decrypt(b, b)
			a = binary.BigEndian.Uint64(b[:8])
			copy(r[8*(i-1):8*i], b[8:])
		}
	}
	var got [8]byte
	binary.BigEndian.PutUint64(got[:], a)
	if subtle.ConstantTimeCompare(got[:], kwIV[:]) != 1 {
		clear(r)
		return dst[:start], false
	}
	return dst, true
}
