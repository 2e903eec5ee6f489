package jwt_test

import (
	"errors"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwt"
)

// cachedKeys is a signet.CachedKeys as a remote key set is one: a cached
// set, and a Select that is reached only on a miss.
type cachedKeys struct {
	set     *signet.KeySet
	err     error // what Select answers
	selects int
	lastKID string
}

func (c *cachedKeys) Cached() *signet.KeySet { return c.set }

func (c *cachedKeys) Select(kid string, alg signet.Algorithm) (signet.Candidates, error) {
	c.selects++
	c.lastKID = kid
	if c.err != nil {
		return signet.Candidates{}, c.err
	}
	return c.set.Select(kid, alg)
}

func TestCachedKeys(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	key := mustKey(t, signet.ES256).WithKeyID("k1")
	other := mustKey(t, signet.ES256).WithKeyID("k2")
	p := jwt.Policy{Now: fixed(now)}
	sign := func(k *signet.Key) string {
		tok, err := jwt.Sign(k, jwt.Claims{Subject: "s"}, jwt.Options{Now: fixed(now)})
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	good, unknown := sign(key), sign(other)

	t.Run("hit", func(t *testing.T) {
		ck := &cachedKeys{set: mustSet(t, key)}
		if _, err := jwt.Verify[jwt.Claims](ck, good, p); err != nil {
			t.Fatal(err)
		}
		if ck.selects != 0 {
			t.Fatalf("a hit in the cached set called Select %d times", ck.selects)
		}
		plain := mustSet(t, key)
		base := testing.AllocsPerRun(100, func() { _, _ = jwt.Verify[jwt.Claims](plain, good, p) })
		got := testing.AllocsPerRun(100, func() { _, _ = jwt.Verify[jwt.Claims](ck, good, p) })
		if got > base {
			t.Fatalf("a cached hit allocates %.0f times, a KeySet %.0f", got, base)
		}
	})
	t.Run("miss goes to Select", func(t *testing.T) {
		ck := &cachedKeys{set: mustSet(t, key), err: signet.ErrKeyNotFound}
		_, err := jwt.Verify[jwt.Claims](ck, unknown, p)
		if !errors.Is(err, signet.ErrKeyNotFound) || ck.selects != 1 || ck.lastKID != "k2" {
			t.Fatalf("err %v, %d selects, kid %q", err, ck.selects, ck.lastKID)
		}
	})
	t.Run("miss then found", func(t *testing.T) {
		// Select may find what the cached set lacked (a refetch).
		ck := &cachedKeys{set: mustSet(t, key)}
		refreshed := &refetching{cachedKeys: ck, fresh: mustSet(t, key, other)}
		if _, err := jwt.Verify[jwt.Claims](refreshed, unknown, p); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("nothing cached", func(t *testing.T) {
		ck := &cachedKeys{err: signet.ErrUnavailable}
		_, err := jwt.Verify[jwt.Claims](ck, good, p)
		if !errors.Is(err, signet.ErrUnavailable) || ck.selects != 1 {
			t.Fatalf("err %v, %d selects", err, ck.selects)
		}
	})
}

// refetching answers a miss from a fresher set, as a remote set that
// refetched would.
type refetching struct {
	*cachedKeys
	fresh *signet.KeySet
}

func (r *refetching) Select(kid string, alg signet.Algorithm) (signet.Candidates, error) {
	return r.fresh.Select(kid, alg)
}

func TestCandidatesCheck(t *testing.T) {
	k := mustKey(t, signet.HS256)
	many := make([]*signet.Key, signet.MaxAnonymousCandidates+1)
	for i := range many {
		many[i] = k
	}
	for _, c := range []struct {
		cands signet.Candidates
		ok    bool
	}{
		{signet.CandidatesOf(), false},
		{signet.CandidatesOf(k), true},
		{signet.CandidatesOf(many[:signet.MaxAnonymousCandidates]...), true},
		{signet.CandidatesOf(many...), false},
	} {
		err := c.cands.Check(signet.HS256)
		if c.ok != (err == nil) || (err != nil && !errors.Is(err, signet.ErrKeyNotFound)) {
			t.Errorf("%d candidates: %v", c.cands.Len(), err)
		}
	}
}
