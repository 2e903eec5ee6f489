package jwks

import "github.com/signet-go/signet"

// Cached implements signet.CachedKeys: the set that Select serves hits
// from now, or nil when Select would answer signet.ErrUnavailable. Package
// jwt looks a token's key ID up in it without copying the ID, so that
// jwt.Verify costs the same with a Remote as with a *signet.KeySet, and
// sends only a miss to Select (which may refetch).
func (r *Remote) Cached() *signet.KeySet {
	set, err := r.KeySet()
	if err != nil {
		return nil
	}
	return set
}

var _ signet.CachedKeys = (*Remote)(nil)
