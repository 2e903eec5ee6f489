package keys

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/server/storage"
)

// TestFullRingPostponesRotation: a short Rotate with the default
// MaxTokenTTL keeps a retired key for each period of a day (signet serve
// --rotate 60s holds some 1,400 ES256 keys), more than fit in
// storage.MaxKeyRingSize. A rotation whose ring cannot be stored
// (storage.ErrInvalid) is postponed, not an outage: the instance goes on
// signing with the active key of the ring the store holds (published in
// its JWKS), stays ready, and rotates once retired keys have left enough
// room.
func TestFullRingPostponesRotation(t *testing.T) {
	ctx := context.Background()
	kek := newKEK(t)
	start := time.Unix(1_800_000_000, 0).UTC()
	var mu sync.Mutex
	now := start
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	set := func(t time.Time) { mu.Lock(); now = t; mu.Unlock() }

	mk := func(st storage.KeyState) storage.Key {
		_, k, err := generate(signet.EdDSA, kek, start.Add(-time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		k.State = st
		switch st {
		case storage.KeyActive:
			k.ActivateAt, k.RetireAt = start.Add(-time.Second), start.Add(10*time.Second)
		case storage.KeyNext:
			k.ActivateAt = start.Add(10 * time.Second)
		case storage.KeyRetired:
			k.ActivateAt, k.RetireAt, k.RemoveAt = start.Add(-time.Hour), start.Add(-time.Minute), start.Add(23*time.Hour)
		}
		return k
	}
	// As many retired keys as fit: the encoded ring is
	// {"version":1,"keys":[…]} with its records apart by commas.
	size := len(`{"version":1,"keys":[]}`) - 1
	add := func(ring []storage.Key, k storage.Key) ([]storage.Key, bool) {
		b, err := json.Marshal(k)
		if err != nil {
			t.Fatal(err)
		}
		if size+1+len(b) > storage.MaxKeyRingSize {
			return ring, false
		}
		size += 1 + len(b)
		return append(ring, k), true
	}
	active, next := mk(storage.KeyActive), mk(storage.KeyNext)
	ring, _ := add(nil, active)
	ring, _ = add(ring, next)
	for ok := true; ok; {
		r := mk(storage.KeyRetired)
		if len(ring) == 2 {
			r.RemoveAt = start.Add(20 * time.Second) // the first to go
		}
		ring, ok = add(ring, r)
	}
	mem := storage.NewMemory(clock)
	if _, err := mem.SwapKeys(ctx, 0, ring); err != nil {
		t.Fatal(err)
	}
	m, err := New(mem, Config{Algorithm: signet.EdDSA, KEK: kek, Rotate: 10 * time.Second, MaxAge: 2 * time.Second, Reload: time.Second, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Refresh(ctx); err != nil {
		t.Fatal(err)
	}

	set(start.Add(10 * time.Second)) // the rotation is due; its ring does not fit
	planned, _, _, err := m.cfg.plan(ring, clock())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := storage.EncodeKeyRing(storage.KeyRing{Version: 2, Keys: planned}); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("vacuous: the rotated ring of %d keys fits (%v)", len(planned), err)
	}
	if err := m.Refresh(ctx); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("Refresh with a rotation that does not fit = %v; want storage.ErrInvalid", err)
	}
	k, err := m.Signer(ctx)
	if err != nil || k.KeyID() != active.ID || !m.Ready() {
		t.Fatalf("Signer after a postponed rotation = %v, %v (ready %v); want the active key %s", k, err, m.Ready(), active.ID)
	}
	if !strings.Contains(string(m.cur.Load().jwks.body), active.ID) {
		t.Fatal("the active key is not published")
	}
	if r, _ := mem.Keys(ctx); r.Version != 1 {
		t.Fatalf("ring written (v%d)", r.Version)
	}

	set(start.Add(20 * time.Second)) // one retired key gone: room for the rotation
	if err := m.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if k, err := m.Signer(ctx); err != nil || k.KeyID() != next.ID {
		t.Fatalf("Signer after the rotation = %v, %v; want the former next key %s", k, err, next.ID)
	}
}
