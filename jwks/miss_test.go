package jwks_test

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwks"
)

// TestMissRules: which unknown kids may trigger a fetch, and the cooldown.
func TestMissRules(t *testing.T) {
	clk := newClock()
	a := genKey(t, signet.ES256, "a")
	srv := newKeyServer(t, a)
	r := start(t, srv.url(), jwks.Options{Algorithms: []signet.Algorithm{signet.ES256}, Now: clk.Now})
	fetches := func() int64 { return srv.hits.Load() }

	notFound := func(kid string, alg signet.Algorithm, want error) {
		t.Helper()
		if _, err := r.Select(kid, alg); !errors.Is(err, want) {
			t.Fatalf("Select(%.20q, %s): %v, want %v", kid, alg, err, want)
		}
	}
	// Never a fetch: a kid over MaxKeyID, an algorithm not allowed, no
	// kid, a known kid for another algorithm.
	notFound(strings.Repeat("k", jwks.DefaultMaxKeyID+1), signet.ES256, signet.ErrKeyNotFound)
	notFound("unknown", signet.ES384, signet.ErrKeyNotFound)
	notFound("unknown", "none", signet.ErrKeyNotFound)
	notFound("", signet.ES384, signet.ErrKeyNotFound)
	notFound("a", signet.EdDSA, signet.ErrAlgorithmMismatch)
	if got := fetches(); got != 1 {
		t.Fatalf("%d fetches, want only the first", got)
	}
	st := r.Stats()
	if st.KidMisses != 3 || st.MissFetches != 0 || st.MissCooldown != 0 {
		t.Fatalf("stats %+v", st)
	}

	// A kid of exactly MaxKeyID bytes may: one fetch, then the cooldown.
	notFound(strings.Repeat("k", jwks.DefaultMaxKeyID), signet.ES256, signet.ErrKeyNotFound)
	notFound("x", signet.ES256, signet.ErrKeyNotFound)
	clk.Advance(jwks.DefaultCooldown - time.Millisecond)
	notFound("y", signet.ES256, signet.ErrKeyNotFound)
	if got := fetches(); got != 2 {
		t.Fatalf("%d fetches, want 2", got)
	}
	clk.Advance(time.Millisecond)
	notFound("z", signet.ES256, signet.ErrKeyNotFound)
	if got := fetches(); got != 3 {
		t.Fatalf("%d fetches after the cooldown, want 3", got)
	}
	st = r.Stats()
	if st.KidMisses != 7 || st.MissFetches != 2 || st.MissCooldown != 2 {
		t.Fatalf("stats %+v", st)
	}
}

// TestMissShared: concurrent misses share one fetch and wait for it;
// lookups of known keys go on meanwhile without waiting.
func TestMissShared(t *testing.T) {
	a := genKey(t, signet.ES256, "a")
	srv := newKeyServer(t, a)
	r := start(t, srv.url(), jwks.Options{})
	<-srv.entered // the first fetch

	b := genKey(t, signet.ES256, "b")
	srv.setKeys(t, a, b)
	srv.setMode(hang) // the miss fetch is held at the server
	const n = 50
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Go(func() {
			c, err := r.Select("b", signet.ES256)
			if err == nil && c.At(0).KeyID() != "b" {
				err = fmt.Errorf("got key %q", c.At(0).KeyID())
			}
			errs <- err
		})
	}
	<-srv.entered // the miss fetch reached the server and waits there
	// Every miss waits for this fetch.
	for jwks.Waiters(r) < n {
		time.Sleep(time.Millisecond)
	}
	// While n lookups wait for the fetch, a known key is served: this
	// loop would deadlock if a hit waited for the fetch.
	for range 1000 {
		mustSelect(t, r, "a", signet.ES256)
	}
	srv.open()
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if got := srv.hits.Load(); got != 2 {
		t.Fatalf("%d fetches for %d concurrent misses, want 2 (first + one shared)", got, n)
	}
	st := r.Stats()
	if st.MissFetches != 1 || st.KidMisses != n {
		t.Fatalf("stats %+v", st)
	}
	// The cooldown now runs: a miss is answered at once, without a fetch.
	if _, err := r.Select("c", signet.ES256); !errors.Is(err, signet.ErrKeyNotFound) {
		t.Fatal(err)
	}
	if srv.hits.Load() != 2 || r.Stats().MissCooldown != 1 {
		t.Fatalf("miss in the cooldown fetched: %+v", r.Stats())
	}
}

