package bearer_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/bearer"
	"github.com/signet-go/signet/jwt"
)

// now is the fixed clock of the tests; tokens expire an hour after it.
var now = time.Unix(1_800_000_000, 0)

func clock() time.Time { return now }

const (
	issuer   = "https://id.example"
	audience = "https://api.example"
)

// policy is the Policy of most tests.
func policy() jwt.Policy {
	return jwt.Policy{Issuer: issuer, Audience: []string{audience}, Now: clock}
}

// fixture holds a signing key and what verifies it.
type fixture struct {
	key *signet.Key
	pub *signet.Key
}

func newFixture(t testing.TB, alg signet.Algorithm) fixture {
	t.Helper()
	k, err := signet.GenerateKey(alg)
	if err != nil {
		t.Fatal(err)
	}
	pub := k
	if !k.Symmetric() {
		if pub, err = k.Public(); err != nil {
			t.Fatal(err)
		}
	}
	return fixture{key: k, pub: pub}
}

// claims are those of a good access token; tests delete or change some.
func claims() map[string]any {
	return map[string]any{
		"iss": issuer, "aud": audience, "sub": "alice", "client_id": "app-1",
		"iat": now.Unix(), "exp": now.Add(time.Hour).Unix(), "jti": "id-1",
		"scope": "orders:read orders:write", "tenant": "acme",
	}
}

// sign signs c with typ in the header ("" means JWT).
func (f fixture) sign(t testing.TB, c map[string]any, typ string) string {
	t.Helper()
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if typ == "" {
		typ = "JWT"
	}
	tok, err := jwt.SignBytes(f.key, b, typ)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// with returns claims() changed by set (a nil value deletes the claim).
func with(set map[string]any) map[string]any {
	c := claims()
	for k, v := range set {
		if v == nil {
			delete(c, k)
		} else {
			c[k] = v
		}
	}
	return c
}

// countKeys counts the Select calls made on its keys.
type countKeys struct {
	keys signet.Keys
	n    atomic.Int64
}

func (c *countKeys) Select(kid string, alg signet.Algorithm) (signet.Candidates, error) {
	c.n.Add(1)
	return c.keys.Select(kid, alg)
}

// downKeys is a key source in an outage.
type downKeys struct{}

func (downKeys) Select(string, signet.Algorithm) (signet.Candidates, error) {
	return signet.Candidates{}, fmt.Errorf("%w: jwks: no good fetch for 25h", signet.ErrUnavailable)
}

// request builds a GET with the given Authorization headers.
func request(auth ...string) *http.Request {
	r := httptest.NewRequest("GET", "http://127.0.0.1/orders", nil)
	for _, a := range auth {
		r.Header.Add("Authorization", a)
	}
	return r
}

// serve runs r through h, with a next handler that records what it got.
type result struct {
	rec     *httptest.ResponseRecorder
	reached bool
	claims  Claims
	has     bool
}

func serve(t testing.TB, m wrapper, r *http.Request) result {
	t.Helper()
	var res result
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		res.reached = true
		res.claims, res.has = bearer.ClaimsFrom[Claims](r.Context())
		w.WriteHeader(http.StatusNoContent)
	})
	res.rec = httptest.NewRecorder()
	m.Wrap(next).ServeHTTP(res.rec, r)
	return res
}

// wrapper is a *bearer.Middleware of any claims type.
type wrapper interface {
	Wrap(http.Handler) http.Handler
}

func longToken(n int) string { return strings.Repeat("a", n) }

func b64(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
