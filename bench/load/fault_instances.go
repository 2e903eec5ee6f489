package load

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// prepareTwoInstances: two signet serve on one Redis. wrk connects to one
// host, so the load is two wrk processes at once, half the connections
// each: the fault's main run hammers the token endpoint of instance A,
// a second one the introspection endpoint of instance B with a token
// issued by A and revoked at A (fault.lua counts any answer saying
// active). The probe alternates: a token from one instance is verified
// with the other's JWKS and introspected there (active), every other one
// revoked at its issuer and introspected at the other again (inactive),
// and the token revoked before the run is introspected too. Targets: 0
// failed verifications, 0 revoked tokens reported active, every answer
// 200.
func prepareTwoInstances(ctx context.Context, env *Env, t FaultTiming) (fr *faultRun, err error) {
	fr = &faultRun{}
	defer fr.closeOnError(&err)
	half := max(t.Connect/2, 1)
	w, err := newFaultWorld(env, "instances")
	if err != nil {
		return nil, err
	}
	rp, err := startRedis(w.dir, env.ServerCPUs)
	if err != nil {
		return nil, err
	}
	fr.cleanup(rp.kill)
	a, err := w.startServe(ctx, serveOpts{name: "serve-a", redis: rp.url()})
	if err != nil {
		return nil, err
	}
	fr.cleanup(func() { a.Stop() })
	b, err := w.startServe(ctx, serveOpts{name: "serve-b", redis: rp.url()})
	if err != nil {
		return nil, err
	}
	fr.cleanup(func() { b.Stop() })

	p := newProbeClient()
	fr.cleanup(p.close)
	_, revoked, err := p.token(ctx, a.base)
	if err != nil {
		return nil, fmt.Errorf("a token from A: %w", err)
	}
	if x, err := p.revoke(ctx, a.base, revoked); err != nil || x.status != http.StatusOK {
		return nil, fmt.Errorf("revoking at A: %d %v", x.status, err)
	}
	if x, err := p.introspect(ctx, b.base, revoked); err != nil || x.status != http.StatusOK || x.active() {
		return nil, fmt.Errorf("the token revoked at A introspected at B before the load: %d %v %v", x.status, x.body, err)
	}
	specB, countsFile, err := withFaultScript(w.dir, introspectWrk(b.base, revoked, half, t.Load))
	if err != nil {
		return nil, err
	}
	specB.CPUs = env.WrkCPUs

	insts := []*serveProc{a, b}
	caches := []*jwksCache{newJWKSCache(a.base, p.hc), newJWKSCache(b.base, p.hc)}
	tally := newStatusTally()
	var (
		verified, failed, revokedActive, revocations, crossActive atomic.Int64
		round                                                     atomic.Int64
		mu                                                        sync.Mutex
		firstFailures                                             []string
		start                                                     time.Time
		loadB                                                     *wrkRun
	)
	failure := func(format string, args ...any) {
		mu.Lock()
		if len(firstFailures) < 5 {
			firstFailures = append(firstFailures, fmt.Sprintf(format, args...))
		}
		mu.Unlock()
	}
	fr.cleanup(func() { // a run that failed before its check
		if loadB != nil {
			loadB.wait()
		}
	})
	fr.wrk = tokenWrk(a.base, half, t.Load)
	fr.during = func(done <-chan struct{}) error {
		start = time.Now()
		loadB = startWrk(ctx, specB)
		probe(done, func() {
			n := round.Add(1)
			from, other := insts[n%2], insts[(n+1)%2]
			x, tok, err := p.token(ctx, from.base)
			tally.add(x, err)
			if err != nil || x.status != http.StatusOK {
				return
			}
			if _, err := caches[(n+1)%2].verify(ctx, tok); err != nil {
				failed.Add(1)
				failure("a token of %s does not verify with %s's JWKS: %v", from.Name, other.Name, err)
			} else {
				verified.Add(1)
			}
			x, err = p.introspect(ctx, other.base, tok)
			tally.add(x, err)
			if err == nil && x.status == http.StatusOK {
				if x.active() {
					crossActive.Add(1)
				} else {
					failure("a fresh token of %s introspects inactive at %s", from.Name, other.Name)
				}
			}
			// Every other token: revoked at its issuer, then asked at the other.
			if n%2 == 0 {
				x, err = p.revoke(ctx, from.base, tok)
				tally.add(x, err)
				if err == nil && x.status == http.StatusOK {
					revocations.Add(1)
					x, err = p.introspect(ctx, other.base, tok)
					tally.add(x, err)
					if err == nil && x.active() {
						revokedActive.Add(1)
						failure("a token revoked at %s is active at %s", from.Name, other.Name)
					}
				}
			}
			x, err = p.introspect(ctx, other.base, revoked)
			tally.add(x, err)
			if err == nil && x.active() {
				revokedActive.Add(1)
				failure("the token revoked before the run is active at %s", other.Name)
			}
		})
		return nil
	}
	fr.check = func(wa WrkResult) (FaultResult, error) {
		r := FaultResult{RecoveryMS: -1,
			What: fmt.Sprintf("two signet serve on one Redis for %v: wrk -c%d on A's token endpoint and wrk -c%d on B's introspection (a token of A revoked at A) at once; a Go probe gets tokens from one instance and verifies, introspects and revokes them at the other",
				t.Load, half, half)}
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
		r.Verified, r.FailedVerifications = verified.Load(), failed.Load()
		r.RevokedActive = revokedActive.Load() + counts.Active
		r.check("0 failed verifications (token of one instance, JWKS of the other)", r.FailedVerifications == 0 && r.Verified > 0,
			"%d verified, %d failed", r.Verified, r.FailedVerifications)
		r.check("0 revoked tokens reported active", r.RevokedActive == 0 && revocations.Load() > 0,
			"wrk on B: %d introspections of the token revoked at A, %d active; probe: %d revocations at one instance checked at the other, %d reported active",
			wb.Requests, counts.Active, revocations.Load(), revokedActive.Load())
		r.check("fresh tokens active at the other instance", crossActive.Load() > 0 && len(firstFailures) == 0,
			"%d active; failures %v", crossActive.Load(), firstFailures)
		r.check("every answer 200, no socket errors", r.Status2xx == r.Requests && r.SocketErrors == 0,
			"wrk A (token) %s, wrk B (introspect) %s, socket errors %d; probe %s",
			statusesString(wa.Statuses), statusesString(wb.Statuses), wa.SocketErrors+wb.SocketErrors, tally)
		r.note("wrk: A %.0f tokens/s, B %.0f introspections/s", wa.RPS, wb.RPS)
		return r, nil
	}
	return fr, nil
}
