// Package conformance is the test suite every storage.Store passes, run
// from each implementation's tests, as Dex's storage/conformance is:
//
//	func TestConformance(t *testing.T) {
//		conformance.Run(t, func(t *testing.T, now func() time.Time) storage.Store {
//			s := mystore.Open(t.TempDir(), now)
//			t.Cleanup(func() { s.Close() })
//			return s
//		})
//	}
//
// open must return a new, empty store for each call (a fresh file, or a
// fresh key prefix on a shared server) whose clock is now, the suite's
// clock. The suite closes stores itself where it tests Close; open should
// still register its own cleanup.
//
// What it checks: the empty ring is version 0; SwapKeys is a
// compare-and-swap (a stale version is ErrConflict and changes nothing; of
// many concurrent swappers from one version exactly one wins); a ring
// round-trips every field exactly, times in UTC to the nanosecond; an
// oversized ring is ErrInvalid; revocations and used ids expire at their
// until by the store's clock, revoking twice keeps the later until, and of
// 50 concurrent UseOnce calls with one id exactly one is first; ids empty
// or over storage.MaxIDLength are ErrInvalid; a canceled context and a
// closed store are ErrUnavailable.
//
// Stores whose entries expire by a clock the suite cannot set (a server's)
// run it with RunOptions and Options.RealClock: expiry is then checked
// with entries a second or two long, by polling until they are gone (with
// a generous deadline, never an upper bound on how long it takes).
package conformance

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/server/storage"
)

// Options adjust the suite to what an implementation can do.
type Options struct {
	// RealClock says the store's entries expire by a clock the suite
	// cannot set: open is then given time.Now, and expiry is checked by
	// waiting (about two seconds per such test) instead of by moving the
	// suite's clock.
	RealClock bool
}

// Run runs the suite with an injected clock: open must make a store that
// keeps time by now (entries live while now() is before their until).
func Run(t *testing.T, open func(t *testing.T, now func() time.Time) storage.Store) {
	RunOptions(t, Options{}, open)
}

// RunOptions runs the suite as Run does, adjusted by opts.
func RunOptions(t *testing.T, opts Options, open func(t *testing.T, now func() time.Time) storage.Store) {
	t.Helper()
	tests := []struct {
		name string
		fn   func(t *testing.T, h *harness)
	}{
		{"EmptyRing", testEmptyRing},
		{"SwapKeys", testSwapKeys},
		{"SwapKeysStale", testSwapKeysStale},
		{"SwapKeysConcurrent", testSwapKeysConcurrent},
		{"RingRoundTrip", testRingRoundTrip},
		{"RingOversized", testRingOversized},
		{"Revoke", testRevoke},
		{"RevokeExpiry", testRevokeExpiry},
		{"RevokeTwiceKeepsLater", testRevokeTwiceKeepsLater},
		{"RevokePast", testRevokePast},
		{"UseOnce", testUseOnce},
		{"UseOnceExpiry", testUseOnceExpiry},
		{"UseOnceConcurrent", testUseOnceConcurrent},
		{"NamespacesApart", testNamespacesApart},
		{"InvalidIDs", testInvalidIDs},
		{"CanceledContext", testCanceledContext},
		{"Closed", testClosed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := &harness{real: opts.RealClock}
			h.clock.Store(start.UnixNano())
			now := h.now
			if h.real {
				now = time.Now
			}
			h.s = open(t, now)
			if h.s == nil {
				t.Fatal("open returned a nil store")
			}
			tc.fn(t, h)
		})
	}
}

// start is the suite's injected time: fixed, never a wall-clock date.
var start = time.Date(2030, time.January, 2, 3, 4, 5, 6, time.UTC)

// harness is one test's store and clock.
type harness struct {
	s     storage.Store
	real  bool
	clock atomic.Int64 // unix nanoseconds, when !real
}

func (h *harness) now() time.Time {
	if h.real {
		return time.Now()
	}
	return time.Unix(0, h.clock.Load()).UTC()
}

// short is the life of an entry whose expiry a test waits for.
func (h *harness) short() time.Duration {
	if h.real {
		return 1500 * time.Millisecond
	}
	return time.Hour
}

