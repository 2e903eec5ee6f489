package storage

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
)

// DefaultMemoryEntries bounds the revocations plus used ids a Memory
// store holds: when full, new entries are refused (ErrUnavailable) rather
// than old ones evicted, since an evicted revocation would make a revoked
// token valid again.
const DefaultMemoryEntries = 1 << 20

// Memory is a Store in this process's memory, for `signet serve --dev`
// and tests: nothing survives the process. The zero value is not usable;
// make one with NewMemory.
type Memory struct {
	now func() time.Time
	max int

	mu      sync.Mutex
	ring    KeyRing
	entries map[string]time.Time // "r:" + jti or "u:" + id → until
	closed  bool
}

// NewMemory makes an empty in-memory store. now is its clock (time.Now
// when nil), used to expire entries.
func NewMemory(now func() time.Time) *Memory {
	if now == nil {
		now = time.Now
	}
	return &Memory{now: now, max: DefaultMemoryEntries, entries: make(map[string]time.Time)}
}

func (m *Memory) check(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	if m.closed {
		return fmt.Errorf("%w: closed", ErrUnavailable)
	}
	return nil
}

// Keys implements Store.
func (m *Memory) Keys(ctx context.Context) (KeyRing, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.check(ctx); err != nil {
		return KeyRing{}, err
	}
	return KeyRing{Version: m.ring.Version, Keys: slices.Clone(m.ring.Keys)}, nil
}

// SwapKeys implements Store.
func (m *Memory) SwapKeys(ctx context.Context, old uint64, keys []Key) (KeyRing, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.check(ctx); err != nil {
		return KeyRing{}, err
	}
	// Encoded only to apply the persistent stores' limits.
	if _, err := EncodeSwap(old, keys); err != nil {
		return KeyRing{}, err
	}
	if m.ring.Version != old {
		return KeyRing{}, fmt.Errorf("%w: stored version %d, expected %d", ErrConflict, m.ring.Version, old)
	}
	m.ring = KeyRing{Version: old + 1, Keys: normalizeKeys(keys)}
	return KeyRing{Version: m.ring.Version, Keys: slices.Clone(m.ring.Keys)}, nil
}

// Revoke implements Store.
func (m *Memory) Revoke(ctx context.Context, jti string, until time.Time) error {
	if err := CheckID(jti); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.check(ctx); err != nil {
		return err
	}
	if !until.After(m.now()) {
		return nil // the token has expired: nothing to refuse
	}
	k := "r:" + jti
	if old, ok := m.live(k); ok && !until.After(old) {
		return nil
	}
	return m.put(k, until)
}

// Revoked implements Store.
func (m *Memory) Revoked(ctx context.Context, jti string) (bool, error) {
	if err := CheckID(jti); err != nil {
		return false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.check(ctx); err != nil {
		return false, err
	}
	_, ok := m.live("r:" + jti)
	return ok, nil
}

// UseOnce implements Store.
func (m *Memory) UseOnce(ctx context.Context, id string, until time.Time) (bool, error) {
	if err := CheckID(id); err != nil {
		return false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.check(ctx); err != nil {
		return false, err
	}
	k := "u:" + id
	if _, ok := m.live(k); ok {
		return false, nil
	}
	if !until.After(m.now()) {
		return true, nil // first use, nothing worth remembering
	}
	if err := m.put(k, until); err != nil {
		return false, err
	}
	return true, nil
}

// live returns k's until when k is present and not expired (an expired
// entry is dropped).
func (m *Memory) live(k string) (time.Time, bool) {
	until, ok := m.entries[k]
	if !ok {
		return time.Time{}, false
	}
	if !m.now().Before(until) {
		delete(m.entries, k)
		return time.Time{}, false
	}
	return until, true
}

// put stores k until until, sweeping expired entries first when full.
func (m *Memory) put(k string, until time.Time) error {
	if _, ok := m.entries[k]; !ok && len(m.entries) >= m.max {
		now := m.now()
		for key, u := range m.entries {
			if !now.Before(u) {
				delete(m.entries, key)
			}
		}
		if len(m.entries) >= m.max {
			return fmt.Errorf("%w: memory store full (%d entries)", ErrUnavailable, m.max)
		}
	}
	m.entries[k] = until
	return nil
}

// Ping implements Store.
func (m *Memory) Ping(ctx context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.check(ctx)
}

// Close implements Store: later calls fail with ErrUnavailable. Closing
// twice is no error.
func (m *Memory) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	return nil
}
