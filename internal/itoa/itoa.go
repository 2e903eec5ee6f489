// Package itoa writes integers in decimal, as strconv.AppendInt(dst, v, 10)
// does, faster for the ten-digit numbers that fill tokens: Unix times in
// seconds from 2001 to 2286 (JWT's exp, iat and nbf; RFC 9421's created
// and expires).
package itoa

import (
	"encoding/binary"
	"strconv"
)

// Append appends the decimal form of v to dst.
func Append(dst []byte, v int64) []byte {
	if v < 1e9 || v >= 1e10 {
		return strconv.AppendInt(dst, v, 10)
	}
	hi, lo := uint64(v)/1e8, uint64(v)%1e8 // hi: 10…99
	dst = append(dst, byte('0'+hi/10), byte('0'+hi%10))
	return binary.LittleEndian.AppendUint64(dst, digits8(lo))
}

// digits8 returns the eight ASCII digits of v < 10⁸, the first in the
// lowest byte. The divisions run on all lanes of one word at once: v as
// two four-digit halves in 32-bit lanes, each split into two-digit ones
// in 16-bit lanes, each into digits in bytes; the multiplications by
// 10486/2²⁰ and 103/2¹⁰ are exact divisions by 100 and 10 for lanes below
// 10⁴ and 10², and no lane's product reaches the next lane.
func digits8(v uint64) uint64 {
	x := v/1e4 | (v%1e4)<<32
	q := (x * 10486 >> 20) & 0x0000007f_0000007f
	x = q | (x-q*100)<<16
	q = (x * 103 >> 10) & 0x000f_000f_000f_000f
	x = q | (x-q*10)<<8
	return x + 0x3030_3030_3030_3030
}
