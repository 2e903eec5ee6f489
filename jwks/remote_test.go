package jwks_test

import (
	"context"
	"errors"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwks"
	"github.com/signet-go/signet/jwt"
)

// mustSelect fails unless r has the key kid for alg.
func mustSelect(t testing.TB, r *jwks.Remote, kid string, alg signet.Algorithm) *signet.Key {
	t.Helper()
	c, err := r.Select(kid, alg)
	if err != nil {
		t.Fatalf("Select(%q, %s): %v", kid, alg, err)
	}
	if c.Len() != 1 || c.At(0).KeyID() != kid {
		t.Fatalf("Select(%q): %d candidates", kid, c.Len())
	}
	return c.At(0)
}

func TestNewConfig(t *testing.T) {
	algs := []signet.Algorithm{signet.ES256}
	tests := []struct {
		name string
		url  string
		opts jwks.Options
		want error
	}{
		{"plain http to a public host", "http://issuer.example/jwks", jwks.Options{Algorithms: algs}, signet.ErrUnsupported},
		{"ftp", "ftp://issuer.example/jwks", jwks.Options{Algorithms: algs}, signet.ErrUnsupported},
		{"no scheme", "issuer.example/jwks", jwks.Options{Algorithms: algs}, signet.ErrMalformed},
		{"unparsable", "https://[::1/jwks", jwks.Options{Algorithms: algs}, signet.ErrMalformed},
		{"credentials in the URL", "https://user:pw@issuer.example/jwks", jwks.Options{Algorithms: algs}, signet.ErrUnsupported},
		{"no algorithms", "https://issuer.example/jwks", jwks.Options{}, signet.ErrUnsupported},
		{"HMAC algorithm", "https://issuer.example/jwks", jwks.Options{Algorithms: []signet.Algorithm{signet.HS256}}, signet.ErrUnsupported},
		{"unknown algorithm", "https://issuer.example/jwks", jwks.Options{Algorithms: []signet.Algorithm{"none"}}, signet.ErrUnsupported},
		{"negative timeout", "https://issuer.example/jwks", jwks.Options{Algorithms: algs, FetchTimeout: -1}, signet.ErrUnsupported},
		{"min above max", "https://issuer.example/jwks", jwks.Options{Algorithms: algs, MinRefresh: time.Hour, MaxRefresh: time.Minute}, signet.ErrUnsupported},
		{"body cap above the set limit", "https://issuer.example/jwks", jwks.Options{Algorithms: algs, MaxSize: 2 << 20}, signet.ErrUnsupported},
		{"negative kid bound", "https://issuer.example/jwks", jwks.Options{Algorithms: algs, MaxKeyID: -1}, signet.ErrUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := jwks.New(context.Background(), tt.url, tt.opts)
			if !errors.Is(err, tt.want) || r != nil {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
		})
	}
	// Loopback http is allowed without AllowHTTP (tests, sidecars).
	srv := newKeyServer(t, genKey(t, signet.ES256, "a"))
	for _, u := range []string{srv.url(), strings.Replace(srv.url(), "127.0.0.1", "localhost", 1)} {
		r := start(t, u, jwks.Options{})
		if err := r.Ready(); err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		r.Close()
	}
}

