package jwks_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
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

// mode is how the hostile key server answers.
type mode int

const (
	serve    mode = iota // 200 with the set (304 to a matching If-None-Match)
	fail500              // 500
	hang                 // never answers until the request is cancelled or the gate opens
	redirect             // 302 to /moved, which serves the set
	huge                 // 200 with a 10 MiB body
	hugeLen              // 200 with a 10 MiB body and its Content-Length
	bare304              // 304 even to an unconditional request
	slowBody             // 200, the start of the body, then nothing until the request is cancelled
	gzipBomb             // 200, Content-Encoding gzip: 10 KiB that inflate to 10 MiB
)

// keyServer is a JWKS endpoint on 127.0.0.1 that a test steers: it rotates
// keys, changes its ETag, answers slowly, fails, redirects, or floods.
type keyServer struct {
	*httptest.Server
	hits  atomic.Int64 // requests to the JWKS path
	moved atomic.Int64 // requests that followed a redirect

	mu      sync.Mutex
	mode    mode
	body    []byte
	etag    string
	header  http.Header   // extra response headers
	gate    chan struct{} // hang: closed to let requests through
	seen    []http.Header // request headers, in order
	paths   []string
	entered chan struct{} // receives once per request that reached the handler
}

func newKeyServer(t testing.TB, keys ...*signet.Key) *keyServer {
	t.Helper()
	s := &keyServer{header: http.Header{}, gate: make(chan struct{}), entered: make(chan struct{}, 1<<16)}
	s.setKeys(t, keys...)
	mux := http.NewServeMux()
	mux.HandleFunc("/jwks", s.handle)
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
		s.moved.Add(1)
		s.mu.Lock()
		body := s.body
		s.mu.Unlock()
		w.Write(body)
	})
	s.Server = httptest.NewServer(mux)
	t.Cleanup(func() {
		s.open()
		s.Close()
	})
	return s
}

func (s *keyServer) url() string { return s.URL + "/jwks" }

// setKeys publishes the public halves of keys, with a new ETag.
func (s *keyServer) setKeys(t testing.TB, keys ...*signet.Key) {
	t.Helper()
	body, err := jwk.MarshalSet(keys...)
	if err != nil {
		t.Fatal(err)
	}
	s.setBody(body)
}

var etagSeq atomic.Int64

func (s *keyServer) setBody(body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.body = body
	s.etag = fmt.Sprintf(`"v%d"`, etagSeq.Add(1))
}

func (s *keyServer) setMode(m mode) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mode = m
	if m == hang {
		s.gate = make(chan struct{})
	}
}

// open lets hanging requests through (they are then served the set).
func (s *keyServer) open() {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.gate:
	default:
		close(s.gate)
	}
}

func (s *keyServer) requests() []http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]http.Header(nil), s.seen...)
}

func (s *keyServer) handle(w http.ResponseWriter, r *http.Request) {
	s.hits.Add(1)
	s.mu.Lock()
	s.seen = append(s.seen, r.Header.Clone())
	s.paths = append(s.paths, r.URL.RequestURI())
	m, body, etag, gate := s.mode, s.body, s.etag, s.gate
	for k, v := range s.header {
		w.Header()[k] = v
	}
	s.mu.Unlock()
	s.entered <- struct{}{}
	switch m {
	case fail500:
		http.Error(w, "upstream exploded", http.StatusInternalServerError)
		return
	case hang:
		select {
		case <-gate:
		case <-r.Context().Done():
			return
		}
	case redirect:
		http.Redirect(w, r, "/moved", http.StatusFound)
		return
	case huge, hugeLen:
		big := hugeBody()
		if m == hugeLen {
			w.Header().Set("Content-Length", fmt.Sprint(len(big)))
		}
		w.Write(big)
		return
	case bare304:
		w.WriteHeader(http.StatusNotModified)
		return
	case gzipBomb:
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			http.Error(w, "gzip only", http.StatusNotAcceptable)
			return
		}
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(gzipped())
		return
	case slowBody:
		w.Write([]byte(`{"keys":[`))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		return
	}
	w.Header().Set("ETag", etag)
	w.Header().Set("Content-Type", "application/jwk-set+json")
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Write(body)
}

