package boltstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/signet-go/signet/server/storage"
	"github.com/signet-go/signet/server/storage/conformance"
)

func TestConformance(t *testing.T) {
	conformance.Run(t, func(t *testing.T, now func() time.Time) storage.Store {
		return open(t, filepath.Join(t.TempDir(), "signet.db"), now)
	})
}

// fakeClock is a settable clock.
type fakeClock struct{ ns atomic.Int64 }

func newClock() *fakeClock {
	c := &fakeClock{}
	c.ns.Store(time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC).UnixNano())
	return c
}
func (c *fakeClock) now() time.Time          { return time.Unix(0, c.ns.Load()).UTC() }
func (c *fakeClock) advance(d time.Duration) { c.ns.Add(int64(d)) }

func open(t *testing.T, path string, now func() time.Time) *Store {
	t.Helper()
	s, err := Open(path, now)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// count is the number of keys in a bucket.
func count(t *testing.T, s *Store, bucket []byte) int {
	t.Helper()
	n := 0
	if err := s.db.View(func(tx *bolt.Tx) error {
		n = tx.Bucket(bucket).Stats().KeyN
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestFileMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "signet.db")
	open(t, path, nil)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if m := fi.Mode().Perm(); m != 0o600 {
		t.Fatalf("new file mode %v, want 0600", m)
	}
	// A file left with wider permissions is tightened on open.
	path2 := filepath.Join(t.TempDir(), "loose.db")
	s := open(t, path2, nil)
	s.Close()
	if err := os.Chmod(path2, 0o644); err != nil {
		t.Fatal(err)
	}
	open(t, path2, nil)
	if fi, err := os.Stat(path2); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("reopened loose file: mode %v (%v), want 0600", fi.Mode().Perm(), err)
	}
}

func TestSurvivesRestart(t *testing.T) {
	ctx := context.Background()
	clock := newClock()
	path := filepath.Join(t.TempDir(), "signet.db")
	s := open(t, path, clock.now)
	keys := []storage.Key{{ID: "kid", Algorithm: "ES256", State: storage.KeyActive, Wrapped: "w", Public: "{}",
		Created: clock.now().Add(123), RetireAt: clock.now().Add(7 * 24 * time.Hour)}}
	if _, err := s.SwapKeys(ctx, 0, keys); err != nil {
		t.Fatal(err)
	}
	if err := s.Revoke(ctx, "jti", clock.now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if first, err := s.UseOnce(ctx, "assertion", clock.now().Add(time.Hour)); err != nil || !first {
		t.Fatalf("UseOnce: %v, %v", first, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = open(t, path, clock.now)
	ring, err := s.Keys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if ring.Version != 1 || len(ring.Keys) != 1 || ring.Keys[0] != keys[0] {
		t.Fatalf("ring after restart: %+v, want version 1 with %+v", ring, keys)
	}
	if r, err := s.Revoked(ctx, "jti"); err != nil || !r {
		t.Fatalf("Revoked after restart: %v, %v; want true", r, err)
	}
	if first, err := s.UseOnce(ctx, "assertion", clock.now().Add(time.Hour)); err != nil || first {
		t.Fatalf("UseOnce after restart: %v, %v; want false (used before the restart)", first, err)
	}
	// The version goes on from the stored one.
	if _, err := s.SwapKeys(ctx, 0, nil); !errors.Is(err, storage.ErrConflict) {
		t.Fatalf("SwapKeys(0) after restart: %v, want ErrConflict", err)
	}
	if r, err := s.SwapKeys(ctx, 1, nil); err != nil || r.Version != 2 {
		t.Fatalf("SwapKeys(1) after restart: %+v, %v", r, err)
	}
}

func TestSweep(t *testing.T) {
	ctx := context.Background()
	clock := newClock()
	// No background sweep during the test (a tick every SweepInterval,
	// a minute of real time, which a slow disk on a loaded machine could
	// reach): the counts below are those of the write-time sweep and of
	// Sweep alone.
	s, err := openStore(filepath.Join(t.TempDir(), "signet.db"), clock.now, 24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	const n = 3*SweepBatch + 10
	for i := range n {
		if err := s.Revoke(ctx, fmt.Sprintf("r%d", i), clock.now().Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.UseOnce(ctx, fmt.Sprintf("u%d", i), clock.now().Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Revoke(ctx, "kept", clock.now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if got := count(t, s, bucketExpiry); got != 2*n+1 {
		t.Fatalf("index holds %d entries, want %d", got, 2*n+1)
	}
	clock.advance(time.Minute)
	// Each write deletes at most SweepBatch expired entries.
	if err := s.Revoke(ctx, "another", clock.now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if got, want := count(t, s, bucketExpiry), 2*n+2-SweepBatch; got != want {
		t.Fatalf("after one write the index holds %d entries, want %d", got, want)
	}
	swept, err := s.Sweep(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if swept != 2*n-SweepBatch {
		t.Fatalf("Sweep deleted %d, want %d", swept, 2*n-SweepBatch)
	}
	if r, u, x := count(t, s, bucketRevoked), count(t, s, bucketUsed), count(t, s, bucketExpiry); r != 2 || u != 0 || x != 2 {
		t.Fatalf("after Sweep: %d revoked, %d used, %d index entries; want 2, 0, 2", r, u, x)
	}
	for _, id := range []string{"kept", "another"} {
		if r, err := s.Revoked(ctx, id); err != nil || !r {
			t.Fatalf("Revoked(%q) after sweeping: %v, %v", id, r, err)
		}
	}
}

func TestBackgroundSweep(t *testing.T) {
	ctx := context.Background()
	clock := newClock()
	s, err := openStore(filepath.Join(t.TempDir(), "signet.db"), clock.now, 10*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range 10 {
		if err := s.Revoke(ctx, fmt.Sprint(i), clock.now().Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Revoke(ctx, "kept", clock.now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	clock.advance(time.Minute)
	// No write: the background sweep alone deletes the expired entries.
	deadline := time.Now().Add(30 * time.Second)
	for count(t, s, bucketRevoked) != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("background sweep left %d revocations 30 s on, want 1", count(t, s, bucketRevoked))
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got := count(t, s, bucketExpiry); got != 1 {
		t.Fatalf("index holds %d entries, want 1", got)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestSweepKeepsExtended(t *testing.T) {
	// A revocation extended to a later until leaves no stale index entry
	// that could delete it at the earlier one.
	ctx := context.Background()
	clock := newClock()
	s := open(t, filepath.Join(t.TempDir(), "signet.db"), clock.now)
	if err := s.Revoke(ctx, "jti", clock.now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := s.Revoke(ctx, "jti", clock.now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if got := count(t, s, bucketExpiry); got != 1 {
		t.Fatalf("index holds %d entries, want 1", got)
	}
	clock.advance(2 * time.Minute)
	if _, err := s.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Revoked(ctx, "jti"); err != nil || !r {
		t.Fatalf("Revoked after the first until: %v, %v; want true", r, err)
	}
}

func TestLockedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "signet.db")
	open(t, path, nil)
	// A second opener (another instance on the same --data) fails, it does
	// not wait for ever.
	if s, err := Open(path, nil); err == nil {
		s.Close()
		t.Fatal("second Open of a file in use succeeded")
	}
}

func TestForeignFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "other.db")
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucket(bucketMeta)
		if err != nil {
			return err
		}
		return b.Put(keyFormat, []byte("something-else"))
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if s, err := Open(path, nil); !errors.Is(err, storage.ErrInvalid) {
		if s != nil {
			s.Close()
		}
		t.Fatalf("Open of another format: %v, want ErrInvalid", err)
	}
	if err := os.WriteFile(path, []byte("not a database at all"), 0o600); err != nil {
		t.Fatal(err)
	}
	if s, err := Open(path, nil); err == nil {
		s.Close()
		t.Fatal("Open of a file that is not bbolt succeeded")
	}
}

func TestCorruptRing(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "signet.db"), nil)
	if err := s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketRing).Put(keyRing, []byte(`{"version":1,"keys":[{"kid":`))
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Keys(ctx); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("Keys of a corrupt ring: %v, want ErrInvalid", err)
	}
	if _, err := s.SwapKeys(ctx, 1, nil); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("SwapKeys over a corrupt ring: %v, want ErrInvalid", err)
	}
}

func TestStampOrder(t *testing.T) {
	times := []time.Time{{}, time.Unix(-1, 0), time.Unix(0, 0), time.Unix(0, 1), time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)}
	for i := 1; i < len(times); i++ {
		a, b := stamp(times[i-1]), stamp(times[i])
		if string(a) >= string(b) {
			t.Errorf("stamp(%v) = %x not below stamp(%v) = %x", times[i-1], a, times[i], b)
		}
	}
}
