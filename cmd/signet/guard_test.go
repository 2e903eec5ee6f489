package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/jwks"
	"github.com/signet-go/signet/jwt"
)

// guardRun is a guard call running in this process.
type guardRun struct {
	t      *testing.T
	inst   *guardInstance
	stderr *syncBuffer
	cancel context.CancelFunc
	done   chan int
	code   int
	ended  bool
}

// startGuard runs guardMain with args until the test ends or stop is
// called, and waits until it listens.
func startGuard(t *testing.T, args []string, remote func(*jwks.Options)) *guardRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	g := &guardRun{t: t, stderr: &syncBuffer{}, cancel: cancel, done: make(chan int, 1)}
	ready := make(chan *guardInstance, 1)
	hooks := guardHooks{ready: func(i *guardInstance) { ready <- i }, remote: remote}
	go func() { g.done <- guardMain(ctx, args, io.Discard, g.stderr, hooks) }()
	t.Cleanup(func() { g.stop() })
	select {
	case g.inst = <-ready:
		return g
	case code := <-g.done:
		g.ended, g.code = true, code
		t.Fatalf("guard %v exited with %d before listening:\n%s", args, code, g.stderr)
	case <-time.After(30 * time.Second):
		t.Fatalf("guard %v did not listen within 30 s:\n%s", args, g.stderr)
	}
	return nil
}

// stop cancels the guard's context (as SIGTERM does) and returns its
// exit code.
func (g *guardRun) stop() int {
	if !g.ended {
		g.cancel()
		select {
		case g.code = <-g.done:
		case <-time.After(30 * time.Second):
			g.t.Errorf("guard did not stop within 30 s:\n%s", g.stderr)
		}
		g.ended = true
	}
	return g.code
}

// devCredentials reads the client id and secret serve --dev printed.
func devCredentials(t *testing.T, r *running) (id, secret string) {
	t.Helper()
	m := regexp.MustCompile(`client_id:\s+(\S+)\nclient_secret:\s+(\S+)`).FindStringSubmatch(r.stdout.String())
	if m == nil {
		t.Fatalf("no credentials in serve --dev's output:\n%s", r.stdout)
	}
	return m[1], m[2]
}

// helloUpstream is the service behind the guard: /hello answers with the
// client_id of the claims the guard forwarded.
func helloUpstream(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, err := base64.RawURLEncoding.DecodeString(r.Header.Get("X-Signet-Claims"))
		var c struct {
			ClientID string `json:"client_id"`
		}
		if err != nil || json.Unmarshal(raw, &c) != nil || c.ClientID == "" || r.Header.Get("Authorization") != "" {
			http.Error(w, "no verified claims", http.StatusBadRequest)
			return
		}
		fmt.Fprintf(w, "hello %s", c.ClientID)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// tokenKid returns the kid of a JWT's header.
func tokenKid(t *testing.T, tok string) string {
	t.Helper()
	h, err := base64.RawURLEncoding.DecodeString(strings.Split(tok, ".")[0])
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Kid string `json:"kid"`
	}
	if err := json.Unmarshal(h, &v); err != nil {
		t.Fatal(err)
	}
	return v.Kid
}

