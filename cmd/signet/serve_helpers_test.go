package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/jwt"
)

// syncBuffer is a bytes.Buffer safe for the service's goroutines and the
// test reading it at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// running is a serve call running in this process.
type running struct {
	t              *testing.T
	inst           *instance
	stdout, stderr *syncBuffer
	cancel         context.CancelFunc
	done           chan int // the exit code, once serve returned
	code           int
	stopped        bool
}

// testRedisTimeout bounds each Redis operation of the services tests
// start: generous, so that a working Redis on a loaded machine (-race,
// parallel packages) is never taken for an outage. Under the production
// default of 250 ms one slow operation of the key loop made the instance
// refuse tokens until its next reload.
const testRedisTimeout = 10 * time.Second

// startServe runs serve with args (and env as its environment) until the
// test ends or stop is called, and waits until it listens. A --redis store
// bounds its operations by testRedisTimeout.
func startServe(t *testing.T, args []string, env map[string]string) *running {
	t.Helper()
	return startServeTimeout(t, args, env, testRedisTimeout)
}

// startServeTimeout is startServe with Redis operations bounded by
// redisTimeout (0: the production default, for the tests of outages).
func startServeTimeout(t *testing.T, args []string, env map[string]string, redisTimeout time.Duration) *running {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{t: t, stdout: &syncBuffer{}, stderr: &syncBuffer{}, cancel: cancel, done: make(chan int, 1)}
	ready := make(chan *instance, 1)
	hooks := serveHooks{ready: func(i *instance) { ready <- i }, getenv: func(k string) string { return env[k] }, redisTimeout: redisTimeout}
	go func() { r.done <- serve(ctx, args, r.stdout, r.stderr, hooks) }()
	t.Cleanup(func() { r.stop() })
	select {
	case r.inst = <-ready:
		return r
	case code := <-r.done:
		r.stopped, r.code = true, code
		t.Fatalf("serve %v exited with %d before listening:\n%s", args, code, r.stderr)
	case <-time.After(30 * time.Second):
		t.Fatalf("serve %v did not listen within 30 s:\n%s", args, r.stderr)
	}
	return nil
}

// stop cancels serve's context and returns its exit code.
func (r *running) stop() int {
	if !r.stopped {
		r.cancel()
		select {
		case r.code = <-r.done:
		case <-time.After(30 * time.Second):
			r.t.Errorf("serve did not stop within 30 s:\n%s", r.stderr)
		}
		r.stopped = true
	}
	return r.code
}

// url is the URL of path at the main listener.
func (r *running) url(path string) string { return "http://" + r.inst.addr + path }

// post sends form to path, with HTTP Basic client authentication when id
// is set, and returns the status and the JSON answer.
func post(t *testing.T, target string, form url.Values, id, secret string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, target, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if id != "" {
		req.SetBasicAuth(url.QueryEscape(id), url.QueryEscape(secret))
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	var m map[string]any
	if len(body) > 0 {
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatalf("POST %s: %d %q", target, res.StatusCode, body)
		}
	}
	return res.StatusCode, m
}

// get returns the status and body of GET target.
func get(t *testing.T, target string) (int, []byte) {
	t.Helper()
	res, err := http.Get(target)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, body
}

var grant = url.Values{"grant_type": {"client_credentials"}}

// token gets a token for id at r, failing the test otherwise.
func (r *running) token(id, secret string) string {
	r.t.Helper()
	code, m := post(r.t, r.url("/oauth2/token"), grant, id, secret)
	tok, _ := m["access_token"].(string)
	if code != http.StatusOK || tok == "" {
		r.t.Fatalf("token for %s: %d %v", id, code, m)
	}
	return tok
}

// jwks returns the published key set and its key IDs, in order.
func (r *running) jwks() ([]byte, []string) {
	r.t.Helper()
	code, body := get(r.t, r.url("/.well-known/jwks.json"))
	if code != http.StatusOK {
		r.t.Fatalf("jwks: %d %s", code, body)
	}
	var set struct {
		Keys []struct {
			Kid string `json:"kid"`
		} `json:"keys"`
	}
	if err := json.Unmarshal(body, &set); err != nil {
		r.t.Fatal(err)
	}
	var kids []string
	for _, k := range set.Keys {
		kids = append(kids, k.Kid)
	}
	return body, kids
}

// accessClaims are the claims of an RFC 9068 access token.
type accessClaims struct {
	jwt.Claims
	ClientID string `json:"client_id"`
	Scope    string `json:"scope"`
}

// verifyFromJWKS verifies tok as a resource server does: with the JWKS
// r publishes, typ at+jwt, r's issuer and the audience aud.
func (r *running) verifyFromJWKS(tok, aud string) accessClaims {
	r.t.Helper()
	body, _ := r.jwks()
	set, err := jwk.ParseSet(body)
	if err != nil {
		r.t.Fatalf("jwk.ParseSet: %v", err)
	}
	c, err := jwt.Verify[accessClaims](set, tok, jwt.Policy{Type: "at+jwt", Issuer: r.inst.issuer, Audience: []string{aud}})
	if err != nil {
		r.t.Fatalf("the token does not verify from the JWKS: %v", err)
	}
	return c
}

// introspect returns whether tok is active at r, asked by id.
func (r *running) introspect(tok, id, secret string) bool {
	r.t.Helper()
	code, m := post(r.t, r.url("/oauth2/introspect"), url.Values{"token": {tok}}, id, secret)
	if code != http.StatusOK {
		r.t.Fatalf("introspect: %d %v", code, m)
	}
	return m["active"] == true
}

// The registered test clients, their secrets (≥ 128 bits) and audience.
const (
	testAudience = "https://api.example.com"
	secretA      = "sA-0123456789abcdefghijklmnopqrstuvwxyzABCD"
	secretB      = "sB-0123456789abcdefghijklmnopqrstuvwxyzABCD"
)

// writeClients writes a clients file registering the clients ids (with
// secrets secrets) in dir and returns its path.
func writeClients(t *testing.T, path string, ids, secrets []string) string {
	t.Helper()
	var list []map[string]any
	for i, id := range ids {
		sum := sha256.Sum256([]byte(secrets[i]))
		list = append(list, map[string]any{"client_id": id, "client_secret_sha256": hex.EncodeToString(sum[:]),
			"scope": "read write", "audience": []string{testAudience}})
	}
	b, err := json.Marshal(map[string]any{"clients": list})
	if err != nil {
		t.Fatal(err)
	}
	if path == "" {
		path = filepath.Join(t.TempDir(), "clients.json")
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
