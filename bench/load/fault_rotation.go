package load

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/signet-go/signet/jwt"
)

// probeWorkers is how many goroutines of the Go probe run beside wrk;
// probePace is each one's pause between rounds, so that the probe checks
// without taking the server's core from wrk.
const (
	probeWorkers = 2
	probePace    = 2 * time.Millisecond
)

// prepareRotation: signet serve --rotate 2s (JWKS max-age 1 s) while wrk
// hammers the token endpoint; the probe gets tokens and verifies each as
// a resource server does, from a JWKS cache that honours max-age and
// refetches once on an unknown kid. Targets: 0 failed verifications, keys
// rotated during the run and all still published, every answer 200.
func prepareRotation(ctx context.Context, env *Env, t FaultTiming) (fr *faultRun, err error) {
	fr = &faultRun{}
	defer fr.closeOnError(&err)
	w, err := newFaultWorld(env, "rotation")
	if err != nil {
		return nil, err
	}
	srv, err := w.startServe(ctx, serveOpts{name: "serve-rotate", data: filepath.Join(w.dir, "data"), rotate: t.Rotate})
	if err != nil {
		return nil, err
	}
	fr.cleanup(func() { srv.Stop() })
	p := newProbeClient()
	fr.cleanup(p.close)
	cache := newJWKSCache(srv.base, p.hc)
	tally := newStatusTally()
	var (
		verified, failed atomic.Int64
		mu               sync.Mutex
		kids             = map[string]string{} // kid → its first token
		firstFailures    []string
		start            time.Time
	)
	fr.wrk = tokenWrk(srv.base, t.Connect, t.Load)
	fr.during = func(done <-chan struct{}) error {
		start = time.Now()
		probe(done, func() {
			a, tok, err := p.token(ctx, srv.base)
			tally.add(a, err)
			if err != nil || a.status != http.StatusOK {
				return
			}
			kid := tokenKID(tok)
			c, err := cache.verify(ctx, tok)
			if err == nil && (c.ClientID != faultClientA || c.Subject != faultClientA) {
				err = fmt.Errorf("claims %+v", c)
			}
			mu.Lock()
			defer mu.Unlock()
			if _, ok := kids[kid]; !ok {
				kids[kid] = tok
			}
			if err != nil {
				failed.Add(1)
				if len(firstFailures) < 3 {
					firstFailures = append(firstFailures, fmt.Sprintf("kid %s: %v", kid, err))
				}
				return
			}
			verified.Add(1)
		})
		return nil
	}
	fr.check = func(wr WrkResult) (FaultResult, error) {
		r := FaultResult{RecoveryMS: -1, Duration: time.Since(start),
			What: fmt.Sprintf("signet serve --rotate %v (JWKS max-age %v) under wrk -c%d on the token endpoint for %v; a Go probe verifies every token it gets against a resource server's JWKS cache (max-age honoured, one refetch on an unknown kid)",
				t.Rotate, t.Rotate/2, t.Connect, t.Load)}
		r.addWrk(wr)
		tally.into(&r)
		r.Verified, r.FailedVerifications = verified.Load(), failed.Load()
		// Every key that signed is still published: a token of each
		// verifies with the JWKS fetched now.
		set, err := cache.fetch(ctx)
		if err != nil {
			return r, err
		}
		unpublished := 0
		for _, tok := range kids {
			if _, err := jwt.Verify[accessClaims](set, tok, accessPolicy); err != nil {
				unpublished++
			}
		}
		fetches, misses, maxAge := cache.stats()
		r.check("0 failed verifications", r.FailedVerifications == 0 && r.Verified > 0,
			"%d verified, %d failed %v", r.Verified, r.FailedVerifications, firstFailures)
		r.check("keys rotated during the run", len(kids) >= 2, "%d signing keys seen", len(kids))
		r.check("every signing key still published (a token of each verifies at the end)", unpublished == 0,
			"%d of %d missing", unpublished, len(kids))
		r.check("JWKS max-age half of --rotate", maxAge == t.Rotate/2, "max-age %v", maxAge)
		r.check("every answer 200, no socket errors", r.Status2xx == r.Requests && r.SocketErrors == 0,
			"wrk %s, socket errors %d; probe %s", statusesString(wr.Statuses), wr.SocketErrors, tally)
		r.note("wrk: %.0f tokens/s", wr.RPS)
		r.note("probe JWKS cache: %d fetches, %d of them on an unknown kid", fetches, misses)
		return r, nil
	}
	return fr, nil
}

// probe runs round in probeWorkers goroutines, paced, until stop is
// closed, and returns once they all stopped.
func probe(stop <-chan struct{}, round func()) {
	var wg sync.WaitGroup
	for range probeWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				case <-time.After(probePace):
				}
				round()
			}
		}()
	}
	wg.Wait()
}
