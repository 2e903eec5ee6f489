package claimsjson

import (
	"strings"

	"github.com/signet-go/signet/internal/jsonx"
)

// A small scanner that finds where values end without checking the
// grammar: the plan's reader counts an array's elements with it
// (countElems) before it reads, and validates, them. Every index is
// bounds-checked, so that text that is not JSON gives an error (end < 0)
// or a count the reader then finds wrong, never a panic.

// skipWS returns the index of the first byte at or after i that is not
// JSON white space.
func skipWS(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// longString is where skipString stops looking eight bytes at a time and
// looks for the closing quote with IndexByte.
const longString = 64

// skipString returns the end of the string starting at s[i] == '"' (past
// its closing quote) and whether it holds an escape; -1 when it is not
// closed.
func skipString(s string, i int) (end int, esc bool) {
	if j := jsonx.PlainRun(s[:min(len(s), i+1+longString)], i+1); j < len(s) && s[j] == '"' {
		return j + 1, false // the common short string
	} else if j == i+1+longString {
		// A long string of validated text: without a backslash before
		// it, the next quote closes it (both found with the vector
		// IndexByte).
		if q := strings.IndexByte(s[j:], '"'); q >= 0 && strings.IndexByte(s[j:j+q], '\\') < 0 {
			return j + q + 1, false
		}
	}
	for i++; i < len(s); i++ {
		i = jsonx.PlainRun(s, i) // printable ASCII other than '"' and '\\'
		if i >= len(s) {
			break
		}
		switch s[i] {
		case '"':
			return i + 1, esc
		case '\\':
			esc = true
			i++ // the escaped byte; a \u's hex digits are plain
		}
	}
	return -1, esc
}

// skipValue returns the end of the value starting at s[i], -1 when there
// is none.
func skipValue(s string, i int) int {
	if i >= len(s) {
		return -1
	}
	switch c := s[i]; {
	case c == '"':
		end, _ := skipString(s, i)
		return end
	case c == '{' || c == '[':
		depth := 0
		for ; i < len(s); i++ {
			switch s[i] {
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			case '"':
				e, _ := skipString(s, i)
				if e < 0 {
					return -1
				}
				i = e - 1
			}
		}
		return -1
	case c == '-' || (c >= '0' && c <= '9'):
		j := i + 1
		for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.' || s[j] == 'e' || s[j] == 'E' || s[j] == '+' || s[j] == '-') {
			j++
		}
		return j
	case c == 't' || c == 'f' || c == 'n':
		j := i + 1
		for j < len(s) && s[j] >= 'a' && s[j] <= 'z' {
			j++
		}
		return j
	}
	return -1
}

// countElems counts the elements of the array raw (a prefix of the text
// from its opening bracket on), so that a slice is made once, of their
// number; ok is false on text it cannot read.
func countElems(raw string) (int, bool) {
	i := skipWS(raw, 1)
	if i < len(raw) && raw[i] == ']' {
		return 0, true
	}
	n := 0
	for {
		e := skipValue(raw, i)
		if e < 0 {
			return 0, false
		}
		n++
		i = skipWS(raw, e)
		if i >= len(raw) {
			return 0, false
		}
		if raw[i] == ']' {
			return n, true
		}
		if raw[i] != ',' {
			return 0, false
		}
		i = skipWS(raw, i+1)
	}
}
