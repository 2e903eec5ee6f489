package jwks

import "github.com/signet-go/signet"

// Cached implements signet.CachedKeys: the set that Select serves hits
// from now, or nil when Select would answer signet.ErrUnavailable. Package
// jwt looks a token's key ID up in it without copying the ID, so that
// jwt.Verify costs the same with a Remote as with a *signet.KeySet, and
// sends only a miss to Select (which may refetch).
//
// The set is immutable: a later fetch replaces it, never changes it.
func (r *Remote) Cached() *signet.KeySet {
	if r == nil {
		return nil
	}
	st := r.state.Load()
	if r.usable(st) != nil {
		return nil
	}
	return st.set
}

var _ signet.CachedKeys = (*Remote)(nil)
