// Package keycache keeps state that a format derives from a signet key (a
// pool of keyed hash states, an encoded header) with the key, for the
// key's life, instead of in a global table: package jwt and package paseto
// use it. It is internal so that signet.Key has no exported method for it.
//
// # Invariants
//
// The storage is a Store inside each key's shared data, so copies made by
// Key.WithKeyID share it. Package signet connects it here once, in its
// init, with Register; the connection never changes afterwards (a second
// Register panics), so reading it needs no synchronisation: a package's
// init happens before any code that can hold a *signet.Key runs.
//
// A Store holds a handful of entries per key (one per id a package uses),
// found without hashing or locking: a copy-on-write slice scanned in order.
// An entry, once added, is never replaced or removed; values must be safe
// for concurrent use, since every goroutine using the key sees the same one.
package keycache

import (
	"sync"
	"sync/atomic"
)

// Store is the cache of one key: entries added under mu, read without it.
type Store struct {
	mu    sync.Mutex             // serialises additions
	items atomic.Pointer[[]item] // copy on write
}

// item is one value kept in a Store.
type item struct {
	id, v any
}

// lookup finds id's value: a scan of a few entries, without hashing or
// locking.
func (s *Store) lookup(id any) (any, bool) {
	if p := s.items.Load(); p != nil {
		for i := range *p {
			if (*p)[i].id == id {
				return (*p)[i].v, true
			}
		}
	}
	return nil, false
}

// add keeps v under id unless another goroutine got there first, and
// returns the value kept.
func (s *Store) add(id, v any) any {
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.lookup(id); ok {
		return old
	}
	var items []item
	if p := s.items.Load(); p != nil {
		items = append(items, *p...)
	}
	items = append(items, item{id, v})
	s.items.Store(&items)
	return v
}

// storeOf returns the Store of a key (a *signet.Key), or nil for a value
// that keeps nothing (a nil or zero Key, anything else). Set once by
// Register, during package signet's initialisation.
var storeOf func(key any) *Store

// Register connects package signet's keys to this package: f returns the
// Store of a key. Only package signet calls it, once, from its init.
func Register(f func(key any) *Store) {
	if storeOf != nil {
		panic("keycache: Register called twice")
	}
	storeOf = f
}

// Get returns the value kept with key under id, made by make on first use.
// id should be a value of an unexported, comparable type of the calling
// package (an empty struct, say), so that packages cannot collide. make
// runs outside any lock (it may itself call Get for the same key); when
// two goroutines race, both may run make but all of them get the value
// kept first. A key that keeps nothing (a nil or zero Key) gets a fresh
// make(key) on each call.
func Get[K any](key K, id any, make func(K) any) any {
	var s *Store
	if storeOf != nil {
		s = storeOf(key)
	}
	if s == nil {
		return make(key)
	}
	if v, ok := s.lookup(id); ok {
		return v
	}
	return s.add(id, make(key))
}