// TestFetchRequest: what goes over the wire, and that only the configured
// URL is asked.
func TestFetchRequest(t *testing.T) {
	a := genKey(t, signet.ES256, "a")
	srv := newKeyServer(t, a)
	r := start(t, srv.url()+"?tenant=x", jwks.Options{})
	mustSelect(t, r, "a", signet.ES256)
	b := genKey(t, signet.ES256, "b")
	srv.setKeys(t, a, b)
	mustSelect(t, r, "b", signet.ES256) // a kid miss: one fetch
	if err := r.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	reqs := srv.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	for i, h := range reqs {
		if h.Get("Accept") != "application/jwk-set+json, application/json" {
			t.Errorf("request %d: Accept %q", i, h.Get("Accept"))
		}
		if !strings.HasPrefix(h.Get("User-Agent"), "signet") {
			t.Errorf("request %d: User-Agent %q", i, h.Get("User-Agent"))
		}
		if srv.paths[i] != "/jwks?tenant=x" {
			t.Errorf("request %d: path %q", i, srv.paths[i])
		}
	}
	if reqs[0].Get("Cache-Control") != "" || reqs[0].Get("If-None-Match") != "" {
		t.Errorf("first fetch: Cache-Control %q, If-None-Match %q", reqs[0].Get("Cache-Control"), reqs[0].Get("If-None-Match"))
	}
	if reqs[1].Get("Cache-Control") != "no-cache" || reqs[1].Get("If-None-Match") == "" {
		t.Errorf("miss fetch: Cache-Control %q, If-None-Match %q", reqs[1].Get("Cache-Control"), reqs[1].Get("If-None-Match"))
	}
	if reqs[2].Get("Cache-Control") != "no-cache" {
		t.Errorf("Refresh: Cache-Control %q", reqs[2].Get("Cache-Control"))
	}
	st := r.Stats()
	if st.Fetches != 3 || st.NotModified != 1 || st.MissFetches != 1 || st.KidMisses != 1 || st.Keys != 2 || !st.Ready {
		t.Fatalf("stats %+v", st)
	}
}

// TestRotation: a key published later is found on its first use, and a
// key withdrawn stops verifying once the set is fetched again.
func TestRotation(t *testing.T) {
	old := genKey(t, signet.ES256, "2030-05")
	srv := newKeyServer(t, old)
	r := start(t, srv.url(), jwks.Options{})
	tok, err := jwt.Sign(old, jwt.Claims{Subject: "x", ExpiresAt: jwt.At(time.Now().Add(time.Hour))})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := jwt.Verify[jwt.Claims](r, tok, jwt.Policy{}); err != nil {
		t.Fatal(err)
	}
	next := genKey(t, signet.EdDSA, "2030-06")
	srv.setKeys(t, old, next)
	tok2, err := jwt.Sign(next, jwt.Claims{Subject: "y", ExpiresAt: jwt.At(time.Now().Add(time.Hour))})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := jwt.Verify[jwt.Claims](r, tok2, jwt.Policy{}); err != nil {
		t.Fatalf("new key after rotation: %v", err)
	}
	srv.setKeys(t, next)
	if err := r.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := jwt.Verify[jwt.Claims](r, tok, jwt.Policy{}); !errors.Is(err, signet.ErrKeyNotFound) {
		t.Fatalf("withdrawn key: %v", err)
	}
}

