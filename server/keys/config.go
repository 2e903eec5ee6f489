package keys

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/signet-go/signet"
)

// The defaults of Config (DESIGN §7).
const (
	DefaultAlgorithm   = signet.ES256
	DefaultRotate      = 7 * 24 * time.Hour
	DefaultMaxAge      = 15 * time.Minute
	DefaultMaxTokenTTL = 24 * time.Hour
	DefaultReload      = 30 * time.Second
	// StaleIfError is the stale-if-error the JWKS handler sends: how long
	// a cache may keep serving the key set when this service fails.
	StaleIfError = 24 * time.Hour
)

// Config is how a Manager rotates. Only KEK is required; zero fields take
// the defaults above.
type Config struct {
	// Algorithm of the keys generated from now on: any JWS signature
	// algorithm (ES256 by default, EdDSA, RS256, PS256, HS256, …) or
	// v4.public. Keys already in the ring keep their algorithm until they
	// rotate out; a next key of another algorithm made before New (the
	// service restarted with another algorithm) never signed and is
	// replaced at once by one of this algorithm, which takes over after
	// the publish lead (2×MaxAge + Leeway) instead of a period or two
	// later.
	Algorithm signet.Algorithm
	// Rotate is how long a key signs before the next one takes over.
	// A period shorter than 2×MaxAge + Leeway is stretched to it (a key
	// is published that long before it signs), and one so short that the
	// retired keys of MaxTokenTTL no longer fit in the stored ring or the
	// JWKS is stretched as needed (see the package doc).
	Rotate time.Duration
	// MaxAge is the JWKS max-age (Cache-Control) and so the oldest key set
	// a client may hold. When zero it is DefaultMaxAge, or Rotate/2 (whole
	// seconds, at least 1 s) when Rotate is shorter than 2×DefaultMaxAge,
	// so that a short period (seconds, for tests) really rotates that
	// often instead of being stretched to 30 minutes.
	MaxAge time.Duration
	// MaxTokenTTL is the longest lifetime of a token signed with these
	// keys: a retired key stays published that long (plus MaxAge and
	// Leeway) after it stopped signing.
	MaxTokenTTL time.Duration
	// Leeway is the clock skew allowed between this service, its replicas
	// and the verifiers; it lengthens the retired grace and the time a
	// next key is published before it signs.
	Leeway time.Duration
	// Reload is how often Run reloads the ring from the store and rotates
	// when due (DefaultReload, or MaxAge when that is shorter). It must
	// not exceed MaxAge: another instance may lag that long behind a
	// rotation. It is also how soon a store outage stops signing (see
	// Manager.Signer).
	Reload time.Duration
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// KEK is the key-encryption key, a v4.local key (see LoadKEK,
	// KEKFromEnv, LoadOrCreateKEK): every private key is wrapped under it
	// before it reaches the store.
	KEK *signet.Key
	// Logger receives rotation events and store errors (nothing when nil).
	// It never receives key material.
	Logger *slog.Logger
	// Observer is told of rotations and store failures, for metrics (see
	// the metrics package); nil observes nothing.
	Observer Observer

	// since is when the Manager was made (by Now): next keys of another
	// algorithm made before it are replaced (see plan).
	since time.Time
}

// withDefaults returns c with defaults filled in, or an error wrapping
// signet.ErrUnsupported (an algorithm the service cannot sign with),
// signet.ErrKeyUsage (no or a wrong KEK), signet.ErrWeakKey (a placeholder
// KEK) or signet.ErrMalformed (negative or inconsistent durations).
func (c Config) withDefaults() (Config, error) {
	if c.Algorithm == "" {
		c.Algorithm = DefaultAlgorithm
	}
	if !c.Algorithm.IsJWS() && c.Algorithm != signet.V4Public {
		return c, fmt.Errorf("%w: keys: algorithm %q (want a JWS signature algorithm or v4.public)", signet.ErrUnsupported, c.Algorithm)
	}
	if c.Rotate == 0 {
		c.Rotate = DefaultRotate
	}
	if c.MaxAge == 0 {
		c.MaxAge = scaledMaxAge(c.Rotate)
	}
	if c.MaxTokenTTL == 0 {
		c.MaxTokenTTL = DefaultMaxTokenTTL
	}
	if c.Reload == 0 {
		c.Reload = min(DefaultReload, c.MaxAge)
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.Observer == nil {
		c.Observer = nopObserver{}
	}
	if c.Rotate < 0 || c.MaxAge < 0 || c.MaxTokenTTL < 0 || c.Leeway < 0 || c.Reload < 0 {
		return c, fmt.Errorf("%w: keys: negative duration in Config", signet.ErrMalformed)
	}
	if c.MaxAge < time.Second {
		return c, fmt.Errorf("%w: keys: MaxAge %v (at least 1s: Cache-Control counts seconds)", signet.ErrMalformed, c.MaxAge)
	}
	if c.Reload > c.MaxAge {
		return c, fmt.Errorf("%w: keys: Reload %v exceeds MaxAge %v (a replica could sign with a key no cached JWKS holds)", signet.ErrMalformed, c.Reload, c.MaxAge)
	}
	if err := checkKEK(c.KEK); err != nil {
		return c, err
	}
	return c, nil
}

// scaledMaxAge is the default MaxAge for a rotation period: DefaultMaxAge,
// or half the period when that is shorter (whole seconds, at least 1 s:
// Cache-Control counts seconds), so that the publish lead (2×MaxAge) fits
// in the period and a period of seconds rotates every few seconds.
func scaledMaxAge(rotate time.Duration) time.Duration {
	if rotate <= 0 || rotate >= 2*DefaultMaxAge {
		return DefaultMaxAge
	}
	return max(time.Second, (rotate / 2).Truncate(time.Second))
}

// publishLead is how long a next key is published before it may sign:
// 2×MaxAge, and Leeway for an instance whose clock is ahead.
func (c *Config) publishLead() time.Duration { return 2*c.MaxAge + c.Leeway }

// retiredGrace is how long a retired key stays published.
func (c *Config) retiredGrace() time.Duration { return c.MaxTokenTTL + c.MaxAge + c.Leeway }
