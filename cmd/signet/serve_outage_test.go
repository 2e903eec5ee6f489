package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// outageBound bounds every request during the outage test (a request
// that takes longer is a hang) and every wait for the service to notice
// an outage or a recovery.
const (
	outageRequestBound = 5 * time.Second
	outageWaitBound    = 30 * time.Second
)

// redisProc is a redis-server of the test's own that the test stops,
// pauses and restarts on one loopback port. It keeps its data in an
// append-only file written at every command, so that a graceful restart
// in the same directory finds it again.
type redisProc struct {
	t      *testing.T
	bin    string
	port   string
	dir    string
	cmd    *exec.Cmd
	exited chan struct{}
	out    *syncBuffer
}

// newRedisProc starts a redis-server on a free loopback port; the test
// fails if it cannot.
func newRedisProc(t *testing.T) *redisProc {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatalf("redis-server not found (run scripts/install-redis.sh or make server-deps): %v", err)
	}
	p := &redisProc{t: t, bin: bin, dir: t.TempDir()}
	t.Cleanup(p.kill)
	for attempt := 1; ; attempt++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		p.port = strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
		l.Close()
		err = p.tryStart()
		if err == nil {
			return p
		}
		if attempt == 3 {
			t.Fatalf("starting redis-server: %v\n%s", err, p.out)
		}
	}
}

func (p *redisProc) addr() string { return "127.0.0.1:" + p.port }
func (p *redisProc) url() string  { return "redis://" + p.addr() + "/0" }

// tryStart starts redis-server in p.dir on p.port and waits until it
// answers.
func (p *redisProc) tryStart() error {
	p.out = &syncBuffer{}
	p.cmd = exec.Command(p.bin, "--bind", "127.0.0.1", "--port", p.port, "--dir", p.dir,
		"--save", "", "--appendonly", "yes", "--appendfsync", "always",
		"--daemonize", "no", "--protected-mode", "yes")
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	if err := p.cmd.Start(); err != nil {
		return err
	}
	p.exited = make(chan struct{})
	cmd, exited := p.cmd, p.exited
	go func() { cmd.Wait(); close(exited) }()
	if err := waitRedis(p.addr(), exited); err != nil {
		p.kill()
		return err
	}
	return nil
}

// start starts it again on the same port (in p.dir: set a fresh one for
// an empty Redis).
func (p *redisProc) start() {
	p.t.Helper()
	if err := p.tryStart(); err != nil {
		p.t.Fatalf("restarting redis-server on %s: %v\n%s", p.addr(), err, p.out)
	}
}

// signal sends sig to the running redis-server.
func (p *redisProc) signal(sig syscall.Signal) {
	p.t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		p.t.Fatalf("signal %v to redis-server: %v", sig, err)
	}
}

// terminate stops it gracefully (SIGTERM: the append-only file is
// complete) and waits until it exited.
func (p *redisProc) terminate() {
	p.t.Helper()
	p.signal(syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(30 * time.Second):
		p.t.Fatalf("redis-server did not stop on SIGTERM:\n%s", p.out)
	}
}

// kill kills it (SIGKILL, a paused one too) and waits until it exited.
func (p *redisProc) kill() {
	if p.cmd == nil || p.exited == nil {
		return
	}
	select {
	case <-p.exited:
		return
	default:
	}
	p.cmd.Process.Kill()
	<-p.exited
}

// reply is one answer of the service to the outage test.
type reply struct {
	status int
	body   map[string]any
	took   time.Duration
}

// call sends one form POST (or a GET when form is nil) with a bounded
// client, failing the test on a transport error (a hang included).
func call(t *testing.T, hc *http.Client, target string, form url.Values, id, secret string) reply {
	t.Helper()
	r, err := tryCall(hc, target, form, id, secret)
	if err != nil {
		t.Fatalf("%s: %v", target, err)
	}
	return r
}

