package load

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// outageRecoveryBound bounds the wait for a service to answer again once
// what it depends on is back (signet serve reloads its key ring every
// second; signet guard retries its key server with backoff from 1 s).
// outageRecoveryAllowance is the time the Redis outage's load runs on
// after Redis is started again, for the recovery and t.After.
const (
	outageRecoveryBound     = 15 * time.Second
	outageRecoveryAllowance = 3 * time.Second
)

// outageSeen is what the probe saw of one endpoint while Redis was
// away: requests sent after Redis exited and answered before it was
// started again.
type outageSeen struct {
	ok, unavailable, other int64
	// first503 is when the earliest 503 was answered, after Redis
	// exited; -1 for none. okAt is when each request answered 200 was
	// sent, after Redis exited.
	first503 time.Duration
	okAt     []time.Duration
}

// okAfter503 counts the 200s sent after a 503 had been answered: once the
// service has refused, it refuses until the store answers again.
func (s *outageSeen) okAfter503() int64 {
	var n int64
	for _, at := range s.okAt {
		if s.first503 >= 0 && at > s.first503 {
			n++
		}
	}
	return n
}

// prepareRedisOutage: signet serve on Redis under two wrk processes (the
// fault's main run on the token endpoint, a second one introspecting a
// revoked token, fault.lua counting any answer saying active); Redis is
// stopped (SIGTERM, its append-only file complete) for t.Outage and
// started again with its data. The probe gets, introspects and revokes
// tokens throughout, each answer timed. Targets: while Redis is away the
// token, introspection and revocation endpoints answer 503
// temporarily_unavailable, never 200 for what needs the store (an
// introspection, a revocation), never another 5xx, never active for a
// revoked token; once Redis answers, the service answers 200 again
// (recovery time measured) and the revocation made before the outage
// still holds.
func prepareRedisOutage(ctx context.Context, env *Env, t FaultTiming) (fr *faultRun, err error) {
	fr = &faultRun{}
	defer fr.closeOnError(&err)
	half := max(t.Connect/2, 1)
	d := faultLoadDuration(FaultRedisOutage, t)
	w, err := newFaultWorld(env, "outage")
	if err != nil {
		return nil, err
	}
	rp, err := startRedis(w.dir, env.ServerCPUs)
	if err != nil {
		return nil, err
	}
	fr.cleanup(rp.kill)
	srv, err := w.startServe(ctx, serveOpts{name: "serve-redis", redis: rp.url()})
	if err != nil {
		return nil, err
	}
	fr.cleanup(func() { srv.Stop() })

	p := newProbeClient()
	fr.cleanup(p.close)
	var revoked, live, spare string
	for _, tok := range []*string{&revoked, &live, &spare} {
		if _, *tok, err = p.token(ctx, srv.base); err != nil {
			return nil, err
		}
	}
	if x, err := p.revoke(ctx, srv.base, revoked); err != nil || x.status != http.StatusOK {
		return nil, fmt.Errorf("revoke before the outage: %d %v", x.status, err)
	}
	specB, countsFile, err := withFaultScript(w.dir, introspectWrk(srv.base, revoked, half, d))
	if err != nil {
		return nil, err
	}
	specB.CPUs = env.WrkCPUs

	tally := newStatusTally()
	var (
		mu              sync.Mutex
		downAt, upAt    time.Time // Redis exited; Redis being started again
		seen            = map[string]*outageSeen{}
		revokedActive   int64
		badStatuses     []string
		firstViolations []string
		start           time.Time
		loadB           *wrkRun
		recovered       = time.Duration(-1)
		answering       time.Duration
	)
	for _, ep := range []string{"token", "introspect", "revoke"} {
		seen[ep] = &outageSeen{first503: -1}
	}
	record := func(ep string, a answer, err error) {
		tally.add(a, err)
		if err != nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if a.status != http.StatusOK && !a.unavailable() && len(badStatuses) < 5 {
			badStatuses = append(badStatuses, fmt.Sprintf("%s %d %v", ep, a.status, a.body))
		}
		if downAt.IsZero() || a.start.Before(downAt) || (!upAt.IsZero() && !a.start.Add(a.took).Before(upAt)) {
			return // not wholly within the outage
		}
		s, at := seen[ep], a.start.Sub(downAt)
		switch {
		case a.status == http.StatusOK:
			s.ok++
			s.okAt = append(s.okAt, at)
			if ep != "token" && len(firstViolations) < 5 {
				firstViolations = append(firstViolations, fmt.Sprintf("%s answered 200 %v after Redis stopped: %v", ep, a.start.Sub(downAt).Round(time.Millisecond), a.body))
			}
		case a.unavailable():
			s.unavailable++
			if answered := at + a.took; s.first503 < 0 || answered < s.first503 {
				s.first503 = answered
			}
		default:
			s.other++
		}
	}
	fr.cleanup(func() { // a run that failed before its check
		if loadB != nil {
			loadB.wait()
		}
	})
	fr.wrk = tokenWrk(srv.base, half, d)
	fr.during = func(done <-chan struct{}) error {
		start = time.Now()
		loadB = startWrk(ctx, specB)
		probeDone := make(chan struct{})
		go func() {
			defer close(probeDone)
			probe(done, func() {
				x, tok, err := p.token(ctx, srv.base)
				record("token", x, err)
				x, err = p.introspect(ctx, srv.base, revoked)
				record("introspect", x, err)
				if err == nil && x.active() {
					mu.Lock()
					revokedActive++
					mu.Unlock()
				}
				if tok == "" {
					// No fresh token while the service refuses to sign:
					// revoke a spare one from before the outage.
					tok = spare
				}
				x, err = p.revoke(ctx, srv.base, tok)
				record("revoke", x, err)
			})
		}()
		defer func() { <-probeDone }()

		// The fault: Redis away for t.Outage, then back with its data.
		sleepCtx(ctx, t.Before)
		if err := rp.terminate(); err != nil {
			return err
		}
		mu.Lock()
		downAt = time.Now()
		mu.Unlock()
		sleepCtx(ctx, t.Outage)
		mu.Lock()
		upAt = time.Now()
		mu.Unlock()
		if err := rp.start(); err != nil {
			return err
		}
		answering = time.Since(upAt)
		// Recovery: the token endpoint and introspection answer 200 again.
		for deadline := time.Now().Add(outageRecoveryBound); time.Now().Before(deadline) && ctx.Err() == nil; {
			x, _, err1 := p.token(ctx, srv.base)
			y, err2 := p.introspect(ctx, srv.base, live)
			if err1 == nil && err2 == nil && x.status == http.StatusOK && y.status == http.StatusOK {
				recovered = time.Since(upAt)
				break
			}
			sleepCtx(ctx, 10*time.Millisecond)
		}
		return nil
	}
	fr.check = func(wa WrkResult) (FaultResult, error) {
		r := FaultResult{RecoveryMS: -1,
			What: fmt.Sprintf("signet serve on Redis under wrk -c%d on the token endpoint and wrk -c%d introspecting a revoked token for %v; Redis stopped (SIGTERM) %v in, for %v, then started again with its data; a Go probe gets, introspects and revokes tokens throughout",
				half, half, d, t.Before, t.Outage)}
		wb, err := loadB.wait()
		r.Duration = time.Since(start)
		if err != nil {
			return r, fmt.Errorf("the second wrk: %w", err)
		}
		counts, err := readFaultCounts(countsFile)
		if err != nil {
			return r, err
		}
		r.addWrk(wa)
		r.addWrk(wb)
		tally.into(&r)
		r.RevokedActive = revokedActive + counts.Active
		if recovered >= 0 {
			r.RecoveryMS = float64(recovered.Microseconds()) / 1000
		}
		// After: the revocation made before the outage still holds, the
		// live token is active (Redis came back with its data).
		afterRevoked, err1 := p.introspect(ctx, srv.base, revoked)
		afterLive, err2 := p.introspect(ctx, srv.base, live)

		tok, in, rv := seen["token"], seen["introspect"], seen["revoke"]
		r.check("503 from the token, introspection and revocation endpoints while Redis is away",
			tok.unavailable > 0 && in.unavailable > 0 && rv.unavailable > 0,
			"503s seen: token %d, introspect %d, revoke %d", tok.unavailable, in.unavailable, rv.unavailable)
		r.check("never 200 for what needs the store (introspection, revocation) while Redis is away",
			in.ok == 0 && rv.ok == 0, "introspect 200: %d, revoke 200: %d %v", in.ok, rv.ok, firstViolations)
		r.check("no token issued once the outage was noticed", tok.okAfter503() == 0,
			"%d tokens asked after a 503 was answered (%d before, signed with the ring already loaded)", tok.okAfter503(), tok.ok-tok.okAfter503())
		r.check("0 revoked tokens reported active", r.RevokedActive == 0,
			"wrk: %d introspections of the revoked token, %d active; probe: %d active", wb.Requests, counts.Active, revokedActive)
		r.check("no 5xx but 503, no other status", only(wa.Statuses, 200, 503) && only(wb.Statuses, 200, 503) && len(badStatuses) == 0 && r.Other5xx == 0,
			"wrk token %s, wrk introspect %s; probe %s %v", statusesString(wa.Statuses), statusesString(wb.Statuses), tally, badStatuses)
		r.check("no socket errors or hangs", r.SocketErrors == 0,
			"wrk %d (timeouts %d); probe %s", wa.SocketErrors+wb.SocketErrors, wa.Timeouts+wb.Timeouts, tally)
		r.check("recovery after Redis returns", recovered >= 0,
			"token and introspection 200 again %v after Redis was started (it answered PING after %v)", recovered.Round(time.Millisecond), answering.Round(time.Millisecond))
		r.check("the revocation made before the outage holds after it", err1 == nil && err2 == nil &&
			afterRevoked.status == http.StatusOK && !afterRevoked.active() && afterLive.active(),
			"revoked token: %d active=%v; live token: %d active=%v", afterRevoked.status, afterRevoked.active(), afterLive.status, afterLive.active())
		if tok.first503 >= 0 {
			r.note("first 503 answered %v after Redis stopped for tokens (the key ring reloads every second), from %v for introspection, from %v for revocation",
				tok.first503.Round(time.Millisecond), in.first503.Round(time.Millisecond), rv.first503.Round(time.Millisecond))
		}
		r.note("wrk: token %s, introspect %s", statusesString(wa.Statuses), statusesString(wb.Statuses))
		return r, nil
	}
	return fr, nil
}

// sleepCtx sleeps for d or until ctx is done.
func sleepCtx(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}