// TestETag: 304 keeps the set and counts; a new ETag brings a new set; a
// 304 to a request that sent no ETag is refused.
func TestETag(t *testing.T) {
	a := genKey(t, signet.ES256, "a")
	srv := newKeyServer(t, a)
	r := start(t, srv.url(), jwks.Options{})
	for range 3 {
		if err := r.Refresh(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if st := r.Stats(); st.NotModified != 3 || st.Keys != 1 {
		t.Fatalf("stats %+v", st)
	}
	b := genKey(t, signet.ES256, "b")
	srv.setKeys(t, b) // new ETag
	if err := r.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	mustSelect(t, r, "b", signet.ES256)
	if st := r.Stats(); st.NotModified != 3 || st.Keys != 1 {
		t.Fatalf("stats %+v", st)
	}

	other := newKeyServer(t, a)
	other.setMode(bare304)
	r2 := start(t, other.url(), jwks.Options{})
	if err := r2.Ready(); !errors.Is(err, signet.ErrUnavailable) {
		t.Fatalf("unconditional 304 taken: %v", err)
	}
}

// TestServerFailures: 500s, timeouts, redirects and oversized bodies fail
// the fetch, and the set held keeps serving.
func TestServerFailures(t *testing.T) {
	a := genKey(t, signet.ES256, "a")
	srv := newKeyServer(t, a)
	// A fake clock that never moves: a failed fetch schedules a retry
	// about 1 s later by the Remote's clock, which then never comes due.
	// On the wall clock that retry could run in another case's mode (a
	// fetch of r hanging through the timeout cases, which the redirect
	// case would then share) or land between a case's Refresh and its
	// stats check (two failed fetches counted for one).
	clk := newClock()
	r := start(t, srv.url(), jwks.Options{Now: clk.Now})
	// The timeout cases use a short FetchTimeout; the others the default,
	// so that a loaded machine cannot turn them into timeouts.
	short := start(t, srv.url(), jwks.Options{Now: clk.Now, FetchTimeout: 300 * time.Millisecond})
	tests := []struct {
		name string
		mode mode
		r    *jwks.Remote
		want []error
	}{
		{"500", fail500, r, []error{signet.ErrUnavailable}},
		{"slower than the timeout", hang, short, []error{signet.ErrUnavailable, context.DeadlineExceeded}},
		{"body slower than the timeout", slowBody, short, []error{signet.ErrUnavailable, context.DeadlineExceeded}},
		{"redirect", redirect, r, []error{signet.ErrUnavailable}},
		{"10 MiB, chunked", huge, r, []error{signet.ErrUnavailable, signet.ErrTooLarge}},
		{"10 MiB, with Content-Length", hugeLen, r, []error{signet.ErrUnavailable, signet.ErrTooLarge}},
		{"10 MiB, gzipped to 10 KiB", gzipBomb, r, []error{signet.ErrUnavailable, signet.ErrTooLarge}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv.setMode(tt.mode)
			before := tt.r.Stats()
			err := tt.r.Refresh(context.Background())
			for _, w := range tt.want {
				if !errors.Is(err, w) {
					t.Fatalf("err = %v, want %v", err, w)
				}
			}
			mustSelect(t, tt.r, "a", signet.ES256)
			if err := tt.r.Ready(); err != nil {
				t.Fatalf("Ready after one failure: %v", err)
			}
			if st := tt.r.Stats(); st.FetchErrors != before.FetchErrors+1 || st.Keys != 1 {
				t.Fatalf("stats %+v", st)
			}
		})
	}
	if srv.moved.Load() != 0 {
		t.Fatal("a redirect was followed")
	}
	srv.setMode(serve)
	if err := r.Refresh(context.Background()); err != nil {
		t.Fatalf("recovery: %v", err)
	}
}

// TestRedirectCustomClient: a caller's client that follows redirects is
// copied, and the copy does not.
func TestRedirectCustomClient(t *testing.T) {
	srv := newKeyServer(t, genKey(t, signet.ES256, "a"))
	srv.setMode(redirect)
	followed := 0
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { followed++; return nil }}
	r := start(t, srv.url(), jwks.Options{Client: client})
	if err := r.Ready(); !errors.Is(err, signet.ErrUnavailable) {
		t.Fatalf("Ready: %v", err)
	}
	if followed != 0 || srv.moved.Load() != 0 || client.CheckRedirect == nil {
		t.Fatal("redirect followed, or the caller's client changed")
	}
}

