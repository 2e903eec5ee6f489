package load

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/jwt"
)

// The modes of the fault's JWKS server.
const (
	jwksOK      int32 = iota // 200 with the published set
	jwksFailing              // 500
	jwksDown                 // not listening: connection refused
)

// guardTokens is how many pre-made tokens wrk cycles through.
const guardTokens = 64

// guardStaleNote says why the 503 past the stale bound is not reached
// during a run.
const guardStaleNote = "signet guard has no flag for the stale bound of its remote key set (jwks.Options.MaxStale, 24 h by default; refreshes at most every 5 min): " +
	"past it, requests get 503. A run of seconds stays within it; the 503 past the bound is covered by server/guard's TestGuardRemoteKeys with a fake clock, " +
	"and the 503 while no key set was ever fetched is the first phase here"

// jwksServer is the fault's key server: it publishes a JWK Set, fails with
// 500 or stops listening on command, and starts again on the same port.
type jwksServer struct {
	addr  string
	mode  atomic.Int32
	set   atomic.Pointer[[]byte]
	fails atomic.Int64 // 500s served

	mu  sync.Mutex
	srv *http.Server
}

func newJWKSServer(set []byte) (*jwksServer, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	s := &jwksServer{addr: "127.0.0.1:" + port}
	s.set.Store(&set)
	return s, s.listen()
}

func (s *jwksServer) url() string { return "http://" + s.addr + "/jwks.json" }

// listen serves on s.addr (again).
func (s *jwksServer) listen() error {
	var ln net.Listener
	var err error
	for range 50 { // the port was just released: retry a bind that races
		if ln, err = net.Listen("tcp", s.addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: http.HandlerFunc(s.serve), ReadHeaderTimeout: 5 * time.Second}
	s.mu.Lock()
	s.srv = srv
	s.mu.Unlock()
	go srv.Serve(ln)
	return nil
}

func (s *jwksServer) serve(w http.ResponseWriter, r *http.Request) {
	if s.mode.Load() == jwksFailing {
		s.fails.Add(1)
		http.Error(w, "key server failing (fault)", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/jwk-set+json")
	w.Header().Set("Cache-Control", "max-age=300")
	w.Write(*s.set.Load())
}

// setMode switches the server: OK or failing (listening), or down.
func (s *jwksServer) setMode(m int32) error {
	prev := s.mode.Swap(m)
	switch {
	case m == jwksDown && prev != jwksDown:
		s.close()
	case m != jwksDown && prev == jwksDown:
		return s.listen()
	}
	return nil
}

func (s *jwksServer) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv != nil {
		s.srv.Close()
		s.srv = nil
	}
}

// helloUpstream is the guard's upstream: 200 "hello" on every path.
func helloUpstream() (*http.Server, string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", err
	}
	srv := &http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, "hello\n")
	})}
	go srv.Serve(ln)
	return srv, "http://" + ln.Addr().String(), nil
}

// guardToken signs an access token for the guard with key.
func guardToken(key *signet.Key, n int) (string, error) {
	return jwt.Sign(key, jwt.Claims{Issuer: faultIssuer, Subject: "svc-a", Audience: jwt.Audience{faultAudience},
		ID: "fault-" + strconv.Itoa(n)}, jwt.Options{Lifetime: time.Hour})
}

