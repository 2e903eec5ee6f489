package keys_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/server/keys"
	"github.com/signet-go/signet/server/storage"
)

// t0 is the fake clock's start: a whole second, far from any real date
// that could expire.
var t0 = time.Unix(1_800_000_000, 0).UTC()

// clock is a fake clock, advanced by the test.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: t0} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}

func (c *clock) Advance(d time.Duration) { c.Set(c.Now().Add(d)) }

// testStore wraps a store: it fails every call while down, counts
// successful swaps and conflicts, and runs beforeSwap (once) before a
// SwapKeys, to stage a race.
type testStore struct {
	storage.Store
	down       atomic.Bool
	swaps      atomic.Int64
	conflicts  atomic.Int64
	beforeSwap atomic.Pointer[func()]
}

func (s *testStore) outage() error { return fmt.Errorf("%w: test outage", storage.ErrUnavailable) }

func (s *testStore) Keys(ctx context.Context) (storage.KeyRing, error) {
	if s.down.Load() {
		return storage.KeyRing{}, s.outage()
	}
	return s.Store.Keys(ctx)
}

func (s *testStore) SwapKeys(ctx context.Context, old uint64, ks []storage.Key) (storage.KeyRing, error) {
	if f := s.beforeSwap.Swap(nil); f != nil {
		(*f)()
	}
	if s.down.Load() {
		return storage.KeyRing{}, s.outage()
	}
	r, err := s.Store.SwapKeys(ctx, old, ks)
	switch {
	case err == nil:
		s.swaps.Add(1)
	case isConflict(err):
		s.conflicts.Add(1)
	}
	return r, err
}

func isConflict(err error) bool { return err != nil && errors.Is(err, storage.ErrConflict) }

// fastConfig is a rotation on a small scale: a period of 10 s, a JWKS
// max-age of 2 s (a next key published 4 s ahead), tokens of at most 5 s.
func fastConfig(t testing.TB, clk *clock, kek *signet.Key, alg signet.Algorithm) keys.Config {
	t.Helper()
	return keys.Config{
		Algorithm:   alg,
		Rotate:      10 * time.Second,
		MaxAge:      2 * time.Second,
		MaxTokenTTL: 5 * time.Second,
		Reload:      time.Second,
		Now:         clk.Now,
		KEK:         kek,
	}
}

func mustKEK(t testing.TB) *signet.Key {
	t.Helper()
	k, err := keys.GenerateKEK()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func mustNew(t testing.TB, s storage.Store, cfg keys.Config) *keys.Manager {
	t.Helper()
	m, err := keys.New(s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func mustRefresh(t testing.TB, m *keys.Manager) {
	t.Helper()
	if err := m.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func signerKID(t testing.TB, m *keys.Manager) string {
	t.Helper()
	k, err := m.Signer(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return k.KeyID()
}

func ring(t testing.TB, s storage.Store) storage.KeyRing {
	t.Helper()
	r, err := s.Keys(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// byState returns the ring's keys in state st.
func byState(r storage.KeyRing, st storage.KeyState) []storage.Key {
	var out []storage.Key
	for _, k := range r.Keys {
		if k.State == st {
			out = append(out, k)
		}
	}
	return out
}

// checkInvariants checks what every stored ring must satisfy under cfg.
func checkInvariants(t testing.TB, r storage.KeyRing, cfg keys.Config) {
	t.Helper()
	act, next := byState(r, storage.KeyActive), byState(r, storage.KeyNext)
	if len(act) != 1 || len(next) != 1 {
		t.Fatalf("ring v%d: %d active and %d next keys; want one each", r.Version, len(act), len(next))
	}
	if lead := next[0].ActivateAt.Sub(next[0].Created); lead < 2*cfg.MaxAge+cfg.Leeway {
		t.Fatalf("next key %s published %v before it signs; want at least %v", next[0].ID, lead, 2*cfg.MaxAge+cfg.Leeway)
	}
	for _, k := range byState(r, storage.KeyRetired) {
		if grace := k.RemoveAt.Sub(k.RetireAt); grace != cfg.MaxTokenTTL+cfg.MaxAge+cfg.Leeway {
			t.Fatalf("retired key %s kept %v; want %v", k.ID, grace, cfg.MaxTokenTTL+cfg.MaxAge+cfg.Leeway)
		}
	}
}