// TestMixedSet: keys the Remote cannot use are skipped and counted, the
// rest serve; a set with none usable fails the fetch and keeps the old set.
func TestMixedSet(t *testing.T) {
	ec := genKey(t, signet.ES256, "ec")
	srv := newKeyServer(t, ec)
	// A fake clock that never moves: the retry a failed fetch schedules
	// (about 1 s later by the Remote's clock) never runs, so a Refresh
	// below never shares a retry of the previous body.
	clk := newClock()
	r := start(t, srv.url(), jwks.Options{Algorithms: []signet.Algorithm{signet.ES256, signet.RS256}, Now: clk.Now})
	pub, err := jwkPublic(ec)
	if err != nil {
		t.Fatal(err)
	}
	rsa := genKey(t, signet.RS256, "rsa")
	rsaPub, err := jwkPublic(rsa)
	if err != nil {
		t.Fatal(err)
	}
	noAlg := strings.Replace(rsaPub, `"alg":"RS256",`, ``, 1)
	noAlg = strings.Replace(noAlg, `"kid":"rsa"`, `"kid":"rsa-no-alg"`, 1)
	srv.setBody([]byte(`{"keys":[` + strings.Join([]string{
		`{"kty":"OKP","crv":"Ed448","kid":"ed448","x":"AAAA"}`,
		`{"kty":"RSA","kid":"enc","use":"enc","alg":"RSA-OAEP","n":"AQAB","e":"AQAB"}`,
		`{"kty":"oct","kid":"mac","alg":"HS256","k":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}`,
		`{"kty":"EC","kid":"broken","alg":"ES256","crv":"P-256","x":"AAAA","y":"AAAA"}`,
		`{"kty":"AKP","kid":"pq","alg":"ML-DSA-44","pub":"AAAA"}`,
		pub, noAlg,
	}, ",") + `]}`))
	if err := r.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	mustSelect(t, r, "ec", signet.ES256)
	if k := mustSelect(t, r, "rsa-no-alg", signet.RS256); k.Algorithm() != signet.RS256 {
		t.Fatal("key without alg not bound to RS256")
	}
	if st := r.Stats(); st.SkippedKeys != 5 || st.Keys != 2 {
		t.Fatalf("stats %+v", st)
	}

	// Nothing usable: the fetch fails, the last good set stays.
	srv.setBody([]byte(`{"keys":[{"kty":"oct","k":"AAAA"},` + strings.Replace(noAlg, `"kty":"RSA"`, `"kty":"RSA","use":"enc"`, 1) + `]}`))
	if err := r.Refresh(context.Background()); !errors.Is(err, signet.ErrUnavailable) {
		t.Fatalf("empty usable set: %v", err)
	}
	mustSelect(t, r, "ec", signet.ES256)
	// Not JSON at all: the same.
	srv.setBody([]byte(`<html>maintenance</html>`))
	if err := r.Refresh(context.Background()); !errors.Is(err, signet.ErrMalformed) {
		t.Fatalf("HTML: %v", err)
	}
	mustSelect(t, r, "ec", signet.ES256)
}

// TestNoAlgAmbiguous: with two RSA algorithms allowed, an RSA key without
// "alg" is not guessed at.
func TestNoAlgAmbiguous(t *testing.T) {
	rsa := genKey(t, signet.RS256, "rsa")
	pub, err := jwkPublic(rsa)
	if err != nil {
		t.Fatal(err)
	}
	srv := newKeyServer(t)
	srv.setBody([]byte(`{"keys":[` + strings.Replace(pub, `"alg":"RS256",`, ``, 1) + `]}`))
	r := start(t, srv.url(), jwks.Options{Algorithms: []signet.Algorithm{signet.RS256, signet.PS256}})
	if err := r.Ready(); !errors.Is(err, signet.ErrUnavailable) {
		t.Fatalf("Ready: %v", err)
	}
	if _, err := r.Select("rsa", signet.PS256); !errors.Is(err, signet.ErrUnavailable) {
		t.Fatalf("Select: %v", err)
	}
	if st := r.Stats(); st.SkippedKeys != 1 || st.Keys != 0 || st.Ready {
		t.Fatalf("stats %+v", st)
	}
}

