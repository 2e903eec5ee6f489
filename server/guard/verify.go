package guard

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/bearer"
	"github.com/signet-go/signet/internal/unsafex"
	"github.com/signet-go/signet/jwt"
)

// tokenClaims are the claims the guard reads of a verified token: the
// registered ones (validated by jwt.Verify), scope and client_id.
type tokenClaims struct {
	jwt.Claims
	Scope    scopeClaim `json:"scope"`
	ClientID string     `json:"client_id"`
}

// scopeClaim is the scope claim (RFC 8693 §4.2, RFC 9068 §2.2.3.1): a
// string of space-separated scope names. A claim of another JSON type is
// no error while no scope is required (the signature holds, and the
// service does not ask); with Config.Scopes it is malformed (401), as
// package bearer has it.
type scopeClaim struct {
	value string
	bad   bool // present, not a string
}

// UnmarshalJSON implements json.Unmarshaler.
func (s *scopeClaim) UnmarshalJSON(b []byte) error {
	var v string
	if json.Unmarshal(b, &v) != nil {
		s.bad = true
		return nil
	}
	s.value = v
	return nil
}

// check returns an error unless every scope of want is among the claim's
// names: bearer.ErrInsufficientScope (403), or signet.ErrMalformed for a
// scope claim that is not a string.
func (s scopeClaim) check(want []string) error {
	if len(want) == 0 {
		return nil
	}
	if s.bad {
		return fmt.Errorf("%w: claim scope must be a space-separated string", signet.ErrMalformed)
	}
	for _, w := range want {
		found := false
		for name := range strings.FieldsSeq(s.value) {
			if name == w {
				found = true
				break
			}
		}
		if !found {
			return fmt.Errorf("%w: scope %q required", bearer.ErrInsufficientScope, w)
		}
	}
	return nil
}

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
	p := g.policy
	p.Now = func() time.Time { return now }
	c, err := jwt.Verify[tokenClaims](g.keys, token, p)
	if err != nil {
		return verified{}, false, err
	}
	if g.cfg.AccessToken {
		if err := accessTokenClaims(&c); err != nil {
			return verified{}, false, err
		}
	}
	if err := c.Scope.check(g.cfg.Scopes); err != nil {
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

// accessTokenClaims checks the claims RFC 9068 §2.2 requires of a JWT
// access token beyond those the policy checks (iss, aud, exp; typ is the
// policy's Type): sub, client_id, iat and jti.
func accessTokenClaims(c *tokenClaims) error {
	var missing []string
	if c.Subject == "" {
		missing = append(missing, "sub")
	}
	if c.ClientID == "" {
		missing = append(missing, "client_id")
	}
	if c.IssuedAt == 0 {
		missing = append(missing, "iat")
	}
	if c.ID == "" {
		missing = append(missing, "jti")
	}
	if len(missing) > 0 {
		return fmt.Errorf("%w: access token (RFC 9068) without %s", signet.ErrMissingClaim, strings.Join(missing, ", "))
	}
	return nil
}
