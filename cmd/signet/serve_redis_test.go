package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet/server/keys"
)

// startRedis starts a redis-server of the test's own on a free loopback
// port, without persistence, killed when the test ends, and returns its
// URL. A test that needs Redis and cannot start it fails: the project's
// scripts/install-redis.sh (make server-deps) installs it.
func startRedis(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatalf("redis-server not found (run scripts/install-redis.sh or make server-deps): %v", err)
	}
	dir := t.TempDir()
	// The free port found may be taken by someone else before Redis binds
	// it: then another.
	for attempt := 1; ; attempt++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
		l.Close()
		var out bytes.Buffer
		cmd := exec.Command(bin, "--bind", "127.0.0.1", "--port", port, "--dir", dir,
			"--save", "", "--appendonly", "no", "--daemonize", "no", "--protected-mode", "yes")
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatalf("starting redis-server: %v", err)
		}
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		stop := func() { cmd.Process.Kill(); <-done }
		err = waitRedis(addr, done)
		if err == nil {
			t.Cleanup(stop)
			return "redis://" + addr + "/0"
		}
		stop()
		if attempt == 3 {
			t.Fatalf("starting redis-server: %v\n%s", err, out.String())
		}
	}
}

// waitRedis waits (up to 30 s) until the Redis at addr answers PING, or
// its process exited.
func waitRedis(addr string, exited <-chan struct{}) error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.SetDeadline(time.Now().Add(time.Second))
			fmt.Fprint(c, "PING\r\n")
			line, _ := bufio.NewReader(c).ReadString('\n')
			c.Close()
			if strings.HasPrefix(line, "+PONG") {
				return nil
			}
		}
		select {
		case <-exited:
			return fmt.Errorf("redis-server on %s exited", addr)
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("redis-server on %s did not answer within 30 s", addr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestServeRedisTwoInstances: two instances on one Redis with one KEK
// (SIGNET_KEK) publish the same JWKS; a token from one verifies from the
// other's JWKS and introspects active there; revoked at one, it is
// inactive at the other at once.
func TestServeRedisTwoInstances(t *testing.T) {
	redisURL := startRedis(t)
	kek, err := keys.GenerateKEK()
	if err != nil {
		t.Fatal(err)
	}
	text, err := keys.FormatKEK(kek)
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"SIGNET_KEK": text}
	clients := writeClients(t, "", []string{"svc-a", "svc-b"}, []string{secretA, secretB})
	args := []string{"--clients", clients, "--redis", redisURL, "--addr", "127.0.0.1:0", "--issuer", "https://auth.example.com"}
	a := startServe(t, args, env)
	b := startServe(t, args, env)
	for _, r := range []*running{a, b} {
		if code, body := get(t, r.url("/readyz")); code != http.StatusOK {
			t.Fatalf("/readyz: %d %s", code, body)
		}
	}
	jwksA, kidsA := a.jwks()
	jwksB, kidsB := b.jwks()
	if !bytes.Equal(jwksA, jwksB) || len(kidsA) != 2 || strings.Join(kidsA, " ") != strings.Join(kidsB, " ") {
		t.Fatalf("the instances publish different key sets:\n%s\n%s", jwksA, jwksB)
	}

	tok := a.token("svc-a", secretA)
	b.verifyFromJWKS(tok, testAudience)
	if !b.introspect(tok, "svc-b", secretB) {
		t.Fatal("a token from instance a is inactive at instance b")
	}
	tokB := b.token("svc-a", secretA)
	a.verifyFromJWKS(tokB, testAudience)
	if code, m := post(t, a.url("/oauth2/revoke"), url.Values{"token": {tok}}, "svc-a", secretA); code != http.StatusOK {
		t.Fatalf("revoke at a: %d %v", code, m)
	}
	if b.introspect(tok, "svc-b", secretB) {
		t.Fatal("a token revoked at instance a is active at instance b")
	}
	if !b.introspect(tokB, "svc-b", secretB) {
		t.Fatal("revoking one token made another inactive")
	}
	for _, r := range []*running{a, b} {
		if code := r.stop(); code != exitOK {
			t.Fatalf("exit %d:\n%s", code, r.stderr)
		}
		if logs := r.stderr.String(); strings.Contains(logs, text) || !strings.Contains(logs, `"storage":"redis"`) {
			t.Fatalf("logs:\n%s", logs)
		}
	}
}

// TestServeRedisDownAtStart: a Redis that does not answer at start is
// retried (logged, nothing served) until it answers or the context ends;
// then serve exits 0.
func TestServeRedisDownAtStart(t *testing.T) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatalf("redis-server not found (run scripts/install-redis.sh or make server-deps): %v", err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close() // nothing listens there now
	clients := writeClients(t, "", []string{"svc-a"}, []string{secretA})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr syncBuffer
	done := make(chan int, 1)
	ready := make(chan *instance, 1)
	go func() {
		done <- serve(ctx, []string{"--clients", clients, "--redis", "redis://" + addr + "/0", "--addr", "127.0.0.1:0"}, &stdout, &stderr,
			serveHooks{getenv: func(string) string { return "k4.local.AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8" },
				ready: func(in *instance) { ready <- in }, redisTimeout: testRedisTimeout})
	}()
	var in *instance
	select {
	case in = <-ready:
	case code := <-done:
		t.Fatalf("serve exited %d without listening:\n%s", code, stderr.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("serve did not listen with Redis down:\n%s", stderr.String())
	}
	base := "http://" + in.addr
	// Redis down: not ready, and no token (503), never a 200.
	if code, _ := get(t, base+"/readyz"); code != http.StatusServiceUnavailable {
		t.Fatalf("/readyz with Redis down: %d, want 503", code)
	}
	if code, body := post(t, base+"/oauth2/token", url.Values{"grant_type": {"client_credentials"}}, "svc-a", secretA); code != http.StatusServiceUnavailable {
		t.Fatalf("token with Redis down: %d %s, want 503", code, body)
	}
	// Redis comes up on that port: the service becomes ready by itself.
	cmd := exec.Command(bin, "--bind", "127.0.0.1", "--port", port, "--dir", t.TempDir(),
		"--save", "", "--appendonly", "no", "--daemonize", "no", "--protected-mode", "yes")
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting redis-server: %v", err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	defer func() { cmd.Process.Kill(); <-exited }()
	if err := waitRedis(addr, exited); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); ; {
		if code, _ := get(t, base+"/readyz"); code == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not ready after Redis came up:\n%s", stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if code, body := post(t, base+"/oauth2/token", url.Values{"grant_type": {"client_credentials"}}, "svc-a", secretA); code != http.StatusOK {
		t.Fatalf("token after Redis came up: %d %s", code, body)
	}
	cancel()
	if code := <-done; code != exitOK {
		t.Fatalf("exit %d:\n%s", code, stderr.String())
	}
	if strings.Contains(stderr.String(), "k4.local.") {
		t.Fatal("the KEK was logged")
	}
}

// TestServeRedisPassword: a Redis password in --redis is on the command
// line, which every local user sees (ps, /proc/PID/cmdline). serve takes
// it from SIGNET_REDIS_PASSWORD instead, and warns (in its log, never
// quoting it) when --redis holds one; both at once is a usage error.
func TestServeRedisPassword(t *testing.T) {
	const password = "redis-pw-0123456789abcdef"
	redisURL := startRedis(t)
	u, err := url.Parse(redisURL)
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.DialTimeout("tcp", u.Host, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	c.SetDeadline(time.Now().Add(5 * time.Second))
	fmt.Fprintf(c, "CONFIG SET requirepass %s\r\n", password)
	line, _ := bufio.NewReader(c).ReadString('\n')
	c.Close()
	if !strings.HasPrefix(line, "+OK") {
		t.Fatalf("CONFIG SET requirepass: %q", line)
	}
	withPassword := "redis://:" + password + "@" + u.Host + u.Path
	clients := writeClients(t, "", []string{"svc-a"}, []string{secretA})
	kek := newKEKText(t)
	args := func(redis string) []string {
		return []string{"--clients", clients, "--redis", redis, "--addr", "127.0.0.1:0"}
	}

	// From the environment: the password is used, and nothing is said.
	r := startServe(t, args(redisURL), map[string]string{"SIGNET_KEK": kek, "SIGNET_REDIS_PASSWORD": password})
	r.token("svc-a", secretA)
	if r.stop(); strings.Contains(r.stderr.String(), "SIGNET_REDIS_PASSWORD") || strings.Contains(r.stderr.String(), password) {
		t.Errorf("with SIGNET_REDIS_PASSWORD: %s", r.stderr)
	}

	// On the command line: it still works, with a warning.
	r = startServe(t, args(withPassword), map[string]string{"SIGNET_KEK": kek})
	r.token("svc-a", secretA)
	r.stop()
	if !strings.Contains(r.stderr.String(), "SIGNET_REDIS_PASSWORD") || strings.Contains(r.stderr.String(), password) {
		t.Errorf("a password in --redis: no warning, or the password logged:\n%s", r.stderr)
	}

	// Both: a usage error that does not quote the password.
	var stdout, stderr syncBuffer
	code := serve(context.Background(), args(withPassword), &stdout, &stderr,
		serveHooks{getenv: func(k string) string {
			return map[string]string{"SIGNET_KEK": kek, "SIGNET_REDIS_PASSWORD": "other"}[k]
		}, ready: func(*instance) { t.Error("started with two passwords") }})
	if code != exitUsage || !strings.Contains(stderr.String(), "SIGNET_REDIS_PASSWORD") || strings.Contains(stderr.String(), password) {
		t.Errorf("two passwords: exit %d, stderr %q", code, stderr.String())
	}
}
