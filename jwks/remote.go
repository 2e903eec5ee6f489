package jwks

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/signet-go/signet"
)

// Remote is a JWK Set kept fresh from one URL. It implements signet.Keys
// and is safe for concurrent use. Make it with New; stop it with Close.
type Remote struct {
	cfg    *config
	client *http.Client

	// state is the current snapshot, replaced whole after every fetch:
	// Select reads it with one atomic load.
	state atomic.Pointer[state]

	ctx    context.Context // cancelled by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup // the background loop and running fetches
	first  chan struct{}  // closed when the first fetch has ended
	wake   chan struct{}  // a fetch ended: the loop reads the due time again
	once   sync.Once      // closes first
	closer sync.Once

	mu       sync.Mutex
	closed   bool
	inflight *call // the fetch running now, shared by every caller
	missCall *call // the fetch the current cooldown's misses share
	lastMiss time.Time
	hasMiss  bool

	// Owned by the running fetch (fetches never overlap).
	etag     string
	failures int // consecutive failed fetches

	fetches, fetchErrors, notModified          atomic.Uint64
	kidMisses, missFetches, missCooldown, skip atomic.Uint64
}

// state is one immutable snapshot of what the Remote holds.
type state struct {
	set          *signet.KeySet // nil until a fetch succeeds
	lastSuccess  time.Time
	failingSince time.Time // first failure since the last success; zero when the last fetch succeeded
	due          time.Time // when the background loop fetches next
	lastErr      error     // the last fetch's error, nil after a success
	unavailable  error     // what Select returns once the set may no longer serve
}

// call is one fetch, which any number of callers may wait for.
type call struct {
	done    chan struct{}
	err     error
	waiters int // callers of miss and Refresh waiting for it (r.mu); tests read it
}

// Stats are the Remote's counters, for export as metrics. Counters only
// grow; Keys, LastSuccess and Ready describe the moment Stats was called.
type Stats struct {
	// Fetches counts fetch attempts; FetchErrors the failed ones (network
	// errors, timeouts, statuses other than 200 and 304, bodies over the
	// cap, sets with no usable key); NotModified the 304 answers.
	Fetches, FetchErrors, NotModified uint64
	// KidMisses counts lookups of an unknown key ID; MissFetches those
	// that started a fetch; MissCooldown those answered at once with
	// signet.ErrKeyNotFound because the cooldown was running.
	KidMisses, MissFetches, MissCooldown uint64
	// SkippedKeys counts the keys left out of fetched sets (unusable:
	// see jwk.ReadSet), summed over all fetches.
	SkippedKeys uint64
	// Keys is the number of keys in the current set.
	Keys int
	// LastSuccess is when a fetch last succeeded (200 with a usable set,
	// or 304), by Options.Now; zero if none has.
	LastSuccess time.Time
	// Ready is whether the Remote can serve keys (Ready() == nil).
	Ready bool
}

// New starts keeping the JWK Set at url fresh and returns once the first
// fetch has ended (succeeded or failed), opts.StartTimeout has passed, or
// ctx is done, whichever comes first: start-up never hangs on the key
// server. A failed or unfinished first fetch is not an error of New: the
// Remote reports it through Ready, and keeps retrying in the background
// with backoff (1 s doubling to 60 s, ±20 %). ctx bounds that first wait
// only; the Remote lives until Close.
//
// New's error is for a bad configuration only, wrapping
// signet.ErrUnsupported (url neither https nor loopback http without
// AllowHTTP, no or unknown or HMAC Algorithms, negative durations) or
// signet.ErrMalformed (url unparsable).
func New(ctx context.Context, url string, opts Options) (*Remote, error) {
	cfg, err := newConfig(url, opts)
	if err != nil {
		return nil, err
	}
	base := opts.Client
	if base == nil {
		base = &http.Client{Transport: http.DefaultTransport}
	}
	client := *base
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	r := &Remote{cfg: cfg, client: &client, first: make(chan struct{}), wake: make(chan struct{}, 1)}
	r.ctx, r.cancel = context.WithCancel(context.Background())
	r.state.Store(&state{
		lastErr:     errNotYet,
		unavailable: fmt.Errorf("%w: jwks: no key set fetched yet from %s", signet.ErrUnavailable, cfg.url),
	})
	r.wg.Add(1)
	go r.run()

	t := time.NewTimer(cfg.StartTimeout)
	defer t.Stop()
	select {
	case <-r.first:
	case <-t.C:
	case <-ctx.Done():
	}
	return r, nil
}

