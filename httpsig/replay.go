package httpsig

import (
	"container/heap"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/clip"
)

// A ReplayStore remembers the nonces of accepted signatures (RFC 9421
// §7.2.2). Remember records nonce, scoped to keyID (the ID of the key that
// verified the signature), up to and including until, and returns an
// error wrapping ErrReplay if it is already recorded, or if it cannot be
// recorded (a Verifier refuses the signature on any error). now is the
// Verifier's time (Policy.Now) when it judged the signature: a store
// tells which entries have run out by it, never by its own clock, so that
// a verifier whose clock is fixed or lags keeps its nonces as long as it
// accepts their signatures. A Verifier calls Remember last, once every
// other check (the body's digest included) has passed. It must be safe
// for concurrent use. A store shared by several servers (Redis, a
// database) implements it for a fleet; it should bound what one key can
// hold, as MemoryReplayStore does.
type ReplayStore interface {
	Remember(keyID, nonce string, now, until time.Time) error
}

// Default limits of a MemoryReplayStore (see ReplayLimits).
const (
	DefaultReplayEntries   = 1 << 20
	DefaultReplayPerKey    = 1 << 16
	DefaultReplayRetention = 15 * time.Minute
)

// ReplayLimits bound a MemoryReplayStore. A zero field takes its default.
type ReplayLimits struct {
	// Entries bounds the nonces held in all; DefaultReplayEntries when
	// zero.
	Entries int
	// PerKey bounds the nonces held for one key ID, so that one client
	// flooding nonces fills its own share only and the others keep
	// theirs; DefaultReplayPerKey when zero (at most Entries).
	PerKey int
	// Retention bounds how long a nonce may need to be held: a nonce
	// whose time ends further ahead is refused rather than kept (the
	// store cannot forget it early without letting it be replayed).
	// DefaultReplayRetention when zero. A Verifier's own store retains
	// MaxAge plus twice Skew, the longest a signature it accepts with a
	// nonce stays good.
	Retention time.Duration
}

// MemoryReplayStore is a ReplayStore in memory, bounded in entries, in
// entries per key ID, and in retention. Time is what its callers pass to
// Remember (a Verifier's Policy.Now); it reads no clock of its own. An
// entry is kept up to and including its until, and dropped once a later
// now has passed it (a replay after that is refused by the signature's
// age or expiry, which end at the same instant). When a key's share, or
// the whole store, is full of entries still in their time, that key's new
// nonces are refused (ErrReplay): it fails closed rather than forget a
// nonce that could be replayed, and a key filling its share locks out no
// other key. The zero MemoryReplayStore has the default limits.
type MemoryReplayStore struct {
	mu     sync.Mutex
	lim    ReplayLimits
	seen   map[replayKey]time.Time
	perKey map[string]int
	exp    expiryHeap
}

type replayKey struct{ keyID, nonce string }

// NewMemoryReplayStore returns a store bounded by lim (zero fields take
// their defaults).
func NewMemoryReplayStore(lim ReplayLimits) *MemoryReplayStore {
	if lim.Entries <= 0 {
		lim.Entries = DefaultReplayEntries
	}
	if lim.PerKey <= 0 {
		lim.PerKey = DefaultReplayPerKey
	}
	lim.PerKey = min(lim.PerKey, lim.Entries)
	if lim.Retention <= 0 {
		lim.Retention = DefaultReplayRetention
	}
	return &MemoryReplayStore{lim: lim, seen: map[replayKey]time.Time{}, perKey: map[string]int{}}
}

// Remember implements ReplayStore.
func (s *MemoryReplayStore) Remember(keyID, nonce string, now, until time.Time) error {
	if s == nil {
		return fmt.Errorf("%w: %w: a nil MemoryReplayStore", ErrReplay, signet.ErrKeyUsage)
	}
	k := replayKey{keyID, nonce}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen == nil { // the zero MemoryReplayStore: default limits
		d := NewMemoryReplayStore(ReplayLimits{})
		s.lim, s.seen, s.perKey = d.lim, d.seen, d.perKey
	}
	for len(s.exp) > 0 && s.exp[0].until.Before(now) {
		e := heap.Pop(&s.exp).(expiry)
		if t, ok := s.seen[e.key]; ok && t.Equal(e.until) {
			s.drop(e.key)
		}
	}
	if _, ok := s.seen[k]; ok { // still in its time: older entries were dropped above
		return fmt.Errorf("%w: keyid %q", ErrReplay, clip.String(keyID))
	}
	if until.After(now.Add(s.lim.Retention)) {
		return fmt.Errorf("%w: nonce valid until %v, past the store's retention of %v", ErrReplay, until.UTC(), s.lim.Retention)
	}
	if s.perKey[keyID] >= s.lim.PerKey {
		return fmt.Errorf("%w: nonce store full for keyid %q (%d entries)", ErrReplay, clip.String(keyID), s.lim.PerKey)
	}
	if len(s.seen) >= s.lim.Entries {
		return fmt.Errorf("%w: nonce store full (%d entries)", ErrReplay, s.lim.Entries)
	}
	// The nonce may be a slice of the message's Signature-Input line:
	// keep its bytes only, not the whole line, for as long as it is held.
	k.nonce = strings.Clone(nonce)
	s.seen[k] = until
	s.perKey[keyID]++
	heap.Push(&s.exp, expiry{k, until})
	return nil
}

// drop forgets an entry.
func (s *MemoryReplayStore) drop(k replayKey) {
	delete(s.seen, k)
	if n := s.perKey[k.keyID] - 1; n > 0 {
		s.perKey[k.keyID] = n
	} else {
		delete(s.perKey, k.keyID)
	}
}

// Len returns the number of nonces held.
func (s *MemoryReplayStore) Len() int {
	if s == nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.seen)
}

type expiry struct {
	key   replayKey
	until time.Time
}

type expiryHeap []expiry

func (h expiryHeap) Len() int           { return len(h) }
func (h expiryHeap) Less(i, j int) bool { return h[i].until.Before(h[j].until) }
func (h expiryHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *expiryHeap) Push(x any)        { *h = append(*h, x.(expiry)) }
func (h *expiryHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
