// Package tokentest holds the test helpers that jwt's, paseto's, jwe's
// and jwk's tests share: Keys implementations that count or flood the
// candidates a verifier is offered, the case variants of the registered
// claim names, base64url test vectors decoded, and a nested claims member
// (Nested). Only tests import it.
package tokentest

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/signet-go/signet"
)

// Counting wraps a Keys and counts the candidates it offers: a verifier
// tries each candidate at most once, so Offered bounds the checks a token
// cost.
type Counting struct {
	Keys    signet.Keys
	Offered int
}

// Select implements signet.Keys.
func (c *Counting) Select(kid string, alg signet.Algorithm) (signet.Candidates, error) {
	cands, err := c.Keys.Select(kid, alg)
	if err == nil {
		c.Offered += cands.Len()
	}
	return cands, err
}

// Many offers every key it holds, whatever the token names: a Keys
// implementation that would make one token cost a thousand checks.
type Many []*signet.Key

// Select implements signet.Keys.
func (m Many) Select(string, signet.Algorithm) (signet.Candidates, error) {
	return signet.CandidatesOf(m...), nil
}

// Variant is a member name that encoding/json would match to the field of
// a registered claim without being the claim's name, and a value of the
// claim's type.
type Variant struct{ Name, Claim, Value string }

// Variants are every registered claim name in several case variants, as
// written and as JSON escapes, and those that fold through U+017F (ſ,
// which folds to s); value holds each claim's value in the format at hand.
func Variants(value map[string]string) []Variant {
	var out []Variant
	for _, c := range []string{"iss", "sub", "aud", "exp", "nbf", "iat", "jti"} {
		v := value[c]
		up := strings.ToUpper(c)
		for _, n := range []string{up, up[:1] + c[1:], c[:2] + up[2:], c[:1] + up[1:2] + c[2:]} {
			out = append(out, Variant{n, c, v})
		}
		out = append(out, Variant{`\u00` + strings.ToLower(hex2(up[0])) + up[1:], c, v}) // "\u0041UD"
	}
	return append(out, Variant{"\u017fub", "sub", value["sub"]}, Variant{"i\u017f\u017f", "iss", value["iss"]},
		Variant{"I\u017fS", "iss", value["iss"]}, Variant{`\u017fUB`, "sub", value["sub"]})
}

func hex2(c byte) string {
	const h = "0123456789ABCDEF"
	return string([]byte{h[c>>4], h[c&15]})
}

// Unb64 decodes s, unpadded base64url (a test vector's), failing the test
// when it is not.
func Unb64(t testing.TB, s string) []byte {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return b
}

// Nested is a claims member with a string, a slice and a map: what a
// plan reads in one pass (claimsjson.Taker) rather than handing the
// payload to encoding/json, pinned by jwt's and paseto's allocation tests.
type Nested struct {
	Name  string            `json:"name"`
	Roles []string          `json:"roles"`
	Attrs map[string]string `json:"attrs"`
}
