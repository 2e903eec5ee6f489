package guard

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwt"
)

// t0 is the tests' fixed clock.
var t0 = time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)

// clock is a settable clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: t0} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}

// countingKeys counts the Select calls to the keys it wraps: a cache hit
// makes none.
type countingKeys struct {
	keys    signet.Keys
	selects atomic.Int64
	err     atomic.Pointer[error] // when set, Select fails with it
}

func (c *countingKeys) Select(kid string, alg signet.Algorithm) (signet.Candidates, error) {
	c.selects.Add(1)
	if e := c.err.Load(); e != nil {
		return signet.Candidates{}, *e
	}
	return c.keys.Select(kid, alg)
}

// Ready reports the same failure as Select, as jwks.Remote does.
func (c *countingKeys) Ready() error {
	if e := c.err.Load(); e != nil {
		return *e
	}
	return nil
}

// claims are what the tests sign.
type claims struct {
	jwt.Claims
	Scope    string `json:"scope,omitempty"`
	ClientID string `json:"client_id,omitempty"`
}

// upstream is a test upstream that records the headers it receives.
type upstream struct {
	srv *httptest.Server
	mu  sync.Mutex
	got []http.Header
}

func newUpstream(t testing.TB) *upstream {
	u := &upstream{}
	u.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u.mu.Lock()
		u.got = append(u.got, r.Header.Clone())
		u.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]string{"path": r.URL.Path})
	}))
	t.Cleanup(u.srv.Close)
	return u
}

func (u *upstream) url(t testing.TB) *url.URL {
	p, err := url.Parse(u.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// last returns the headers of the last request the upstream received.
func (u *upstream) last(t *testing.T) http.Header {
	t.Helper()
	u.mu.Lock()
	defer u.mu.Unlock()
	if len(u.got) == 0 {
		t.Fatal("the upstream received nothing")
	}
	return u.got[len(u.got)-1]
}

func (u *upstream) count() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return len(u.got)
}

// fixture is a guard in front of a test upstream, with a signing key, a
// counting key set and a settable clock.
type fixture struct {
	t     testing.TB
	key   *signet.Key
	keys  *countingKeys
	clock *clock
	up    *upstream
	g     *Guard
}

const (
	testIssuer   = "https://issuer.example"
	testAudience = "https://api.example"
)

// newFixture makes a guard with cfg (Upstream, Keys and Now are set
// here) in front of a new upstream.
func newFixture(t testing.TB, cfg Config) *fixture {
	t.Helper()
	key, err := signet.GenerateKeyWithID(signet.ES256, "k1")
	if err != nil {
		t.Fatal(err)
	}
	pub, err := key.Public()
	if err != nil {
		t.Fatal(err)
	}
	set, err := signet.NewKeySet(pub)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, key: key, keys: &countingKeys{keys: set}, clock: newClock(), up: newUpstream(t)}
	cfg.Upstream = f.up.url(t)
	cfg.Keys = f.keys
	cfg.Now = f.clock.Now
	if cfg.Issuer == "" {
		cfg.Issuer = testIssuer
	}
	if len(cfg.Audience) == 0 && !cfg.IgnoreAudience {
		cfg.Audience = []string{testAudience}
	}
	if f.g, err = New(cfg); err != nil {
		t.Fatal(err)
	}
	return f
}

// token signs c with the fixture's key, filling iss, aud, sub, iat, exp
// (15 min) and jti where c lacks them.
func (f *fixture) token(c claims) string {
	f.t.Helper()
	return f.tokenWith(f.key, c)
}

func (f *fixture) tokenWith(key *signet.Key, c claims) string {
	f.t.Helper()
	if c.Issuer == "" {
		c.Issuer = testIssuer
	}
	if c.Audience == nil {
		c.Audience = jwt.Audience{testAudience}
	}
	if c.Subject == "" {
		c.Subject = "svc-a"
	}
	if c.IssuedAt == 0 {
		c.IssuedAt = jwt.At(t0)
	}
	if c.ExpiresAt == 0 {
		c.ExpiresAt = jwt.At(t0.Add(15 * time.Minute))
	}
	if c.ID == "" {
		c.ID = "jti-1"
	}
	tok, err := jwt.Sign(key, c)
	if err != nil {
		f.t.Fatal(err)
	}
	return tok
}

// do sends a GET to the guard with the given Authorization headers (none
// when empty) and extra headers, and returns the recorded answer.
func (f *fixture) do(auth []string, extra http.Header) *httptest.ResponseRecorder {
	f.t.Helper()
	r := httptest.NewRequest(http.MethodGet, "http://guard.test/hello", nil)
	for k, vs := range extra {
		r.Header[k] = vs
	}
	if len(auth) > 0 {
		r.Header["Authorization"] = auth
	}
	w := httptest.NewRecorder()
	f.g.Handler().ServeHTTP(w, r)
	return w
}

func withToken(tok string) []string { return []string{"Bearer " + tok} }

// rawRequest writes raw, a whole HTTP/1.1 request, to the server at addr
// over a new connection and returns the status of its answer: for the
// requests net/http's client would not send as they are (a header spelled
// with '_', a dot segment, declared trailers), so that the server's own
// parsing applies.
func rawRequest(t *testing.T, addr, raw string) int {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second)) // bounds a hang only
	if _, err := io.WriteString(c, raw); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// guardTo returns a guard with f's keys and clock in front of handler, an
// upstream of its own, at path prefix (which may be ""), and its server.
func (f *fixture) guardTo(t *testing.T, prefix string, handler http.Handler) (*Guard, *httptest.Server) {
	t.Helper()
	up := httptest.NewServer(handler)
	t.Cleanup(up.Close)
	u, err := url.Parse(up.URL + prefix)
	if err != nil {
		t.Fatal(err)
	}
	g, err := New(Config{Upstream: u, Keys: f.keys, Issuer: testIssuer, Audience: []string{testAudience}, Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)
	return g, srv
}
