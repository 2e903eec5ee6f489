package jwt

import (
	"testing"
	"unicode/utf8"

	"github.com/signet-go/signet"
)

// FuzzHeaderRoundTrip: the header Sign writes always parses, and gives back
// the key ID exactly when it is valid UTF-8 — what verify's shortcut for a
// key's own header (isOwnHeader) relies on.
func FuzzHeaderRoundTrip(f *testing.F) {
	for _, s := range []string{"k", "a\"b", "\\", "\x00\x1f\x7f", "é", "\u2028", "a\xffb", "\xed\xa0\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, kid string) {
		h, err := parseHeader(string(appendHeader(nil, signet.HS256, kid, "JWT")))
		if err != nil {
			t.Fatalf("own header refused for kid %q: %v", kid, err)
		}
		if (h.KeyID == kid) != utf8.ValidString(kid) {
			t.Fatalf("kid %q parsed back as %q", kid, h.KeyID)
		}
	})
}