// TestGuardServeRotation: signet serve --dev rotating its signing key
// every 2 s (JWKS max-age 1 s), signet guard in front of an upstream with
// serve's JWKS URL, and clients getting fresh tokens and calling through
// the guard for a bounded time across several rotations: not one request
// fails. Then jwt verify --jwks-url verifies a token of the last key, and
// SIGTERM stops the guard with exit 0.
func TestGuardServeRotation(t *testing.T) {
	const (
		rotate   = 2 * time.Second
		duration = 7 * time.Second
		clients  = 4
	)
	// --rotate 2s: the JWKS max-age scales down to 1 s, as a fast
	// rotation needs.
	srv := startServe(t, []string{"--dev", "--addr", "127.0.0.1:0", "--rotate", rotate.String()}, nil)
	id, secret := devCredentials(t, srv)
	issuer := srv.inst.issuer
	up := helloUpstream(t)
	g := startGuard(t, []string{"--upstream", up.URL, "--jwks-url", issuer + "/.well-known/jwks.json",
		"--addr", "127.0.0.1:0", "--admin-addr", "127.0.0.1:0", "--iss", issuer, "--aud", issuer,
		"--scope", "read", "--access-token"}, func(o *jwks.Options) {
		// serve's max-age is 1 s: refresh at 80 % of it, not at the 5 min
		// floor; a miss may refetch every 100 ms.
		o.MinRefresh, o.Cooldown = 100*time.Millisecond, 100*time.Millisecond
		// Generous bounds on the first fetch and each one (defaults 10 s
		// and 5 s): on a loaded machine a fetch cut short would fail a
		// request or leave /readyz at 503.
		o.StartTimeout, o.FetchTimeout = 30*time.Second, 30*time.Second
	})
	admin := "http://" + g.inst.adminAddr
	if code, body := get(t, admin+"/readyz"); code != http.StatusOK {
		t.Fatalf("/readyz %d %s:\n%s", code, body, g.stderr)
	}
	front := "http://" + g.inst.addr + "/hello"

	var (
		requests, failures atomic.Int64
		mu                 sync.Mutex
		kids               = map[string]bool{}
		firstFailure       string
		wg                 sync.WaitGroup
	)
	client := &http.Client{Timeout: 10 * time.Second}
	deadline := time.Now().Add(duration)
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var tok string
			var got time.Time
			for time.Now().Before(deadline) {
				if tok == "" || time.Since(got) > 300*time.Millisecond {
					// A fresh token now and then, as clients do: after a
					// rotation it is signed by the new key.
					tok, got = srv.token(id, secret), time.Now()
					k := tokenKid(t, tok)
					mu.Lock()
					kids[k] = true
					mu.Unlock()
				}
				req, _ := http.NewRequest(http.MethodGet, front, nil)
				req.Header.Set("Authorization", "Bearer "+tok)
				res, err := client.Do(req)
				requests.Add(1)
				var body []byte
				if err == nil {
					body, _ = io.ReadAll(res.Body)
					res.Body.Close()
				}
				if err != nil || res.StatusCode != http.StatusOK || string(body) != "hello "+id {
					failures.Add(1)
					mu.Lock()
					if firstFailure == "" {
						if err != nil {
							firstFailure = err.Error()
						} else {
							firstFailure = fmt.Sprintf("%d %s %s", res.StatusCode, res.Header.Get("WWW-Authenticate"), body)
						}
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	n, failed := requests.Load(), failures.Load()
	t.Logf("%d requests through the guard in %v by %d clients, %d failed; %d signing keys seen", n, duration, clients, failed, len(kids))
	if failed != 0 {
		t.Errorf("%d of %d requests failed; the first: %s\nguard log:\n%s", failed, n, firstFailure, g.stderr)
	}
	if len(kids) < 3 {
		t.Errorf("tokens from %d signing keys: the test saw fewer than 2 rotations", len(kids))
	}
	if n < 100 {
		t.Errorf("only %d requests", n)
	}
	_, metrics := get(t, admin+"/metrics")
	for _, want := range []string{
		fmt.Sprintf(`signet_guard_requests_total{result="forwarded"} %d`, n),
		`signet_guard_requests_total{result="invalid_token"} 0`,
		`signet_jwks_ready 1`,
	} {
		if !strings.Contains(string(metrics), want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	if strings.Contains(string(metrics), "signet_guard_cache_hits_total 0\n") {
		t.Error("no cache hit, though each token was reused")
	}

	// jwt verify --jwks-url with a token of the current key: an RFC 9068
	// access token, so --typ at+jwt (without it, the JWT typ rule refuses).
	tok := srv.token(id, secret)
	jwksURL := issuer + "/.well-known/jwks.json"
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--typ", "at+jwt"}, exitOK, `"client_id":"` + id + `"`},
		{nil, exitRejected, "type"},
	} {
		var stdout, stderr strings.Builder
		args := append([]string{"jwt", "verify", "--jwks-url", jwksURL, "--iss", issuer, "--aud", issuer}, tc.args...)
		code := run(args, strings.NewReader(tok), &stdout, &stderr)
		out := stdout.String() + stderr.String()
		if code != tc.code || !strings.Contains(out, tc.want) {
			t.Errorf("jwt verify --jwks-url %q: exit %d %q, want %d and %q", tc.args, code, out, tc.code, tc.want)
		}
	}

	if code := g.stop(); code != exitOK {
		t.Errorf("guard exit %d after SIGTERM, want 0:\n%s", code, g.stderr)
	}
	logs := g.stderr.String()
	if !strings.Contains(logs, `"msg":"signet guard: stopped"`) {
		t.Errorf("no clean stop in the log:\n%s", logs)
	}
	if strings.Contains(logs, tok[:40]) {
		t.Error("the guard's log holds a token")
	}
}

// TestGuardFlags: the command line of guard: usage errors exit 2 with
// the reason, a key file that cannot be read exits 1.
func TestGuardFlags(t *testing.T) {
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "key.jwk")
	key, err := signet.GenerateKeyWithID(signet.ES256, "k1")
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := key.Public()
	b, _ := jwk.Marshal(pub)
	if err := os.WriteFile(keyFile, b, 0o600); err != nil {
		t.Fatal(err)
	}
	up := "http://127.0.0.1:9"
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--key", keyFile}, exitUsage, "--upstream is required"},
		{[]string{"--upstream", up}, exitUsage, "exactly one of"},
		{[]string{"--upstream", up, "--key", keyFile, "--jwks", keyFile}, exitUsage, "exactly one of"},
		{[]string{"--upstream", "ftp://h", "--key", keyFile}, exitUsage, "--upstream"},
		{[]string{"--upstream", "/relative", "--key", keyFile}, exitUsage, "--upstream"},
		{[]string{"--upstream", up, "--jwks", keyFile, "--alg", "ES256"}, exitUsage, "--alg"},
		{[]string{"--upstream", up, "--key", keyFile, "--alg", "ES256", "--alg", "RS256"}, exitUsage, "one --alg"},
		{[]string{"--upstream", up, "--jwks-url", "https://idp.example/jwks", "--alg", "HS256"}, exitUsage, "shared secret"},
		{[]string{"--upstream", up, "--jwks-url", "https://idp.example/jwks", "--alg", "v4.public"}, exitUsage, "PASETO"},
		{[]string{"--upstream", up, "--jwks-url", "http://idp.example/jwks"}, exitUsage, "https"},
		{[]string{"--upstream", up, "--key", keyFile, "--aud", "a", "--any-aud"}, exitUsage, "--any-aud"},
		{[]string{"--upstream", up, "--key", keyFile, "--access-token", "--aud", "a"}, exitUsage, "--iss"},
		{[]string{"--upstream", up, "--key", keyFile, "--leeway", "1h"}, exitUsage, "--leeway"},
		{[]string{"--upstream", up, "--key", keyFile, "--claims-header", "X Bad"}, exitUsage, "header"},
		{[]string{"--upstream", up, "--key", keyFile, "--claims-header", "Authorization"}, exitUsage, "header"},
		{[]string{"--upstream", up, "--key", keyFile, "--scope", " "}, exitUsage, "scope"},
		{[]string{"--upstream", up, "--key", keyFile, "extra"}, exitUsage, "unexpected argument"},
		{[]string{"--upstream", up, "--key", keyFile, "--jwks-max-stale", "1h"}, exitUsage, "--jwks-max-stale applies to --jwks-url"},
		{[]string{"--upstream", up, "--jwks-url", "https://idp.example/jwks", "--jwks-max-stale", "0s"}, exitUsage, "--jwks-max-stale must be positive"},
		{[]string{"--upstream", up, "--key", filepath.Join(dir, "missing")}, exitRejected, "missing"},
		{[]string{"--upstream", up, "--key", keyFile, "--addr", "256.0.0.1:0"}, exitRejected, "listen"},
	} {
		var stderr strings.Builder
		code := guardMain(context.Background(), tc.args, io.Discard, &stderr, guardHooks{})
		if code != tc.code || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("guard %q: exit %d, %q; want %d and %q", tc.args, code, firstLine(stderr.String()), tc.code, tc.want)
		}
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// TestGuardKeyFile: guard with --key: a request with a token of that key
// is forwarded, /readyz is 200 at once, one without a token gets 401; the
// admin paths on the main listener when there is no --admin-addr.
func TestGuardKeyFile(t *testing.T) {
	dir := t.TempDir()
	key, err := signet.GenerateKeyWithID(signet.EdDSA, "ed1")
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := key.Public()
	b, _ := jwk.Marshal(pub)
	keyFile := filepath.Join(dir, "key.jwk")
	if err := os.WriteFile(keyFile, b, 0o600); err != nil {
		t.Fatal(err)
	}
	up := helloUpstream(t)
	g := startGuard(t, []string{"--upstream", up.URL, "--key", keyFile, "--addr", "127.0.0.1:0", "--aud", "api"}, nil)
	base := "http://" + g.inst.addr
	if code, _ := get(t, base+"/readyz"); code != http.StatusOK {
		t.Fatalf("/readyz %d", code)
	}
	if code, _ := get(t, base+"/hello"); code != http.StatusUnauthorized {
		t.Errorf("no token: %d, want 401", code)
	}
	tok, err := jwt.Sign(key, map[string]any{"aud": "api", "client_id": "c1", "exp": time.Now().Add(time.Hour).Unix()})
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodGet, base+"/hello", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || string(body) != "hello c1" {
		t.Errorf("%d %s", res.StatusCode, body)
	}
}

// TestJWKSURLVerify: jwt verify --jwks-url against a test JWK Set server:
// a token of a published key verifies (exit 0, the claims on stdout);
// an unknown kid, a token of an algorithm not in --alg, and a server that
// fails are rejected (exit 1, nothing on stdout); plain http to a host
// that is not loopback and an HMAC --alg are usage errors (exit 2).
func TestJWKSURLVerify(t *testing.T) {
	key, err := signet.GenerateKeyWithID(signet.ES256, "k1")
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := key.Public()
	set, err := jwk.MarshalSet(pub)
	if err != nil {
		t.Fatal(err)
	}
	var fetches atomic.Int64
	idp := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		if r.URL.Path == "/down" {
			http.Error(w, "down", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/jwk-set+json")
		w.Write(set)
	}))
	defer idp.Close()
	claims := map[string]any{"iss": "https://issuer.example", "sub": "u1", "exp": time.Now().Add(time.Hour).Unix()}
	good, err := jwt.Sign(key, claims)
	if err != nil {
		t.Fatal(err)
	}
	stranger, err := signet.GenerateKeyWithID(signet.ES256, "k2")
	if err != nil {
		t.Fatal(err)
	}
	unknownKid, err := jwt.Sign(stranger, claims)
	if err != nil {
		t.Fatal(err)
	}
	url := idp.URL + "/jwks.json"
	for _, tc := range []struct {
		name  string
		args  []string
		token string
		code  int
		want  string // in stdout (exit 0) or stderr
	}{
		{"good", []string{"--jwks-url", url, "--iss", "https://issuer.example"}, good, exitOK, `"sub":"u1"`},
		{"good with --alg", []string{"--jwks-url", url, "--alg", "ES256,RS256"}, good, exitOK, `"sub":"u1"`},
		{"unknown kid", []string{"--jwks-url", url}, unknownKid, exitRejected, "key not found"},
		{"alg not allowed", []string{"--jwks-url", url, "--alg", "RS256"}, good, exitRejected, "key"},
		{"wrong issuer", []string{"--jwks-url", url, "--iss", "https://other.example"}, good, exitRejected, "issuer"},
		{"server down", []string{"--jwks-url", idp.URL + "/down"}, good, exitRejected, "unavailable"},
		{"plain http", []string{"--jwks-url", "http://idp.example/jwks.json"}, good, exitUsage, "https"},
		{"hmac alg", []string{"--jwks-url", url, "--alg", "HS256"}, good, exitUsage, "shared secret"},
		{"two sources", []string{"--jwks-url", url, "--jwks", "f"}, good, exitUsage, "exactly one"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr strings.Builder
			code := run(append([]string{"jwt", "verify"}, tc.args...), strings.NewReader(tc.token), &stdout, &stderr)
			out := stderr.String()
			if code == exitOK {
				out = stdout.String()
			} else if stdout.Len() != 0 {
				t.Errorf("output on stdout with exit %d: %q", code, stdout.String())
			}
			if code != tc.code || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d %q, want %d and %q", code, firstLine(out), tc.code, tc.want)
			}
		})
	}
	if n := fetches.Load(); n > 20 {
		t.Errorf("%d fetches for 9 runs", n)
	}
}

