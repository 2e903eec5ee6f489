package main

import (
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/jwks"
	"github.com/signet-go/signet/jwt"
)

// TestGuardJWKSMaxStale: with --jwks-max-stale 1s, a key server that
// fails keeps the guard serving its last key set for a second, then
// every request is 503 (never 401, never 200) and /readyz fails; once the
// key server answers again, the guard forwards again by itself.
func TestGuardJWKSMaxStale(t *testing.T) {
	key, err := signet.GenerateKeyWithID(signet.ES256, "k1")
	if err != nil {
		t.Fatal(err)
	}
	set, err := jwk.MarshalSet(key)
	if err != nil {
		t.Fatal(err)
	}
	var failing atomic.Bool
	idp := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if failing.Load() {
			http.Error(w, "down", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/jwk-set+json")
		w.Write(set)
	}))
	defer idp.Close()
	tok, err := jwt.Sign(key, struct {
		jwt.Claims
		ClientID string `json:"client_id"`
	}{jwt.Claims{Subject: "s"}, "c1"}, jwt.Options{Lifetime: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	up := helloUpstream(t)
	g := startGuard(t, []string{"--upstream", up.URL, "--jwks-url", idp.URL, "--alg", "ES256",
		"--addr", "127.0.0.1:0", "--admin-addr", "127.0.0.1:0", "--any-aud", "--cache", "0",
		"--jwks-max-stale", "1s"}, func(o *jwks.Options) {
		// Refetch every 100 ms (the key server sends no max-age), so that
		// failures start at once.
		o.MinRefresh, o.DefaultRefresh = 100*time.Millisecond, 100*time.Millisecond
		// Generous bounds on the first fetch and each one (defaults 10 s
		// and 5 s): the first request needs the set fetched.
		o.StartTimeout, o.FetchTimeout = 30*time.Second, 30*time.Second
	})
	front, admin := "http://"+g.inst.addr+"/hello", "http://"+g.inst.adminAddr+"/readyz"
	call := func() int {
		req, _ := http.NewRequest(http.MethodGet, front, nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	// waitFor polls until the guard answers want. Its bound is generous:
	// recovery waits for the Remote's next retry, whose backoff doubles
	// (1 s, 2 s, 4 s, …) with each failure, so the longer a loaded machine
	// took to see the 503s, the later the retry comes.
	waitFor := func(want int) time.Duration {
		t.Helper()
		start := time.Now()
		for time.Since(start) < 60*time.Second {
			switch code := call(); code {
			case want:
				return time.Since(start)
			case http.StatusOK, http.StatusServiceUnavailable:
			default:
				t.Fatalf("status %d while waiting for %d (never 401 or another code here)", code, want)
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("no %d within 60 s:\n%s", want, g.stderr)
		return 0
	}
	if code := call(); code != http.StatusOK {
		t.Fatalf("with the key server up: %d", code)
	}
	failing.Store(true)
	t.Logf("503 after %v of key-server failures (bound 1 s)", waitFor(http.StatusServiceUnavailable))
	if code, _ := get(t, admin); code != http.StatusServiceUnavailable {
		t.Fatalf("/readyz %d while the key set is past its stale bound", code)
	}
	failing.Store(false)
	t.Logf("200 again %v after the key server's return", waitFor(http.StatusOK))
	if code, _ := get(t, admin); code != http.StatusOK {
		t.Fatalf("/readyz %d after recovery", code)
	}
}
