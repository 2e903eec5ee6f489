package signet

import (
	"fmt"

	"github.com/signet-go/signet/internal/clip"
)

// Keys is where verification finds its key: a single *Key or a *KeySet.
// Select returns the candidate keys for input that names the key ID kid
// (possibly empty) and the algorithm alg, or an error wrapping
// ErrKeyNotFound or ErrAlgorithmMismatch. Verifiers use a candidate only
// if it is bound to alg.
type Keys interface {
	Select(kid string, alg Algorithm) (Candidates, error)
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

// At returns candidate i, 0 ≤ i < Len().
func (c Candidates) At(i int) *Key {
	if c.one != nil && i == 0 {
		return c.one
	}
	return c.many[i]
}

// KeySet is an immutable set of verification keys, looked up by key ID and,
// for input without a key ID, by algorithm. It is safe for concurrent use.
type KeySet struct {
	keys  []*Key
	byKID map[string]*Key
	byAlg map[Algorithm][]*Key // keys without a key ID, by algorithm
}

// NewKeySet makes a set of keys. Key IDs must be unique; keys without a key
// ID are selected by algorithm alone.
func NewKeySet(keys ...*Key) (*KeySet, error) {
	s := &KeySet{byKID: make(map[string]*Key), byAlg: make(map[Algorithm][]*Key)}
	for i, k := range keys {
		if k == nil {
			return nil, fmt.Errorf("%w: key set: key %d is nil", ErrKeyUsage, i)
		}
		if k.isZero() {
			return nil, fmt.Errorf("key set: key %d: %w", i, errZeroKey)
		}
		if k.kid == "" {
			s.byAlg[k.spec.name] = append(s.byAlg[k.spec.name], k)
		} else {
			if _, dup := s.byKID[k.kid]; dup {
				return nil, fmt.Errorf("%w: key set: duplicate kid %q", ErrUnsupported, clip.String(k.kid))
			}
			s.byKID[k.kid] = k
		}
		s.keys = append(s.keys, k)
	}
	return s, nil
}

// Keys returns the keys of the set in the order they were given.
func (s *KeySet) Keys() []*Key { return append([]*Key(nil), s.keys...) }

// Len returns the number of keys in the set.
func (s *KeySet) Len() int { return len(s.keys) }

// Lookup returns the key with key ID kid.
func (s *KeySet) Lookup(kid string) (*Key, bool) {
	k, ok := s.byKID[kid]
	return k, ok
}

// Select implements Keys. With a key ID, the key must exist and be bound to
// alg. Without one, the candidates are the set's keys for alg that have no
// key ID; if there are none, every key for alg.
func (s *KeySet) Select(kid string, alg Algorithm) (Candidates, error) {
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
	if c := s.byAlg[alg]; len(c) > 0 {
		return Candidates{many: c}, nil
	}
	var c []*Key
	for _, k := range s.keys {
		if k.spec.name == alg {
			c = append(c, k)
		}
	}
	if len(c) == 0 {
		return Candidates{}, fmt.Errorf("%w: no key for algorithm %q", ErrKeyNotFound, clip.String(string(alg)))
	}
	return Candidates{many: c}, nil
}
