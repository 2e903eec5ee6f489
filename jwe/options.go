package jwe

import (
	"fmt"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwt"
)

// Policy is jwt.Policy: Decrypt checks the claims of a JWE exactly as
// jwt.Verify checks a JWS's (exp required unless NoExpiry, audience,
// issuer, leeway, clock). Type applies to the JWE's typ header (absent or
// "JWT" when empty) and MaxSize to the whole token (DefaultMaxSize when
// zero).
type Policy = jwt.Policy

// DefaultMaxSize is the largest token accepted when Policy.MaxSize is
// zero: jwt's.
const DefaultMaxSize = jwt.DefaultMaxSize

// The PBES2 iteration counts (RFC 7518 §4.8). Encrypt uses
// DefaultPBES2Count (or Options.PBES2Count); Decrypt refuses a p2c above
// MaxPBES2Count with signet.ErrTooLarge, and one below MinPBES2Count (RFC
// 7518 §4.8.1.2 recommends at least 1000) with signet.ErrWeakKey, both when
// the header is read, before a key is chosen and before any PBKDF2 work:
// p2c is chosen by whoever wrote the token, and a count of 10⁹ would make
// one forged token cost minutes of CPU.
const (
	DefaultPBES2Count = 310_000
	MaxPBES2Count     = 600_000
	MinPBES2Count     = 1000
)

// Options are what Encrypt issues a token with besides its claims: the
// issuing defaults of jwt.Options (iat = now, exp = now + Lifetime unless
// NoExpiry), and for PBES2 keys the iteration count.
type Options struct {
	// Lifetime sets exp = now + Lifetime when the claims have no exp; zero
	// means jwt.DefaultLifetime.
	Lifetime time.Duration
	// NoExpiry encrypts a token without exp when the claims have none
	// (Decrypt then needs Policy.NoExpiry).
	NoExpiry bool
	// Now is the issuing clock; nil means the wall clock, as time.Now reads it (to the microsecond, without the monotonic clock).
	Now func() time.Time
	// PBES2Count is the PBKDF2 iteration count for PBES2 keys, in
	// [MinPBES2Count, MaxPBES2Count]; zero means DefaultPBES2Count.
	PBES2Count int
}

// options returns the one Options of a variadic argument.
func options(opts []Options) (Options, error) {
	switch len(opts) {
	case 0:
		return Options{}, nil
	case 1:
	default:
		return Options{}, fmt.Errorf("%w: jwe takes at most one Options, got %d", signet.ErrUnsupported, len(opts))
	}
	o := opts[0]
	if o.PBES2Count != 0 && (o.PBES2Count < MinPBES2Count || o.PBES2Count > MaxPBES2Count) {
		return Options{}, fmt.Errorf("%w: Options.PBES2Count %d outside [%d, %d]", signet.ErrUnsupported, o.PBES2Count, MinPBES2Count, MaxPBES2Count)
	}
	return o, nil
}

func (o *Options) jwt() jwt.Options {
	return jwt.Options{Lifetime: o.Lifetime, NoExpiry: o.NoExpiry, Now: o.Now}
}

func (o *Options) pbes2Count() int {
	if o.PBES2Count == 0 {
		return DefaultPBES2Count
	}
	return o.PBES2Count
}
