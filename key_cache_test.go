package signet_test

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/signet-go/signet"
)

type cacheA struct{}
type cacheB struct{}

// Key.Cache: one value per id for the key's life, shared by WithKeyID
// copies, made outside the cache's lock (make may itself use the cache),
// the same value seen by every goroutine.
func TestKeyCache(t *testing.T) {
	k, err := signet.GenerateKey(signet.HS256)
	if err != nil {
		t.Fatal(err)
	}
	var made atomic.Int32
	var wg sync.WaitGroup
	got := make([]any, 16)
	for i := range got {
		wg.Go(func() {
			got[i] = k.Cache(cacheA{}, func(k *signet.Key) any {
				made.Add(1)
				// A nested use of the cache from make must not deadlock.
				return k.Cache(cacheB{}, func(*signet.Key) any { return new(int) })
			})
		})
	}
	wg.Wait()
	for _, v := range got[1:] {
		if v != got[0] {
			t.Fatal("goroutines saw different values for one id")
		}
	}
	if made.Load() < 1 {
		t.Fatal("make never ran")
	}
	if b := k.Cache(cacheB{}, nil); b != got[0] {
		t.Fatal("the nested entry is not the outer one's value")
	}
	if c := k.WithKeyID("kid").Cache(cacheA{}, nil); c != got[0] {
		t.Fatal("a WithKeyID copy does not share the cache")
	}
	other, _ := signet.GenerateKey(signet.HS256)
	if v := other.Cache(cacheA{}, func(*signet.Key) any { return "other" }); v != "other" {
		t.Fatalf("another key's cache returned %v", v)
	}
}

// A zero Key keeps nothing and does not panic: each call makes anew.
func TestKeyCacheZeroKey(t *testing.T) {
	var k signet.Key
	made := 0
	for range 2 {
		if v := k.Cache(cacheA{}, func(*signet.Key) any { made++; return made }); v != made {
			t.Fatalf("Cache on a zero Key = %v, want make's %d", v, made)
		}
	}
	if made != 2 {
		t.Fatalf("make ran %d times, want 2", made)
	}
}
