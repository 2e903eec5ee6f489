package jwt

import (
	"fmt"
	"strings"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/clip"
)

// DefaultMaxSize is the largest token accepted when Policy.MaxSize is zero.
const DefaultMaxSize = 64 << 10

// MaxLeeway bounds Policy.Leeway: clock skew is a matter of seconds, and a
// large leeway would quietly extend every token's life.
const MaxLeeway = 5 * time.Minute

// Policy states what a token must satisfy beyond a valid signature. The
// zero Policy is the safe default: exp required, no leeway, the typ header
// absent or "JWT", tokens up to DefaultMaxSize bytes.
type Policy struct {
	// Issuer, when set, must equal the iss claim.
	Issuer string
	// Audience, when set, must be one of the aud claim's values.
	Audience string
	// Subject, when set, must equal the sub claim.
	Subject string
	// ID, when set, must equal the jti claim.
	ID string
	// Type, when set, is the required typ header (compared as RFC 7515
	// §4.1.9 says: case-insensitively, "application/" optional), e.g.
	// "at+jwt" for OAuth access tokens (RFC 9068). When empty, typ must be
	// absent or "JWT".
	Type string
	// Leeway allows for clock skew in exp, nbf and iat, at most MaxLeeway.
	Leeway time.Duration
	// NoExpiry accepts tokens without exp. exp is still enforced when present.
	NoExpiry bool
	// Now is the time to validate at; the zero Time means time.Now().
	Now time.Time
	// MaxSize is the largest token accepted, in bytes; zero means
	// DefaultMaxSize. Larger tokens are refused before any other work.
	MaxSize int
}

// errPolicy: a Policy value out of range (ErrUnsupported, for errors.Is).
var errPolicy = fmt.Errorf("%w: jwt policy", signet.ErrUnsupported)

// check validates the policy itself, before any work on a token, and
// returns the size limit.
func (p *Policy) check() (maxSize int, err error) {
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

// checkType applies the typ rule to the header's typ.
func (p *Policy) checkType(typ string) error {
	want := p.Type
	if want == "" {
		if typ == "" || typ == "JWT" || sameType(typ, "JWT") {
			return nil
		}
	} else if sameType(typ, want) {
		return nil
	}
	return fmt.Errorf("%w: typ %q", signet.ErrType, clip.String(typ))
}

func sameType(a, b string) bool {
	const prefix = "application/"
	if len(a) > len(prefix) && strings.EqualFold(a[:len(prefix)], prefix) {
		a = a[len(prefix):]
	}
	if len(b) > len(prefix) && strings.EqualFold(b[:len(prefix)], prefix) {
		b = b[len(prefix):]
	}
	return strings.EqualFold(a, b)
}

// validate checks the registered claims against the policy (already
// checked by check).
func (p *Policy) validate(c *Claims, has uint8) error {
	now := p.Now
	if now.IsZero() {
		now = time.Now()
	}
	n, lw := now.Unix(), int64(p.Leeway/time.Second)
	switch {
	case has&hasExp == 0:
		if !p.NoExpiry {
			return fmt.Errorf("%w: exp", signet.ErrMissingClaim)
		}
	case n-lw >= int64(c.ExpiresAt):
		return fmt.Errorf("%w: exp %d, now %d", signet.ErrExpired, c.ExpiresAt, n)
	}
	if has&hasNbf != 0 && n+lw < int64(c.NotBefore) {
		return fmt.Errorf("%w: nbf %d, now %d", signet.ErrNotYetValid, c.NotBefore, n)
	}
	if has&hasIat != 0 && int64(c.IssuedAt) > n+lw {
		return fmt.Errorf("%w: iat %d, now %d", signet.ErrIssuedInFuture, c.IssuedAt, n)
	}
	if p.Issuer != "" && c.Issuer != p.Issuer {
		return fmt.Errorf("%w: iss %q", signet.ErrIssuer, clip.String(c.Issuer))
	}
	if p.Audience != "" && !c.Audience.Contains(p.Audience) {
		return fmt.Errorf("%w: want %q", signet.ErrAudience, clip.String(p.Audience))
	}
	if p.Subject != "" && c.Subject != p.Subject {
		return fmt.Errorf("%w: sub %q", signet.ErrSubject, clip.String(c.Subject))
	}
	if p.ID != "" && c.ID != p.ID {
		return fmt.Errorf("%w: jti %q", signet.ErrTokenID, clip.String(c.ID))
	}
	return nil
}
