package keys

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/server/storage"
)

// maxSwapAttempts bounds how often one Refresh re-plans after losing a
// compare-and-swap to another instance.
const maxSwapAttempts = 8

// Manager owns the service's signing keys: one loop (Run) loads the key
// ring, rotates it when due and publishes it; Signer, Verifier and
// JWKSHandler serve the last ring loaded, from memory. It is safe for
// concurrent use. Make one with New.
type Manager struct {
	store storage.Store
	cfg   Config

	cur atomic.Pointer[loadedRing] // nil until a ring with an active key is loaded

	refresh sync.Mutex // one Refresh at a time

	// storeDown is set when the last Refresh could not read or write the
	// store, or read a ring it cannot open (so the ring served is no
	// longer the store's), and cleared once a Refresh succeeded (after
	// its ring is installed): meanwhile Signer and Verifier fail closed.
	storeDown atomic.Bool

	errMu   sync.Mutex
	lastErr error // the last Refresh failure, for errors before the first load

	held *heldRotation // the rotation postponed last; guarded by refresh
}

// heldRotation is a rotation postponed (see postpone): the ring it was
// planned from, and the first time a key leaves that ring (making room).
// Until then, or until the ring changes, planning it again would only
// generate keys to throw away (an RSA key per reload, for hours).
type heldRotation struct {
	version uint64
	records []storage.Key
	until   time.Time
	err     error
}

// loadedRing is a key ring as served: the keys unwrapped once, the set
// and the JWKS body computed once.
type loadedRing struct {
	version  uint64
	records  []storage.Key
	private  map[string]*signet.Key // kid → unwrapped private key
	signer   *signet.Key
	verifier *signet.KeySet
	jwks     jwksDoc
	info     []KeyInfo
}

// New makes a Manager of the keys in store. It does not touch the store:
// call Refresh to load (and, on first start, create) the ring before
// serving, and Run to keep it loaded and rotated.
func New(store storage.Store, cfg Config) (*Manager, error) {
	if store == nil {
		return nil, fmt.Errorf("%w: keys: nil store", signet.ErrKeyUsage)
	}
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	c.since = c.Now()
	return &Manager{store: store, cfg: c}, nil
}

