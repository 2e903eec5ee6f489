package jwt

import (
	"fmt"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/claimcheck"
	"github.com/signet-go/signet/internal/claimsjson"
	"github.com/signet-go/signet/internal/itoa"
)

// DefaultLifetime is the life of a token signed without exp, when
// Options.Lifetime is zero: the same as paseto.DefaultLifetime.
const DefaultLifetime = claimcheck.DefaultLifetime

// Options are what Sign issues a token with besides its claims: the same
// issuing defaults as paseto.Options. Claims without iat get iat = now;
// claims without exp get exp = now + Lifetime, unless NoExpiry. Claims
// that carry both are written as they are, and the clock is not read.
type Options struct {
	// Lifetime sets exp = now + Lifetime when the claims have no exp; zero
	// means DefaultLifetime. Negative, or set with NoExpiry, is an error.
	Lifetime time.Duration
	// NoExpiry signs a token without exp when the claims have none
	// (jwt.Verify then needs Policy.NoExpiry to accept it).
	NoExpiry bool
	// Now is the issuing clock; nil means the wall clock, as time.Now
	// reads it (to the microsecond, without the monotonic clock).
	Now func() time.Time
}

// issueOptions returns the one Options of Sign's variadic argument.
func issueOptions(opts []Options) (claimcheck.Issue, error) {
	switch len(opts) {
	case 0:
		return claimcheck.Issue{}, nil
	case 1:
	default:
		return claimcheck.Issue{}, fmt.Errorf("%w: jwt.Sign takes at most one Options, got %d", signet.ErrUnsupported, len(opts))
	}
	o := claimcheck.Issue{Lifetime: opts[0].Lifetime, NoExpiry: opts[0].NoExpiry, Now: opts[0].Now}
	if err := o.Valid("jwt options"); err != nil {
		return claimcheck.Issue{}, err
	}
	return o, nil
}

// issueDefaults sets iat and exp where c lacks them, then checks that
// every date is one jwt.Verify reads back. The common case, both set and
// in range, costs two comparisons.
func issueDefaults(c *Claims, o *claimcheck.Issue) error {
	if c.IssuedAt == 0 || c.ExpiresAt == 0 && !o.NoExpiry {
		fillDefaults(c, o)
	}
	// Below 2^53 all three: their bits together are.
	if uint64(c.ExpiresAt)|uint64(c.NotBefore)|uint64(c.IssuedAt) < 1<<53 {
		return nil
	}
	return checkDates(c)
}

// fillDefaults reads the clock for the iat and exp that c lacks.
func fillDefaults(c *Claims, o *claimcheck.Issue) {
	now := o.Clock()
	if c.IssuedAt == 0 {
		c.IssuedAt = At(now)
	}
	if c.ExpiresAt == 0 && !o.NoExpiry {
		c.ExpiresAt = At(o.Expiry(now))
	}
}

// checkDates refuses a date the reader would refuse (claimDate).
func checkDates(c *Claims) error {
	for _, d := range [...]struct {
		name string
		v    NumericDate
	}{{"exp", c.ExpiresAt}, {"nbf", c.NotBefore}, {"iat", c.IssuedAt}} {
		if !claimcheck.ValidNumericDate(int64(d.v)) {
			return dateError(d.name, d.v)
		}
	}
	return nil
}

func dateError(name string, v NumericDate) error {
	return fmt.Errorf("%w: claim %s: NumericDate %d outside [0, 2^53]", signet.ErrMalformed, name, v)
}

// addDefaults appends iat and exp to a JSON object payload that lacks them
// (has says which it carries), as Claims would get them: the defaults go
// into the text, never into the caller's value.
func addDefaults(payload []byte, has uint8, o *claimcheck.Issue) ([]byte, error) {
	needExp := has&hasExp == 0 && !o.NoExpiry
	if has&hasIat != 0 && !needExp {
		return payload, nil
	}
	now := o.Clock()
	add := func(name string, d NumericDate) error {
		if d == 0 || !claimcheck.ValidNumericDate(int64(d)) {
			return dateError(name, d)
		}
		payload = itoa.Append(claimsjson.OpenMember(payload, name), int64(d))
		payload = append(payload, '}')
		return nil
	}
	if has&hasIat == 0 {
		if err := add("iat", At(now)); err != nil {
			return nil, err
		}
	}
	if needExp {
		if err := add("exp", At(o.Expiry(now))); err != nil {
			return nil, err
		}
	}
	return payload, nil
}
