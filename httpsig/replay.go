package httpsig

import (
	"container/heap"
	"fmt"
	"sync"
	"time"
)

// A ReplayStore remembers the nonces of accepted signatures (RFC 9421
// §7.2.2). Remember records nonce, scoped to keyID, until until, and
// returns an error wrapping ErrReplay if it is already recorded. It must
// be safe for concurrent use. A store shared by several servers (Redis,
// a database) implements it for a fleet.
type ReplayStore interface {
	Remember(keyID, nonce string, until time.Time) error
}

// DefaultReplayEntries bounds the store a Verifier makes when its Policy
// has none.
const DefaultReplayEntries = 1 << 20

// MemoryReplayStore is a ReplayStore in memory, bounded in entries. An
// entry is dropped once its time has passed (a replay after that is
// refused by the signature's age or expiry). When the store is full of
// entries still in their time, new nonces are refused (ErrReplay): it
// fails closed rather than forget a nonce that could be replayed.
type MemoryReplayStore struct {
	mu   sync.Mutex
	max  int
	seen map[replayKey]time.Time
	exp  expiryHeap
	now  func() time.Time
}

type replayKey struct{ keyID, nonce string }

// NewMemoryReplayStore returns a store of at most max nonces.
func NewMemoryReplayStore(max int) *MemoryReplayStore {
	return &MemoryReplayStore{max: max, seen: map[replayKey]time.Time{}, now: time.Now}
}

// Remember implements ReplayStore.
func (s *MemoryReplayStore) Remember(keyID, nonce string, until time.Time) error {
	k := replayKey{keyID, nonce}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	for len(s.exp) > 0 && !s.exp[0].until.After(now) {
		e := heap.Pop(&s.exp).(expiry)
		if s.seen[e.key].Equal(e.until) {
			delete(s.seen, e.key)
		}
	}
	if t, ok := s.seen[k]; ok && t.After(now) {
		return fmt.Errorf("%w: keyid %q", ErrReplay, keyID)
	}
	if len(s.seen) >= s.max {
		return fmt.Errorf("%w: nonce store full (%d entries)", ErrReplay, s.max)
	}
	s.seen[k] = until
	heap.Push(&s.exp, expiry{k, until})
	return nil
}

// Len returns the number of nonces held.
func (s *MemoryReplayStore) Len() int {
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
