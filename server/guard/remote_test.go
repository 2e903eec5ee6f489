package guard

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/jwks"
)

// TestGuardRemoteKeys: the guard in front of a jwks.Remote: tokens verify
// with the fetched keys, the remote set's stats are exported, /readyz
// follows the set's readiness, and once the key server has failed for
// longer than MaxStale a new token gets 503 without a challenge.
func TestGuardRemoteKeys(t *testing.T) {
	key, err := signet.GenerateKeyWithID(signet.ES256, "k1")
	if err != nil {
		t.Fatal(err)
	}
	pub, err := key.Public()
	if err != nil {
		t.Fatal(err)
	}
	set, err := jwk.MarshalSet(pub)
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
	clk := newClock()
	remote, err := jwks.New(context.Background(), idp.URL, jwks.Options{
		Algorithms: []signet.Algorithm{signet.ES256},
		MaxStale:   time.Hour,
		Now:        clk.Now,
		// Generous bounds on the first fetch and each one (defaults 10 s
		// and 5 s): the test needs the set fetched when New returns.
		StartTimeout: 30 * time.Second,
		FetchTimeout: 30 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer remote.Close()

	up := newUpstream(t)
	g, err := New(Config{Upstream: up.url(t), Keys: remote, Issuer: testIssuer, Audience: []string{testAudience}, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, key: key, clock: clk, up: up, g: g}
	get := func(path string) int {
		w := httptest.NewRecorder()
		g.Handler().ServeHTTP(w, httptest.NewRequest(http.MethodGet, "http://guard.test"+path, nil))
		return w.Code
	}
	if code := get(PathReady); code != 200 {
		t.Fatalf("readyz %d with the set fetched", code)
	}
	cached := f.token(claims{})
	if w := f.do(withToken(cached), nil); w.Code != 200 {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	m := g.Metrics()
	if n := counter(t, m, "signet_jwks_fetches_total", "", ""); n < 1 {
		t.Errorf("fetches %v", n)
	}
	if n := counter(t, m, "signet_jwks_keys", "", ""); n != 1 {
		t.Errorf("keys %v, want 1", n)
	}
	if n := counter(t, m, "signet_jwks_ready", "", ""); n != 1 {
		t.Errorf("ready %v, want 1", n)
	}
	if n := counter(t, m, "signet_jwks_last_success_timestamp_seconds", "", ""); n != float64(t0.Unix()) {
		t.Errorf("last success %v, want %v", n, t0.Unix())
	}

	// The key server fails; within MaxStale the held set serves.
	failing.Store(true)
	if err := remote.Refresh(context.Background()); err == nil {
		t.Fatal("Refresh succeeded against a failing server")
	}
	fresh := f.token(claims{Scope: "other"})
	if w := f.do(withToken(fresh), nil); w.Code != 200 {
		t.Fatalf("within MaxStale: %d", w.Code)
	}
	clk.Set(t0.Add(time.Hour + time.Second))
	if code := get(PathReady); code != http.StatusServiceUnavailable {
		t.Errorf("readyz %d past MaxStale, want 503", code)
	}
	if n := counter(t, m, "signet_jwks_ready", "", ""); n != 0 {
		t.Errorf("ready %v past MaxStale, want 0", n)
	}
	if n := counter(t, m, "signet_jwks_fetch_errors_total", "", ""); n < 1 {
		t.Errorf("fetch errors %v", n)
	}
	newer := f.token(claims{Scope: "newer"})
	w := f.do(withToken(newer), nil)
	if w.Code != http.StatusServiceUnavailable {
		t.Errorf("new token past MaxStale: %d, want 503", w.Code)
	}
	if w.Header().Get("WWW-Authenticate") != "" {
		t.Error("a 503 with a Bearer challenge: the client would think its token bad")
	}
	if n := counter(t, m, "signet_guard_requests_total", "result", ResultUnavailable); n != 1 {
		t.Errorf("unavailable %v, want 1", n)
	}
}