var errNotYet = errors.New("no fetch has completed yet")

// Select implements signet.Keys: the key with ID kid bound to alg (or, for
// input without a kid, the candidates signet.KeySet.Select gives). A key
// held serves at the cost of a KeySet lookup, without allocating.
//
// An unknown kid may trigger one refetch: only when alg is one of
// Options.Algorithms and kid is at most Options.MaxKeyID bytes, and at
// most once per Options.Cooldown; input without a kid never does. The first such miss after a cooldown
// starts a fetch (sent with Cache-Control: no-cache) and waits for it — at
// most Options.FetchTimeout — and misses arriving while it runs share it;
// when it ends, the set is searched again. Every other miss, and every miss
// while the cooldown runs, returns signet.ErrKeyNotFound at once. A flood
// of made-up key IDs thus costs the key server one request per cooldown,
// and lookups of known keys never wait for anything.
//
// Errors wrap signet.ErrKeyNotFound or signet.ErrAlgorithmMismatch (as
// KeySet.Select), or signet.ErrUnavailable when no set was ever fetched or
// fetches have failed for longer than Options.MaxStale.
func (r *Remote) Select(kid string, alg signet.Algorithm) (signet.Candidates, error) {
	if r == nil {
		return signet.Candidates{}, errNilRemote
	}
	st := r.state.Load()
	if err := r.usable(st); err != nil {
		return signet.Candidates{}, err
	}
	c, err := st.set.Select(kid, alg)
	if err == nil || kid == "" || !errors.Is(err, signet.ErrKeyNotFound) {
		return c, err
	}
	return r.miss(kid, alg, err)
}

// usable returns nil when st's set may serve, else why not.
func (r *Remote) usable(st *state) error {
	if st.set == nil {
		return st.unavailable
	}
	if st.failingSince.IsZero() || r.cfg.MaxStale < 0 {
		return nil
	}
	if r.cfg.Now().Sub(st.failingSince) > r.cfg.MaxStale {
		return st.unavailable
	}
	return nil
}

// miss handles a lookup of an unknown kid (see Select).
func (r *Remote) miss(kid string, alg signet.Algorithm, notFound error) (signet.Candidates, error) {
	r.kidMisses.Add(1)
	if len(kid) > r.cfg.MaxKeyID || !r.allowed(alg) {
		return signet.Candidates{}, notFound
	}
	now := r.cfg.Now()
	r.mu.Lock()
	c := r.inflight
	switch {
	case r.closed:
		r.mu.Unlock()
		return signet.Candidates{}, notFound
	case c != nil && c == r.missCall:
		// This cooldown's fetch is running: share it.
	case r.hasMiss && now.Sub(r.lastMiss) < r.cfg.Cooldown:
		r.mu.Unlock()
		r.missCooldown.Add(1)
		return signet.Candidates{}, notFound
	default:
		r.lastMiss, r.hasMiss = now, true
		if c == nil { // else a background fetch is running: it serves as this cooldown's
			c = r.startLocked(true)
			r.missFetches.Add(1)
		}
		r.missCall = c
	}
	c.waiters++
	r.mu.Unlock()
	<-c.done
	st := r.state.Load()
	if err := r.usable(st); err != nil {
		return signet.Candidates{}, err
	}
	return st.set.Select(kid, alg)
}

func (r *Remote) allowed(alg signet.Algorithm) bool {
	for _, a := range r.cfg.Algorithms {
		if a == alg {
			return true
		}
	}
	return false
}

// Ready returns nil when the Remote holds a set it may serve, else an
// error wrapping signet.ErrUnavailable that says why (no fetch has
// succeeded yet, or fetches have failed for longer than MaxStale), with
// the last fetch error. Use it for a readiness probe.
func (r *Remote) Ready() error {
	if r == nil {
		return errNilRemote
	}
	st := r.state.Load()
	if err := r.usable(st); err != nil {
		if st.lastErr != nil {
			return fmt.Errorf("%w (last fetch: %v)", err, st.lastErr)
		}
		return err
	}
	return nil
}

