package jwt_test

import (
	"errors"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwt"
)

// setSource is a key source that serves hits from a *signet.KeySet it
// exposes, as jwks.Remote does, and counts the lookups that reach Select.
type setSource struct {
	set     *signet.KeySet
	err     error // returned by KeySet and Select when set
	selects int
}

func (s *setSource) KeySet() (*signet.KeySet, error) { return s.set, s.err }

func (s *setSource) Select(kid string, alg signet.Algorithm) (signet.Candidates, error) {
	s.selects++
	if s.err != nil {
		return signet.Candidates{}, s.err
	}
	return s.set.Select(kid, alg)
}

// TestKeySetSource: jwt.Verify looks a hit up in a source's KeySet
// directly (no copies: the same allocations as with the set itself), and
// sends misses and the source's errors through as Select would.
func TestKeySetSource(t *testing.T) {
	k := mustKey(t, signet.EdDSA).WithKeyID("k")
	src := &setSource{set: mustSet(t, k)}
	tok, err := jwt.Sign(k, jwt.Claims{Subject: "s", ExpiresAt: jwt.At(time.Now().Add(time.Hour))})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := jwt.Verify[jwt.Claims](src, tok, jwt.Policy{}); err != nil || src.selects != 0 {
		t.Fatalf("hit: %v, %d Select calls", err, src.selects)
	}
	viaSet := testing.AllocsPerRun(100, func() { jwt.Verify[jwt.Claims](src.set, tok, jwt.Policy{}) })
	viaSource := testing.AllocsPerRun(100, func() { jwt.Verify[jwt.Claims](src, tok, jwt.Policy{}) })
	if viaSource != viaSet {
		t.Fatalf("allocations: %v through the source, %v through its set", viaSource, viaSet)
	}

	other := mustKey(t, signet.EdDSA).WithKeyID("other")
	miss, err := jwt.Sign(other, jwt.Claims{Subject: "s", ExpiresAt: jwt.At(time.Now().Add(time.Hour))})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := jwt.Verify[jwt.Claims](src, miss, jwt.Policy{}); !errors.Is(err, signet.ErrKeyNotFound) || src.selects != 1 {
		t.Fatalf("miss: %v, %d Select calls", err, src.selects)
	}
	src.err = signet.ErrUnavailable
	if _, err := jwt.Verify[jwt.Claims](src, tok, jwt.Policy{}); !errors.Is(err, signet.ErrUnavailable) {
		t.Fatalf("unavailable source: %v", err)
	}
}
