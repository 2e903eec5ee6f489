package keys

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/server/storage"
)

// TestFullRingPostponesRotation: a short Rotate with the default
// MaxTokenTTL keeps a retired key for each period of a day (signet serve
// --rotate 60s holds some 1,400 keys). A rotation whose ring would not fit
// in storage.MaxKeyRingSize (storage.ErrInvalid), or whose JWKS would
// hold more keys than a JWK Set may (jwk.MaxSetKeys: jwk.ReadSet, the
// guard's reader, refuses the whole set; signet.ErrTooLarge), is
// postponed, not an outage and not an unreadable JWKS: the instance goes
// on signing with the active key of the ring the store holds (published
// in its JWKS), stays ready, and rotates once retired keys have left room.
func TestFullRingPostponesRotation(t *testing.T) {
	for _, tc := range []struct {
		name string
		alg  signet.Algorithm
		full func(keys, bytes int) bool // whether a ring of so many keys and bytes is full
		want error
	}{
		// HMAC keys are not published: only the ring's size bounds them.
		{"ring size", signet.HS256, func(_, n int) bool { return n > storage.MaxKeyRingSize }, storage.ErrInvalid},
		{"JWKS keys", signet.EdDSA, func(n, _ int) bool { return n > jwk.MaxSetKeys }, signet.ErrTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			kek := newKEK(t)
			start := time.Unix(1_800_000_000, 0).UTC()
			var mu sync.Mutex
			now := start
			clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
			set := func(t time.Time) { mu.Lock(); now = t; mu.Unlock() }

			mk := func(st storage.KeyState) storage.Key {
				_, k, err := generate(tc.alg, kek, start.Add(-time.Hour))
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
				if tc.full(len(ring)+1, size+1+len(b)) {
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
			m, err := New(mem, Config{Algorithm: tc.alg, KEK: kek, Rotate: 10 * time.Second, MaxAge: 2 * time.Second, Reload: time.Second, Now: clock})
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Refresh(ctx); err != nil {
				t.Fatal(err)
			}
			readable := func() {
				t.Helper()
				k, err := m.Signer(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if tc.alg.Symmetric() {
					return // never published
				}
				lr := m.cur.Load()
				set, _, err := jwk.ReadSet(lr.jwks.body, []signet.Algorithm{tc.alg})
				if err != nil {
					t.Fatalf("the JWKS of %d keys does not read: %v", len(lr.records), err)
				}
				if _, ok := set.Lookup(k.KeyID()); !ok {
					t.Fatal("the signing key is not in the JWKS")
				}
			}
			readable()

			set(start.Add(10 * time.Second)) // the rotation is due; its ring is too big
			planned, _, _, err := m.cfg.plan(ring, clock())
			if err != nil {
				t.Fatal(err)
			}
			b, err := storage.EncodeKeyRing(storage.KeyRing{Version: 2, Keys: planned})
			if !tc.full(len(planned), len(b)) && err == nil {
				t.Fatalf("vacuous: the rotated ring of %d keys, %d bytes, is not full", len(planned), len(b))
			}
			if err := m.Refresh(ctx); !errors.Is(err, tc.want) {
				t.Fatalf("Refresh with a rotation that does not fit = %v; want %v", err, tc.want)
			}
			k, err := m.Signer(ctx)
			if err != nil || k.KeyID() != active.ID || !m.Ready() {
				t.Fatalf("Signer after a postponed rotation = %v, %v (ready %v); want the active key %s", k, err, m.Ready(), active.ID)
			}
			readable()
			if r, _ := mem.Keys(ctx); r.Version != 1 {
				t.Fatalf("ring written (v%d)", r.Version)
			}
			// Until a key leaves the ring, no reload plans (and generates
			// keys for) the rotation again.
			// (Each plan that is postponed records a new m.held.)
			held := m.held
			for range 3 {
				set(clock().Add(time.Second))
				if err := m.Refresh(ctx); !errors.Is(err, tc.want) {
					t.Fatalf("Refresh while postponed = %v; want %v", err, tc.want)
				}
				if m.held != held {
					t.Fatal("the postponed rotation was planned again before any key left")
				}
			}

			set(start.Add(20 * time.Second)) // one retired key gone: room for the rotation
			if err := m.Refresh(ctx); err != nil {
				t.Fatal(err)
			}
			if k, err := m.Signer(ctx); err != nil || k.KeyID() != next.ID {
				t.Fatalf("Signer after the rotation = %v, %v; want the former next key %s", k, err, next.ID)
			}
			readable()
		})
	}
}
