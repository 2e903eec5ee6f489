package keys

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/server/storage"
)

// TestRepairRing: a ring this package would never write (two active keys,
// two next keys, an expired retired key) is served, and repaired at the
// next step: the active key activated last keeps signing, the other
// retires; the next key due first stays, the other goes.
func TestRepairRing(t *testing.T) {
	kek := newKEK(t)
	now := time.Unix(1_800_000_000, 0)
	mk := func(st storage.KeyState, activate time.Time) storage.Key {
		_, k, err := generate(signet.EdDSA, kek, now.Add(-time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		k.State, k.ActivateAt = st, activate
		if st == storage.KeyActive {
			k.RetireAt = now.Add(time.Hour)
		}
		if st == storage.KeyRetired {
			k.RetireAt, k.RemoveAt = now.Add(-time.Hour), now.Add(-time.Second)
		}
		return k
	}
	oldActive := mk(storage.KeyActive, now.Add(-time.Hour))
	newActive := mk(storage.KeyActive, now.Add(-time.Minute))
	lateNext := mk(storage.KeyNext, now.Add(2*time.Hour))
	soonNext := mk(storage.KeyNext, now.Add(time.Hour))
	expired := mk(storage.KeyRetired, time.Time{})
	mem := storage.NewMemory(func() time.Time { return now })
	if _, err := mem.SwapKeys(context.Background(), 0, []storage.Key{oldActive, lateNext, newActive, expired, soonNext}); err != nil {
		t.Fatal(err)
	}
	m, err := New(mem, Config{Algorithm: signet.EdDSA, KEK: kek, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	k, err := m.Signer(context.Background())
	if err != nil || k.KeyID() != newActive.ID {
		t.Fatalf("signer %v, %v; want the active key activated last", k.KeyID(), err)
	}
	r, _ := mem.Keys(context.Background())
	want := []struct {
		id string
		st storage.KeyState
	}{{newActive.ID, storage.KeyActive}, {soonNext.ID, storage.KeyNext}, {oldActive.ID, storage.KeyRetired}}
	if len(r.Keys) != len(want) {
		t.Fatalf("repaired ring has %d keys; want %d", len(r.Keys), len(want))
	}
	for i, w := range want {
		if r.Keys[i].ID != w.id || r.Keys[i].State != w.st {
			t.Fatalf("key %d: %s %s; want %s %s", i, r.Keys[i].ID, r.Keys[i].State, w.id, w.st)
		}
	}
	if got := r.Keys[2].RemoveAt; !got.Equal(now.Add(DefaultMaxTokenTTL + DefaultMaxAge)) {
		t.Fatalf("retired extra active removed at %v", got)
	}
}

// TestUnknownStateNeverWritten: a ring with a key in an unknown state is
// refused as a whole (signet.ErrMalformed) and never written over.
func TestUnknownStateNeverWritten(t *testing.T) {
	kek := newKEK(t)
	now := time.Unix(1_800_000_000, 0)
	_, k, err := generate(signet.EdDSA, kek, now)
	if err != nil {
		t.Fatal(err)
	}
	k.State = "compromised"
	mem := storage.NewMemory(nil)
	if _, err := mem.SwapKeys(context.Background(), 0, []storage.Key{k}); err != nil {
		t.Fatal(err)
	}
	m, err := New(mem, Config{KEK: kek, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Refresh(context.Background()); !errors.Is(err, signet.ErrMalformed) {
		t.Fatalf("Refresh = %v", err)
	}
	if r, _ := mem.Keys(context.Background()); r.Version != 1 {
		t.Fatal("the ring was written over")
	}
}
