package keys

import (
	"slices"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/server/storage"
)

// KeyInfo describes one key of the ring a Manager serves, for monitoring:
// its id, algorithm, state and schedule, never key material.
type KeyInfo struct {
	// ID is the key's kid (RFC 7638 thumbprint or PASERK pid).
	ID string
	// Algorithm is the algorithm the key signs with.
	Algorithm signet.Algorithm
	// State is next, active or retired.
	State storage.KeyState
	// Published reports whether the key is in the JWKS (every key but
	// HMAC ones).
	Published bool
	// Created is when the key was generated.
	Created time.Time
	// ActivateAt is when it signs (next) or started signing (active,
	// retired); RetireAt when it stops (active) or stopped (retired);
	// RemoveAt when a retired key leaves the ring.
	ActivateAt, RetireAt, RemoveAt time.Time
}

// Ring describes the keys served now (those of the ring loaded last), in
// ring order: active, next, then retired, latest retired first. It is nil
// until a ring is loaded. The slice is the caller's.
func (m *Manager) Ring() []KeyInfo {
	if lr := m.cur.Load(); lr != nil {
		return slices.Clone(lr.info)
	}
	return nil
}

// Now is the Manager's clock (Config.Now): the time its key ages are
// measured against.
func (m *Manager) Now() time.Time { return m.cfg.Now() }

// ringInfo describes records.
func ringInfo(records []storage.Key) []KeyInfo {
	info := make([]KeyInfo, len(records))
	for i, k := range records {
		alg := signet.Algorithm(k.Algorithm)
		info[i] = KeyInfo{
			ID: k.ID, Algorithm: alg, State: k.State, Published: !alg.Symmetric(),
			Created: k.Created, ActivateAt: k.ActivateAt, RetireAt: k.RetireAt, RemoveAt: k.RemoveAt,
		}
	}
	return info
}
