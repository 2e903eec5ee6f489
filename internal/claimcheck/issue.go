package claimcheck

import (
	"fmt"
	"time"

	"github.com/signet-go/signet"
)

// MaxNumericDate is the largest NumericDate a JWT reader takes (an integer
// JSON number exact in a float64, 2^53 seconds); the smallest is 0.
const MaxNumericDate = 1 << 53

// ValidNumericDate reports whether d is a NumericDate the JWT reader
// accepts: a non-negative number of seconds, at most MaxNumericDate.
func ValidNumericDate(d int64) bool { return d >= 0 && d <= MaxNumericDate }

// ValidRFC3339 reports whether t can be written as PASETO's reader takes
// a time: RFC 3339 in UTC, so a four-digit year, 0000 to 9999.
func ValidRFC3339(t time.Time) bool {
	s := t.Unix()
	return s >= minRFC3339 && s <= maxRFC3339
}

// The Unix seconds of 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z.
const (
	minRFC3339 = -62167219200
	maxRFC3339 = 253402300799
)

// Issue holds the issuing options both formats share (jwt.Options,
// paseto.Options): when the claims lack iat, it is now; when they lack
// exp, it is now + Lifetime, unless NoExpiry.
type Issue struct {
	Lifetime time.Duration
	NoExpiry bool
	Now      func() time.Time
}

// Valid checks the options; the error wraps signet.ErrUnsupported.
func (o *Issue) Valid(what string) error {
	if o.Lifetime < 0 {
		return fmt.Errorf("%w: %s: negative Lifetime %v", signet.ErrUnsupported, what, o.Lifetime)
	}
	if o.NoExpiry && o.Lifetime != 0 {
		return fmt.Errorf("%w: %s: Lifetime and NoExpiry both set", signet.ErrUnsupported, what)
	}
	return nil
}

// Clock returns the issuing time.
func (o *Issue) Clock() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return Now()
}

// Expiry is the exp of a token issued at now without one.
func (o *Issue) Expiry(now time.Time) time.Time {
	if o.Lifetime == 0 {
		return now.Add(DefaultLifetime)
	}
	return now.Add(o.Lifetime)
}
