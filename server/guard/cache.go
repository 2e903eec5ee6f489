package guard

import (
	"crypto/sha256"
	"sync"
	"time"

	"github.com/signet-go/signet"
)

// DefaultCacheSize is the number of verified tokens a Guard remembers
// when Config.CacheSize is zero. An entry holds the token's payload
// segment, so the cache takes at most about CacheSize × MaxTokenSize
// bytes (32 MiB with the defaults; a few MiB with tokens of common size).
const DefaultCacheSize = 4096

// DefaultCacheMaxAge bounds how long a verified token is remembered when
// Config.CacheMaxAge is zero, whatever its exp: with a key source that
// does not say when its keys change (not a signet.CachedKeys), a key
// withdrawn from it stops vouching for cached tokens within this time.
const DefaultCacheMaxAge = 5 * time.Minute

// cacheKey is the SHA-256 of a token: the cache never holds a token, and
// a lookup compares fixed-size digests.
type cacheKey [sha256.Size]byte

// verified is what the cache remembers of a token that passed every
// check: the claims header value to forward and the times it may be used
// between.
type verified struct {
	header   string    // the value of the claims header: the payload segment, exactly as signed
	notAfter time.Time // the first instant it is no longer used: the earliest of exp and the entry's max age
	notUntil time.Time // the first instant it may be used: the latest of nbf and iat
	subject  string    // for the log (never the token)
	// set is the key set the token was verified against, when the key
	// source is a signet.CachedKeys (jwks.Remote): the entry serves only
	// while the source still serves that very set (see Guard.vouches).
	set *signet.KeySet
}

// usable reports whether v may be used at now: from notUntil, before
// notAfter. A clock stepping back before the token's nbf or iat makes it
// unusable, as Verify would find it.
func (v *verified) usable(now time.Time) bool {
	return !now.Before(v.notUntil) && now.Before(v.notAfter)
}

// entry is one cached token in its shard's LRU list.
type entry struct {
	key        cacheKey
	v          verified
	prev, next *entry
}

// shard is one part of the cache: a map and a list from the most to the
// least recently used entry, under one lock.
type shard struct {
	mu   sync.Mutex
	m    map[cacheKey]*entry
	head entry // sentinel: head.next is the most recent, head.prev the least
	max  int
}

// cache is a bounded set of verified tokens, keyed by the SHA-256 of the
// token. It evicts the least recently used entry of a shard when the
// shard is full, and drops entries found past their notAfter. It is safe
// for concurrent use.
type cache struct {
	shards []shard
	mask   uint8
}

// newCache makes a cache of at most size entries (size > 0). Large caches
// are split in 16 shards, each with its own lock, so that concurrent
// requests rarely wait for each other.
func newCache(size int) *cache {
	n := 1
	if size >= 256 {
		n = 16
	}
	c := &cache{shards: make([]shard, n), mask: uint8(n - 1)}
	for i := range c.shards {
		s := &c.shards[i]
		s.m = make(map[cacheKey]*entry)
		s.head.next, s.head.prev = &s.head, &s.head
		s.max = size / n
		if i < size%n {
			s.max++
		}
	}
	return c
}

func (c *cache) shard(k *cacheKey) *shard { return &c.shards[k[0]&c.mask] }

// get returns the entry of k if it is usable at now. An entry past its
// notAfter is removed.
func (c *cache) get(k *cacheKey, now time.Time) (verified, bool) {
	s := c.shard(k)
	s.mu.Lock()
	e, ok := s.m[*k]
	if !ok {
		s.mu.Unlock()
		return verified{}, false
	}
	if !now.Before(e.v.notAfter) {
		s.remove(e)
		s.mu.Unlock()
		return verified{}, false
	}
	if !e.v.usable(now) {
		s.mu.Unlock()
		return verified{}, false
	}
	s.moveFront(e)
	v := e.v
	s.mu.Unlock()
	return v, true
}

// put remembers v under k, and reports whether an entry was evicted to
// make room.
func (c *cache) put(k *cacheKey, v verified) (evicted bool) {
	s := c.shard(k)
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.m[*k]; ok {
		e.v = v
		s.moveFront(e)
		return false
	}
	if len(s.m) >= s.max {
		s.remove(s.head.prev)
		evicted = true
	}
	e := &entry{key: *k, v: v}
	s.m[*k] = e
	s.pushFront(e)
	return evicted
}

// len is the number of entries held now (expired ones included until a
// lookup or an eviction drops them).
func (c *cache) len() int {
	n := 0
	for i := range c.shards {
		s := &c.shards[i]
		s.mu.Lock()
		n += len(s.m)
		s.mu.Unlock()
	}
	return n
}

func (s *shard) pushFront(e *entry) {
	e.prev, e.next = &s.head, s.head.next
	s.head.next.prev = e
	s.head.next = e
}

func (s *shard) unlink(e *entry) {
	e.prev.next, e.next.prev = e.next, e.prev
	e.prev, e.next = nil, nil
}

func (s *shard) moveFront(e *entry) {
	if s.head.next == e {
		return
	}
	s.unlink(e)
	s.pushFront(e)
}

func (s *shard) remove(e *entry) {
	s.unlink(e)
	delete(s.m, e.key)
}