// long is the life of an entry that must outlive the test.
const long = 24 * time.Hour

// expire waits until cond holds, after the clock has passed until: with an
// injected clock it moves the clock to until and checks once; with a real
// clock it polls with a generous deadline.
func (h *harness) expire(t *testing.T, until time.Time, what string, cond func() (bool, error)) {
	t.Helper()
	if !h.real {
		h.clock.Store(until.UnixNano())
		ok, err := cond()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if !ok {
			t.Fatalf("%s: not so at its until", what)
		}
		return
	}
	deadline := until.Add(30 * time.Second)
	for {
		ok, err := cond()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not so 30 s after its until", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func ctx() context.Context { return context.Background() }

// unavailable reports whether err is the store's unavailability, which
// is signet's too (signet.ErrUnavailable): every error of the service
// wraps a sentinel of package signet.
func unavailable(err error) bool {
	return errors.Is(err, storage.ErrUnavailable) && errors.Is(err, signet.ErrUnavailable)
}

// invalid reports whether err is the store's ErrInvalid, which is
// signet.ErrMalformed too.
func invalid(err error) bool {
	return errors.Is(err, storage.ErrInvalid) && errors.Is(err, signet.ErrMalformed)
}

func mustKeys(t *testing.T, s storage.Store) storage.KeyRing {
	t.Helper()
	r, err := s.Keys(ctx())
	if err != nil {
		t.Fatalf("Keys: %v", err)
	}
	return r
}

func mustRevoked(t *testing.T, s storage.Store, jti string, want bool) {
	t.Helper()
	got, err := s.Revoked(ctx(), jti)
	if err != nil {
		t.Fatalf("Revoked(%q): %v", jti, err)
	}
	if got != want {
		t.Fatalf("Revoked(%q) = %v, want %v", jti, got, want)
	}
}

func mustUseOnce(t *testing.T, s storage.Store, id string, until time.Time, want bool) {
	t.Helper()
	got, err := s.UseOnce(ctx(), id, until)
	if err != nil {
		t.Fatalf("UseOnce(%q): %v", id, err)
	}
	if got != want {
		t.Fatalf("UseOnce(%q) = %v, want %v", id, got, want)
	}
}

// sampleKeys is a ring with every field set, times in UTC to the
// nanosecond, one time given in another zone (it comes back in UTC), and
// one key with its optional times left zero.
func sampleKeys() []storage.Key {
	zone := time.FixedZone("UTC+5:30", 5*3600+1800)
	return []storage.Key{
		{
			ID: "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs", Algorithm: "ES256", State: storage.KeyRetired,
			Wrapped: "k4.local-wrap.pie.AAAA", Public: `{"kty":"EC","crv":"P-256","x":"a","y":"b"}`,
			Created:  time.Date(2029, 12, 1, 0, 0, 0, 123456789, time.UTC),
			RetireAt: time.Date(2029, 12, 8, 0, 0, 0, 1, time.UTC),
			RemoveAt: time.Date(2029, 12, 9, 12, 30, 0, 999999999, zone),
		},
		{
			ID: "kid-active", Algorithm: "EdDSA", State: storage.KeyActive,
			Wrapped: "wrapped \"quoted\" \u00e9\u2028\x00 bytes", Public: "k4.public.xyz",
			Created:    time.Date(2029, 12, 8, 0, 0, 0, 7, time.UTC),
			ActivateAt: time.Date(2029, 12, 8, 0, 0, 1, 0, time.UTC),
			RetireAt:   time.Date(2029, 12, 15, 0, 0, 1, 0, time.UTC),
		},
		{
			ID: "kid-next", Algorithm: "HS256", State: storage.KeyNext,
			Wrapped: "w", Created: time.Date(2029, 12, 14, 23, 59, 59, 999999999, time.UTC),
		},
	}
}

// sameKeys compares rings field by field, times exactly (==, so in UTC to
// the nanosecond and without a monotonic reading).
func sameKeys(t *testing.T, got, want []storage.Key) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("ring has %d keys, want %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		w.Created, w.ActivateAt, w.RetireAt, w.RemoveAt = w.Created.UTC(), w.ActivateAt.UTC(), w.RetireAt.UTC(), w.RemoveAt.UTC()
		if g != w {
			t.Errorf("key %d:\n got %#v\nwant %#v", i, g, w)
		}
		for _, tm := range []time.Time{g.Created, g.ActivateAt, g.RetireAt, g.RemoveAt} {
			if tm.Location() != time.UTC {
				t.Errorf("key %d: time %v not in UTC", i, tm)
			}
		}
	}
}

func testEmptyRing(t *testing.T, h *harness) {
	r := mustKeys(t, h.s)
	if r.Version != 0 || len(r.Keys) != 0 {
		t.Fatalf("empty store: ring version %d with %d keys, want version 0 and none", r.Version, len(r.Keys))
	}
}

func testSwapKeys(t *testing.T, h *harness) {
	keys := sampleKeys()
	r, err := h.s.SwapKeys(ctx(), 0, keys[:1])
	if err != nil {
		t.Fatalf("SwapKeys(0): %v", err)
	}
	if r.Version != 1 {
		t.Fatalf("SwapKeys(0) returned version %d, want 1", r.Version)
	}
	sameKeys(t, r.Keys, keys[:1])
	r, err = h.s.SwapKeys(ctx(), 1, keys)
	if err != nil {
		t.Fatalf("SwapKeys(1): %v", err)
	}
	if r.Version != 2 {
		t.Fatalf("SwapKeys(1) returned version %d, want 2", r.Version)
	}
	got := mustKeys(t, h.s)
	if got.Version != 2 {
		t.Fatalf("Keys: version %d, want 2", got.Version)
	}
	sameKeys(t, got.Keys, keys)
	// An empty ring is a ring too: its version still moves on.
	r, err = h.s.SwapKeys(ctx(), 2, nil)
	if err != nil {
		t.Fatalf("SwapKeys(2, nil): %v", err)
	}
	if got := mustKeys(t, h.s); r.Version != 3 || got.Version != 3 || len(got.Keys) != 0 {
		t.Fatalf("after swapping in no keys: returned version %d, stored version %d with %d keys; want 3, 3, 0", r.Version, got.Version, len(got.Keys))
	}
}

func testSwapKeysStale(t *testing.T, h *harness) {
	keys := sampleKeys()
	if _, err := h.s.SwapKeys(ctx(), 0, keys[:2]); err != nil {
		t.Fatalf("SwapKeys(0): %v", err)
	}
	for _, old := range []uint64{0, 2, 1 << 40} {
		_, err := h.s.SwapKeys(ctx(), old, keys[2:])
		if !errors.Is(err, storage.ErrConflict) {
			t.Fatalf("SwapKeys(%d) on version 1: err %v, want ErrConflict", old, err)
		}
	}
	got := mustKeys(t, h.s)
	if got.Version != 1 {
		t.Fatalf("after stale swaps: version %d, want 1", got.Version)
	}
	sameKeys(t, got.Keys, keys[:2])
}

func testSwapKeysConcurrent(t *testing.T, h *harness) {
	const n = 32
	for round := uint64(0); round < 3; round++ {
		var wins atomic.Int32
		var winner atomic.Int32
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ring := []storage.Key{{ID: fmt.Sprintf("kid-%d-%d", round, i), Algorithm: "ES256", State: storage.KeyActive,
					Wrapped: "w", Created: start}}
				r, err := h.s.SwapKeys(ctx(), round, ring)
				switch {
				case err == nil:
					if r.Version != round+1 {
						errs <- fmt.Errorf("winner got version %d, want %d", r.Version, round+1)
					}
					wins.Add(1)
					winner.Store(int32(i))
				case errors.Is(err, storage.ErrConflict):
				default:
					errs <- err
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatalf("round %d: %v", round, err)
		}
		if w := wins.Load(); w != 1 {
			t.Fatalf("round %d: %d of %d concurrent swappers won, want exactly 1", round, w, n)
		}
		got := mustKeys(t, h.s)
		want := fmt.Sprintf("kid-%d-%d", round, winner.Load())
		if got.Version != round+1 || len(got.Keys) != 1 || got.Keys[0].ID != want {
			t.Fatalf("round %d: stored version %d keys %v, want version %d with the winner's key %s", round, got.Version, got.Keys, round+1, want)
		}
	}
}

func testRingRoundTrip(t *testing.T, h *harness) {
	keys := sampleKeys()
	if _, err := h.s.SwapKeys(ctx(), 0, keys); err != nil {
		t.Fatalf("SwapKeys: %v", err)
	}
	// The store keeps its own copy: changing the caller's slice after the
	// swap, or the slice Keys returned, changes nothing stored.
	keys[0].ID = "changed"
	got := mustKeys(t, h.s)
	got.Keys[1].ID = "changed too"
	sameKeys(t, mustKeys(t, h.s).Keys, sampleKeys())
}

func testRingOversized(t *testing.T, h *harness) {
	keys := sampleKeys()
	if _, err := h.s.SwapKeys(ctx(), 0, keys[:1]); err != nil {
		t.Fatalf("SwapKeys: %v", err)
	}
	big := []storage.Key{{ID: "big", Algorithm: "ES256", State: storage.KeyActive, Wrapped: strings.Repeat("A", storage.MaxKeyRingSize), Created: start}}
	if _, err := h.s.SwapKeys(ctx(), 1, big); !invalid(err) {
		t.Fatalf("SwapKeys of a ring over MaxKeyRingSize: err %v, want ErrInvalid (and signet.ErrMalformed)", err)
	}
	got := mustKeys(t, h.s)
	if got.Version != 1 {
		t.Fatalf("after the refused swap: version %d, want 1", got.Version)
	}
	sameKeys(t, got.Keys, keys[:1])
}

func testRevoke(t *testing.T, h *harness) {
	mustRevoked(t, h.s, "jti-1", false)
	if err := h.s.Revoke(ctx(), "jti-1", h.now().Add(long)); err != nil {
		t.Fatalf("Revoke: %v", err)
	}
	mustRevoked(t, h.s, "jti-1", true)
	mustRevoked(t, h.s, "jti-2", false)
	// An id of the maximum length, and bytes that are not text, are ids.
	for _, id := range []string{strings.Repeat("x", storage.MaxIDLength), "a:b\x00\xff*?[]"} {
		if err := h.s.Revoke(ctx(), id, h.now().Add(long)); err != nil {
			t.Fatalf("Revoke(%q): %v", id, err)
		}
		mustRevoked(t, h.s, id, true)
	}
	mustRevoked(t, h.s, "a:b", false)
}

func testRevokeExpiry(t *testing.T, h *harness) {
	until := h.now().Add(h.short())
	if err := h.s.Revoke(ctx(), "jti-short", until); err != nil {
		t.Fatalf("Revoke: %v", err)
	}
	if err := h.s.Revoke(ctx(), "jti-long", h.now().Add(long)); err != nil {
		t.Fatalf("Revoke: %v", err)
	}
	if !h.real {
		h.clock.Store(until.Add(-time.Nanosecond).UnixNano())
		mustRevoked(t, h.s, "jti-short", true)
	}
	h.expire(t, until, "revocation of jti-short gone", func() (bool, error) {
		r, err := h.s.Revoked(ctx(), "jti-short")
		return !r, err
	})
	mustRevoked(t, h.s, "jti-long", true)
	// Once gone it can be revoked anew.
	if err := h.s.Revoke(ctx(), "jti-short", h.now().Add(long)); err != nil {
		t.Fatalf("Revoke again: %v", err)
	}
	mustRevoked(t, h.s, "jti-short", true)
}

func testRevokeTwiceKeepsLater(t *testing.T, h *harness) {
	early := h.now().Add(h.short())
	late := h.now().Add(long)
	// Later then earlier: the earlier does not shorten it.
	if err := h.s.Revoke(ctx(), "a", late); err != nil {
		t.Fatalf("Revoke: %v", err)
	}
	if err := h.s.Revoke(ctx(), "a", early); err != nil {
		t.Fatalf("Revoke twice: %v", err)
	}
	// Earlier then later: the later extends it.
	if err := h.s.Revoke(ctx(), "b", early); err != nil {
		t.Fatalf("Revoke: %v", err)
	}
	if err := h.s.Revoke(ctx(), "b", late); err != nil {
		t.Fatalf("Revoke twice: %v", err)
	}
	// The same until twice.
	if err := h.s.Revoke(ctx(), "c", early); err != nil {
		t.Fatalf("Revoke: %v", err)
	}
	if err := h.s.Revoke(ctx(), "c", early); err != nil {
		t.Fatalf("Revoke twice: %v", err)
	}
	h.expire(t, early, "revocation of c gone at its until", func() (bool, error) {
		r, err := h.s.Revoked(ctx(), "c")
		return !r, err
	})
	mustRevoked(t, h.s, "a", true)
	mustRevoked(t, h.s, "b", true)
}

func testRevokePast(t *testing.T, h *harness) {
	// A token already expired needs no revocation: no error, nothing kept.
	for _, until := range []time.Time{h.now().Add(-time.Hour), {}} {
		if err := h.s.Revoke(ctx(), "old", until); err != nil {
			t.Fatalf("Revoke(until %v): %v", until, err)
		}
		mustRevoked(t, h.s, "old", false)
	}
	// Nor does a past until cut a live revocation short.
	if err := h.s.Revoke(ctx(), "live", h.now().Add(long)); err != nil {
		t.Fatalf("Revoke: %v", err)
	}
	if err := h.s.Revoke(ctx(), "live", h.now().Add(-time.Hour)); err != nil {
		t.Fatalf("Revoke(past): %v", err)
	}
	mustRevoked(t, h.s, "live", true)
}

func testUseOnce(t *testing.T, h *harness) {
	until := h.now().Add(long)
	mustUseOnce(t, h.s, "id-1", until, true)
	mustUseOnce(t, h.s, "id-1", until, false)
	mustUseOnce(t, h.s, "id-1", until.Add(time.Hour), false)
	mustUseOnce(t, h.s, "id-2", until, true)
	// Used ids and revocations are apart: the same string in each.
	mustRevoked(t, h.s, "id-1", false)
	if err := h.s.Revoke(ctx(), "id-3", until); err != nil {
		t.Fatalf("Revoke: %v", err)
	}
	mustUseOnce(t, h.s, "id-3", until, true)
}

func testUseOnceExpiry(t *testing.T, h *harness) {
	until := h.now().Add(h.short())
	mustUseOnce(t, h.s, "id", until, true)
	if !h.real {
		h.clock.Store(until.Add(-time.Nanosecond).UnixNano())
		mustUseOnce(t, h.s, "id", until, false)
	}
	// After its until the id is forgotten, and may be used (once) again.
	next := until.Add(long)
	h.expire(t, until, "used id forgotten", func() (bool, error) {
		return h.s.UseOnce(ctx(), "id", next)
	})
	mustUseOnce(t, h.s, "id", next, false)
	// An until already past: first use, nothing worth remembering.
	past := h.now().Add(-time.Second)
	mustUseOnce(t, h.s, "old", past, true)
	mustUseOnce(t, h.s, "old", next, true)
	// But an id still remembered is a replay whatever the until given:
	// a past until neither makes it a first use nor forgets it.
	mustUseOnce(t, h.s, "id", past, false)
	mustUseOnce(t, h.s, "id", next, false)
}

func testUseOnceConcurrent(t *testing.T, h *harness) {
	const n = 50
	for _, id := range []string{"jti-a", "jti-b", "jti-c"} {
		until := h.now().Add(long)
		var firsts atomic.Int32
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				first, err := h.s.UseOnce(ctx(), id, until)
				if err != nil {
					errs <- err
					return
				}
				if first {
					firsts.Add(1)
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatalf("UseOnce(%q): %v", id, err)
		}
		if f := firsts.Load(); f != 1 {
			t.Fatalf("UseOnce(%q): %d of %d concurrent calls were first, want exactly 1", id, f, n)
		}
	}
}

func testNamespacesApart(t *testing.T, h *harness) {
	// Ids that look like the store's own key names stay ids.
	until := h.now().Add(long)
	for _, id := range []string{"keys", "ring", "r:x", "u:x", "revoked:x", "used:x", "signet:keys"} {
		mustRevoked(t, h.s, id, false)
		if err := h.s.Revoke(ctx(), id, until); err != nil {
			t.Fatalf("Revoke(%q): %v", id, err)
		}
		mustUseOnce(t, h.s, id, until, true)
	}
	if r := mustKeys(t, h.s); r.Version != 0 || len(r.Keys) != 0 {
		t.Fatalf("ids changed the key ring: version %d, %d keys", r.Version, len(r.Keys))
	}
}

func testInvalidIDs(t *testing.T, h *harness) {
	until := h.now().Add(long)
	for _, id := range []string{"", strings.Repeat("x", storage.MaxIDLength+1), strings.Repeat("y", 1<<20)} {
		if err := h.s.Revoke(ctx(), id, until); !invalid(err) {
			t.Errorf("Revoke(id of %d bytes): err %v, want ErrInvalid (and signet.ErrMalformed)", len(id), err)
		}
		if _, err := h.s.Revoked(ctx(), id); !invalid(err) {
			t.Errorf("Revoked(id of %d bytes): err %v, want ErrInvalid (and signet.ErrMalformed)", len(id), err)
		}
		if first, err := h.s.UseOnce(ctx(), id, until); !invalid(err) || first {
			t.Errorf("UseOnce(id of %d bytes): %v, %v; want false, ErrInvalid (and signet.ErrMalformed)", len(id), first, err)
		}
	}
	// Nothing was kept under a truncated id.
	mustRevoked(t, h.s, strings.Repeat("x", storage.MaxIDLength), false)
	mustUseOnce(t, h.s, strings.Repeat("x", storage.MaxIDLength), until, true)
}

// allCalls calls every method of s with c, returning each error by name.
func allCalls(c context.Context, s storage.Store, until time.Time) map[string]error {
	errs := map[string]error{}
	_, errs["Keys"] = s.Keys(c)
	_, errs["SwapKeys"] = s.SwapKeys(c, 0, sampleKeys())
	errs["Revoke"] = s.Revoke(c, "jti", until)
	_, errs["Revoked"] = s.Revoked(c, "jti")
	first, err := s.UseOnce(c, "id", until)
	if first && err == nil {
		err = errors.New("first use reported")
	}
	errs["UseOnce"] = err
	errs["Ping"] = s.Ping(c)
	return errs
}

func testCanceledContext(t *testing.T, h *harness) {
	until := h.now().Add(long)
	c, cancel := context.WithCancel(ctx())
	cancel()
	for name, err := range allCalls(c, h.s, until) {
		if !unavailable(err) {
			t.Errorf("%s with a canceled context: err %v, want ErrUnavailable (and signet.ErrUnavailable)", name, err)
		}
	}
	c, cancel = context.WithDeadline(ctx(), time.Unix(1, 0))
	defer cancel()
	for name, err := range allCalls(c, h.s, until) {
		if !unavailable(err) {
			t.Errorf("%s with an expired deadline: err %v, want ErrUnavailable (and signet.ErrUnavailable)", name, err)
		}
	}
	// Nothing was done, and the store still works.
	if r := mustKeys(t, h.s); r.Version != 0 {
		t.Fatalf("a canceled SwapKeys stored version %d", r.Version)
	}
	mustRevoked(t, h.s, "jti", false)
	mustUseOnce(t, h.s, "id", until, true)
	if err := h.s.Ping(ctx()); err != nil {
		t.Fatalf("Ping: %v", err)
	}
}

func testClosed(t *testing.T, h *harness) {
	if err := h.s.Ping(ctx()); err != nil {
		t.Fatalf("Ping before Close: %v", err)
	}
	if err := h.s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	for name, err := range allCalls(ctx(), h.s, h.now().Add(long)) {
		if !unavailable(err) {
			t.Errorf("%s after Close: err %v, want ErrUnavailable (and signet.ErrUnavailable)", name, err)
		}
	}
	// A bad id is ErrInvalid even on a closed store.
	if err := h.s.Revoke(ctx(), "", h.now().Add(long)); !invalid(err) {
		t.Errorf("Revoke of an empty id after Close: err %v, want ErrInvalid (and signet.ErrMalformed)", err)
	}
	if err := h.s.Close(); err != nil {
		t.Errorf("Close twice: %v", err)
	}
}
