// Package claimcheck is the one implementation of the registered-claim
// checks that jwt and paseto both apply once a token authenticates: the
// exp, nbf and iat windows with a bounded leeway, iss, sub and jti
// equality, and the audience rule of RFC 7519 §4.1.3. Each format reads
// its claims into a Claims (JWT's NumericDate seconds and PASETO's RFC
// 3339 times both become a Time) and its Policy into a Rules; the errors
// wrap signet's sentinels.
//
// The same package states the issuing rules (Options, the time ranges a
// writer may put in a token), so that what one format issues its reader
// accepts under the same rules as the other format's.
package claimcheck

import (
	"fmt"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/clip"
)

// Which registered claims a payload carried (Claims.Has).
const (
	HasExp uint8 = 1 << iota
	HasNbf
	HasIat
	HasAud
)

// MaxLeeway bounds Rules.Leeway: clock skew is a matter of seconds, and a
// large leeway would quietly extend every token's life.
const MaxLeeway = 5 * time.Minute

// DefaultLifetime is the life of a token issued without exp when no
// Lifetime is given.
const DefaultLifetime = time.Hour

// Time is a claim's instant: Unix seconds and nanoseconds in [0, 1e9).
// JWT's NumericDate is whole seconds; PASETO's RFC 3339 times may carry a
// fraction.
type Time struct {
	Sec  int64
	Nsec int32
}

// Seconds is the Time of a NumericDate.
func Seconds(s int64) Time { return Time{Sec: s} }

// Of is the Time of t.
func Of(t time.Time) Time { return Time{Sec: t.Unix(), Nsec: int32(t.Nanosecond())} }

// before reports whether a is earlier than b.
func (a Time) before(b Time) bool { return a.Sec < b.Sec || a.Sec == b.Sec && a.Nsec < b.Nsec }

func (a Time) String() string {
	return time.Unix(a.Sec, int64(a.Nsec)).UTC().Format(time.RFC3339Nano)
}

// Claims are a token's registered claims as the checks read them. Has
// says which of exp, nbf, iat and aud were present; Audience holds the aud
// values (PASETO's single string is a one-element slice).
type Claims struct {
	Has                 uint8
	Exp, Nbf, Iat       Time
	Issuer, Subject, ID string
	Audience            []string
}

// Rules are a verifier's policy for the registered claims: the fields of
// jwt.Policy and paseto.Policy that bear on them.
type Rules struct {
	Issuer, Subject, ID string
	// Audience: the token's aud must hold at least one of these; a token
	// without aud is then refused. When empty, a token with aud is
	// refused unless IgnoreAudience.
	Audience []string
	// IgnoreAudience: aud is not checked at all.
	IgnoreAudience bool
	// NoExpiry accepts tokens without exp (exp is enforced when present).
	NoExpiry bool
	// Leeway allows for clock skew, in [0, MaxLeeway].
	Leeway time.Duration
	// Now is the clock; nil means Now (the wall clock).
	Now func() time.Time
}

// Fine reports, cheaply enough for every token, whether rules with these
// fields are Valid; when it says false, Valid says why.
func Fine(leeway time.Duration, audience []string, ignoreAudience bool) bool {
	if leeway < 0 || leeway > MaxLeeway || ignoreAudience && len(audience) > 0 {
		return false
	}
	for _, a := range audience {
		if a == "" {
			return false
		}
	}
	return true
}

// Valid checks the rules themselves, before any token is looked at; the
// error wraps signet.ErrUnsupported, prefixed by what ("jwt policy").
func (r *Rules) Valid(what string) error {
	if r.Leeway < 0 || r.Leeway > MaxLeeway {
		return fmt.Errorf("%w: %s: Leeway %v outside [0, %v]", signet.ErrUnsupported, what, r.Leeway, MaxLeeway)
	}
	if r.IgnoreAudience && len(r.Audience) > 0 {
		return fmt.Errorf("%w: %s: Audience and IgnoreAudience both set", signet.ErrUnsupported, what)
	}
	for _, a := range r.Audience {
		if a == "" {
			return fmt.Errorf("%w: %s: an empty Audience value", signet.ErrUnsupported, what)
		}
	}
	return nil
}

// Check applies the rules (already Valid) to c, in a fixed order: exp,
// nbf, iat, iss, aud, sub, jti. A token is expired at exp (RFC 7519
// §4.1.4): now - leeway >= exp; not yet valid while now + leeway < nbf;
// issued in the future when iat > now + leeway.
func (r *Rules) Check(c *Claims) error {
	var now time.Time
	if r.Now != nil {
		now = r.Now()
	} else {
		now = Now()
	}
	n := Of(now)
	late, early := n, n // zero leeway means none: both are now
	if r.Leeway != 0 {
		late, early = Of(now.Add(-r.Leeway)), Of(now.Add(r.Leeway))
	}
	switch {
	case c.Has&HasExp == 0:
		if !r.NoExpiry {
			return fmt.Errorf("%w: exp", signet.ErrMissingClaim)
		}
	case !late.before(c.Exp):
		return fmt.Errorf("%w: exp %v, now %v", signet.ErrExpired, c.Exp, n)
	}
	if c.Has&HasNbf != 0 && early.before(c.Nbf) {
		return fmt.Errorf("%w: nbf %v, now %v", signet.ErrNotYetValid, c.Nbf, n)
	}
	if c.Has&HasIat != 0 && early.before(c.Iat) {
		return fmt.Errorf("%w: iat %v, now %v", signet.ErrIssuedInFuture, c.Iat, n)
	}
	if r.Issuer != "" && c.Issuer != r.Issuer {
		return fmt.Errorf("%w: iss %q", signet.ErrIssuer, clip.String(c.Issuer))
	}
	if !r.IgnoreAudience {
		if err := r.checkAudience(c); err != nil {
			return err
		}
	}
	if r.Subject != "" && c.Subject != r.Subject {
		return fmt.Errorf("%w: sub %q", signet.ErrSubject, clip.String(c.Subject))
	}
	if r.ID != "" && c.ID != r.ID {
		return fmt.Errorf("%w: jti %q", signet.ErrTokenID, clip.String(c.ID))
	}
	return nil
}

// checkAudience: RFC 7519 §4.1.3, a principal that does not identify
// itself with a value of a present aud must refuse the token.
func (r *Rules) checkAudience(c *Claims) error {
	if len(r.Audience) == 0 {
		if c.Has&HasAud != 0 {
			return fmt.Errorf("%w: the token names an audience and the verifier none (set Audience, or IgnoreAudience where it is checked elsewhere)", signet.ErrAudience)
		}
		return nil
	}
	if c.Has&HasAud == 0 {
		return fmt.Errorf("%w: no aud, want %q", signet.ErrAudience, clip.String(r.Audience[0]))
	}
	for _, want := range r.Audience {
		for _, got := range c.Audience {
			if got == want {
				return nil
			}
		}
	}
	return fmt.Errorf("%w: want %q", signet.ErrAudience, clip.String(r.Audience[0]))
}
