package paseto

import (
	"fmt"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/clip"
)

// checkFooter refuses, at issue, a footer that a reader holding key would
// refuse, with the reader's sentinel: a footer that starts like a JSON
// object ('{' after white space) is held to the limits and rules readers
// apply before verifying anything (footerKID: signet.ErrFooter for depth,
// member count, invalid JSON or repeated names, signet.ErrMalformed for a
// kid that is not a string), and a kid in it must be key's own when key
// has one, since a reader selects the key by that kid
// (signet.ErrKeyNotFound). Any other footer is opaque bytes, read as they
// are.
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
