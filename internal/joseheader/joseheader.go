// Package joseheader holds the rules that the protected headers of a JWS
// (package jwt) and of a JWE (package jwe) share: how typ and cty values
// compare, and why a crit member is refused.
package joseheader

import (
	"fmt"
	"strings"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/clip"
	"github.com/signet-go/signet/internal/jsonx"
)

// SameType compares typ and cty values as RFC 7515 §4.1.9 says:
// case-insensitively, "application/" optional.
func SameType(a, b string) bool {
	const prefix = "application/"
	if len(a) > len(prefix) && strings.EqualFold(a[:len(prefix)], prefix) {
		a = a[len(prefix):]
	}
	if len(b) > len(prefix) && strings.EqualFold(b[:len(prefix)], prefix) {
		b = b[len(prefix):]
	}
	return strings.EqualFold(a, b)
}

// CritError explains why the crit header member v (raw JSON) is refused:
// RFC 7515 §4.1.11 (RFC 7516 §4.1.13 for a JWE) makes an empty or
// non-string list malformed (signet.ErrMalformed), and signet understands
// no extension (signet.ErrUnsupported, naming them).
func CritError(v string) error {
	var names []string
	if v[0] == '[' {
		e := jsonx.NewElements(v)
		for e.Next(v) {
			name := ""
			if u, ok := e.String(v); ok {
				name = clip.String(u)
			}
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return fmt.Errorf("%w: crit must be a non-empty array of names", signet.ErrMalformed)
	}
	return fmt.Errorf("%w: critical header extension %q", signet.ErrUnsupported, names)
}
