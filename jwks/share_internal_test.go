package jwks

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
)

// gatedServer serves set; while gate is open (a nil channel) requests
// pass, else each waits for gate to close.
func gatedServer(t *testing.T, set func() []byte, gate *atomic.Pointer[chan struct{}]) (*httptest.Server, *atomic.Int64) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if g := gate.Load(); g != nil {
			select {
			case <-*g:
			case <-r.Context().Done():
				return
			}
		}
		w.Write(set())
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// TestMissJoinsBackgroundFetch: a miss after the cooldown while a
// background fetch runs waits for that fetch instead of starting another,
// and the fetch counts as the cooldown's; Refresh shares it too.
func TestMissJoinsBackgroundFetch(t *testing.T) {
	a, _ := signet.GenerateKeyWithID(signet.ES256, "a")
	b, _ := signet.GenerateKeyWithID(signet.ES256, "b")
	var body atomic.Pointer[[]byte]
	first, _ := jwk.MarshalSet(a)
	body.Store(&first)
	var gate atomic.Pointer[chan struct{}]
	srv, hits := gatedServer(t, func() []byte { return *body.Load() }, &gate)
	// Generous timeouts: the test needs the first fetch ended when New
	// returns, and the held fetch must not time out before close(g).
	r, err := New(context.Background(), srv.URL, Options{Algorithms: []signet.Algorithm{signet.ES256}, StartTimeout: 30 * time.Second, FetchTimeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Ready() != nil || hits.Load() != 1 {
		t.Fatalf("not started: %v", r.Ready())
	}

	both, _ := jwk.MarshalSet(a, b)
	body.Store(&both)
	g := make(chan struct{})
	gate.Store(&g)
	r.mu.Lock()
	bg := r.startLocked(false) // what the background loop does when the set is due
	r.mu.Unlock()

	found := make(chan error, 2)
	go func() {
		_, err := r.Select("b", signet.ES256)
		found <- err
	}()
	go func() { found <- r.Refresh(context.Background()) }()
	waitForWaiters(r, 2) // both chose the fetch to wait for; it cannot end before close(g)
	close(g)
	for range 2 {
		if err := <-found; err != nil {
			t.Fatal(err)
		}
	}
	<-bg.done
	if hits.Load() != 2 {
		t.Fatalf("%d fetches, want 2: the miss and Refresh started their own", hits.Load())
	}
	if r.missFetches.Load() != 0 || !r.hasMiss {
		t.Fatalf("miss fetches %d, cooldown started %v", r.missFetches.Load(), r.hasMiss)
	}
	// The cooldown runs from that miss: the next one is answered at once.
	if _, err := r.Select("c", signet.ES256); err == nil || r.missCooldown.Load() != 1 || hits.Load() != 2 {
		t.Fatalf("miss in the cooldown: %v, %d fetches", err, hits.Load())
	}
}

// waitForWaiters returns once n callers wait for the fetch in flight.
func waitForWaiters(r *Remote, n int) {
	for Waiters(r) < n {
		time.Sleep(time.Millisecond)
	}
}

// TestNilRemote: a nil *Remote refuses, never panics.
func TestNilRemote(t *testing.T) {
	var r *Remote
	if _, err := r.Select("a", signet.ES256); err == nil {
		t.Fatal("nil Remote selected")
	}
	if err := r.Ready(); err == nil {
		t.Fatal("nil Remote ready")
	}
	if err := r.Refresh(context.Background()); err == nil {
		t.Fatal("nil Remote refreshed")
	}
	if st := r.Stats(); st.Ready || st.Keys != 0 {
		t.Fatalf("nil Remote stats %+v", st)
	}
	if r.Cached() != nil {
		t.Fatal("nil Remote has a cached set")
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestCheckURL: which URLs New accepts.
func TestCheckURL(t *testing.T) {
	for u, ok := range map[string]bool{
		"https://issuer.example/jwks":          true,
		"HTTPS://issuer.example/jwks":          true,
		"http://127.0.0.1:8080/jwks":           true,
		"http://127.9.9.9/jwks":                true,
		"http://[::1]:8080/jwks":               true,
		"http://LOCALHOST/jwks":                true,
		"http://issuer.example/jwks":           false,
		"http://10.0.0.1/jwks":                 false,
		"http://localhost.issuer.example/jwks": false,
		"http://127.0.0.1.issuer.example/jwks": false,
		"https:///jwks":                        false,
		"https:issuer.example/jwks":            false,
		"file:///etc/passwd":                   false,
		"https://u:p@issuer.example/jwks":      false,
		"javascript:alert(1)":                  false,
	} {
		if err := checkURL(u, false); (err == nil) != ok {
			t.Errorf("%s: %v", u, err)
		}
	}
	if err := checkURL("http://issuer.example/jwks", true); err != nil {
		t.Errorf("AllowHTTP: %v", err)
	}
	if err := checkURL("ftp://issuer.example/jwks", true); err == nil {
		t.Error("AllowHTTP let ftp through")
	}
}
