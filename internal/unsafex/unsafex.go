// Package unsafex holds signet's only zero-copy conversions between
// []byte and string, and its buffers made without clearing them
// (MakeNoZero): the one place where package unsafe is used, besides
// internal/claimsjson's field offsets. Each
// function states the invariant its callers keep; the tests show what
// breaks when they do not.
//
// Go assumes a string never changes: it may be a map key, compared,
// hashed, or shared by substrings. A string made from a []byte without a
// copy keeps that promise only as long as nobody writes to the bytes.
// Likewise a []byte made from a string may point at read-only memory (a
// string literal): writing to it faults, and even when it does not, it
// changes every string sharing the bytes.
package unsafex

import (
	"strings"
	"unsafe"
)

// String returns the bytes of b as a string, without copying them.
//
// Invariant: b is never written again, by anyone, while the string or a
// substring of it is reachable. Callers use it on a buffer they made and
// then hand over or drop (a token just built; a payload just decoded into
// a fresh buffer; a stack buffer read only until the function returns, the
// string not kept past it).
func String(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// Bytes returns the bytes of s as a []byte, without copying them; its
// capacity is its length, so an append copies instead of writing past s.
//
// Invariant: the slice is only read, never written (s may be in read-only
// memory, and other strings may share its bytes), and it is not kept past
// the call it is made for (it is an argument to a MAC or a signature
// check, say).
func Bytes(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// MakeNoZero returns a []byte of length 0 and capacity at least n whose
// memory is not zeroed first, as strings.Builder and bytes.Buffer get
// theirs: for a large buffer that is written whole anyway (a token, a
// decoded segment, a payload), the clearing costs as much as a pass over
// it. The memory is that of a new allocation of its own, reachable only
// through the slice.
//
// Invariant: no byte of it is read before it is written. Callers append
// to it, or decode or encode into all of it and drop it on an error.
func MakeNoZero(n int) []byte {
	if n < 512 {
		return make([]byte, 0, n) // small: the clearing costs nothing
	}
	var sb strings.Builder
	sb.Grow(n)
	sb.WriteByte(0) // String then has the buffer's address
	s := sb.String()
	return unsafe.Slice(unsafe.StringData(s), sb.Cap())[:0]
}
