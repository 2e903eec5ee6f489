// Package storage is the state of the token service behind one small
// interface, so that one instance can keep it embedded on disk and many
// instances can share it in Redis, with one conformance suite
// (storage/conformance) run against every implementation.
//
// The state is of three kinds:
//
//   - the key ring: the service's signing keys with their rotation states
//     (next, active, retired), read whole and replaced whole by
//     compare-and-swap on its version, so that when many instances try to
//     rotate at once exactly one succeeds;
//   - revocations: token ids (jti) refused until the token would have
//     expired anyway, after which the entry goes;
//   - used ids: client-assertion ids (RFC 7523 jti) accepted at most once,
//     remembered until the assertion would have expired.
//
// Every method takes a context and honours its deadline: an implementation
// that cannot reach its store returns an error wrapping ErrUnavailable,
// and the service then fails closed (503), never answering as if nothing
// were revoked.
//
// The implementations: Memory (NewMemory, for `signet serve --dev` and
// tests), storage/boltstore (one bbolt file, `--data`), and
// storage/redisstore (shared by many instances, `--redis`). The
// persistent ones keep the key ring as EncodeKeyRing's JSON.
package storage

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/signet-go/signet"
)

// ErrUnavailable wraps every error that means the store could not be
// reached or did not answer in time: the caller must fail closed. It
// wraps signet.ErrUnavailable.
var ErrUnavailable error = &sentinel{"storage: unavailable", signet.ErrUnavailable}

// ErrConflict is returned by SwapKeys when the key ring changed since the
// version the caller read: another instance rotated first.
var ErrConflict = errors.New("storage: key ring changed (another instance rotated)")

// ErrInvalid wraps errors for arguments no store accepts (an empty id, an
// oversized key ring) and for stored data that no store wrote (a key ring
// that does not decode). It wraps signet.ErrMalformed.
var ErrInvalid error = &sentinel{"storage: invalid argument", signet.ErrMalformed}

// sentinel is an error of this package that is one of package signet's
// too (errors.Is matches both), with this package's text.
type sentinel struct {
	msg  string
	base error
}

func (e *sentinel) Error() string { return e.msg }
func (e *sentinel) Unwrap() error { return e.base }

// MaxIDLength bounds the ids (jti) the store accepts, in bytes.
const MaxIDLength = 256

// CheckID is the id rule every Store applies: non-empty, at most
// MaxIDLength bytes. It returns an error wrapping ErrInvalid.
func CheckID(id string) error {
	if id == "" || len(id) > MaxIDLength {
		return fmt.Errorf("%w: id of %d bytes (1 to %d)", ErrInvalid, len(id), MaxIDLength)
	}
	return nil
}

// MaxKeyRingSize bounds the encoded key ring, in bytes.
const MaxKeyRingSize = 1 << 20

// KeyState is where a key is in its rotation.
type KeyState string

// The rotation states. A next key is published but does not sign; the
// active key signs (exactly one at a time); a retired key is published
// until its RemoveAt, so that tokens it signed and cached key sets holding
// it stay valid; then it is removed from the ring.
const (
	KeyNext    KeyState = "next"
	KeyActive  KeyState = "active"
	KeyRetired KeyState = "retired"
)

// Key is one key of the ring, as stored: the private key only in wrapped
// form (encrypted under the service's key-encryption key; the store never
// sees it in the clear), the public key as a JWK (or PASERK) to publish.
type Key struct {
	ID        string    `json:"kid"` // RFC 7638 thumbprint (JWS) or PASERK pid
	Algorithm string    `json:"alg"` // signet algorithm name: ES256, EdDSA, v4.public, …
	State     KeyState  `json:"state"`
	Wrapped   string    `json:"wrapped"` // the private key, wrapped
	Public    string    `json:"public"`  // the public key (JWK JSON or PASERK); empty for HMAC keys
	Created   time.Time `json:"created"`
	// ActivateAt is when a next key may start signing; RetireAt when an
	// active key stops; RemoveAt when a retired key leaves the ring.
	ActivateAt time.Time `json:"activate_at,omitzero"`
	RetireAt   time.Time `json:"retire_at,omitzero"`
	RemoveAt   time.Time `json:"remove_at,omitzero"`
}

// KeyRing is the whole set of keys with the version it was stored at.
// Version 0 is the empty ring that was never stored.
type KeyRing struct {
	Version uint64 `json:"version"`
	Keys    []Key  `json:"keys"`
}

// Store is the service's state. Implementations are safe for concurrent
// use by many goroutines and, where they are shared (Redis), by many
// processes. Every implementation passes storage/conformance.
//
// Rules common to every method: a context already done, a closed store,
// or a store that cannot be reached or does not answer in time gives an
// error wrapping ErrUnavailable (the caller fails closed); an id that is
// empty or longer than MaxIDLength gives ErrInvalid, whatever else is
// wrong. An entry (revocation or used id) lives while the store's clock
// is before its until, and is deleted some time after (never before).
type Store interface {
	// Keys returns the current key ring (Version 0 and no keys when none
	// was ever stored). Its times are in UTC, to the nanosecond.
	Keys(ctx context.Context) (KeyRing, error)
	// SwapKeys replaces the key ring stored at version old with keys,
	// stored at version old+1, and returns the new ring (as Keys would
	// return it). When the stored version is not old it changes nothing
	// and returns ErrConflict; a ring whose encoding (EncodeKeyRing)
	// exceeds MaxKeyRingSize is ErrInvalid.
	SwapKeys(ctx context.Context, old uint64, keys []Key) (KeyRing, error)

	// Revoke records that the token with id jti is refused until until
	// (its expiry, plus any leeway its verifiers grant); the entry goes
	// after that. Revoking twice is no error and keeps the later until;
	// an until already past records nothing.
	Revoke(ctx context.Context, jti string, until time.Time) error
	// Revoked reports whether jti is revoked (and its entry not yet
	// expired).
	Revoked(ctx context.Context, jti string) (bool, error)

	// UseOnce records id as used until until and reports whether this was
	// its first use, atomically: of many concurrent calls with one id,
	// exactly one gets true. After until the id is forgotten (and its
	// next use is a first one again); with an until already past, the
	// call is a first use that records nothing.
	UseOnce(ctx context.Context, id string, until time.Time) (first bool, err error)

	// Ping reports whether the store is reachable (for /readyz).
	Ping(ctx context.Context) error
	// Close releases the store's resources; every later call fails with
	// ErrUnavailable. Closing twice is no error.
	Close() error
}
