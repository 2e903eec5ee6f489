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

// TestCacheFollowsRemoteKeys: a cached token is served only while the
// key source still vouches for it. Once the key server withdraws the key
// that signed it, the next request verifies it again and is refused (it
// was forwarded for up to CacheMaxAge before); once the source is
// unavailable (past MaxStale), a cached token gets the 503 every other
// token gets, as /readyz says, not a 200.
func TestCacheFollowsRemoteKeys(t *testing.T) {
	k1, err := signet.GenerateKeyWithID(signet.ES256, "k1")
	if err != nil {
		t.Fatal(err)
	}
	k2, err := signet.GenerateKeyWithID(signet.ES256, "k2")
	if err != nil {
		t.Fatal(err)
	}
	setOf := func(k *signet.Key) []byte {
		pub, err := k.Public()
		if err != nil {
			t.Fatal(err)
		}
		b, err := jwk.MarshalSet(pub)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var doc atomic.Pointer[[]byte]
	first := setOf(k1)
	doc.Store(&first)
	var failing atomic.Bool
	idp := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if failing.Load() {
			http.Error(w, "down", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/jwk-set+json")
		w.Write(*doc.Load())
	}))
	defer idp.Close()
	clk := newClock()
	remote, err := jwks.New(context.Background(), idp.URL, jwks.Options{
		Algorithms: []signet.Algorithm{signet.ES256},
		MaxStale:   time.Minute, // shorter than CacheMaxAge: the entry is still young past it
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
	f := &fixture{t: t, key: k1, clock: clk, up: up, g: g}

	// Withdrawn key: the cached token is verified again, and refused.
	old := f.tokenWith(k1, claims{})
	if w := f.do(withToken(old), nil); w.Code != http.StatusOK {
		t.Fatalf("k1 token: %d", w.Code)
	}
	if w := f.do(withToken(old), nil); w.Code != http.StatusOK {
		t.Fatalf("k1 token again (cached): %d", w.Code)
	}
	second := setOf(k2)
	doc.Store(&second)
	if err := remote.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if w := f.do(withToken(old), nil); w.Code != http.StatusUnauthorized {
		t.Errorf("cached token of a withdrawn key: %d, want 401", w.Code)
	}

	// Outage past MaxStale: a cached token gets 503 too.
	cur := f.tokenWith(k2, claims{})
	if w := f.do(withToken(cur), nil); w.Code != http.StatusOK {
		t.Fatalf("k2 token: %d", w.Code)
	}
	failing.Store(true)
	if err := remote.Refresh(context.Background()); err == nil {
		t.Fatal("Refresh succeeded against a failing server")
	}
	if w := f.do(withToken(cur), nil); w.Code != http.StatusOK {
		t.Fatalf("cached token within MaxStale: %d", w.Code)
	}
	clk.Set(t0.Add(time.Minute + time.Second))
	w := f.do(withToken(cur), nil)
	if w.Code != http.StatusServiceUnavailable {
		t.Errorf("cached token past MaxStale: %d, want 503", w.Code)
	}
	if w.Header().Get("WWW-Authenticate") != "" {
		t.Error("a 503 with a Bearer challenge")
	}
}
