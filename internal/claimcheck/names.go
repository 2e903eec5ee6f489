package claimcheck

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/clip"
)

// names are the registered claim names jwt and paseto share (RFC 7519
// §4.1, PASETO Claims.md): three lower-case ASCII letters each.
var names = [...]string{"iss", "sub", "aud", "exp", "nbf", "iat", "jti"}

// Variant reports whether name, a top-level member name of a claims set,
// is not a registered claim name but equals one under encoding/json's
// case-insensitive field matching (Unicode simple case folding, as
// strings.EqualFold): "AUD", "Exp", "ſub" (with U+017F, which folds to
// s). claim is the registered name it folds to.
//
// Both formats refuse such a member in every decode path (ErrMalformed,
// VariantError): the checks read the registered claims by their exact
// names, while encoding/json would hand the member's value to a caller's
// field for that claim (an Aud field of its own, say), so {"AUD":"evil"}
// would reach the caller as an audience no check has seen.
//
// The formats call Variant only for names that are not exactly a
// registered one, and it looks no further than their length and bytes
// unless they could match: three ASCII bytes with an upper-case letter,
// or four to twelve bytes with a non-ASCII one. A token of the usual
// shape costs nothing more.
func Variant(name string) (claim string, ok bool) {
	switch {
	case len(name) == 3:
		// Three bytes make three runes only when all are ASCII, whose
		// only case pairs are the letters.
		var low [3]byte
		upper := false
		for i := range 3 {
			c := name[i]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
				upper = true
			}
			low[i] = c
		}
		if !upper {
			return "", false
		}
		for _, n := range names {
			if string(low[:]) == n {
				return n, true
			}
		}
		return "", false
	case len(name) < 3 || len(name) > 3*utf8.UTFMax:
		return "", false
	}
	// Longer than three bytes: a match needs a rune beyond ASCII that
	// folds to an ASCII letter (U+017F to s, U+212A to k).
	ascii := true
	for i := 0; i < len(name); i++ {
		if name[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return "", false
	}
	for _, n := range names {
		if strings.EqualFold(name, n) {
			return n, true
		}
	}
	return "", false
}

// VariantError is the error for a member name that Variant matched to
// claim; it wraps signet.ErrMalformed.
func VariantError(name, claim string) error {
	return fmt.Errorf("%w: member %q differs from the registered claim %s only in case, and encoding/json would read it as %s", signet.ErrMalformed, clip.String(name), claim, claim)
}

// Registered reports whether name is exactly a registered claim name.
func Registered(name string) bool {
	switch name {
	case "iss", "sub", "aud", "exp", "nbf", "iat", "jti":
		return true
	}
	return false
}
