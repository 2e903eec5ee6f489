package jwt

import (
	"fmt"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/claimcheck"
)

// DefaultMaxSize is the largest token accepted when Policy.MaxSize is zero.
const DefaultMaxSize = 64 << 10

// MaxLeeway bounds Policy.Leeway: clock skew is a matter of seconds, and a
// large leeway would quietly extend every token's life.
const MaxLeeway = claimcheck.MaxLeeway

// Policy states what a token must satisfy beyond a valid signature. The
// zero Policy is the safe default: exp required, a token naming an
// audience refused, no leeway, the typ header absent or "JWT", tokens up
// to DefaultMaxSize bytes. paseto.Policy applies the same claim rules.
type Policy struct {
	// Issuer, when set, must equal the iss claim.
	Issuer string
	// Audience names the audiences this verifier answers to: the aud
	// claim must hold at least one of them, and a token without aud is
	// refused. When empty, a token that has an aud claim is refused
	// (RFC 7519 §4.1.3) unless IgnoreAudience.
	Audience []string
	// IgnoreAudience skips the aud check altogether: only for tokens whose
	// audience is checked elsewhere (by the caller, after Verify). Setting
	// it with Audience is a policy error.
	IgnoreAudience bool
	// Subject, when set, must equal the sub claim.
	Subject string
	// ID, when set, must equal the jti claim.
	ID string
	// Type, when set, is the required typ header (compared as RFC 7515
	// §4.1.9 says: case-insensitively, "application/" optional), e.g.
	// "at+jwt" for OAuth access tokens (RFC 9068). When empty, typ must be
	// absent or "JWT".
	Type string
	// Leeway allows for clock skew in exp, nbf and iat, at most MaxLeeway;
	// zero means none.
	Leeway time.Duration
	// NoExpiry accepts tokens without exp. exp is still enforced when present.
	NoExpiry bool
	// Now is the clock to validate at; nil means the wall clock, as time.Now reads it (to the microsecond, without the monotonic clock).
	Now func() time.Time
	// MaxSize is the largest token accepted, in bytes; zero means
	// DefaultMaxSize. Larger tokens are refused before any other work.
	MaxSize int
}

// errPolicy: a Policy value out of range (ErrUnsupported, for errors.Is).
var errPolicy = fmt.Errorf("%w: jwt policy", signet.ErrUnsupported)

// check validates the policy itself, before any work on a token, and
// returns the size limit.
func (p *Policy) check() (maxSize int, err error) {
	if !claimcheck.Fine(p.Leeway, p.Audience, p.IgnoreAudience) {
		r := p.rules()
		return 0, r.Valid("jwt policy")
	}
	switch {
	case p.MaxSize == 0:
		return DefaultMaxSize, nil
	case p.MaxSize < 0:
		return 0, fmt.Errorf("%w: negative MaxSize", errPolicy)
	}
	return p.MaxSize, nil
}

// rules are the claim rules of p.
func (p *Policy) rules() claimcheck.Rules {
	return claimcheck.Rules{Issuer: p.Issuer, Subject: p.Subject, ID: p.ID, Audience: p.Audience,
		IgnoreAudience: p.IgnoreAudience, NoExpiry: p.NoExpiry, Leeway: p.Leeway, Now: p.Now}
}

// validate checks the registered claims against the policy (already
// checked by check), with the rules paseto shares (internal/claimcheck).
// The dates are read with their fractions when they had any (at.exact),
// as paseto reads RFC 3339 fractions.
func (p *Policy) validate(c *Claims, has uint8, at *instants) error {
	r := p.rules()
	cc := claimcheck.Claims{Has: has,
		Exp: claimcheck.Seconds(int64(c.ExpiresAt)), Nbf: claimcheck.Seconds(int64(c.NotBefore)), Iat: claimcheck.Seconds(int64(c.IssuedAt)),
		Issuer: c.Issuer, Subject: c.Subject, ID: c.ID, Audience: c.Audience}
	if at.exact {
		cc.Exp, cc.Nbf, cc.Iat = at.exp, at.nbf, at.iat
	}
	return r.Check(&cc)
}
