package guard

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/signet-go/signet"
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
// not an error of the token (its signature holds, and a service that asks
// for no scope does not care); it just grants no scope.
type scopeClaim struct {
	value string
	set   bool
}

// UnmarshalJSON implements json.Unmarshaler.
func (s *scopeClaim) UnmarshalJSON(b []byte) error {
	var v string
	if json.Unmarshal(b, &v) == nil {
		s.value, s.set = v, true
	}
	return nil
}

// has reports whether every scope of want is among the claim's names.
func (s scopeClaim) has(want []string) (missing string, ok bool) {
	for _, w := range want {
		found := false
		for name := range strings.FieldsSeq(s.value) {
			if name == w {
				found = true
				break
			}
		}
		if !found {
			return w, false
		}
	}
	return "", true
}

// errScope marks a token that lacks a required scope: 403
// insufficient_scope, not 401. It wraps signet.ErrMissingClaim.
var errScope = fmt.Errorf("%w: scope", signet.ErrMissingClaim)

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
	if g.cache != nil {
		k = sha256.Sum256(unsafex.Bytes(token)) // only read
		if v, ok := g.cache.get(&k, now); ok {
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
	if missing, ok := c.Scope.has(g.cfg.Scopes); !ok {
		return verified{}, false, fmt.Errorf("%w: %q not granted", errScope, missing)
	}
	i := strings.IndexByte(token, '.')
	j := strings.LastIndexByte(token, '.')
	v := verified{
		header:   strings.Clone(token[i+1 : j]),
		notAfter: now.Add(g.cfg.CacheMaxAge),
		subject:  c.Subject,
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

// isUnavailable reports whether err says the key source cannot answer
// now (503), rather than that the token is bad (401).
func isUnavailable(err error) bool { return errors.Is(err, signet.ErrUnavailable) }