func tryCall(hc *http.Client, target string, form url.Values, id, secret string) (reply, error) {
	method, body := http.MethodGet, io.Reader(nil)
	if form != nil {
		method, body = http.MethodPost, strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		return reply{}, err
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if id != "" {
		req.SetBasicAuth(url.QueryEscape(id), url.QueryEscape(secret))
	}
	start := time.Now()
	res, err := hc.Do(req)
	if err != nil {
		return reply{took: time.Since(start)}, fmt.Errorf("no answer within %v: %w", hc.Timeout, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	r := reply{status: res.StatusCode, took: time.Since(start)}
	if err != nil {
		return r, err
	}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(b, &r.body); err != nil {
			return r, fmt.Errorf("%d %q: %w", res.StatusCode, b, err)
		}
	}
	return r, nil
}

// unavailable reports whether r is the service's 503 (RFC 6749
// temporarily_unavailable).
func (r reply) unavailable() bool {
	return r.status == http.StatusServiceUnavailable && r.body["error"] == "temporarily_unavailable"
}

// outageLoad is the background load of the outage test: each worker gets
// a token and introspects it and the revoked token, in a loop, and checks
// every answer: 200 or the service's 503, never another status, never a
// hang, and never active:true for the revoked token.
type outageLoad struct {
	mu         sync.Mutex
	statuses   map[string]map[int]int // endpoint → status → count
	violations []string
	maxTook    time.Duration
	phase      string // what the test is doing, for the violations
	stop       chan struct{}
	wg         sync.WaitGroup
}

func startOutageLoad(hc *http.Client, instances []*running, revoked string) *outageLoad {
	l := &outageLoad{statuses: map[string]map[int]int{}, stop: make(chan struct{})}
	for w := range 2 {
		r := instances[w%len(instances)]
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			for {
				select {
				case <-l.stop:
					return
				case <-time.After(10 * time.Millisecond):
				}
				tr, err := tryCall(hc, r.url("/oauth2/token"), grant, "svc-a", secretA)
				l.check("token", tr, err)
				if tok, _ := tr.body["access_token"].(string); tok != "" {
					ir, err := tryCall(hc, r.url("/oauth2/introspect"), url.Values{"token": {tok}}, "svc-b", secretB)
					l.check("introspect", ir, err)
				}
				ir, err := tryCall(hc, r.url("/oauth2/introspect"), url.Values{"token": {revoked}}, "svc-b", secretB)
				l.check("introspect", ir, err)
				if ir.status == http.StatusOK && ir.body["active"] != false {
					l.violate("the revoked token introspected at %s at %s: %v", r.inst.addr, time.Now().Format("15:04:05.000"), ir.body)
				}
			}
		}()
	}
	return l
}

func (l *outageLoad) check(ep string, r reply, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.statuses[ep] == nil {
		l.statuses[ep] = map[int]int{}
	}
	l.maxTook = max(l.maxTook, r.took)
	if err != nil {
		l.violations = append(l.violations, fmt.Sprintf("%s: %s: %v", l.phase, ep, err))
		return
	}
	l.statuses[ep][r.status]++
	if r.status != http.StatusOK && !r.unavailable() {
		l.violations = append(l.violations, fmt.Sprintf("%s: %s: %d %v (want 200 or 503 temporarily_unavailable)", l.phase, ep, r.status, r.body))
	}
}

func (l *outageLoad) violate(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.violations = append(l.violations, l.phase+": "+fmt.Sprintf(format, args...))
}

// setPhase names what the test does next, for the violations.
func (l *outageLoad) setPhase(p string) {
	l.mu.Lock()
	l.phase = p
	l.mu.Unlock()
}

// finish stops the load and fails t on any violation.
func (l *outageLoad) finish(t *testing.T) {
	t.Helper()
	close(l.stop)
	l.wg.Wait()
	if n := len(l.violations); n > 0 {
		t.Fatalf("%d violations under load, first ones:\n%s", n, strings.Join(l.violations[:min(n, 10)], "\n"))
	}
	t.Logf("background load: %v (status → count), slowest answer %v", l.statuses, l.maxTook.Round(time.Millisecond))
}

// waitUntil polls cond every 20 ms until it holds, and returns how long
// that took; it fails t after outageWaitBound.
func waitUntil(t *testing.T, what string, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > outageWaitBound {
			t.Fatalf("%s: not within %v", what, outageWaitBound)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return time.Since(start)
}

// TestServeRedisOutage: two instances on one Redis, under load, while
// Redis is paused (SIGSTOP), stopped and restarted with its data
// (SIGTERM, same append-only file), and killed and restarted empty
// (SIGKILL, fresh directory). During each outage the token,
// introspection and revocation endpoints answer 503
// temporarily_unavailable within a bound (never a hang, another 5xx or
// active:true for a token whose revocation could not be checked),
// /readyz answers 503, /healthz and the JWKS (the last ring loaded) 200.
// Each time the service recovers by itself (the time is logged). With
// the data back, the key ring is the same and a revocation made before
// the outage is still honoured. With Redis back empty, the ring and the
// revocations are gone: the instances write and publish one fresh ring,
// and tokens signed by the lost keys introspect inactive (the revoked one
// never active again); new tokens work across the instances.
func TestServeRedisOutage(t *testing.T) {
	p := newRedisProc(t)
	env := map[string]string{"SIGNET_KEK": newKEKText(t)}
	clients := writeClients(t, "", []string{"svc-a", "svc-b"}, []string{secretA, secretB})
	args := []string{"--clients", clients, "--redis", p.url(), "--addr", "127.0.0.1:0", "--issuer", "https://auth.example.com"}
	// The production bound on Redis operations: the outage's 503s must
	// come within outageRequestBound.
	a := startServeTimeout(t, args, env, 0)
	b := startServeTimeout(t, args, env, 0)
	both := []*running{a, b}
	t.Cleanup(func() {
		if t.Failed() { // what the key loops saw, to place the failure
			for _, r := range both {
				for l := range strings.SplitSeq(r.stderr.String(), "\n") {
					if strings.Contains(l, `"msg":"keys`) {
						t.Log(r.inst.addr, l)
					}
				}
			}
		}
	})
	hc := &http.Client{Timeout: outageRequestBound}
	defer hc.CloseIdleConnections()

	revoked, live := a.token("svc-a", secretA), b.token("svc-a", secretA)
	if r := call(t, hc, a.url("/oauth2/revoke"), url.Values{"token": {revoked}}, "svc-a", secretA); r.status != http.StatusOK {
		t.Fatalf("revoke: %d %v", r.status, r.body)
	}
	checkTokens := func(phase string, wantLive bool) {
		t.Helper()
		for _, r := range both {
			if r.introspect(revoked, "svc-b", secretB) {
				t.Fatalf("%s: the token revoked before the outage is active at %s", phase, r.inst.addr)
			}
			if got := r.introspect(live, "svc-b", secretB); got != wantLive {
				t.Fatalf("%s: the live token introspects active=%v at %s, want %v", phase, got, r.inst.addr, wantLive)
			}
		}
	}
	checkTokens("before", true)
	_, kidsBefore := a.jwks()

	load := startOutageLoad(hc, both, revoked)
	load.setPhase("before")
	defer func() {
		select {
		case <-load.stop:
		default:
			close(load.stop)
			load.wg.Wait()
		}
	}()

	// down checks every instance in an outage: once the loop noticed it,
	// the endpoints that need the store answer 503 within the bound.
	down := func(phase string) {
		t.Helper()
		took := waitUntil(t, phase+": tokens refused", func() bool {
			for _, r := range both {
				if !call(t, hc, r.url("/oauth2/token"), grant, "svc-a", secretA).unavailable() {
					return false
				}
			}
			return true
		})
		t.Logf("%s: both instances refuse tokens %v after the outage began", phase, took.Round(time.Millisecond))
		for _, r := range both {
			if x := call(t, hc, r.url("/oauth2/introspect"), url.Values{"token": {live}}, "svc-b", secretB); !x.unavailable() {
				t.Fatalf("%s: introspection: %d %v, want 503 temporarily_unavailable", phase, x.status, x.body)
			}
			if x := call(t, hc, r.url("/oauth2/introspect"), url.Values{"token": {revoked}}, "svc-b", secretB); !x.unavailable() {
				t.Fatalf("%s: introspection of the revoked token: %d %v, want 503", phase, x.status, x.body)
			}
			if x := call(t, hc, r.url("/oauth2/revoke"), url.Values{"token": {live}}, "svc-a", secretA); !x.unavailable() {
				t.Fatalf("%s: revocation: %d %v, want 503 temporarily_unavailable", phase, x.status, x.body)
			}
			if x := call(t, hc, r.url("/readyz"), nil, "", ""); x.status != http.StatusServiceUnavailable {
				t.Fatalf("%s: /readyz: %d, want 503", phase, x.status)
			}
			if x := call(t, hc, r.url("/healthz"), nil, "", ""); x.status != http.StatusOK {
				t.Fatalf("%s: /healthz: %d, want 200", phase, x.status)
			}
			if x := call(t, hc, r.url("/.well-known/jwks.json"), nil, "", ""); x.status != http.StatusOK {
				t.Fatalf("%s: JWKS: %d, want 200 (the last ring loaded)", phase, x.status)
			}
		}
	}
	// up waits until every instance is ready and issues tokens again.
	up := func(phase string) {
		t.Helper()
		took := waitUntil(t, phase+": recovery", func() bool {
			for _, r := range both {
				if call(t, hc, r.url("/readyz"), nil, "", "").status != http.StatusOK ||
					call(t, hc, r.url("/oauth2/token"), grant, "svc-a", secretA).status != http.StatusOK {
					return false
				}
			}
			return true
		})
		t.Logf("%s: both instances ready and issuing %v after Redis answered again", phase, took.Round(time.Millisecond))
	}

	// 1. Paused: connections open, nothing answers.
	load.setPhase("paused")
	p.signal(syscall.SIGSTOP)
	down("paused (SIGSTOP)")
	load.setPhase("resumed")
	p.signal(syscall.SIGCONT)
	up("resumed (SIGCONT)")
	checkTokens("after the pause", true)
	if _, kids := a.jwks(); !slices.Equal(kids, kidsBefore) {
		t.Fatalf("after the pause: key ring %v, want %v", kids, kidsBefore)
	}

	// 2. Stopped, restarted with its data.
	load.setPhase("stopped")
	p.terminate()
	down("stopped (SIGTERM)")
	load.setPhase("restarted with its data")
	p.start()
	up("restarted with its data")
	checkTokens("after the restart with data", true)
	if _, kids := a.jwks(); !slices.Equal(kids, kidsBefore) {
		t.Fatalf("after the restart with data: key ring %v, want %v", kids, kidsBefore)
	}

	// 3. Killed, restarted empty: the ring and the revocations are lost.
	load.setPhase("killed")
	p.kill()
	down("killed (SIGKILL)")
	load.setPhase("restarted empty")
	p.dir = t.TempDir()
	p.start()
	up("restarted empty")
	checkTokens("after the restart empty", false)
	jwksA, kidsA := a.jwks()
	jwksB, _ := b.jwks()
	if string(jwksA) != string(jwksB) {
		t.Fatalf("after the restart empty the instances publish different key sets:\n%s\n%s", jwksA, jwksB)
	}
	for _, kid := range kidsBefore {
		if slices.Contains(kidsA, kid) {
			t.Fatalf("after the restart empty: lost key %s still published (%v)", kid, kidsA)
		}
	}
	fresh := a.token("svc-a", secretA)
	b.verifyFromJWKS(fresh, testAudience)
	if !b.introspect(fresh, "svc-b", secretB) {
		t.Fatal("after the restart empty: a new token from a is inactive at b")
	}
	if r := call(t, hc, b.url("/oauth2/revoke"), url.Values{"token": {fresh}}, "svc-a", secretA); r.status != http.StatusOK {
		t.Fatalf("revoke: %d %v", r.status, r.body)
	}
	if a.introspect(fresh, "svc-b", secretB) {
		t.Fatal("after the restart empty: a token revoked at b is active at a")
	}

	load.finish(t)
	for _, r := range both {
		if code := r.stop(); code != exitOK {
			t.Fatalf("exit %d:\n%s", code, r.stderr)
		}
		logs := r.stderr.String()
		if !strings.Contains(logs, `"msg":"keys: refresh failed; retrying every reload"`) ||
			!strings.Contains(logs, `"msg":"keys: refresh succeeded again; key ring reloaded"`) {
			t.Fatalf("the outage and the recovery are not logged:\n%s", logs)
		}
	}
}