// hugeBody is a 10 MiB body that starts like a JWK Set, made once.
var hugeBody = sync.OnceValue(func() []byte {
	big := bytes.Repeat([]byte(" "), 10<<20)
	copy(big, `{"keys":[`)
	return big
})

// gzipped is hugeBody compressed (about 10 KiB).
var gzipped = sync.OnceValue(func() []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(hugeBody())
	zw.Close()
	return buf.Bytes()
})

// clock is a fake clock tests move by hand.
type clock struct{ ns atomic.Int64 }

func newClock() *clock {
	c := &clock{}
	c.ns.Store(time.Date(2030, 6, 1, 12, 0, 0, 0, time.UTC).UnixNano())
	return c
}

func (c *clock) Now() time.Time          { return time.Unix(0, c.ns.Load()).UTC() }
func (c *clock) Advance(d time.Duration) { c.ns.Add(int64(d)) }

// genKey makes a key with an ID.
func genKey(t testing.TB, alg signet.Algorithm, kid string) *signet.Key {
	t.Helper()
	k, err := signet.GenerateKeyWithID(alg, kid)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// start makes a Remote for s with test-friendly options, closed at the end
// of the test (and checked for leaked goroutines).
func start(t testing.TB, url string, opts jwks.Options) *jwks.Remote {
	t.Helper()
	if opts.Algorithms == nil {
		opts.Algorithms = []signet.Algorithm{signet.ES256, signet.EdDSA, signet.RS256}
	}
	// Generous bounds: a first fetch that has not ended when New returns
	// leaves the Remote unready (and its stats empty), and a fetch cut by
	// its timeout fails; either would fail a test that expects neither,
	// on a machine slow enough (-race, loaded) to exceed a few seconds.
	// Tests of the timeouts set their own.
	if opts.StartTimeout == 0 {
		opts.StartTimeout = 30 * time.Second
	}
	if opts.FetchTimeout == 0 {
		opts.FetchTimeout = 30 * time.Second
	}
	r, err := jwks.New(context.Background(), url, opts)
	if err != nil {
		t.Fatal(err)
	}
	watchLeaks(t)
	t.Cleanup(func() { r.Close() })
	return r
}

var watched sync.Map // testing.TB → true: the test's leak check is registered

// watchLeaks registers, once per test and before the test's Remotes
// register their Close (cleanups run last-in first-out), a check that no
// goroutine of a Remote is left when the test ends.
func watchLeaks(t testing.TB) {
	if _, done := watched.LoadOrStore(t, true); done {
		return
	}
	t.Cleanup(func() {
		watched.Delete(t)
		checkNoRemoteGoroutines(t)
	})
}

// remoteFrames are the functions whose presence on a goroutine's stack
// means a Remote's goroutine is still alive.
var remoteFrames = []string{"jwks.(*Remote).run", "jwks.(*Remote).startLocked", "jwks.(*Remote).fetch"}

// remoteGoroutines returns the stacks of live goroutines that belong to a
// Remote (the background loop or a fetch).
func remoteGoroutines() []string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var found []string
	for g := range strings.SplitSeq(string(buf), "\n\n") {
		for _, f := range remoteFrames {
			if strings.Contains(g, f) {
				found = append(found, g)
				break
			}
		}
	}
	return found
}

// checkNoRemoteGoroutines fails if a goroutine of a closed Remote is still
// alive. Goroutines end asynchronously after Close returns only if Close
// is broken, but one that has signalled Close may still be on its way
// out, and a loaded machine may not run it for a while: the check retries
// for up to 30 s (it returns as soon as none is left).
func checkNoRemoteGoroutines(t testing.TB) {
	t.Helper()
	var left []string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		if left = remoteGoroutines(); len(left) == 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("%d goroutine(s) of a closed Remote left:\n%s", len(left), strings.Join(left, "\n\n"))
}

// jwkPublic is the public JWK of k, as text.
func jwkPublic(k *signet.Key) (string, error) {
	b, err := jwk.MarshalPublic(k)
	return string(b), err
}

// signedBy is a JWT signed by k, valid for an hour of real time.
func signedBy(t testing.TB, k *signet.Key) string {
	t.Helper()
	tok, err := jwt.Sign(k, jwt.Claims{Subject: "s", ExpiresAt: jwt.At(time.Now().Add(time.Hour))})
	if err != nil {
		t.Fatal(err)
	}
	return tok
}
