package paseto

import (
	"fmt"

	"github.com/signet-go/signet"
)

// errAuth: the tag or signature does not match (made once).
var errAuth = fmt.Errorf("%w: PASETO authentication failed", signet.ErrSignatureInvalid)
