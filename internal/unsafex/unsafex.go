// Package unsafex holds signet's only zero-copy conversions between
// []byte and string: the one place where package unsafe is used. Each
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

import "unsafe"

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