// TestMissFetchFails: a miss whose fetch fails gets ErrKeyNotFound, the
// set held keeps serving, and the cooldown still applies.
func TestMissFetchFails(t *testing.T) {
	clk := newClock()
	a := genKey(t, signet.ES256, "a")
	srv := newKeyServer(t, a)
	r := start(t, srv.url(), jwks.Options{Now: clk.Now})
	srv.setMode(fail500)
	if _, err := r.Select("b", signet.ES256); !errors.Is(err, signet.ErrKeyNotFound) {
		t.Fatal(err)
	}
	if _, err := r.Select("b", signet.ES256); !errors.Is(err, signet.ErrKeyNotFound) {
		t.Fatal(err)
	}
	mustSelect(t, r, "a", signet.ES256)
	if st := r.Stats(); st.MissFetches != 1 || st.MissCooldown != 1 || st.FetchErrors != 1 || srv.hits.Load() != 2 {
		t.Fatalf("stats %+v, %d fetches", st, srv.hits.Load())
	}
}

// TestKidFlood: 10,000 lookups with random kids over a simulated 10 s
// (the clock moves 1 ms per lookup) cost the key server at most
// ⌈10 s / cooldown⌉ + 1 fetches, and known kids keep resolving.
func TestKidFlood(t *testing.T) {
	for _, cooldown := range []time.Duration{jwks.DefaultCooldown, time.Second} {
		t.Run(fmt.Sprint("cooldown=", cooldown), func(t *testing.T) {
			fetches, st, lat := flood(t, cooldown, 10_000, 10*time.Second)
			limit := int64(math.Ceil(float64(10*time.Second)/float64(cooldown))) + 1
			t.Logf("cooldown %v: %d fetches (limit %d); misses %d, miss fetches %d, answered in cooldown %d; valid lookups p50 %v p99 %v max %v",
				cooldown, fetches, limit, st.KidMisses, st.MissFetches, st.MissCooldown, lat[len(lat)/2], lat[len(lat)*99/100], lat[len(lat)-1])
			if fetches > limit {
				t.Fatalf("%d fetches, limit %d", fetches, limit)
			}
			if st.MissFetches+st.MissCooldown > st.KidMisses {
				t.Fatalf("stats %+v", st)
			}
		})
	}
}

// flood runs total lookups from 8 goroutines, one in ten for a known kid
// (which must resolve), the rest for random ones, moving a fake clock by
// span/total per lookup. It returns the server's fetch count, the stats,
// and the sorted latencies of the known-kid lookups.
func flood(t *testing.T, cooldown time.Duration, total int, span time.Duration) (int64, jwks.Stats, []time.Duration) {
	clk := newClock()
	good := genKey(t, signet.EdDSA, "good")
	srv := newKeyServer(t, good)
	r := start(t, srv.url(), jwks.Options{Now: clk.Now, Cooldown: cooldown})
	step := span / time.Duration(total)
	var next atomic.Int64
	var mu sync.Mutex
	var lat []time.Duration
	var wg sync.WaitGroup
	var failed atomic.Value
	for range 8 {
		wg.Go(func() {
			var mine []time.Duration
			var buf [16]byte
			for i := next.Add(1); i <= int64(total); i = next.Add(1) {
				clk.Advance(step)
				if i%10 == 0 {
					begin := time.Now()
					_, err := r.Select("good", signet.EdDSA)
					mine = append(mine, time.Since(begin))
					if err != nil {
						failed.Store(err)
					}
					continue
				}
				rand.Read(buf[:])
				if _, err := r.Select(hex.EncodeToString(buf[:]), signet.EdDSA); !errors.Is(err, signet.ErrKeyNotFound) {
					failed.Store(fmt.Errorf("random kid: %v", err))
				}
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	if err, _ := failed.Load().(error); err != nil {
		t.Fatal(err)
	}
	slices.Sort(lat)
	return srv.hits.Load(), r.Stats(), lat
}
