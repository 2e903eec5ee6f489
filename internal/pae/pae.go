// Package pae is PASETO's pre-authentication encoding (PAE, PASETO
// Common.md): LE64(number of pieces), then for each piece LE64(length)
// followed by the piece, LE64 being a little-endian 64-bit integer with the
// top bit cleared. The encoding is unambiguous, so no two lists of pieces
// authenticate as the same bytes. It is only ever written, never parsed.
package pae

import (
	"encoding/binary"
	"io"
)

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

// direct is the size from which Write hands a piece to the hash as it is
// rather than copying it into the buffer.
const direct = 512

// Write feeds PAE(pieces) to h, a hash, without making the encoding in
// one buffer: the count, the lengths and the small pieces are gathered in
// buf, a large piece is written as it is. It returns buf for reuse. The
// bytes h sees are Append's.
func Write(h io.Writer, buf []byte, pieces ...[]byte) []byte {
	buf = binary.LittleEndian.AppendUint64(buf[:0], uint64(len(pieces))&(1<<63-1))
	for _, p := range pieces {
		buf = binary.LittleEndian.AppendUint64(buf, uint64(len(p))&(1<<63-1))
		if len(p) < direct {
			buf = append(buf, p...)
			continue
		}
		h.Write(buf)
		h.Write(p)
		buf = buf[:0]
	}
	h.Write(buf)
	return buf
}
