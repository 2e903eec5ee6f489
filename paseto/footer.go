package paseto

import (
	"fmt"
	"strings"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/clip"
)

// checkFooter refuses, at issue, a footer that a reader holding key would
// refuse, with the reader's sentinel: a footer that starts like a JSON
// object ('{' after white space) is held to the limits and rules readers
// apply before verifying anything (footerKID: signet.ErrFooter for depth,
// member count, invalid JSON, repeated names or a key PASERK as a member's
// value, signet.ErrMalformed for a kid that is not a string), and a kid in
// it must be key's own when key has one, since a reader selects the key by
// that kid (signet.ErrKeyNotFound). Any other footer is opaque bytes, read
// as they are, unless it is a key PASERK (signet.ErrFooter).
func checkFooter(key *signet.Key, footer []byte) error {
	if len(footer) == 0 {
		return nil
	}
	kid, err := footerKID(footer)
	if err != nil {
		return fmt.Errorf("footer refused at issue, as readers would refuse it: %w", err)
	}
	if key != nil && kid != "" && key.KeyID() != "" && kid != key.KeyID() {
		return fmt.Errorf("%w: footer kid %q is not the issuing key's kid %q: a reader holding the key would not select it", signet.ErrKeyNotFound, clip.String(kid), clip.String(key.KeyID()))
	}
	return nil
}

// footerForbidden are the PASERK types that PASERK forbids in a footer
// (its README, "Safe in Footer?"), each with the '.' that ends the type:
// keys in the clear, and keys wrapped under a password (which can be
// guessed offline). IDs (lid, pid, sid) and keys wrapped or sealed under
// another key (local-wrap, secret-wrap, seal) may be in a footer.
var footerForbidden = [...]string{"local.", "public.", "secret.", "local-pw.", "secret-pw."}

// keyPaserk reports whether s starts like a PASERK of a type PASERK
// forbids in a footer, k<version>.<type>., and names the type.
func keyPaserk(s string) (string, bool) {
	if len(s) < 3 || s[0] != 'k' {
		return "", false
	}
	i := 1
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	if i == 1 || i >= len(s) || s[i] != '.' {
		return "", false
	}
	for _, t := range footerForbidden {
		if strings.HasPrefix(s[i+1:], t) {
			return t[:len(t)-1], true
		}
	}
	return "", false
}

// keyInFooter is the error for a footer that holds a key PASERK (of type
// t): wraps signet.ErrFooter, and does not repeat the key.
func keyInFooter(t string) error {
	return fmt.Errorf("%w: the footer holds a %s PASERK, a key that PASERK forbids in a footer (use its ID, lid/pid/sid, or wrap it)", signet.ErrFooter, t)
}
