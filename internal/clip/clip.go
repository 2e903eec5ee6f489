// Package clip bounds text from input (a kid, a claim, a header value)
// quoted in error messages: at most 64 bytes, cut on a rune boundary, and
// always a copy, so that an error never keeps alive or exposes a view of a
// caller's buffer.
package clip

import (
	"strings"
	"unicode/utf8"
)

// Max is the most bytes of input an error quotes.
const Max = 64

// String returns s, or its first Max bytes followed by "…", as a copy.
func String(s string) string {
	if len(s) <= Max {
		return strings.Clone(s)
	}
	cut := Max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strings.Clone(s[:cut]) + "…"
}
