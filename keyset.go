package signet

import (
	"fmt"

	"github.com/signet-go/signet/internal/clip"
)

// Keys is where verification finds its key: a single *Key or a *KeySet.
// Select returns the candidate keys for input that names the key ID kid
// (possibly empty) and the algorithm alg, or an error wrapping
// ErrKeyNotFound or ErrAlgorithmMismatch (ErrKeyUsage for a nil *Key or
// *KeySet). Verifiers use a candidate only if it is bound to alg, and
// refuse input for which more than MaxAnonymousCandidates are offered:
// an implementation of Keys cannot make one token cost more checks.
type Keys interface {
	Select(kid string, alg Algorithm) (Candidates, error)
}

// CachedKeys is implemented by key sources that keep a *KeySet fetched
// from elsewhere (a remote JWK Set, see package jwks). Verifiers look the
// key up in Cached() first, which costs what a KeySet lookup costs and
// allocates nothing, and call Select only when that lookup fails, so that
// the source can act on the miss (refetch, or say it is unavailable).
type CachedKeys interface {
	Keys
	// Cached returns the set that may be used now, or nil when none may
	// (never fetched, or too stale): Select then gives the reason.
	Cached() *KeySet
}

// Candidates is a read-only list of keys, as Select returns it: the key
// set's own lists stay out of reach, and a single key needs no slice.
type Candidates struct {
	one  *Key
	many []*Key
}

// CandidatesOf makes a list of candidates (for implementations of Keys).
func CandidatesOf(keys ...*Key) Candidates {
	return Candidates{many: append([]*Key(nil), keys...)}
}

// Len is the number of candidates.
func (c Candidates) Len() int {
	if c.one != nil {
		return 1
	}
	return len(c.many)
}

// Check returns nil when the list can be tried for input in alg: it holds
// at least one key and at most MaxAnonymousCandidates. Otherwise the error
// wraps ErrKeyNotFound (an empty list, or one so long that trying it would
// let one input cost more checks than the bound allows: ambiguous).
// Verifiers call it on whatever a Keys implementation returns.
func (c Candidates) Check(alg Algorithm) error {
	if n := c.Len(); n == 0 || n > MaxAnonymousCandidates {
		return c.refuse(alg) // out of line: Check stays inlinable
	}
	return nil
}

func (c Candidates) refuse(alg Algorithm) error {
	if n := c.Len(); n > 0 {
		return fmt.Errorf("%w: %d candidate keys offered, at most signet.MaxAnonymousCandidates are tried: ambiguous", ErrKeyNotFound, n)
	}
	return fmt.Errorf("%w: no key for %s", ErrKeyNotFound, clip.String(string(alg)))
}

// At returns candidate i, 0 ≤ i < Len().
func (c Candidates) At(i int) *Key {
	if c.one != nil && i == 0 {
		return c.one
	}
	return c.many[i]
}

// MaxAnonymousCandidates is the most keys a KeySet offers for input that
// names no key ID (a JWT without "kid", a PASETO token without a "kid" in
// its footer). The verifiers of package jwt and package paseto try at
// most this many candidates from any Keys, and refuse input for which
// more are offered.
//
// The bound keeps the work a token can cause small: a forged token
// without a key ID costs at most this many signature checks, whatever the
// size of the set (a published JWK Set may hold a thousand keys, and a
// thousand RSA verifications per request is a denial of service). Four
// covers the sets that carry keys without IDs in practice: one key, or an
// old and a new key while a rotation overlaps, with room to spare. Input
// that would need more is refused as ambiguous: give the keys IDs, and
// have tokens name them.
const MaxAnonymousCandidates = 4

// KeySet is an immutable set of verification keys, looked up by key ID and,
// for input without a key ID, by algorithm (see Select). It is safe for
// concurrent use. A nil *KeySet selects nothing (ErrKeyUsage); a zero
// KeySet is an empty set.
type KeySet struct {
	keys  []*Key
	byKID map[string]*Key
	anon  map[Algorithm][]*Key // keys without a key ID, by algorithm
	count map[Algorithm]int    // all keys, by algorithm
	sole  map[Algorithm]*Key   // the key of an algorithm the set has one key for
}

