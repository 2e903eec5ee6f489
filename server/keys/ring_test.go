package keys_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/server/keys"
	"github.com/signet-go/signet/server/storage"
)

// countingObserver counts what a Manager reports.
type countingObserver struct {
	rotated     atomic.Int64
	storeErrors atomic.Int64
	lastOp      atomic.Value
}

func (o *countingObserver) Rotated() { o.rotated.Add(1) }
func (o *countingObserver) StoreError(op string) {
	o.storeErrors.Add(1)
	o.lastOp.Store(op)
}

// Ring describes the ring served, in ring order, as the store holds it,
// and the Observer hears of rotations (not of a first start) and of
// store failures.
func TestRingAndObserver(t *testing.T) {
	clk := newClock()
	s := &testStore{Store: storage.NewMemory(clk.Now)}
	obs := &countingObserver{}
	cfg := fastConfig(t, clk, mustKEK(t), signet.ES256)
	cfg.Observer = obs
	m := mustNew(t, s, cfg)
	if r := m.Ring(); r != nil {
		t.Fatalf("Ring before a load: %v", r)
	}
	mustRefresh(t, m)
	if !m.Now().Equal(clk.Now()) {
		t.Errorf("Now %v, want the configured clock's %v", m.Now(), clk.Now())
	}
	check := func() []keys.KeyInfo {
		t.Helper()
		info, stored := m.Ring(), ring(t, s).Keys
		if len(info) != len(stored) {
			t.Fatalf("Ring has %d keys, the store %d", len(info), len(stored))
		}
		for i, k := range stored {
			want := keys.KeyInfo{ID: k.ID, Algorithm: signet.Algorithm(k.Algorithm), State: k.State, Published: true,
				Created: k.Created, ActivateAt: k.ActivateAt, RetireAt: k.RetireAt, RemoveAt: k.RemoveAt}
			if info[i] != want {
				t.Errorf("Ring[%d] = %+v, want %+v", i, info[i], want)
			}
		}
		return info
	}
	info := check()
	if info[0].State != storage.KeyActive || info[1].State != storage.KeyNext || info[0].ID != signerKID(t, m) {
		t.Fatalf("Ring order: %+v", info)
	}
	info[0].ID = "changed" // the caller's copy
	if m.Ring()[0].ID == "changed" {
		t.Error("Ring returned the Manager's own slice")
	}
	if obs.rotated.Load() != 0 {
		t.Errorf("first start counted as %d rotations", obs.rotated.Load())
	}

	clk.Advance(cfg.Rotate + time.Second)
	mustRefresh(t, m)
	if got := check(); len(got) != 3 || got[2].State != storage.KeyRetired {
		t.Fatalf("after rotation: %+v", got)
	}
	if obs.rotated.Load() != 1 {
		t.Errorf("rotations %d, want 1", obs.rotated.Load())
	}
	mustRefresh(t, m) // nothing due
	if obs.rotated.Load() != 1 {
		t.Errorf("rotations %d after an idle refresh, want 1", obs.rotated.Load())
	}

	s.down.Store(true)
	if err := m.Refresh(t.Context()); err == nil {
		t.Fatal("refresh with the store down succeeded")
	}
	if obs.storeErrors.Load() != 1 || obs.lastOp.Load() != keys.StoreOpKeys {
		t.Errorf("store errors %d (last %v), want 1 keys", obs.storeErrors.Load(), obs.lastOp.Load())
	}

	// The store fails at the write of a due rotation: swap_keys, and no
	// rotation counted.
	s.down.Store(false)
	clk.Advance(cfg.Rotate + time.Second)
	down := func() { s.down.Store(true) }
	s.beforeSwap.Store(&down)
	if err := m.Refresh(t.Context()); err == nil {
		t.Fatal("refresh with a failing swap succeeded")
	}
	if obs.storeErrors.Load() != 2 || obs.lastOp.Load() != keys.StoreOpSwapKeys {
		t.Errorf("store errors %d (last %v), want 2, swap_keys", obs.storeErrors.Load(), obs.lastOp.Load())
	}
	if obs.rotated.Load() != 1 {
		t.Errorf("rotations %d after a failed write, want 1", obs.rotated.Load())
	}
}
