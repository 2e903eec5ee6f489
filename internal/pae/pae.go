// Package pae is PASETO's pre-authentication encoding (PAE, PASETO
// Common.md): LE64(number of pieces), then for each piece LE64(length)
// followed by the piece, LE64 being a little-endian 64-bit integer with the
// top bit cleared. The encoding is unambiguous, so no two lists of pieces
// authenticate as the same bytes. It is only ever written, never parsed.
package pae

import "encoding/binary"

// Len is the length of the encoding of pieces of the given lengths.
func Len(lengths ...int) int {
	n := 8
	for _, l := range lengths {
		n += 8 + l
	}
	return n
}

// Append appends PAE(pieces...) to dst.
func Append(dst []byte, pieces ...[]byte) []byte {
	dst = binary.LittleEndian.AppendUint64(dst, uint64(len(pieces))&(1<<63-1))
	for _, p := range pieces {
		dst = binary.LittleEndian.AppendUint64(dst, uint64(len(p))&(1<<63-1))
		dst = append(dst, p...)
	}
	return dst
}