// TestGuardGracefulStop: with --admin-addr, the main listener forwards
// every path (its /readyz needs a token like any other); on SIGTERM
// (the context's end) a request in flight completes, then the guard
// exits 0.
func TestGuardGracefulStop(t *testing.T) {
	dir := t.TempDir()
	key, err := signet.GenerateKeyWithID(signet.ES256, "k1")
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := key.Public()
	set, _ := jwk.MarshalSet(pub)
	setFile := filepath.Join(dir, "set.json")
	if err := os.WriteFile(setFile, set, 0o600); err != nil {
		t.Fatal(err)
	}
	arrived, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		once.Do(func() { close(arrived) })
		<-release
		fmt.Fprint(w, "done")
	}))
	defer up.Close()
	g := startGuard(t, []string{"--upstream", up.URL, "--jwks", setFile, "--addr", "127.0.0.1:0",
		"--admin-addr", "127.0.0.1:0", "--any-aud"}, nil)
	base := "http://" + g.inst.addr
	if code, _ := get(t, "http://"+g.inst.adminAddr+"/readyz"); code != http.StatusOK {
		t.Fatalf("admin /readyz %d", code)
	}
	if code, _ := get(t, base+"/readyz"); code != http.StatusUnauthorized {
		t.Fatalf("main /readyz without a token: %d, want 401 (forwarded path)", code)
	}
	tok, err := jwt.Sign(key, map[string]any{"sub": "u1", "exp": time.Now().Add(time.Hour).Unix()})
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		code int
		body string
		err  error
	}
	done := make(chan result, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodGet, base+"/slow", nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			done <- result{err: err}
			return
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		done <- result{code: res.StatusCode, body: string(b)}
	}()
	<-arrived
	stopped := make(chan int, 1)
	go func() { stopped <- g.stop() }()
	// The shutdown has begun once the main listener refuses connections
	// (it is closed first); the request is still in flight. Waiting for
	// that, not for a fixed time, makes sure the request is released
	// during the shutdown and not before it.
	for deadline := time.Now().Add(30 * time.Second); ; {
		c, err := net.Dial("tcp", g.inst.addr)
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("the main listener still accepts 30 s after the stop")
		}
		time.Sleep(10 * time.Millisecond)
	}
	select {
	case code := <-stopped:
		t.Fatalf("the guard exited %d with a request in flight", code)
	default:
	}
	close(release)
	r := <-done
	if r.err != nil || r.code != http.StatusOK || r.body != "done" {
		t.Errorf("in-flight request: %d %q %v", r.code, r.body, r.err)
	}
	if code := <-stopped; code != exitOK {
		t.Errorf("exit %d:\n%s", code, g.stderr)
	}
}
