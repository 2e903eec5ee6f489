package paseto

import (
	"crypto/subtle"
	"fmt"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/clip"
)

// DefaultLifetime is the life of a token issued without exp, when
// Options.Lifetime is zero (PASETO's recommended default).
const DefaultLifetime = time.Hour

// DefaultMaxSize is the largest token accepted when Policy.MaxSize is zero.
const DefaultMaxSize = 64 << 10

// MaxFooterSize is the largest footer accepted, encoded or not.
const MaxFooterSize = 8 << 10

// MaxLeeway bounds Policy.Leeway.
const MaxLeeway = 5 * time.Minute

// Options are what a token is issued with besides its claims.
type Options struct {
	// Footer is authenticated but not encrypted: put key IDs there (a
	// PASERK lid, pid or sid), never keys. At most MaxFooterSize bytes; a
	// footer starting with '{' must pass the readers' JSON footer check
	// (see the package doc), or the token is not issued.
	Footer []byte
	// Implicit is an implicit assertion: authenticated, not stored in the
	// token; the verifier must present the same bytes (Policy.Implicit).
	Implicit []byte
	// Lifetime sets exp = now + Lifetime when the claims have no exp; zero
	// means DefaultLifetime.
	Lifetime time.Duration
	// NoExpiry issues a token without exp when the claims have none.
	NoExpiry bool
	// Now is the issuing time; the zero Time means time.Now().
	Now time.Time
}

func (o *Options) now() time.Time {
	if o.Now.IsZero() {
		return time.Now()
	}
	return o.Now
}

func (o *Options) lifetime() time.Duration {
	if o.Lifetime <= 0 {
		return DefaultLifetime
	}
	return o.Lifetime
}

// defaults sets iat and exp where c lacks them.
func (o *Options) defaults(c *Claims) {
	if !c.IssuedAt.IsZero() && (!c.ExpiresAt.IsZero() || o.NoExpiry) {
		return // nothing to fill in: the clock is not read
	}
	now := o.now()
	if c.IssuedAt.IsZero() {
		c.IssuedAt = now
	}
	if c.ExpiresAt.IsZero() && !o.NoExpiry {
		c.ExpiresAt = now.Add(o.lifetime())
	}
}

// check refuses, before any work, what would make a token its readers
// refuse: an oversized footer, or one that fails their footer check
// (checkFooter).
func (o *Options) check(key *signet.Key) error {
	if len(o.Footer) > MaxFooterSize {
		return fmt.Errorf("%w: footer is %d bytes, limit %d", signet.ErrTooLarge, len(o.Footer), MaxFooterSize)
	}
	return checkFooter(key, o.Footer)
}

// Policy states what a token must satisfy beyond authenticating under the
// key. The zero Policy is the safe default: exp required, no leeway, any
// footer, no implicit assertion, tokens up to DefaultMaxSize bytes.
type Policy struct {
	Issuer   string // when set, iss must equal it
	Audience string // when set, aud must equal it
	Subject  string // when set, sub must equal it
	ID       string // when set, jti must equal it
	// Footer, when not nil, is the footer the token must carry (compared
	// in constant time); nil accepts any footer, which is authenticated
	// either way.
	Footer []byte
	// Implicit is the implicit assertion the token was issued with.
	Implicit []byte
	// Leeway allows for clock skew in exp, nbf and iat, at most MaxLeeway.
	Leeway time.Duration
	// NoExpiry accepts tokens without exp; exp is still enforced if present.
	NoExpiry bool
	// Now is the time to validate at; the zero Time means time.Now().
	Now time.Time
	// MaxSize is the largest token accepted, in bytes; zero means
	// DefaultMaxSize. Larger tokens are refused before any other work.
	MaxSize int
}

var errPolicy = fmt.Errorf("%w: paseto policy", signet.ErrUnsupported)

func (p *Policy) check() (int, error) {
	if p.Leeway < 0 || p.Leeway > MaxLeeway {
		return 0, fmt.Errorf("%w: Leeway %v outside [0, %v]", errPolicy, p.Leeway, MaxLeeway)
	}
	switch {
	case p.MaxSize == 0:
		return DefaultMaxSize, nil
	case p.MaxSize < 0:
		return 0, fmt.Errorf("%w: negative MaxSize", errPolicy)
	}
	return p.MaxSize, nil
}

func (p *Policy) checkFooter(f []byte) error {
	if p.Footer != nil && subtle.ConstantTimeCompare(f, p.Footer) != 1 {
		return fmt.Errorf("%w: not the expected footer", signet.ErrFooter)
	}
	return nil
}

// validate checks the registered claims (PASETO Validators: NotExpired,
// ValidAt, IssuedBy, ForAudience, Subject, IdentifiedBy).
func (p *Policy) validate(c *Claims, has uint8) error {
	now := p.Now
	if now.IsZero() {
		now = time.Now()
	}
	switch {
	case has&hasExp == 0:
		if !p.NoExpiry {
			return fmt.Errorf("%w: exp", signet.ErrMissingClaim)
		}
	case now.Add(-p.Leeway).After(c.ExpiresAt):
		return fmt.Errorf("%w: exp %s", signet.ErrExpired, c.ExpiresAt.Format(time.RFC3339))
	}
	if has&hasNbf != 0 && now.Add(p.Leeway).Before(c.NotBefore) {
		return fmt.Errorf("%w: nbf %s", signet.ErrNotYetValid, c.NotBefore.Format(time.RFC3339))
	}
	if has&hasIat != 0 && c.IssuedAt.After(now.Add(p.Leeway)) {
		return fmt.Errorf("%w: iat %s", signet.ErrIssuedInFuture, c.IssuedAt.Format(time.RFC3339))
	}
	if p.Issuer != "" && c.Issuer != p.Issuer {
		return fmt.Errorf("%w: iss %q", signet.ErrIssuer, clip.String(c.Issuer))
	}
	if p.Audience != "" && c.Audience != p.Audience {
		return fmt.Errorf("%w: aud %q", signet.ErrAudience, clip.String(c.Audience))
	}
	if p.Subject != "" && c.Subject != p.Subject {
		return fmt.Errorf("%w: sub %q", signet.ErrSubject, clip.String(c.Subject))
	}
	if p.ID != "" && c.ID != p.ID {
		return fmt.Errorf("%w: jti %q", signet.ErrTokenID, clip.String(c.ID))
	}
	return nil
}
