package paseto

import (
	"crypto/subtle"
	"fmt"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/claimcheck"
)

// DefaultLifetime is the life of a token issued without exp, when
// Options.Lifetime is zero (PASETO's recommended default; the same as
// jwt.DefaultLifetime).
const DefaultLifetime = claimcheck.DefaultLifetime

// DefaultMaxSize is the largest token accepted when Policy.MaxSize is zero.
const DefaultMaxSize = 64 << 10

// MaxFooterSize is the largest footer accepted, encoded or not.
const MaxFooterSize = 8 << 10

// MaxLeeway bounds Policy.Leeway (the same as jwt.MaxLeeway).
const MaxLeeway = claimcheck.MaxLeeway

// Options are what a token is issued with besides its claims. Claims
// without iat get iat = now; claims without exp get exp = now + Lifetime,
// unless NoExpiry (jwt.Options issue alike). Claims that carry both are
// written as they are, and the clock is not read.
type Options struct {
	// Footer is authenticated but not encrypted: put key IDs there (a
	// PASERK lid, pid or sid), never keys. At most MaxFooterSize bytes; a
	// footer starting with '{' must pass the readers' JSON footer check
	// (see the package doc), and a key PASERK (local, public, secret,
	// local-pw, secret-pw) is refused as the footer or a member's value,
	// or the token is not issued.
	Footer []byte
	// Implicit is an implicit assertion: authenticated, not stored in the
	// token; the verifier must present the same bytes (Policy.Implicit).
	Implicit []byte
	// Lifetime sets exp = now + Lifetime when the claims have no exp; zero
	// means DefaultLifetime. Negative, or set with NoExpiry, is an error.
	Lifetime time.Duration
	// NoExpiry issues a token without exp when the claims have none.
	NoExpiry bool
	// Now is the issuing clock; nil means the wall clock, as time.Now reads it (to the microsecond, without the monotonic clock).
	Now func() time.Time
}

// issue returns the issuing defaults of o.
func (o *Options) issue() claimcheck.Issue {
	return claimcheck.Issue{Lifetime: o.Lifetime, NoExpiry: o.NoExpiry, Now: o.Now}
}

// defaults sets iat and exp where c lacks them.
func defaults(c *Claims, o *claimcheck.Issue) {
	if !c.IssuedAt.IsZero() && (!c.ExpiresAt.IsZero() || o.NoExpiry) {
		return // nothing to fill in: the clock is not read
	}
	now := o.Clock()
	if c.IssuedAt.IsZero() {
		c.IssuedAt = now
	}
	if c.ExpiresAt.IsZero() && !o.NoExpiry {
		c.ExpiresAt = o.Expiry(now)
	}
}

// check refuses, before any work, what would make a token its readers
// refuse: an oversized footer, or one that fails their footer check
// (checkFooter).
func (o *Options) check(key *signet.Key) error {
	i := o.issue()
	if err := i.Valid("paseto options"); err != nil {
		return err
	}
	if len(o.Footer) > MaxFooterSize {
		return fmt.Errorf("%w: footer is %d bytes, limit %d", signet.ErrTooLarge, len(o.Footer), MaxFooterSize)
	}
	return checkFooter(key, o.Footer)
}

// Policy states what a token must satisfy beyond authenticating under the
// key. The zero Policy is the safe default: exp required, a token naming
// an audience refused, no leeway, any footer, no implicit assertion,
// tokens up to DefaultMaxSize bytes. jwt.Policy applies the same claim
// rules.
type Policy struct {
	Issuer string // when set, iss must equal it
	// Audience names the audiences this verifier answers to: aud must be
	// one of them, and a token without aud is refused. When empty, a
	// token that has an aud claim is refused unless IgnoreAudience.
	Audience []string
	// IgnoreAudience skips the aud check altogether: only for tokens whose
	// audience is checked elsewhere (by the caller, after the token
	// opens). Setting it with Audience is a policy error.
	IgnoreAudience bool
	Subject        string // when set, sub must equal it
	ID             string // when set, jti must equal it
	// Footer, when not nil, is the footer the token must carry (compared
	// in constant time); nil accepts any footer, which is authenticated
	// either way.
	Footer []byte
	// Implicit is the implicit assertion the token was issued with.
	Implicit []byte
	// Leeway allows for clock skew in exp, nbf and iat, at most MaxLeeway;
	// zero means none.
	Leeway time.Duration
	// NoExpiry accepts tokens without exp; exp is still enforced if present.
	NoExpiry bool
	// Now is the clock to validate at; nil means the wall clock, as time.Now reads it (to the microsecond, without the monotonic clock).
	Now func() time.Time
	// MaxSize is the largest token accepted, in bytes; zero means
	// DefaultMaxSize. Larger tokens are refused before any other work.
	MaxSize int
}

var errPolicy = fmt.Errorf("%w: paseto policy", signet.ErrUnsupported)

func (p *Policy) check() (int, error) {
	if !claimcheck.Fine(p.Leeway, p.Audience, p.IgnoreAudience) {
		r := p.rules()
		return 0, r.Valid("paseto policy")
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

// rules are the claim rules of p.
func (p *Policy) rules() claimcheck.Rules {
	return claimcheck.Rules{Issuer: p.Issuer, Subject: p.Subject, ID: p.ID, Audience: p.Audience,
		IgnoreAudience: p.IgnoreAudience, NoExpiry: p.NoExpiry, Leeway: p.Leeway, Now: p.Now}
}

// validate checks the registered claims (PASETO Validators: NotExpired,
// ValidAt, IssuedBy, ForAudience, Subject, IdentifiedBy) with the rules
// jwt shares (internal/claimcheck).
func (p *Policy) validate(c *Claims, has uint8) error {
	aud := [1]string{c.Audience}
	r := p.rules()
	return r.Check(&claimcheck.Claims{Has: has,
		Exp: claimcheck.Of(c.ExpiresAt), Nbf: claimcheck.Of(c.NotBefore), Iat: claimcheck.Of(c.IssuedAt),
		Issuer: c.Issuer, Subject: c.Subject, ID: c.ID, Audience: aud[:]})
}