// prepareGuardJWKS: signet guard --jwks-url in front of a hello upstream,
// with its verified-token cache off (every request verifies). First the
// guard starts while the key server fails: requests get 503 until it
// answers, and the recovery is timed. Then, under wrk cycling pre-made
// tokens, the key server fails with 500, then stops listening (connection
// refused), each time with SIGHUP so that the guard refetches and fails;
// then it comes back publishing a second key. The probe sends a token of
// the published key (must pass) and one of a key not yet published (must
// never pass while the key server fails). Targets: 503 and never 200
// while no key set is held; with a set held, 2xx continue through the
// failures, no 503, no other 5xx; the token of the unpublished key never
// 200 until the key server publishes it.
func prepareGuardJWKS(ctx context.Context, env *Env, t FaultTiming) (fr *faultRun, err error) {
	fr = &faultRun{}
	defer fr.closeOnError(&err)
	phase := t.Load / 4
	what := fmt.Sprintf("signet guard --jwks-url --cache 0 in front of /hello: started while its key server answers 500, which recovers %v later; then under wrk -c%d for %v (pre-made tokens) the key server answers 500, then refuses connections, %v each with SIGHUP to the guard (a refetch that fails), then comes back publishing a new key",
		t.Before/2, t.Connect, t.Load, phase)
	w, err := newFaultWorld(env, "guard")
	if err != nil {
		return nil, err
	}
	k1, err := signet.GenerateKeyWithID(signet.ES256, "fault-k1")
	if err != nil {
		return nil, err
	}
	k2, err := signet.GenerateKeyWithID(signet.ES256, "fault-k2")
	if err != nil {
		return nil, err
	}
	pub1, err := k1.Public()
	if err != nil {
		return nil, err
	}
	pub2, err := k2.Public()
	if err != nil {
		return nil, err
	}
	set1, err := jwk.MarshalSet(pub1)
	if err != nil {
		return nil, err
	}
	set12, err := jwk.MarshalSet(pub1, pub2)
	if err != nil {
		return nil, err
	}
	var toks []string
	for i := range guardTokens {
		tok, err := guardToken(k1, i)
		if err != nil {
			return nil, err
		}
		toks = append(toks, tok)
	}
	tokFile := filepath.Join(w.dir, "tokens.txt")
	if err := os.WriteFile(tokFile, []byte(strings.Join(toks, "\n")+"\n"), 0o600); err != nil {
		return nil, err
	}
	valid := toks[0]
	unpublished, err := guardToken(k2, guardTokens)
	if err != nil {
		return nil, err
	}

	js, err := newJWKSServer(set1)
	if err != nil {
		return nil, err
	}
	fr.cleanup(js.close)
	js.mode.Store(jwksFailing)
	up, upURL, err := helloUpstream()
	if err != nil {
		return nil, err
	}
	fr.cleanup(func() { up.Close() })
	gPort, err := freePort()
	if err != nil {
		return nil, err
	}
	aPort, err := freePort()
	if err != nil {
		return nil, err
	}
	gBase, admin := "http://127.0.0.1:"+gPort, "http://127.0.0.1:"+aPort
	g, err := StartServer(ctx, ServerSpec{Name: "guard", Argv: []string{w.signet, "guard",
		"--upstream", upURL, "--jwks-url", js.url(), "--addr", "127.0.0.1:" + gPort, "--admin-addr", "127.0.0.1:" + aPort,
		"--iss", faultIssuer, "--aud", faultAudience, "--alg", "ES256", "--cache", "0"},
		CPUs: env.ServerCPUs, Ready: admin + "/healthz"})
	if err != nil {
		return nil, err
	}
	fr.cleanup(func() { g.Stop() })

	p := newProbeClient()
	fr.cleanup(p.close)
	get := func(tok string) (answer, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, gBase+"/hello", nil)
		if err != nil {
			return answer{}, err
		}
		req.Header.Set("Authorization", "Bearer "+tok)
		a := answer{start: time.Now()}
		res, err := p.hc.Do(req)
		if err != nil {
			return a, err
		}
		io.Copy(io.Discard, io.LimitReader(res.Body, 1<<20))
		res.Body.Close()
		a.status, a.took = res.StatusCode, time.Since(a.start)
		return a, nil
	}
	tally := newStatusTally()

	// Phase 1: no key set ever fetched: 503, never 200.
	var noKeys = map[int]int64{}
	for end := time.Now().Add(t.Before / 2); time.Now().Before(end); sleepCtx(ctx, 10*time.Millisecond) {
		a, err := get(valid)
		tally.add(a, err)
		if err == nil {
			noKeys[a.status]++
		}
	}
	readyNoKeys := adminStatus(ctx, p, admin+"/readyz")
	if err := js.setMode(jwksOK); err != nil {
		return nil, err
	}
	upAt := time.Now()
	recovered := time.Duration(-1)
	for time.Since(upAt) < outageRecoveryBound {
		a, err := get(valid)
		tally.add(a, err)
		if err == nil && a.status == http.StatusOK {
			recovered = time.Since(upAt)
			break
		}
		if err == nil {
			noKeys[a.status]++
		}
		sleepCtx(ctx, 10*time.Millisecond)
	}
	if recovered < 0 {
		return nil, fmt.Errorf("the guard did not verify within %v of its key server answering", outageRecoveryBound)
	}

	// Phase 2: under wrk, the key server fails while the guard holds a set.
	var (
		mu                                                            sync.Mutex
		failing, republished                                          atomic.Bool
		validDuring, unpublishedDuring, unpublishedAfter, readyDuring = map[int]int64{}, map[int]int64{}, map[int]int64{}, map[int]int64{}
		publishedAt                                                   atomic.Int64 // unix ns: when the key server published the new key
		start                                                         time.Time
	)
	fr.wrk = WrkSpec{URL: gBase + "/hello", Script: "tokens.lua", Connections: t.Connect, Duration: t.Load,
		Args: []string{"tokens=" + tokFile}}
	fr.during = func(done <-chan struct{}) error {
		start = time.Now()
		probeDone := make(chan struct{})
		go func() {
			defer close(probeDone)
			probe(done, func() {
				f, rep := failing.Load(), republished.Load()
				a, err := get(valid)
				tally.add(a, err)
				b, errB := get(unpublished)
				tally.add(b, errB)
				if f && errB == nil {
					// Answered after the new key was published: not a
					// token the guard could not verify any more.
					if at := publishedAt.Load(); at != 0 && !b.start.Add(b.took).Before(time.Unix(0, at)) {
						f = false
					}
				}
				ready := 0
				if f {
					ready = adminStatus(ctx, p, admin+"/readyz")
				}
				mu.Lock()
				defer mu.Unlock()
				switch {
				case f:
					if err == nil {
						validDuring[a.status]++
					}
					if errB == nil {
						unpublishedDuring[b.status]++
					}
					readyDuring[ready]++
				case rep && errB == nil:
					unpublishedAfter[b.status]++
				}
			})
		}()
		defer func() { <-probeDone }()
		for _, step := range []struct {
			mode    int32
			failing bool
		}{{jwksFailing, true}, {jwksDown, true}, {jwksOK, false}} {
			sleepCtx(ctx, phase)
			if step.mode == jwksOK {
				publishedAt.Store(time.Now().UnixNano())
				js.set.Store(&set12) // back, publishing the second key
			}
			failing.Store(step.failing)
			if err := js.setMode(step.mode); err != nil {
				return err
			}
			if err := g.Signal(syscall.SIGHUP); err != nil { // refetch now
				return err
			}
		}
		sleepCtx(ctx, 200*time.Millisecond) // the refetch
		republished.Store(true)
		return nil
	}
	fr.check = func(wr WrkResult) (FaultResult, error) {
		r := FaultResult{What: what, Duration: time.Since(start), RecoveryMS: float64(recovered.Microseconds()) / 1000}
		r.addWrk(wr)
		tally.into(&r)
		fetchErrors, err := guardMetric(ctx, p, admin+"/metrics", "signet_jwks_fetch_errors_total")
		if err != nil {
			return r, err
		}
		mu.Lock()
		defer mu.Unlock()
		r.check("no key set yet: 503, never 200", noKeys[http.StatusOK] == 0 && noKeys[http.StatusServiceUnavailable] > 0 && readyNoKeys == http.StatusServiceUnavailable,
			"answers before the first fetch succeeded %s, /readyz %d", statusesString(noKeys), readyNoKeys)
		r.check("recovery once the key server answers", recovered >= 0,
			"first 200 %v after the key server answered (the guard retries with backoff from 1 s)", recovered.Round(time.Millisecond))
		r.check("key server failing: the held keys keep serving (wrk all 2xx, no 503)",
			wr.Statuses[http.StatusOK] > 0 && only(wr.Statuses, http.StatusOK) && wr.SocketErrors == 0 && validDuring[http.StatusOK] > 0 && only(validDuring, http.StatusOK),
			"wrk %s, socket errors %d; probe during the failure %s", statusesString(wr.Statuses), wr.SocketErrors, statusesString(validDuring))
		r.check("never 200 for a token the guard cannot verify (key not published)", unpublishedDuring[http.StatusOK] == 0 && len(unpublishedDuring) > 0,
			"token of the unpublished key while the key server fails: %s", statusesString(unpublishedDuring))
		r.check("no 5xx other than 503", r.Other5xx == 0, "%d", r.Other5xx)
		r.check("the refetches failed (500, then connection refused)", js.fails.Load() > 0 && fetchErrors >= 2,
			"%d answers 500, signet_jwks_fetch_errors_total %v", js.fails.Load(), fetchErrors)
		r.check("the new key passes once published", unpublishedAfter[http.StatusOK] > 0,
			"token of the new key after the key server came back: %s", statusesString(unpublishedAfter))
		r.note("/readyz while the key server failed: %s (200: within the stale bound)", statusesString(readyDuring))
		r.note("%s", guardStaleNote)
		r.note("wrk: %.0f requests/s through the guard", wr.RPS)
		return r, nil
	}
	return fr, nil
}

// adminStatus is the status of GET target (0 on a transport error).
func adminStatus(ctx context.Context, p *probeClient, target string) int {
	a, err := p.post(ctx, target, nil, "", "")
	if err != nil {
		return 0
	}
	return a.status
}

// guardMetric reads one unlabelled counter from a Prometheus text page.
func guardMetric(ctx context.Context, p *probeClient, target, name string) (float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return 0, err
	}
	res, err := p.hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, 4<<20))
	if err != nil {
		return 0, err
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			return strconv.ParseFloat(strings.TrimSpace(v), 64)
		}
	}
	return 0, errors.New("no " + name + " in " + target)
}