// Run is the rotation loop: it calls Refresh at once and then every
// Config.Reload until ctx is done. Run one per process; when many
// processes share a store, each runs its own loop and the store's
// compare-and-swap lets exactly one of them rotate. Failures are retried
// at the next tick; the first of a series is logged, and the recovery.
// While the store does not answer nothing is signed (see Signer); the
// JWKS handler goes on serving the last ring loaded.
func (m *Manager) Run(ctx context.Context) {
	t := time.NewTicker(m.cfg.Reload)
	defer t.Stop()
	failing := false
	for {
		err := m.Refresh(ctx)
		switch {
		case ctx.Err() != nil:
		case err != nil && !failing:
			m.cfg.Logger.Warn("keys: refresh failed; retrying every reload", "err", err, "reload", m.cfg.Reload.String())
			failing = true
		case err == nil && failing:
			m.cfg.Logger.Info("keys: refresh succeeded again; key ring reloaded")
			failing = false
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Refresh is one step of the loop Run runs: it loads the ring from the
// store, rotates it when due (generating keys as needed), writes it back
// by compare-and-swap (reloading and planning again when another instance
// wrote first) and makes it the ring served. Each store call is bounded by
// Config.Reload. A ring whose keys do not unwrap under the KEK is never
// written over: the error wraps signet.ErrSignatureInvalid. A rotation
// whose ring would exceed storage.MaxKeyRingSize (the error wraps
// storage.ErrInvalid) or publish more than jwk.MaxSetKeys keys
// (signet.ErrTooLarge) is postponed: the store's ring goes on being
// served (its active key signing) until retired keys have left room.
// Store errors wrap storage.ErrUnavailable; after one, or after a ring
// this instance cannot open, Signer and Verifier fail until a Refresh
// succeeds again.
func (m *Manager) Refresh(ctx context.Context) error {
	m.refresh.Lock()
	defer m.refresh.Unlock()
	ctx, cancel := context.WithTimeout(ctx, m.cfg.Reload)
	defer cancel()
	err := m.refreshLocked(ctx)
	if err == nil {
		m.storeDown.Store(false) // after the ring was installed
	}
	m.errMu.Lock()
	m.lastErr = err
	m.errMu.Unlock()
	return err
}

func (m *Manager) refreshLocked(ctx context.Context) error {
	for range maxSwapAttempts {
		kr, err := m.store.Keys(ctx)
		if err != nil {
			m.cfg.Observer.StoreError(StoreOpKeys)
			m.storeDown.Store(true)
			return fmt.Errorf("keys: loading the key ring: %w", err)
		}
		lr, err := m.load(kr, nil)
		if err != nil {
			// Never plan over keys this instance cannot open, nor go on
			// signing with the ring served: the store's ring is another,
			// whose keys the other instances rotate.
			m.storeDown.Store(true)
			return err
		}
		now := m.cfg.Now()
		if h := m.held; h != nil && h.version == kr.Version && now.Before(h.until) && sameRecords(h.records, kr.Keys) {
			return m.serveHeld(lr, h.err) // nothing has left the ring: no room yet
		}
		planned, changed, gen, err := m.cfg.plan(kr.Keys, now)
		if err != nil {
			m.storeDown.Store(true)
			return err
		}
		if !changed {
			m.install(lr)
			return nil
		}
		if n := published(planned); n > jwk.MaxSetKeys && n > published(kr.Keys) {
			// A JWKS of more keys than a JWK Set may hold is refused whole
			// by its readers (jwk.ReadSet): wait for room, as below.
			return m.postpone(lr, kr, fmt.Errorf("%w: keys: a rotated key ring would publish %d keys (at most %d, jwk.MaxSetKeys)", signet.ErrTooLarge, n, jwk.MaxSetKeys))
		}
		nr, err := m.store.SwapKeys(ctx, kr.Version, planned)
		if errors.Is(err, storage.ErrConflict) {
			m.install(lr)
			continue // another instance wrote first: reload, plan again
		}
		if errors.Is(err, storage.ErrInvalid) {
			// The planned ring cannot be stored (over MaxKeyRingSize).
			m.cfg.Observer.StoreError(StoreOpSwapKeys)
			return m.postpone(lr, kr, err)
		}
		if err != nil {
			m.cfg.Observer.StoreError(StoreOpSwapKeys)
			m.storeDown.Store(true)
			m.install(lr)
			return fmt.Errorf("keys: storing the key ring: %w", err)
		}
		lr, err = m.load(nr, gen)
		if err != nil {
			return err
		}
		m.logChange(kr.Keys, nr)
		if rotated(kr.Keys, nr.Keys) {
			m.cfg.Observer.Rotated()
		}
		m.install(lr)
		return nil
	}
	return fmt.Errorf("%w: keys: the key ring kept changing (%d attempts)", storage.ErrUnavailable, maxSwapAttempts)
}

// postpone serves lr, the store's ring kr as just loaded, when the ring
// planned from it is too big to store or publish (a short Rotate keeps a
// retired key per period of MaxTokenTTL): the rotation waits, the active
// key signing on, until retired keys have left room, and is not planned
// again before the first of them leaves. The store answered, so this is
// no outage, which would last until then: hours.
func (m *Manager) postpone(lr *loadedRing, kr storage.KeyRing, err error) error {
	var until time.Time
	for _, k := range kr.Keys {
		if k.State == storage.KeyRetired && (until.IsZero() || k.RemoveAt.Before(until)) {
			until = k.RemoveAt
		}
	}
	m.held = &heldRotation{version: kr.Version, records: kr.Keys, until: until, err: err}
	return m.serveHeld(lr, err)
}

// serveHeld serves lr, the store's ring, while its rotation is postponed
// (err says why).
func (m *Manager) serveHeld(lr *loadedRing, err error) error {
	m.install(lr)
	if lr.signer != nil {
		m.storeDown.Store(false)
	}
	return fmt.Errorf("keys: rotation postponed: %w", err)
}

// published counts the keys of ring the JWKS publishes (all but HMAC
// keys).
func published(ring []storage.Key) int {
	n := 0
	for _, k := range ring {
		if !signet.Algorithm(k.Algorithm).Symmetric() {
			n++
		}
	}
	return n
}

// load makes the served form of kr: every key unwrapped (reusing those
// unwrapped before, and gen, the keys just generated), the verification
// set and the JWKS body.
func (m *Manager) load(kr storage.KeyRing, gen map[string]*signet.Key) (*loadedRing, error) {
	prev := m.cur.Load()
	// The version alone does not name a ring: a store that lost its data
	// (a Redis restarted empty) numbers its rings from 1 again, so another
	// instance's fresh ring may come back at the version of the one served.
	if prev != nil && prev.version == kr.Version && gen == nil && sameRecords(prev.records, kr.Keys) {
		return prev, nil
	}
	lr := &loadedRing{version: kr.Version, records: kr.Keys, private: make(map[string]*signet.Key, len(kr.Keys))}
	verify := make([]*signet.Key, 0, len(kr.Keys))
	var signerSince time.Time
	for _, rec := range kr.Keys {
		switch rec.State {
		case storage.KeyNext, storage.KeyActive, storage.KeyRetired:
		default:
			return nil, fmt.Errorf("%w: keys: key %q in state %q", signet.ErrMalformed, rec.ID, rec.State)
		}
		k := gen[rec.ID]
		if k == nil && prev != nil {
			// A key unwrapped before is reused only for the very record it
			// was checked against: its algorithm and public form are what
			// gets published, and a record whose Public or Algorithm
			// changed under an unchanged Wrapped (written by someone
			// without the KEK) must be unwrapped, and so refused, again.
			if old := prev.private[rec.ID]; old != nil && prev.opened(rec) {
				k = old
			}
		}
		if k == nil {
			u, err := unwrap(rec, m.cfg.KEK)
			if err != nil {
				return nil, err
			}
			k = u
		}
		lr.private[rec.ID] = k
		// Of several active keys (a ring this package never writes, and
		// repairs at the next step) the one activated last signs, as plan
		// keeps it.
		if rec.State == storage.KeyActive && (lr.signer == nil || rec.ActivateAt.After(signerSince)) {
			lr.signer, signerSince = k, rec.ActivateAt
		}
		v := k
		if !k.Symmetric() {
			pub, err := k.Public()
			if err != nil {
				return nil, fmt.Errorf("keys: key %q: %w", rec.ID, err)
			}
			v = pub
		}
		verify = append(verify, v)
	}
	set, err := signet.NewKeySet(verify...)
	if err != nil {
		return nil, fmt.Errorf("keys: key ring version %d: %w", kr.Version, err)
	}
	lr.verifier = set
	lr.jwks, err = makeJWKS(kr.Keys, m.cfg.MaxAge)
	if err != nil {
		return nil, err
	}
	lr.info = ringInfo(kr.Keys)
	return lr, nil
}

// sameRecords reports whether two rings hold the same key records.
func sameRecords(a, b []storage.Key) bool {
	return slices.EqualFunc(a, b, func(x, y storage.Key) bool {
		return x.ID == y.ID && x.State == y.State && x.Algorithm == y.Algorithm && x.Wrapped == y.Wrapped &&
			x.Public == y.Public && x.Created.Equal(y.Created) && x.ActivateAt.Equal(y.ActivateAt) &&
			x.RetireAt.Equal(y.RetireAt) && x.RemoveAt.Equal(y.RemoveAt)
	})
}

// opened reports whether lr holds a record of rec's kid with rec's
// algorithm, wrapped key and public form: one whose unwrapped key was
// checked against exactly what rec says.
func (lr *loadedRing) opened(rec storage.Key) bool {
	for _, r := range lr.records {
		if r.ID == rec.ID {
			return r.Algorithm == rec.Algorithm && r.Wrapped == rec.Wrapped && r.Public == rec.Public
		}
	}
	return false
}

// install serves lr, if it has an active key (a ring without one never
// replaces one with).
func (m *Manager) install(lr *loadedRing) {
	if lr != nil && lr.signer != nil {
		m.cur.Store(lr)
	}
}

// logChange logs what a stored rotation step changed.
func (m *Manager) logChange(before []storage.Key, after storage.KeyRing) {
	old := make(map[string]storage.KeyState, len(before))
	for _, k := range before {
		old[k.ID] = k.State
	}
	seen := make(map[string]bool, len(after.Keys))
	for _, k := range after.Keys {
		seen[k.ID] = true
		if s, ok := old[k.ID]; !ok || s != k.State {
			m.cfg.Logger.Info("keys: key state", "kid", k.ID, "alg", k.Algorithm, "from", string(s), "to", string(k.State),
				"activate_at", k.ActivateAt, "retire_at", k.RetireAt, "remove_at", k.RemoveAt, "ring_version", after.Version)
		}
	}
	for _, k := range before {
		if !seen[k.ID] {
			m.cfg.Logger.Info("keys: key removed", "kid", k.ID, "alg", k.Algorithm, "from", string(k.State), "ring_version", after.Version)
		}
	}
}

// rotated reports whether after's active key is another than before's
// (which had one).
func rotated(before, after []storage.Key) bool {
	var was, is string
	for _, k := range before {
		if k.State == storage.KeyActive {
			was = k.ID
		}
	}
	for _, k := range after {
		if k.State == storage.KeyActive {
			is = k.ID
		}
	}
	return was != "" && is != was
}

// Signer returns the active private key, its kid set: the key to sign
// with now. It reads only memory (the ring the loop loaded last; ctx is
// not used and the store never called). Before a ring was loaded, the
// error wraps storage.ErrUnavailable and signet.ErrKeyNotFound.
//
// It fails closed while the store does not answer: from the first
// Refresh that could not reach the store (within Config.Reload of an
// outage) until one that could, the error wraps storage.ErrUnavailable.
// So it does while the store holds a ring this instance cannot open
// (another KEK, a tampered record: the error wraps
// signet.ErrSignatureInvalid too), which is not the ring it serves.
// The ring in memory may then be stale: another instance may have
// rotated, or the store may come back empty (a Redis restarted without
// its data) and with it the revocations; signing and introspecting with
// the old ring would hand out tokens no published key set holds, or
// report a revoked token active. The first Refresh after the outage
// installs the store's ring (a fresh one, when the store lost it) before
// anything is served again.
func (m *Manager) Signer(ctx context.Context) (*signet.Key, error) {
	if lr := m.cur.Load(); lr != nil && !m.storeDown.Load() {
		return lr.signer, nil
	}
	return nil, m.notLoaded()
}

// Verifier returns the keys a token this service signed verifies with:
// the next, active and retired keys of the last ring loaded, as a
// *signet.KeySet looked up by kid (public keys; for HMAC algorithms the
// secret keys themselves, which are never published). Errors are those of
// Signer, and so is the failing closed while the store does not answer.
func (m *Manager) Verifier(ctx context.Context) (signet.Keys, error) {
	if lr := m.cur.Load(); lr != nil && !m.storeDown.Load() {
		return lr.verifier, nil
	}
	return nil, m.notLoaded()
}

// Ready reports whether Signer and Verifier serve: a ring with an active
// key has been loaded and the last Refresh reached the store. The JWKS
// handler serves the last ring loaded even while not ready.
func (m *Manager) Ready() bool { return m.cur.Load() != nil && !m.storeDown.Load() }

func (m *Manager) notLoaded() error {
	m.errMu.Lock()
	err := m.lastErr
	m.errMu.Unlock()
	if m.cur.Load() != nil {
		if err == nil { // the failure is being recorded
			return fmt.Errorf("%w: keys: the store's key ring could not be loaded; not signing until it is", storage.ErrUnavailable)
		}
		return fmt.Errorf("%w: keys: the store's key ring could not be loaded; not signing until it is: %w", storage.ErrUnavailable, err)
	}
	if err == nil {
		return fmt.Errorf("%w: keys: no key ring loaded yet (%w)", storage.ErrUnavailable, signet.ErrKeyNotFound)
	}
	return fmt.Errorf("%w: keys: no key ring loaded (%w): %w", storage.ErrUnavailable, signet.ErrKeyNotFound, err)
}
