package keycache_test

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/keycache"
)

type cacheA struct{}
type cacheB struct{}

// One value per id for the key's life, shared by WithKeyID copies, made
// outside the cache's lock (make may itself use the cache), the same value
// seen by every goroutine.
func TestGet(t *testing.T) {
	k, err := signet.GenerateKey(signet.HS256)
	if err != nil {
		t.Fatal(err)
	}
	var made atomic.Int32
	var wg sync.WaitGroup
	got := make([]any, 16)
	for i := range got {
		wg.Go(func() {
			got[i] = keycache.Get(k, cacheA{}, func(k *signet.Key) any {
				made.Add(1)
				// A nested use of the cache from make must not deadlock.
				return keycache.Get(k, cacheB{}, func(*signet.Key) any { return new(int) })
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
	if b := keycache.Get(k, cacheB{}, nil); b != got[0] {
		t.Fatal("the nested entry is not the outer one's value")
	}
	if c := keycache.Get(k.WithKeyID("kid"), cacheA{}, nil); c != got[0] {
		t.Fatal("a WithKeyID copy does not share the cache")
	}
	other, _ := signet.GenerateKey(signet.HS256)
	if v := keycache.Get(other, cacheA{}, func(*signet.Key) any { return "other" }); v != "other" {
		t.Fatalf("another key's cache returned %v", v)
	}
}

// A nil or zero Key, or a value that is no key, keeps nothing and does
// not panic: each call makes anew.
func TestGetKeepsNothing(t *testing.T) {
	var nilKey *signet.Key
	for name, get := range map[string]func(func() any) any{
		"zero Key": func(mk func() any) any {
			return keycache.Get(new(signet.Key), cacheA{}, func(*signet.Key) any { return mk() })
		},
		"nil Key": func(mk func() any) any {
			return keycache.Get(nilKey, cacheA{}, func(*signet.Key) any { return mk() })
		},
		"not a key": func(mk func() any) any {
			return keycache.Get("text", cacheA{}, func(string) any { return mk() })
		},
	} {
		made := 0
		for range 2 {
			if v := get(func() any { made++; return made }); v != made {
				t.Fatalf("%s: Get = %v, want make's %d", name, v, made)
			}
		}
		if made != 2 {
			t.Fatalf("%s: make ran %d times, want 2", name, made)
		}
	}
}

// Register is called once, by package signet; a second call is a
// programming error in this module.
func TestRegisterOnce(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("a second Register did not panic")
		}
	}()
	keycache.Register(func(any) *keycache.Store { return nil })
}

// Get on a key's cache hit does not allocate.
func TestGetAllocs(t *testing.T) {
	k, _ := signet.GenerateKey(signet.HS256)
	keycache.Get(k, cacheA{}, func(*signet.Key) any { return new(int) })
	if n := testing.AllocsPerRun(100, func() {
		keycache.Get(k, cacheA{}, func(*signet.Key) any { return new(int) })
	}); n != 0 {
		t.Fatalf("Get allocates %v times on a hit", n)
	}
}
