package redisstore

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/signet-go/signet/server/storage"
	"github.com/signet-go/signet/server/storage/conformance"
)

// testTimeout bounds each operation of the tests' Stores: generous, so
// that only a hang fails by it.
const testTimeout = 10 * time.Second

// opener opens Stores on r, each under a prefix of its own (so every
// conformance test starts empty).
func opener(r *redisServer) func(t *testing.T, now func() time.Time) storage.Store {
	var n atomic.Int64
	return func(t *testing.T, now func() time.Time) storage.Store {
		return open(t, r, Options{Prefix: fmt.Sprintf("test%d:", n.Add(1)), Now: now})
	}
}

func TestConformance(t *testing.T) {
	conformance.Run(t, opener(startRedis(t)))
}

// TestConformanceRealClock runs the suite on the real clock too: Redis's
// own TTLs are then set from short untils.
func TestConformanceRealClock(t *testing.T) {
	conformance.RunOptions(t, conformance.Options{RealClock: true}, opener(startRedis(t)))
}

// open opens a Store on r, closed when the test ends. Unless opts sets
// one, its Timeout is testTimeout, not DefaultTimeout's 250 ms: on a
// loaded machine (-race, parallel packages) an operation that succeeds,
// or waits for a pooled connection among concurrent ones, can take longer
// than that, and the test would see ErrUnavailable. Tests of the timeout
// itself pass DefaultTimeout.
func open(t *testing.T, r *redisServer, opts Options) *Store {
	t.Helper()
	if opts.Timeout == 0 {
		opts.Timeout = testTimeout
	}
	s, err := Open(context.Background(), r.url(), opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// allFail checks that every operation of s fails with ErrUnavailable.
func allFail(t *testing.T, s *Store, when string) {
	t.Helper()
	ctx := context.Background()
	until := time.Now().Add(time.Hour)
	errs := map[string]error{}
	_, errs["Keys"] = s.Keys(ctx)
	_, errs["SwapKeys"] = s.SwapKeys(ctx, 1, nil)
	errs["Revoke"] = s.Revoke(ctx, "jti", until)
	_, errs["Revoked"] = s.Revoked(ctx, "jti")
	_, errs["UseOnce"] = s.UseOnce(ctx, "id", until)
	errs["Ping"] = s.Ping(ctx)
	for name, err := range errs {
		if !errors.Is(err, storage.ErrUnavailable) {
			t.Errorf("%s %s: err %v, want ErrUnavailable", name, when, err)
		}
	}
}

func TestTwoInstances(t *testing.T) {
	ctx := context.Background()
	r := startRedis(t)
	a, b := open(t, r, Options{}), open(t, r, Options{})
	until := time.Now().Add(time.Hour)

	if err := a.Revoke(ctx, "jti", until); err != nil {
		t.Fatal(err)
	}
	if rev, err := b.Revoked(ctx, "jti"); err != nil || !rev {
		t.Fatalf("b sees a's revocation: %v, %v; want true", rev, err)
	}
	if first, err := a.UseOnce(ctx, "assertion", until); err != nil || !first {
		t.Fatalf("a.UseOnce: %v, %v", first, err)
	}
	if first, err := b.UseOnce(ctx, "assertion", until); err != nil || first {
		t.Fatalf("b.UseOnce of an id a used: %v, %v; want false", first, err)
	}
	keys := []storage.Key{{ID: "kid", Algorithm: "ES256", State: storage.KeyActive, Wrapped: "w", Created: time.Unix(1, 5).UTC()}}
	if _, err := a.SwapKeys(ctx, 0, keys); err != nil {
		t.Fatal(err)
	}
	ring, err := b.Keys(ctx)
	if err != nil || ring.Version != 1 || len(ring.Keys) != 1 || ring.Keys[0] != keys[0] {
		t.Fatalf("b sees a's ring: %+v, %v", ring, err)
	}
	if _, err := b.SwapKeys(ctx, 0, nil); !errors.Is(err, storage.ErrConflict) {
		t.Fatalf("b swapping from a stale version: %v, want ErrConflict", err)
	}

	// Many instances rotating at once: exactly one wins.
	stores := []*Store{a, b, open(t, r, Options{}), open(t, r, Options{})}
	var wins atomic.Int32
	var wg sync.WaitGroup
	r.pause() // REPRO: Redis starved of CPU for 400 ms
	time.AfterFunc(400*time.Millisecond, r.resume)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := stores[i%len(stores)].SwapKeys(ctx, 1, []storage.Key{{ID: fmt.Sprint(i), Algorithm: "ES256", State: storage.KeyActive, Wrapped: "w"}})
			switch {
			case err == nil:
				wins.Add(1)
			case !errors.Is(err, storage.ErrConflict):
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if w := wins.Load(); w != 1 {
		t.Fatalf("%d of 40 swappers on 4 instances won, want 1", w)
	}
}

func TestPrefixes(t *testing.T) {
	ctx := context.Background()
	r := startRedis(t)
	a, b := open(t, r, Options{}), open(t, r, Options{Prefix: "other:"})
	until := time.Now().Add(time.Hour)
	if err := a.Revoke(ctx, "jti", until); err != nil {
		t.Fatal(err)
	}
	if _, err := a.SwapKeys(ctx, 0, nil); err != nil {
		t.Fatal(err)
	}
	if rev, err := b.Revoked(ctx, "jti"); err != nil || rev {
		t.Fatalf("another prefix sees the revocation: %v, %v", rev, err)
	}
	if ring, err := b.Keys(ctx); err != nil || ring.Version != 0 {
		t.Fatalf("another prefix sees the ring: %+v, %v", ring, err)
	}
	keys, err := r.client().Keys(ctx, "*").Result()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if !strings.HasPrefix(k, DefaultPrefix) {
			t.Errorf("key %q outside the prefix %q", k, DefaultPrefix)
		}
	}
	if len(keys) != 2 {
		t.Errorf("keys %q, want the ring and one revocation", keys)
	}
}

// TestTTL checks that Redis itself drops an entry after its until (plus
// the margin), and that the TTL covers the until plus the margin.
func TestTTL(t *testing.T) {
	ctx := context.Background()
	r := startRedis(t)
	c := r.client()
	s := open(t, r, Options{Margin: 100 * time.Millisecond})
	if err := s.Revoke(ctx, "long", time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	ttl, err := c.PTTL(ctx, DefaultPrefix+"revoked:long").Result()
	if err != nil {
		t.Fatal(err)
	}
	if ttl < 59*time.Minute {
		t.Fatalf("TTL %v for a revocation of an hour", ttl)
	}
	if err := s.Revoke(ctx, "short", time.Now().Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UseOnce(ctx, "short", time.Now().Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		n, err := c.Exists(ctx, DefaultPrefix+"revoked:short", DefaultPrefix+"used:short").Result()
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("Redis kept the entries 30 s past their until")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if n, err := c.Exists(ctx, DefaultPrefix+"revoked:long").Result(); err != nil || n != 1 {
		t.Fatalf("the long revocation: exists %d, %v", n, err)
	}
}

// TestRedisStoppedAndRestarted: Redis going away makes every operation
// ErrUnavailable (and Ping fail); Redis back on the same port, the same
// Store works again by itself.
func TestRedisStoppedAndRestarted(t *testing.T) {
	ctx := context.Background()
	r := startRedis(t)
	s := open(t, r, Options{})
	if err := s.Revoke(ctx, "jti", time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	r.stop()
	allFail(t, s, "with Redis stopped")

	r.start()
	deadline := time.Now().Add(30 * time.Second)
	for s.Ping(ctx) != nil {
		if time.Now().After(deadline) {
			t.Fatal("the store did not reconnect within 30 s of Redis's restart")
		}
		time.Sleep(50 * time.Millisecond)
	}
	// This Redis keeps nothing across restarts (no persistence): the
	// store works again, from empty.
	until := time.Now().Add(time.Hour)
	if err := s.Revoke(ctx, "jti2", until); err != nil {
		t.Fatalf("Revoke after the restart: %v", err)
	}
	if rev, err := s.Revoked(ctx, "jti2"); err != nil || !rev {
		t.Fatalf("Revoked after the restart: %v, %v", rev, err)
	}
	if first, err := s.UseOnce(ctx, "id", until); err != nil || !first {
		t.Fatalf("UseOnce after the restart: %v, %v", first, err)
	}
	if _, err := s.SwapKeys(ctx, 0, nil); err != nil {
		t.Fatalf("SwapKeys after the restart: %v", err)
	}
}

// TestRedisHung: a Redis that accepts no answer (the process stopped)
// makes every operation fail by its timeout with ErrUnavailable, not hang;
// when it continues the store works again.
func TestRedisHung(t *testing.T) {
	ctx := context.Background()
	r := startRedis(t)
	s := open(t, r, Options{Timeout: DefaultTimeout})
	r.pause()
	resumed := false
	defer func() {
		if !resumed {
			r.resume()
		}
	}()
	allFail(t, s, "with Redis hung")
	r.resume()
	resumed = true
	deadline := time.Now().Add(30 * time.Second)
	for s.Ping(ctx) != nil {
		if time.Now().After(deadline) {
			t.Fatal("the store did not recover within 30 s of Redis continuing")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := s.Revoke(ctx, "jti", time.Now().Add(time.Hour)); err != nil {
		t.Fatalf("Revoke after Redis continued: %v", err)
	}
}

func TestOpenErrors(t *testing.T) {
	ctx := context.Background()
	if _, err := Open(ctx, "http://user:hunter2@example.com", Options{}); !errors.Is(err, storage.ErrInvalid) || strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("Open of a bad URL: %v, want ErrInvalid without the URL", err)
	}
	// A free port that nothing listens on.
	r := startRedis(t)
	r.stop()
	_, err := Open(ctx, "redis://:hunter2@"+r.addr()+"/0", Options{})
	if !errors.Is(err, storage.ErrUnavailable) || strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("Open with Redis down: %v, want ErrUnavailable without the password", err)
	}
}

func TestForeignValues(t *testing.T) {
	// Values written by something else fail closed: a revocation that is
	// not of this package's form counts as revoked; a ring that does not
	// decode is ErrInvalid.
	ctx := context.Background()
	r := startRedis(t)
	c := r.client()
	s := open(t, r, Options{})
	if err := c.Set(ctx, DefaultPrefix+"revoked:odd", "1", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if rev, err := s.Revoked(ctx, "odd"); err != nil || !rev {
		t.Fatalf("Revoked of a foreign value: %v, %v; want true", rev, err)
	}
	if err := c.HSet(ctx, DefaultPrefix+"keys", "version", "x", "ring", "{").Err(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Keys(ctx); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("Keys of a foreign ring: %v, want ErrInvalid", err)
	}
	if err := c.HSet(ctx, DefaultPrefix+"keys", "version", "3", "ring", "{").Err(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Keys(ctx); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("Keys of a foreign ring: %v, want ErrInvalid", err)
	}
}

// allocated returns how many bytes the process allocated while f ran.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestOversizedValues: a ring or a revocation far over what this package
// writes (a corrupted or hostile Redis; a string may hold 512 MB) is
// refused (a ring: ErrInvalid) or fails closed (a revocation counts as
// revoked) without being read into memory: every instance reads the
// ring every reload, every introspection the revocation.
func TestOversizedValues(t *testing.T) {
	ctx := context.Background()
	r := startRedis(t)
	c := r.client()
	s := open(t, r, Options{Timeout: 5 * time.Second})
	const huge = 32 << 20
	const bound = 4 << 20 // what a call may allocate at most
	big := strings.Repeat("x", huge)
	if err := c.HSet(ctx, DefaultPrefix+"keys", "version", "1", "ring", big).Err(); err != nil {
		t.Fatal(err)
	}
	if err := c.Set(ctx, DefaultPrefix+"revoked:big", big, 0).Err(); err != nil {
		t.Fatal(err)
	}
	big = ""
	var err error
	if n := allocated(func() { _, err = s.Keys(ctx) }); !errors.Is(err, storage.ErrInvalid) || n > bound {
		t.Fatalf("Keys of a ring of %d bytes: %v, %d bytes allocated; want ErrInvalid, at most %d", huge, err, n, bound)
	}
	var rev bool
	if n := allocated(func() { rev, err = s.Revoked(ctx, "big") }); err != nil || !rev || n > bound {
		t.Fatalf("Revoked of a value of %d bytes: %v, %v, %d bytes allocated; want true, at most %d", huge, rev, err, n, bound)
	}
	// A ring of exactly the limit is still read (and refused only if it
	// does not decode).
	if err := c.HSet(ctx, DefaultPrefix+"keys", "ring", strings.Repeat(" ", storage.MaxKeyRingSize-2)+"{}").Err(); err != nil {
		t.Fatal(err)
	}
	if kr, err := s.Keys(ctx); err != nil || kr.Version != 1 || len(kr.Keys) != 0 {
		t.Fatalf("Keys of a ring of MaxKeyRingSize bytes: %+v, %v", kr, err)
	}
}

func TestStampOrder(t *testing.T) {
	times := []time.Time{{}, time.Unix(-1, 0), time.Unix(0, 0), time.Unix(0, 1), time.Unix(1, 0), time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)}
	for i := 1; i < len(times); i++ {
		a, b := stamp(times[i-1]), stamp(times[i])
		if len(a) != 20 || len(b) != 20 || a >= b {
			t.Errorf("stamp(%v) = %s not below stamp(%v) = %s", times[i-1], a, times[i], b)
		}
	}
}

// TestRedisFull: a Redis out of memory under noeviction refuses writes;
// the store reports ErrUnavailable (the service fails closed) and the
// revocations it holds are still answered.
func TestRedisFull(t *testing.T) {
	ctx := context.Background()
	r := startRedis(t)
	c := r.client()
	s := open(t, r, Options{})
	until := time.Now().Add(time.Hour)
	if err := s.Revoke(ctx, "kept", until); err != nil {
		t.Fatal(err)
	}
	if err := c.ConfigSet(ctx, "maxmemory-policy", "noeviction").Err(); err != nil {
		t.Fatal(err)
	}
	if err := c.ConfigSet(ctx, "maxmemory", "1").Err(); err != nil {
		t.Fatal(err)
	}
	if err := s.Revoke(ctx, "new", until); !errors.Is(err, storage.ErrUnavailable) {
		t.Fatalf("Revoke on a full Redis: %v, want ErrUnavailable", err)
	}
	if first, err := s.UseOnce(ctx, "id", until); !errors.Is(err, storage.ErrUnavailable) || first {
		t.Fatalf("UseOnce on a full Redis: %v, %v; want false, ErrUnavailable", first, err)
	}
	if _, err := s.SwapKeys(ctx, 0, nil); !errors.Is(err, storage.ErrUnavailable) {
		t.Fatalf("SwapKeys on a full Redis: %v, want ErrUnavailable", err)
	}
	if rev, err := s.Revoked(ctx, "kept"); err != nil || !rev {
		t.Fatalf("Revoked on a full Redis: %v, %v; want true", rev, err)
	}
}
