package keys_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/server/keys"
	"github.com/signet-go/signet/server/storage"
)

// TestRotationStateMachine walks one manager through several periods and
// checks every state and time the ring goes through.
func TestRotationStateMachine(t *testing.T) {
	clk := newClock()
	st := storage.NewMemory(clk.Now)
	cfg := fastConfig(t, clk, mustKEK(t), signet.ES256)
	m := mustNew(t, st, cfg)
	if m.Ready() {
		t.Fatal("Ready before the first load")
	}

	mustRefresh(t, m) // first start: an active key signing at once, a next key
	r := ring(t, st)
	checkInvariants(t, r, cfg)
	a, b := byState(r, storage.KeyActive)[0], byState(r, storage.KeyNext)[0]
	if !a.ActivateAt.Equal(t0) || !a.RetireAt.Equal(t0.Add(10*time.Second)) || !b.ActivateAt.Equal(t0.Add(10*time.Second)) {
		t.Fatalf("first ring: active %v–%v, next at %v", a.ActivateAt, a.RetireAt, b.ActivateAt)
	}
	if !m.Ready() || signerKID(t, m) != a.ID {
		t.Fatalf("Ready %v, signer %q; want %q", m.Ready(), signerKID(t, m), a.ID)
	}

	clk.Set(t0.Add(9*time.Second + 999*time.Millisecond)) // not yet
	mustRefresh(t, m)
	if v := ring(t, st).Version; v != r.Version {
		t.Fatalf("ring rewritten before the rotation was due (v%d → v%d)", r.Version, v)
	}

	prevActive, prevNext := a, b
	var retired []storage.Key
	for period := 1; period <= 5; period++ {
		at := t0.Add(time.Duration(period) * 10 * time.Second)
		clk.Set(at)
		mustRefresh(t, m)
		r := ring(t, st)
		checkInvariants(t, r, cfg)
		act, next := byState(r, storage.KeyActive)[0], byState(r, storage.KeyNext)[0]
		if act.ID != prevNext.ID || !act.RetireAt.Equal(at.Add(cfg.Rotate)) {
			t.Fatalf("period %d: active %q until %v; want the former next %q until %v", period, act.ID, act.RetireAt, prevNext.ID, at.Add(cfg.Rotate))
		}
		if next.ID == prevActive.ID || next.ID == act.ID || !next.ActivateAt.Equal(act.RetireAt) || !next.Created.Equal(at) {
			t.Fatalf("period %d: next %q created %v due %v", period, next.ID, next.Created, next.ActivateAt)
		}
		ret := byState(r, storage.KeyRetired)
		if len(ret) != 1 || ret[0].ID != prevActive.ID || !ret[0].RetireAt.Equal(at) || !ret[0].RemoveAt.Equal(at.Add(7*time.Second)) {
			t.Fatalf("period %d: retired %+v; want only %q, removed at +7s", period, ret, prevActive.ID)
		}
		if signerKID(t, m) != act.ID {
			t.Fatalf("period %d: signing with %q, want %q", period, signerKID(t, m), act.ID)
		}
		ks, err := m.Verifier(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range r.Keys {
			if _, ok := ks.(*signet.KeySet).Lookup(k.ID); !ok {
				t.Fatalf("period %d: Verifier lacks %s key %q", period, k.State, k.ID)
			}
		}
		// The retired key goes at RemoveAt, not a moment before.
		clk.Set(at.Add(7*time.Second - time.Millisecond))
		mustRefresh(t, m)
		if n := len(byState(ring(t, st), storage.KeyRetired)); n != 1 {
			t.Fatalf("period %d: retired key removed early", period)
		}
		clk.Set(at.Add(7 * time.Second))
		mustRefresh(t, m)
		r = ring(t, st)
		if n := len(r.Keys); n != 2 || len(byState(r, storage.KeyRetired)) != 0 {
			t.Fatalf("period %d: %d keys after RemoveAt; want active and next", period, n)
		}
		if ks, _ := m.Verifier(context.Background()); ks.(*signet.KeySet).Len() != 2 {
			t.Fatalf("period %d: Verifier still holds the removed key", period)
		}
		retired = append(retired, prevActive)
		prevActive, prevNext = act, next
	}
	if len(retired) != 5 {
		t.Fatal("not five rotations")
	}
}

// TestRotateShorterThanPublishLead: a period below 2×MaxAge stretches to
// it; a next key never signs sooner.
func TestRotateShorterThanPublishLead(t *testing.T) {
	clk := newClock()
	st := storage.NewMemory(clk.Now)
	cfg := fastConfig(t, clk, mustKEK(t), signet.EdDSA)
	cfg.Rotate = time.Second
	m := mustNew(t, st, cfg)
	for i := range 20 {
		mustRefresh(t, m)
		checkInvariants(t, ring(t, st), cfg)
		if next := byState(ring(t, st), storage.KeyNext)[0]; next.ActivateAt.Sub(next.Created) != 4*time.Second {
			t.Fatalf("step %d: next key due %v after it was published; want 4s", i, next.ActivateAt.Sub(next.Created))
		}
		clk.Advance(500 * time.Millisecond)
	}
}

// TestLeewayLengthensGrace: the retired grace is MaxTokenTTL + MaxAge +
// Leeway.
func TestLeewayLengthensGrace(t *testing.T) {
	clk := newClock()
	st := storage.NewMemory(clk.Now)
	cfg := fastConfig(t, clk, mustKEK(t), signet.EdDSA)
	cfg.Leeway = 3 * time.Second
	m := mustNew(t, st, cfg)
	mustRefresh(t, m)
	clk.Advance(10 * time.Second)
	mustRefresh(t, m)
	ret := byState(ring(t, st), storage.KeyRetired)
	if len(ret) != 1 || ret[0].RemoveAt.Sub(ret[0].RetireAt) != 10*time.Second {
		t.Fatalf("retired %+v; want a grace of 5s+2s+3s", ret)
	}
	checkInvariants(t, ring(t, st), cfg)
}

// TestLeewayLengthensPublishLead: a next key is published 2×MaxAge +
// Leeway before it signs, so that an instance whose clock is ahead by
// up to Leeway, promoting it that much early, still finds it in every
// key set a client cached.
func TestLeewayLengthensPublishLead(t *testing.T) {
	clk := newClock()
	st := storage.NewMemory(clk.Now)
	cfg := fastConfig(t, clk, mustKEK(t), signet.EdDSA)
	cfg.Rotate = time.Second // the lead sets the pace
	cfg.Leeway = 3 * time.Second
	m := mustNew(t, st, cfg)
	for i := range 3 {
		mustRefresh(t, m)
		next := byState(ring(t, st), storage.KeyNext)[0]
		if lead := next.ActivateAt.Sub(next.Created); lead != 2*cfg.MaxAge+cfg.Leeway {
			t.Fatalf("step %d: next key due %v after it was published; want 2×2s+3s", i, lead)
		}
		clk.Advance(7 * time.Second)
	}
}

// TestAlgorithmChangeSwitchesSoon: a service restarted with another
// algorithm (signet serve --alg, or --format paseto on a store of ES256
// keys, which the PASETO format cannot sign with) replaces the next key
// of the old algorithm (it never signed) with one of the new, due after
// the publish lead, not when the old next key would have retired: two
// periods later, a fortnight by default. An instance still running with
// the old algorithm leaves that key alone (it was made after it started),
// so that two configurations sharing a store do not replace each other's
// keys at every reload.
func TestAlgorithmChangeSwitchesSoon(t *testing.T) {
	clk := newClock()
	st := storage.NewMemory(clk.Now)
	kek := mustKEK(t)
	old := mustNew(t, st, fastConfig(t, clk, kek, signet.ES256))
	mustRefresh(t, old)
	before := ring(t, st)
	clk.Advance(time.Second)

	cfg := fastConfig(t, clk, kek, signet.V4Public) // the restart
	m := mustNew(t, st, cfg)
	mustRefresh(t, m)
	r := ring(t, st)
	checkInvariants(t, r, cfg)
	next := byState(r, storage.KeyNext)[0]
	if next.Algorithm != string(signet.V4Public) || !next.ActivateAt.Equal(clk.Now().Add(2*cfg.MaxAge)) {
		t.Fatalf("next key %s due %v; want a v4.public key due after the publish lead (%v)", next.Algorithm, next.ActivateAt, clk.Now().Add(2*cfg.MaxAge))
	}
	if act := byState(r, storage.KeyActive)[0]; act.ID != byState(before, storage.KeyActive)[0].ID {
		t.Fatal("the active key changed at once")
	}
	for _, k := range r.Keys {
		if k.ID == byState(before, storage.KeyNext)[0].ID {
			t.Fatal("the old next key is still in the ring")
		}
	}
	mustRefresh(t, old) // the instance still on ES256 keeps the new key
	if got := ring(t, st); got.Version != r.Version {
		t.Fatal("an instance of the old algorithm replaced the new next key")
	}

	clk.Set(next.ActivateAt)
	mustRefresh(t, m)
	if k, err := m.Signer(context.Background()); err != nil || k.Algorithm() != signet.V4Public || k.KeyID() != next.ID {
		t.Fatalf("Signer after the lead = %v, %v; want the v4.public key %s", k, err, next.ID)
	}
	checkInvariants(t, ring(t, st), cfg)
}

// TestLateLoop: a loop that was stopped for many periods rotates once when
// it resumes (never twice in one step), and drops the expired keys.
func TestLateLoop(t *testing.T) {
	clk := newClock()
	st := storage.NewMemory(clk.Now)
	cfg := fastConfig(t, clk, mustKEK(t), signet.EdDSA)
	m := mustNew(t, st, cfg)
	mustRefresh(t, m)
	clk.Advance(10 * time.Second)
	mustRefresh(t, m) // one retired key now
	before := ring(t, st)
	clk.Advance(time.Hour)
	mustRefresh(t, m)
	r := ring(t, st)
	checkInvariants(t, r, cfg)
	if r.Version != before.Version+1 {
		t.Fatalf("%d writes for one late step", r.Version-before.Version)
	}
	ret := byState(r, storage.KeyRetired)
	if len(ret) != 1 || ret[0].ID != byState(before, storage.KeyActive)[0].ID {
		t.Fatalf("retired %v; want only the active key just replaced", ret)
	}
	if next := byState(r, storage.KeyNext)[0]; !next.ActivateAt.Equal(clk.Now().Add(cfg.Rotate)) {
		t.Fatalf("next due %v; want a full period from now", next.ActivateAt)
	}
}

// TestConflictReplans stages the race of two instances: while one is
// between reading the ring and writing its rotation, the other rotates.
// The loser's write is refused (ErrConflict), it reloads, finds the
// rotation done, and writes nothing: one promotion, not two.
func TestConflictReplans(t *testing.T) {
	clk := newClock()
	mem := storage.NewMemory(clk.Now)
	s1, s2 := &testStore{Store: mem}, &testStore{Store: mem}
	kek := mustKEK(t)
	m1 := mustNew(t, s1, fastConfig(t, clk, kek, signet.ES256))
	m2 := mustNew(t, s2, fastConfig(t, clk, kek, signet.ES256))
	mustRefresh(t, m1)
	mustRefresh(t, m2)
	start := ring(t, mem)
	clk.Advance(10 * time.Second)
	race := func() { mustRefresh(t, m2) }
	s1.beforeSwap.Store(&race)
	mustRefresh(t, m1)
	if s1.conflicts.Load() != 1 || s2.swaps.Load() != 1 || s1.swaps.Load() != 1 { // s1's one swap is the first start
		t.Fatalf("conflicts %d, swaps %d+%d; want m1's rotation refused once and m2's written", s1.conflicts.Load(), s1.swaps.Load(), s2.swaps.Load())
	}
	r := ring(t, mem)
	if r.Version != start.Version+1 {
		t.Fatalf("ring went from v%d to v%d: more than one rotation", start.Version, r.Version)
	}
	if byState(r, storage.KeyActive)[0].ID != byState(start, storage.KeyNext)[0].ID {
		t.Fatal("the next key was not the one promoted")
	}
	if signerKID(t, m1) != signerKID(t, m2) {
		t.Fatal("the two instances sign with different keys")
	}
}

// TestManyManagersOneStore: five instances on one store, refreshing
// concurrently at every step of a fake timeline: exactly one key is
// promoted per period and all instances converge on one ring.
func TestManyManagersOneStore(t *testing.T) {
	clk := newClock()
	mem := storage.NewMemory(clk.Now)
	ts := &testStore{Store: mem}
	kek := mustKEK(t)
	cfg := fastConfig(t, clk, kek, signet.EdDSA)
	ms := make([]*keys.Manager, 5)
	for i := range ms {
		ms[i] = mustNew(t, ts, cfg)
	}
	activated := map[string]time.Duration{} // kid → when it first signed
	const steps = 65
	for step := range steps {
		var wg sync.WaitGroup
		for _, m := range ms {
			wg.Go(func() {
				if err := m.Refresh(context.Background()); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		r := ring(t, mem)
		checkInvariants(t, r, cfg)
		act := byState(r, storage.KeyActive)[0].ID
		for i, m := range ms {
			if kid := signerKID(t, m); kid != act {
				t.Fatalf("step %d: instance %d signs with %q, the ring's active key is %q", step, i, kid, act)
			}
		}
		if _, ok := activated[act]; !ok {
			activated[act] = time.Duration(step) * time.Second
		}
		clk.Advance(time.Second)
	}
	if len(activated) != 7 {
		t.Fatalf("%d keys signed over 65 s with a 10 s period; want 7: %v", len(activated), activated)
	}
	perPeriod := map[time.Duration]int{}
	for _, at := range activated {
		if at%(10*time.Second) != 0 {
			t.Fatalf("a key became active at %v, off the period", at)
		}
		perPeriod[at]++
	}
	for at, n := range perPeriod {
		if n != 1 {
			t.Fatalf("%d keys promoted at %v", n, at)
		}
	}
	// 1 first start + 6 promotions + 5 removals (at 17, 27, …, 57 s).
	if n := ts.swaps.Load(); n != 12 {
		t.Fatalf("%d ring writes; want 12", n)
	}
	t.Logf("%d conflicts resolved by reloading", ts.conflicts.Load())
}

// TestStoreUnavailable: before the first load the manager is not ready
// and Signer fails with storage.ErrUnavailable; once loaded, an outage
// seen by a Refresh stops rotation and fails Signer and Verifier closed
// (storage.ErrUnavailable) while the JWKS is still served, and the first
// Refresh that reaches the store again resumes them (with the rotation
// that fell due meanwhile).
func TestStoreUnavailable(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	ts := &testStore{Store: storage.NewMemory(clk.Now)}
	m := mustNew(t, ts, fastConfig(t, clk, mustKEK(t), signet.ES256))
	ts.down.Store(true)
	if err := m.Refresh(ctx); !errors.Is(err, storage.ErrUnavailable) {
		t.Fatalf("Refresh during an outage = %v", err)
	}
	if m.Ready() {
		t.Fatal("Ready without a ring")
	}
	if k, err := m.Signer(ctx); k != nil || !errors.Is(err, storage.ErrUnavailable) || !errors.Is(err, signet.ErrKeyNotFound) {
		t.Fatalf("Signer before the first load = %v, %v", k, err)
	}
	if ks, err := m.Verifier(ctx); ks != nil || !errors.Is(err, storage.ErrUnavailable) {
		t.Fatalf("Verifier before the first load = %v, %v", ks, err)
	}

	ts.down.Store(false)
	mustRefresh(t, m)
	kid := signerKID(t, m)
	ts.down.Store(true)
	clk.Advance(time.Hour) // rotation long due
	if signerKID(t, m) != kid {
		t.Fatal("an outage no Refresh saw yet changed the signer")
	}
	for range 3 {
		if err := m.Refresh(ctx); !errors.Is(err, storage.ErrUnavailable) {
			t.Fatalf("Refresh during an outage = %v", err)
		}
		if m.Ready() {
			t.Fatal("ready during an outage")
		}
		if k, err := m.Signer(ctx); k != nil || !errors.Is(err, storage.ErrUnavailable) {
			t.Fatalf("Signer during an outage = %v, %v", k, err)
		}
		if ks, err := m.Verifier(ctx); ks != nil || !errors.Is(err, storage.ErrUnavailable) {
			t.Fatalf("Verifier during an outage = %v, %v", ks, err)
		}
		if rec := serveJWKS(m, http.MethodGet, nil); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), kid) {
			t.Fatalf("JWKS during an outage: %d %s", rec.Code, rec.Body)
		}
	}
	ts.down.Store(false)
	mustRefresh(t, m)
	if !m.Ready() || signerKID(t, m) == kid {
		t.Fatal("no rotation after the store came back")
	}
}

// TestStoreLostRing: a store that comes back empty after an outage (a
// Redis restarted without its data) gets a fresh ring; until the Refresh
// that writes it, the old ring neither signs nor verifies, and after it
// the old keys are gone, so that no token they signed (whose revocation
// the store lost too) verifies again.
func TestStoreLostRing(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	ts := &testStore{Store: storage.NewMemory(clk.Now)}
	cfg := fastConfig(t, clk, mustKEK(t), signet.ES256)
	m := mustNew(t, ts, cfg)
	mustRefresh(t, m)
	old := signerKID(t, m)
	ts.down.Store(true)
	if err := m.Refresh(ctx); !errors.Is(err, storage.ErrUnavailable) {
		t.Fatalf("Refresh during an outage = %v", err)
	}
	ts.Store = storage.NewMemory(clk.Now) // back, empty
	ts.down.Store(false)
	if k, err := m.Signer(ctx); k != nil || !errors.Is(err, storage.ErrUnavailable) {
		t.Fatalf("Signer before the Refresh after the outage = %v, %v", k, err)
	}
	mustRefresh(t, m)
	if kid := signerKID(t, m); kid == old {
		t.Fatal("the lost key signs again")
	}
	ks, err := m.Verifier(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, found := ks.(*signet.KeySet).Lookup(old); found {
		t.Fatal("the lost key still verifies")
	}
	checkInvariants(t, ring(t, ts), cfg)
}

// TestStoreLostRingTwoInstances: when the store comes back empty, the
// instance that writes the fresh ring stores it at version 1 again, the
// version the other instance's old ring may have: that instance must
// load the fresh ring, not keep serving the old one (whose keys no
// longer exist and whose revocations are lost) because the version
// matches.
func TestStoreLostRingTwoInstances(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	ts := &testStore{Store: storage.NewMemory(clk.Now)}
	cfg := fastConfig(t, clk, mustKEK(t), signet.ES256)
	a, b := mustNew(t, ts, cfg), mustNew(t, ts, cfg)
	mustRefresh(t, a)
	mustRefresh(t, b)
	old := signerKID(t, b)
	if v := ring(t, ts).Version; v != 1 {
		t.Fatalf("first ring at version %d", v)
	}
	ts.down.Store(true)
	for _, m := range []*keys.Manager{a, b} {
		if err := m.Refresh(ctx); !errors.Is(err, storage.ErrUnavailable) {
			t.Fatalf("Refresh during an outage = %v", err)
		}
	}
	ts.Store = storage.NewMemory(clk.Now) // back, empty
	ts.down.Store(false)
	mustRefresh(t, a) // writes a fresh ring, at version 1 again
	if v := ring(t, ts).Version; v != 1 {
		t.Fatalf("fresh ring at version %d", v)
	}
	mustRefresh(t, b)
	fresh := signerKID(t, a)
	if got := signerKID(t, b); got != fresh || got == old {
		t.Fatalf("b signs with %s after the store lost the ring; a with %s (the lost key was %s)", got, fresh, old)
	}
	ks, err := b.Verifier(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, found := ks.(*signet.KeySet).Lookup(old); found {
		t.Fatal("b still verifies with the lost key")
	}
	if body := serveJWKS(b, http.MethodGet, nil).Body.String(); strings.Contains(body, old) || !strings.Contains(body, fresh) {
		t.Fatalf("b publishes %s", body)
	}
}

// TestShortRotateScalesMaxAge: with MaxAge and Reload unset, a period
// shorter than 2×DefaultMaxAge sets MaxAge to half of it (whole seconds,
// at least 1 s) and Reload to MaxAge, so that it really rotates every
// period: a ring of 2 s publishes max-age=1 and has rotated several times
// after 10 s. Longer periods keep the defaults.
func TestShortRotateScalesMaxAge(t *testing.T) {
	for _, tc := range []struct {
		rotate time.Duration
		maxAge string
	}{
		{2 * time.Second, "max-age=1,"},
		{1500 * time.Millisecond, "max-age=1,"},
		{10 * time.Minute, "max-age=300,"},
		{30 * time.Minute, "max-age=900,"},
		{keys.DefaultRotate, "max-age=900,"},
	} {
		clk := newClock()
		st := storage.NewMemory(clk.Now)
		m := mustNew(t, st, keys.Config{KEK: mustKEK(t), Rotate: tc.rotate, Now: clk.Now})
		mustRefresh(t, m)
		if cc := serveJWKS(m, http.MethodGet, nil).Header().Get("Cache-Control"); !strings.Contains(cc, tc.maxAge) {
			t.Errorf("rotate %v: Cache-Control %q, want %s", tc.rotate, cc, tc.maxAge)
		}
	}
	clk := newClock()
	st := storage.NewMemory(clk.Now)
	m := mustNew(t, st, keys.Config{KEK: mustKEK(t), Rotate: 2 * time.Second, Now: clk.Now})
	seen := map[string]bool{}
	for range 20 { // 10 s in reloads of 500 ms
		mustRefresh(t, m)
		seen[signerKID(t, m)] = true
		clk.Advance(500 * time.Millisecond)
	}
	if len(seen) < 4 {
		t.Fatalf("%d signing keys in 10 s of a 2 s rotation", len(seen))
	}
	// Reload defaults to MaxAge: an explicit MaxAge under 30 s is valid
	// without a Reload.
	if _, err := keys.New(st, keys.Config{KEK: mustKEK(t), MaxAge: 5 * time.Second}); err != nil {
		t.Fatalf("MaxAge 5s without Reload: %v", err)
	}
}

// TestWrongKEKNeverWrites: an instance whose KEK does not open the ring
// refuses to serve it and never writes over it, even when a rotation is
// due.
func TestWrongKEKNeverWrites(t *testing.T) {
	clk := newClock()
	mem := storage.NewMemory(clk.Now)
	good := mustNew(t, mem, fastConfig(t, clk, mustKEK(t), signet.ES256))
	mustRefresh(t, good)
	before := ring(t, mem)
	bad := mustNew(t, mem, fastConfig(t, clk, mustKEK(t), signet.ES256))
	clk.Advance(time.Minute)
	if err := bad.Refresh(context.Background()); !errors.Is(err, signet.ErrSignatureInvalid) {
		t.Fatalf("Refresh with another KEK = %v; want ErrSignatureInvalid", err)
	}
	if bad.Ready() {
		t.Fatal("Ready with a ring it cannot open")
	}
	if _, err := bad.Signer(context.Background()); !errors.Is(err, signet.ErrSignatureInvalid) || !errors.Is(err, storage.ErrUnavailable) {
		t.Fatalf("Signer = %v; want the unwrap error carried", err)
	}
	if r := ring(t, mem); r.Version != before.Version {
		t.Fatal("an instance with the wrong KEK wrote the ring")
	}
}

// TestRun: the loop loads at once and stops with its context.
func TestRun(t *testing.T) {
	clk := newClock()
	mem := storage.NewMemory(clk.Now)
	m := mustNew(t, mem, fastConfig(t, clk, mustKEK(t), signet.EdDSA))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { m.Run(ctx); close(done) }()
	// A generous bound (the loop's first Refresh is a few milliseconds,
	// or a retry a Reload later): only a loop that never loads fails.
	for deadline := time.Now().Add(30 * time.Second); !m.Ready(); {
		if time.Now().After(deadline) {
			t.Fatal("Run did not load the ring within 30 s")
		}
		time.Sleep(time.Millisecond)
	}
	cancel()
	<-done
}

func TestNewRefuses(t *testing.T) {
	mem := storage.NewMemory(nil)
	kek := mustKEK(t)
	ed, _ := signet.GenerateKey(signet.EdDSA)
	for name, tc := range map[string]struct {
		cfg  keys.Config
		want error
	}{
		"no KEK":            {keys.Config{}, signet.ErrKeyUsage},
		"KEK not v4.local":  {keys.Config{KEK: ed}, signet.ErrKeyUsage},
		"v4.local tokens":   {keys.Config{KEK: kek, Algorithm: signet.V4Local}, signet.ErrUnsupported},
		"httpsig algorithm": {keys.Config{KEK: kek, Algorithm: signet.HTTPSigAlgorithms()[0]}, signet.ErrUnsupported},
		"unknown algorithm": {keys.Config{KEK: kek, Algorithm: "none"}, signet.ErrUnsupported},
		"negative rotate":   {keys.Config{KEK: kek, Rotate: -time.Second}, signet.ErrMalformed},
		"max-age under 1s":  {keys.Config{KEK: kek, MaxAge: time.Millisecond}, signet.ErrMalformed},
		"reload > max-age":  {keys.Config{KEK: kek, MaxAge: time.Minute, Reload: 2 * time.Minute}, signet.ErrMalformed},
	} {
		if m, err := keys.New(mem, tc.cfg); !errors.Is(err, tc.want) || m != nil {
			t.Errorf("%s: New = %v, %v; want %v", name, m, err, tc.want)
		}
	}
	if _, err := keys.New(nil, keys.Config{KEK: kek}); !errors.Is(err, signet.ErrKeyUsage) {
		t.Errorf("New(nil store) = %v", err)
	}
	for _, alg := range append(signet.JWSAlgorithms(), signet.V4Public) {
		if _, err := keys.New(mem, keys.Config{KEK: kek, Algorithm: alg}); err != nil {
			t.Errorf("New(%s) = %v", alg, err)
		}
	}
}

// TestSignerNoAlloc: the hot path is one atomic load.
func TestSignerNoAlloc(t *testing.T) {
	clk := newClock()
	m := mustNew(t, storage.NewMemory(clk.Now), fastConfig(t, clk, mustKEK(t), signet.ES256))
	mustRefresh(t, m)
	ctx := context.Background()
	if n := testing.AllocsPerRun(100, func() { _, _ = m.Signer(ctx) }); n != 0 {
		t.Fatalf("Signer allocates %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = m.Verifier(ctx) }); n != 0 {
		t.Fatalf("Verifier allocates %v times", n)
	}
}

func BenchmarkSigner(b *testing.B) {
	clk := newClock()
	m := mustNew(b, storage.NewMemory(clk.Now), fastConfig(b, clk, mustKEK(b), signet.ES256))
	mustRefresh(b, m)
	ctx := context.Background()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if k, err := m.Signer(ctx); k == nil || err != nil {
				b.Fatal(err)
			}
		}
	})
}