// NewKeySet makes a set of keys. Key IDs must be unique; keys without a key
// ID are selected by algorithm alone. A nil or zero Key is refused with
// ErrKeyUsage.
func NewKeySet(keys ...*Key) (*KeySet, error) {
	s := &KeySet{
		byKID: make(map[string]*Key),
		anon:  make(map[Algorithm][]*Key),
		count: make(map[Algorithm]int),
		sole:  make(map[Algorithm]*Key),
	}
	for i, k := range keys {
		if k == nil {
			return nil, fmt.Errorf("%w: key set: key %d is nil", ErrKeyUsage, i)
		}
		if k.isZero() {
			return nil, fmt.Errorf("key set: key %d: %w", i, errZeroKey)
		}
		alg := k.spec.name
		if k.kid == "" {
			s.anon[alg] = append(s.anon[alg], k)
		} else {
			if _, dup := s.byKID[k.kid]; dup {
				return nil, fmt.Errorf("%w: key set: duplicate kid %q", ErrUnsupported, clip.String(k.kid))
			}
			s.byKID[k.kid] = k
		}
		if s.count[alg]++; s.count[alg] == 1 {
			s.sole[alg] = k
		} else {
			delete(s.sole, alg)
		}
		s.keys = append(s.keys, k)
	}
	return s, nil
}

// Keys returns the keys of the set in the order they were given.
func (s *KeySet) Keys() []*Key {
	if s == nil {
		return nil
	}
	return append([]*Key(nil), s.keys...)
}

// Len returns the number of keys in the set.
func (s *KeySet) Len() int {
	if s == nil {
		return 0
	}
	return len(s.keys)
}

// Lookup returns the key with key ID kid.
func (s *KeySet) Lookup(kid string) (*Key, bool) {
	if s == nil {
		return nil, false
	}
	k, ok := s.byKID[kid]
	return k, ok
}

var errNilSet = fmt.Errorf("%w: a nil *KeySet (make sets with NewKeySet)", ErrKeyUsage)

// Select implements Keys. With a key ID, the key must exist and be bound to
// alg: one candidate.
//
// Without a key ID, the work is bounded by MaxAnonymousCandidates:
//   - the candidates are the set's keys for alg that have no key ID, in the
//     order given, when there are at most MaxAnonymousCandidates of them;
//     more is ambiguous and refused;
//   - when the set has no key without an ID for alg, the set's key for alg
//     if it has exactly one (a single published key, with a token issuer
//     that does not name it); with several keys that all have IDs, input
//     without one is ambiguous and refused. Keys with IDs are never tried
//     one after the other: they are meant to be named.
//
// Refusals wrap ErrKeyNotFound (ambiguous sets included: no key can be
// chosen), or ErrAlgorithmMismatch when the key with ID kid is for another
// algorithm.
func (s *KeySet) Select(kid string, alg Algorithm) (Candidates, error) {
	if s == nil {
		return Candidates{}, errNilSet
	}
	if kid != "" {
		k, ok := s.byKID[kid]
		if !ok {
			return Candidates{}, fmt.Errorf("%w: kid %q", ErrKeyNotFound, clip.String(kid))
		}
		if k.spec.name != alg {
			return Candidates{}, fmt.Errorf("%w: input names %q, key %q is %s", ErrAlgorithmMismatch, clip.String(string(alg)), clip.String(kid), k.spec.name)
		}
		return Candidates{one: k}, nil
	}
	if c := s.anon[alg]; len(c) > 0 {
		if len(c) > MaxAnonymousCandidates {
			return Candidates{}, fmt.Errorf("%w: input names no kid and the set has %d keys without a key ID for %s, more than MaxAnonymousCandidates (%d): ambiguous", ErrKeyNotFound, len(c), c[0].spec.name, MaxAnonymousCandidates)
		}
		return Candidates{many: c}, nil
	}
	if k := s.sole[alg]; k != nil {
		return Candidates{one: k}, nil
	}
	if n := s.count[alg]; n > 1 {
		return Candidates{}, fmt.Errorf("%w: input names no kid and the set has %d keys for %s, each with a key ID: ambiguous", ErrKeyNotFound, n, clip.String(string(alg)))
	}
	return Candidates{}, fmt.Errorf("%w: no key for algorithm %q", ErrKeyNotFound, clip.String(string(alg)))
}
