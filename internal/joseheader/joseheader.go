// Package joseheader holds the rules that the protected headers of a JWS
// (package jwt) and of a JWE (package jwe) share: how typ and cty values
// compare and which a policy accepts, why a crit member is refused, and how a header's kid and alg
// select the keys to try.
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

// CheckType applies a policy's typ rule to a header's typ: with want
// empty, typ may be absent or JWT (RFC 8725 §3.11 leaves other values to
// explicit typing), else it must be want; values compare as SameType
// says. The error wraps signet.ErrType.
func CheckType(want, typ string) error {
	if want == "" {
		if typ == "" || typ == "JWT" || SameType(typ, "JWT") {
			return nil
		}
	} else if SameType(typ, want) {
		return nil
	}
	return fmt.Errorf("%w: typ %q", signet.ErrType, clip.String(typ))
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

// SelectKeys returns the keys of keys that a header's kid and alg select.
// It calls the concrete Select of signet's key types directly, so that
// kid and alg, views of a stack buffer in the caller, are known not to
// escape. A signet.CachedKeys (jwks.Remote) is looked up the same way in
// its cached set; only a miss goes to its Select (which may refetch),
// and any other Keys implementation gets copies it may keep.
func SelectKeys(keys signet.Keys, kid string, alg signet.Algorithm) (signet.Candidates, error) {
	switch ks := keys.(type) {
	case *signet.Key:
		return ks.Select(kid, alg)
	case *signet.KeySet:
		return ks.Select(kid, alg)
	case signet.CachedKeys:
		if set := ks.Cached(); set != nil {
			if c, err := set.Select(kid, alg); err == nil {
				return c, nil
			}
		}
	}
	return keys.Select(strings.Clone(kid), signet.Algorithm(strings.Clone(string(alg))))
}
