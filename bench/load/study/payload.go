package study

import (
	"fmt"

	"github.com/signet-go/signet"
)

// Sizes are the payload classes, after the study's payload sizes: "small"
// is the study's claims (user_id, username, exp, iat: 66 bytes of JSON in
// a JWT, 90 in a PASETO with its RFC 3339 times), "medium" adds
// permissions up to about 1 KiB of claims and "large" up to about 10 KiB (the study's 1 KB and 10 KB; its 100 KB and 1 MB do
// not fit a Bearer header, which servers and proxies bound to 8-64 KiB).
var Sizes = []string{"small", "medium", "large"}

// UserID and Username are the study's claims, the same for every request.
const (
	UserID   = 1
	Username = "alice"
)

// permCounts is the number of permissions of each class.
var permCounts = map[string]int{"small": 0, "medium": 38, "large": 400}

// Perms returns the permissions claim of a payload class (nil for
// "small"), or an error for an unknown class. Each call returns a fresh
// slice.
func Perms(size string) ([]string, error) {
	n, ok := permCounts[size]
	if !ok {
		return nil, fmt.Errorf("%w: study: no payload class %q (want one of %v)", signet.ErrUnsupported, size, Sizes)
	}
	if n == 0 {
		return nil, nil
	}
	p := make([]string, n)
	for i := range p {
		p[i] = fmt.Sprintf("api:resource-%04d:read", i)
	}
	return p, nil
}

// Identity is what /check answers with: the claims the handler read from
// the token.
type Identity struct {
	UserID   uint   `json:"user_id"`
	Username string `json:"username"`
}