// Refresh fetches the set now, with Cache-Control: no-cache, and returns
// the fetch's error; a fetch already running is shared rather than
// doubled. It waits for the fetch or for ctx. On failure the set held
// keeps serving (within MaxStale). After Close it fails with
// signet.ErrUnavailable.
func (r *Remote) Refresh(ctx context.Context) error {
	if r == nil {
		return errNilRemote
	}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return errClosed
	}
	c := r.inflight
	if c == nil {
		c = r.startLocked(true)
	}
	c.waiters++
	r.mu.Unlock()
	select {
	case <-c.done:
		return c.err
	case <-ctx.Done():
		return fmt.Errorf("%w: jwks: refresh: %w", signet.ErrUnavailable, ctx.Err())
	}
}

var errNilRemote = fmt.Errorf("%w: a nil *jwks.Remote (make it with jwks.New)", signet.ErrKeyUsage)

var errClosed = fmt.Errorf("%w: jwks: the Remote is closed", signet.ErrUnavailable)

// Stats returns the counters and the current state (zero for a nil
// Remote).
func (r *Remote) Stats() Stats {
	if r == nil {
		return Stats{}
	}
	st := r.state.Load()
	return Stats{
		Fetches:      r.fetches.Load(),
		FetchErrors:  r.fetchErrors.Load(),
		NotModified:  r.notModified.Load(),
		KidMisses:    r.kidMisses.Load(),
		MissFetches:  r.missFetches.Load(),
		MissCooldown: r.missCooldown.Load(),
		SkippedKeys:  r.skip.Load(),
		Keys:         st.set.Len(),
		LastSuccess:  st.lastSuccess,
		Ready:        r.usable(st) == nil,
	}
}

// Close stops the background refresh and cancels a fetch in flight, and
// returns when no goroutine of the Remote is left. The set held keeps
// serving Select (unknown kids no longer trigger fetches). Close is
// idempotent and always returns nil.
func (r *Remote) Close() error {
	if r == nil {
		return nil
	}
	r.closer.Do(func() {
		r.mu.Lock()
		r.closed = true
		r.mu.Unlock()
		r.cancel()
		r.wg.Wait()
	})
	return nil
}

// startLocked starts a fetch (r.mu held, not closed) and makes it the
// one in flight.
func (r *Remote) startLocked(force bool) *call {
	c := &call{done: make(chan struct{})}
	r.inflight = c
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		err := r.fetch(r.ctx, force)
		r.mu.Lock()
		c.err = err
		r.inflight = nil
		r.mu.Unlock()
		close(c.done)
		r.once.Do(func() { close(r.first) })
		select { // never blocks: one pending wake-up is enough
		case r.wake <- struct{}{}:
		default:
		}
	}()
	return c
}

// run is the background loop: the first fetch at once, then one whenever
// the current state is due (refresh ahead of expiry, or a retry). Every
// fetch that ends wakes it, so that the due time it sleeps until is the
// one the last outcome set: a failed miss fetch or Refresh schedules a
// retry with backoff, a successful one moves the refresh later.
func (r *Remote) run() {
	defer r.wg.Done()
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-r.ctx.Done():
			return
		case <-r.wake:
			t.Reset(max(r.state.Load().due.Sub(r.cfg.Now()), minBackgroundInterval))
			continue
		case <-t.C:
		}
		if wait := r.state.Load().due.Sub(r.cfg.Now()); wait > 0 {
			t.Reset(max(wait, minBackgroundInterval))
			continue
		}
		r.mu.Lock()
		if r.closed {
			r.mu.Unlock()
			return
		}
		c := r.inflight
		if c == nil {
			c = r.startLocked(false)
		}
		r.mu.Unlock()
		select {
		case <-r.ctx.Done():
			return
		case <-c.done:
		}
		wait := r.state.Load().due.Sub(r.cfg.Now())
		t.Reset(max(wait, minBackgroundInterval))
	}
}
