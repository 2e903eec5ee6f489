package claimsjson

import (
	"strings"

	"github.com/signet-go/signet/internal/jsonx"
)

// A small scanner for text that jsonx has already validated: it finds
// where values end and does not check the grammar again. Every index is
// bounds-checked all the same, so that text it was not meant for gives an
// error (end < 0), never a panic.

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
// is none; obj says the value is or holds an object (whose member names
// the fold rule concerns).
func skipValue(s string, i int) (end int, obj bool) {
	if i >= len(s) {
		return -1, false
	}
	switch c := s[i]; {
	case c == '"':
		end, _ = skipString(s, i)
		return end, false
	case c == '{' || c == '[':
		depth := 0
		for ; i < len(s); i++ {
			switch s[i] {
			case '{':
				obj = true
				depth++
			case '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, obj
				}
			case '"':
				e, _ := skipString(s, i)
				if e < 0 {
					return -1, obj
				}
				i = e - 1
			}
		}
		return -1, obj
	case c == '-' || (c >= '0' && c <= '9'):
		j := i + 1
		for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.' || s[j] == 'e' || s[j] == 'E' || s[j] == '+' || s[j] == '-') {
			j++
		}
		return j, false
	case c == 't' || c == 'f' || c == 'n':
		j := i + 1
		for j < len(s) && s[j] >= 'a' && s[j] <= 'z' {
			j++
		}
		return j, false
	}
	return -1, false
}

// object walks the members of a JSON object in text jsonx has validated,
// bounds checked all the same: text it cannot read ends the walk with bad
// set.
type object struct {
	s        string
	i        int
	end, bad bool
}

// newObject starts a walk of the object s (white space before it allowed).
func newObject(s string) object {
	i := skipWS(s, 0)
	if i >= len(s) || s[i] != '{' {
		return object{end: true, bad: true}
	}
	i = skipWS(s, i+1)
	if i < len(s) && s[i] == '}' {
		return object{end: true}
	}
	return object{s: s, i: i}
}

// next returns the next member: its name (unescaped; esc says it had
// escapes), its value, and whether that is or holds an object (whose
// member names the fold rule concerns). ok is false at the end, and on
// text next cannot read (o.bad).
func (o *object) next() (name, value string, esc, obj, ok bool) {
	if o.end {
		return "", "", false, false, false
	}
	s, i := o.s, o.i
	fail := func() (string, string, bool, bool, bool) {
		o.end, o.bad = true, true
		return "", "", false, false, false
	}
	if i >= len(s) || s[i] != '"' {
		return fail()
	}
	ne, esc := skipString(s, i)
	if ne < 0 {
		return fail()
	}
	name = s[i+1 : ne-1]
	if esc {
		var err error
		if name, err = jsonx.Unquote(s[i:ne]); err != nil {
			return fail()
		}
	}
	i = skipWS(s, ne)
	if i >= len(s) || s[i] != ':' {
		return fail()
	}
	i = skipWS(s, i+1)
	ve, obj := skipValue(s, i)
	if ve < 0 {
		return fail()
	}
	value = s[i:ve]
	switch i = skipWS(s, ve); {
	case i < len(s) && s[i] == '}':
		o.end = true
	case i < len(s) && s[i] == ',':
		o.i = skipWS(s, i+1)
	default:
		return fail()
	}
	return name, value, esc, obj, true
}
