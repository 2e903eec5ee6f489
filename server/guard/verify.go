package guard

import (
	"crypto/sha256"
	"fmt"
	"strings"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/unsafex"
	"github.com/signet-go/signet/jwt"
)

// check verifies token, from the cache when it holds the token, and
// returns what the guard forwards, whether it came from the cache, and
// the error that refuses the token. A token goes to the cache only once
// it passed every check: signature, claims, profile and scopes.
func (g *Guard) check(token string) (verified, bool, error) {
	if len(token) > g.policy.MaxSize {
		// Before hashing: an oversized token costs nothing.
		return verified{}, false, fmt.Errorf("%w: token is %d bytes, limit %d", signet.ErrTooLarge, len(token), g.policy.MaxSize)
	}
	now := g.now()
	var k cacheKey
	var set *signet.KeySet
	if g.cache != nil {
		if g.cached != nil {
			// Taken before verifying: if the set changes meanwhile, the
			// entry is bound to the older one and verified again.
			set = g.cached.Cached()
		}
		k = sha256.Sum256(unsafex.Bytes(token)) // only read
		if v, ok := g.cache.get(&k, now); ok && g.vouches(&v, set) {
			g.metrics.cacheHit()
			return v, true, nil
		}
		g.metrics.cacheMiss()
	}
	c, err := g.verifier.Verify(token)
	if err != nil {
		return verified{}, false, err
	}
	i := strings.IndexByte(token, '.')
	j := strings.LastIndexByte(token, '.')
	v := verified{
		header:   strings.Clone(token[i+1 : j]),
		notAfter: now.Add(g.cfg.CacheMaxAge),
		subject:  c.Subject,
		set:      set,
	}
	if c.ExpiresAt != 0 {
		// exp is rounded down to the second by Verify: never later than
		// the token's own.
		if exp := c.ExpiresAt.Time(); exp.Before(v.notAfter) {
			v.notAfter = exp
		}
	}
	for _, d := range [...]jwt.NumericDate{c.NotBefore, c.IssuedAt} {
		// Rounded up by Verify: never earlier than the token's own.
		if t := d.Time(); d != 0 && t.After(v.notUntil) {
			v.notUntil = t
		}
	}
	if g.cache != nil && now.Before(v.notAfter) {
		if g.cache.put(&k, v) {
			g.metrics.cacheEvicted()
		}
	}
	return v, false, nil
}

// vouches reports whether the key source still stands behind v, a cached
// verification: a signet.CachedKeys (jwks.Remote) must serve now the very
// set v was verified against (set, its Cached() now), so that a key
// withdrawn at the next fetch stops vouching for its tokens at once, and
// an unavailable source (Cached() nil) gets the 503 every token gets;
// another source must not report itself unavailable (its Ready method).
// A cached token thus never outlives what verifying it again would say
// of the key source.
func (g *Guard) vouches(v *verified, set *signet.KeySet) bool {
	if g.cached != nil {
		return set != nil && v.set == set
	}
	return g.ready() == nil
}