// TestOutage: through an outage the last good set serves for MaxStale,
// then the Remote reports ErrUnavailable (→ 503), and recovers.
func TestOutage(t *testing.T) {
	clk := newClock()
	a := genKey(t, signet.ES256, "a")
	srv := newKeyServer(t, a)
	r := start(t, srv.url(), jwks.Options{Now: clk.Now, MaxStale: 24 * time.Hour})
	mustSelect(t, r, "a", signet.ES256)

	srv.setMode(fail500)
	clk.Advance(time.Hour)
	if err := r.Refresh(context.Background()); !errors.Is(err, signet.ErrUnavailable) {
		t.Fatalf("Refresh in the outage: %v", err)
	}
	clk.Advance(24*time.Hour - time.Second)
	mustSelect(t, r, "a", signet.ES256) // 1 s short of the bound: still serving
	if err := r.Ready(); err != nil {
		t.Fatalf("Ready within MaxStale: %v", err)
	}
	clk.Advance(2 * time.Second)
	if _, err := r.Select("a", signet.ES256); !errors.Is(err, signet.ErrUnavailable) {
		t.Fatalf("Select past MaxStale: %v", err)
	}
	err := r.Ready()
	if !errors.Is(err, signet.ErrUnavailable) || !strings.Contains(err.Error(), "500") {
		t.Fatalf("Ready past MaxStale: %v", err)
	}
	if _, err := jwt.Verify[jwt.Claims](r, signedBy(t, a), jwt.Policy{}); !errors.Is(err, signet.ErrUnavailable) {
		t.Fatalf("jwt.Verify past MaxStale: %v", err)
	}
	if r.Stats().Ready {
		t.Fatal("Stats says ready")
	}

	srv.setMode(serve)
	if err := r.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	mustSelect(t, r, "a", signet.ES256)
	if st := r.Stats(); !st.Ready || !st.LastSuccess.Equal(clk.Now()) {
		t.Fatalf("stats after recovery %+v", st)
	}

	// MaxStale < 0: the last good set serves for ever.
	forever := start(t, srv.url(), jwks.Options{Now: clk.Now, MaxStale: -1})
	srv.setMode(fail500)
	forever.Refresh(context.Background())
	clk.Advance(365 * 24 * time.Hour)
	mustSelect(t, forever, "a", signet.ES256)
}

// TestStartNeverAnswers: New returns within StartTimeout against a server
// that never answers; the Remote is not ready, and recovers in the
// background once the server does.
func TestStartNeverAnswers(t *testing.T) {
	a := genKey(t, signet.ES256, "a")
	srv := newKeyServer(t, a)
	srv.setMode(hang)
	begin := time.Now()
	r := start(t, srv.url(), jwks.Options{StartTimeout: 200 * time.Millisecond, FetchTimeout: 500 * time.Millisecond})
	if d := time.Since(begin); d > 30*time.Second { // generous: "returned at all"
		t.Fatalf("New took %v", d)
	}
	if err := r.Ready(); !errors.Is(err, signet.ErrUnavailable) {
		t.Fatalf("Ready: %v", err)
	}
	if _, err := r.Select("a", signet.ES256); !errors.Is(err, signet.ErrUnavailable) {
		t.Fatalf("Select: %v", err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for r.Stats().FetchErrors == 0 { // the first fetch times out
		if time.Now().After(deadline) {
			t.Fatal("the first fetch never timed out")
		}
		time.Sleep(10 * time.Millisecond)
	}
	srv.setMode(serve)
	srv.open()
	for r.Ready() != nil {
		if time.Now().After(deadline) {
			t.Fatalf("not ready after the server came back: %v (stats %+v)", r.Ready(), r.Stats())
		}
		time.Sleep(20 * time.Millisecond)
	}
	mustSelect(t, r, "a", signet.ES256)
	if st := r.Stats(); st.FetchErrors == 0 {
		t.Fatalf("stats %+v", st)
	}
}

// TestStartContext: a cancelled context ends New's wait, not the Remote.
func TestStartContext(t *testing.T) {
	srv := newKeyServer(t, genKey(t, signet.ES256, "a"))
	srv.setMode(hang)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// A generous FetchTimeout: Refresh below may share the first fetch
	// (held at the server until open), and on a loaded machine a fetch
	// can take longer than a short one would allow.
	r, err := jwks.New(ctx, srv.url(), jwks.Options{Algorithms: []signet.Algorithm{signet.ES256}, FetchTimeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer checkNoRemoteGoroutines(t)
	defer r.Close()
	srv.setMode(serve)
	srv.open()
	if err := r.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := r.Ready(); err != nil {
		t.Fatal(err)
	}
}

// TestClose: Close is idempotent, cancels a fetch in flight, leaves no
// goroutine, and the set held still serves.
func TestClose(t *testing.T) {
	a := genKey(t, signet.ES256, "a")
	srv := newKeyServer(t, a)
	r, err := jwks.New(context.Background(), srv.url(), jwks.Options{Algorithms: []signet.Algorithm{signet.ES256}})
	if err != nil {
		t.Fatal(err)
	}
	srv.setMode(hang)
	done := make(chan error, 1)
	go func() { done <- r.Refresh(context.Background()) }()
	<-srv.entered // the initial fetch
	<-srv.entered // the hanging one
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() { r.Close() })
	}
	wg.Wait()
	if err := <-done; !errors.Is(err, signet.ErrUnavailable) {
		t.Fatalf("Refresh cut by Close: %v", err)
	}
	checkNoRemoteGoroutines(t)
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if err := r.Refresh(context.Background()); !errors.Is(err, signet.ErrUnavailable) {
		t.Fatalf("Refresh after Close: %v", err)
	}
	mustSelect(t, r, "a", signet.ES256)
	if _, err := r.Select("b", signet.ES256); !errors.Is(err, signet.ErrKeyNotFound) {
		t.Fatalf("miss after Close: %v", err)
	}
	if r.Stats().MissFetches != 0 {
		t.Fatal("a miss after Close fetched")
	}
}

// TestBackgroundRefresh: the set is refreshed ahead of expiry without any
// request asking, so a rotation is picked up with no kid miss.
func TestBackgroundRefresh(t *testing.T) {
	a := genKey(t, signet.ES256, "a")
	srv := newKeyServer(t, a)
	srv.header.Set("Cache-Control", "max-age=0")
	r := start(t, srv.url(), jwks.Options{MinRefresh: 50 * time.Millisecond})
	b := genKey(t, signet.ES256, "b")
	srv.setKeys(t, a, b)
	deadline := time.Now().Add(30 * time.Second)
	for r.Stats().Keys != 2 {
		if time.Now().After(deadline) {
			t.Fatalf("no background refresh: %+v", r.Stats())
		}
		time.Sleep(10 * time.Millisecond)
	}
	mustSelect(t, r, "b", signet.ES256)
	if st := r.Stats(); st.MissFetches != 0 || st.KidMisses != 0 || st.Fetches < 2 {
		t.Fatalf("stats %+v", st)
	}
}

// TestCloseGoroutineCount: after Close (and with the client's idle
// connections closed) the process has no more goroutines than before New,
// whatever the Remote went through.
func TestCloseGoroutineCount(t *testing.T) {
	a := genKey(t, signet.ES256, "a")
	srv := newKeyServer(t, a)
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	before := runtime.NumGoroutine()
	r, err := jwks.New(context.Background(), srv.url(), jwks.Options{
		Algorithms: []signet.Algorithm{signet.ES256}, Client: &http.Client{Transport: tr}, FetchTimeout: 200 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	mustSelect(t, r, "a", signet.ES256)
	r.Select("b", signet.ES256) // a miss fetch
	srv.setMode(hang)
	r.Refresh(context.Background()) // a timed-out fetch
	srv.setMode(serve)
	go r.Refresh(context.Background()) // possibly in flight at Close
	r.Close()
	tr.CloseIdleConnections()
	// The server's connection goroutines and the Refresh goroutine end
	// asynchronously: wait for them up to 30 s (a loaded machine may take
	// seconds to run them), returning as soon as the count is back.
	var now int
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		if now = runtime.NumGoroutine(); now <= before {
			return
		}
		time.Sleep(20 * time.Millisecond)
		tr.CloseIdleConnections()
	}
	buf := make([]byte, 1<<20)
	t.Fatalf("%d goroutines before New, %d after Close:\n%s", before, now, buf[:runtime.Stack(buf, true)])
}
