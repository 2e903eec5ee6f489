package metrics_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/jwt"
	"github.com/signet-go/signet/server/internal/storetest"
	"github.com/signet-go/signet/server/keys"
	"github.com/signet-go/signet/server/metrics"
	"github.com/signet-go/signet/server/oauth"
	"github.com/signet-go/signet/server/storage"
)

const (
	issuer = "https://auth.example.com"
	api    = "https://api.example.com"
	// Test secrets: 128 bits and more, as a real deployment's.
	secretBasic = "b4sic-7d1e0a9c3b5f4e6a8b9c0d1e2f3a4b5c"
	secretLimit = "l1mit-0f1e2d3c4b5a69788796a5b4c3d2e1f0"
)

// t0 is the fake clock's start, far from any real date that could expire.
var t0 = time.Unix(1_900_000_000, 0).UTC()

type clock struct{ ns atomic.Int64 }

func newClock() *clock {
	c := &clock{}
	c.ns.Store(t0.UnixNano())
	return c
}
func (c *clock) Now() time.Time          { return time.Unix(0, c.ns.Load()).UTC() }
func (c *clock) Advance(d time.Duration) { c.ns.Add(int64(d)) }

// env is a token service with metrics, served on 127.0.0.1.
type env struct {
	t      testing.TB
	clock  *clock
	store  *storetest.Flaky
	km     *keys.Manager
	m      *metrics.Metrics
	srv    *oauth.Server
	ts     *httptest.Server
	jwtKey *signet.Key // svc-jwt's assertion key
	seq    int
}

func hashHex(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// newServer builds the service as signet serve mounts it: the oauth
// handler wrapped by Instrument, the metrics at metrics.Path.
func newServer(t testing.TB, kc keys.Config) *env {
	t.Helper()
	e := &env{t: t, clock: newClock(), m: metrics.New()}
	e.store = &storetest.Flaky{Store: storage.NewMemory(e.clock.Now)}
	kek, err := keys.GenerateKEK()
	if err != nil {
		t.Fatal(err)
	}
	kc.KEK, kc.Now, kc.Observer = kek, e.clock.Now, e.m
	if e.km, err = keys.New(e.store, kc); err != nil {
		t.Fatal(err)
	}
	if err := e.km.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := e.m.WatchKeys(e.km); err != nil {
		t.Fatal(err)
	}
	if e.jwtKey, err = signet.GenerateKeyWithID(signet.ES256, "jwt-es"); err != nil {
		t.Fatal(err)
	}
	set, err := jwk.MarshalSet(e.jwtKey)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := oauth.ParseClients(fmt.Appendf(nil, `{"clients":[
 {"client_id":"svc-basic","client_secret_sha256":%q,"scope":"read write","audience":[%q]},
 {"client_id":"svc-limit","client_secret_sha256":%q,"scope":"read","audience":[%q]},
 {"client_id":"svc-jwt","token_endpoint_auth_method":"private_key_jwt","jwks":%s,"scope":"read","audience":[%q]}
]}`, hashHex(secretBasic), api, hashHex(secretLimit), api, set, api))
	if err != nil {
		t.Fatal(err)
	}
	e.srv, err = oauth.New(oauth.Config{
		Issuer: issuer, Clients: cs, Store: e.store, Keys: e.km, JWKS: e.km.JWKSHandler(),
		Now: e.clock.Now, Observer: e.m,
	})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle(metrics.Path, e.m.Handler())
	mux.Handle("/", e.m.Instrument(e.srv.Handler()))
	e.ts = httptest.NewServer(mux) // 127.0.0.1
	t.Cleanup(e.ts.Close)
	return e
}

// do sends a request; form "" sends no body.
func (e *env) do(method, path, form string, hdr http.Header) (int, map[string]any) {
	e.t.Helper()
	r, err := http.NewRequest(method, e.ts.URL+path, strings.NewReader(form))
	if err != nil {
		e.t.Fatal(err)
	}
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for k, vs := range hdr {
		r.Header[k] = vs
	}
	resp, err := e.ts.Client().Do(r)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	var j map[string]any
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(body, &j); err != nil {
			e.t.Fatalf("%s %s: %v: %q", method, path, err, body)
		}
	}
	return resp.StatusCode, j
}

func basic(id, secret string) http.Header {
	cred := url.QueryEscape(id) + ":" + url.QueryEscape(secret)
	return http.Header{"Authorization": {"Basic " + base64.StdEncoding.EncodeToString([]byte(cred))}}
}

// token gets an access token for svc-basic.
func (e *env) token() string {
	e.t.Helper()
	st, j := e.do(http.MethodPost, oauth.PathToken, "grant_type=client_credentials", basic("svc-basic", secretBasic))
	if st != 200 {
		e.t.Fatalf("token: %d %v", st, j)
	}
	return j["access_token"].(string)
}

// assertionForm is a private_key_jwt token request of svc-jwt.
func (e *env) assertionForm() (string, string) {
	e.t.Helper()
	e.seq++
	now := e.clock.Now()
	a, err := jwt.Sign(e.jwtKey, jwt.Map{
		"iss": "svc-jwt", "sub": "svc-jwt", "aud": issuer + oauth.PathToken,
		"exp": now.Add(time.Minute).Unix(), "iat": now.Unix(), "jti": fmt.Sprintf("a-%d", e.seq),
	}, jwt.Options{Now: e.clock.Now})
	if err != nil {
		e.t.Fatal(err)
	}
	return "grant_type=client_credentials&client_assertion_type=" + url.QueryEscape(oauth.AssertionType) + "&client_assertion=" + a, a
}

// scrape gets the exposition text from the metrics endpoint.
func (e *env) scrape() string {
	e.t.Helper()
	resp, err := e.ts.Client().Get(e.ts.URL + metrics.Path)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		e.t.Fatalf("scrape: %d %v", resp.StatusCode, err)
	}
	return string(b)
}

// series finds the metric name{labels} (exactly those labels) in the
// registry.
func series(t testing.TB, m *metrics.Metrics, name string, labels ...string) (*dto.Metric, bool) {
	t.Helper()
	fams, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		if f.GetName() != name {
			continue
		}
	next:
		for _, mm := range f.GetMetric() {
			if len(mm.GetLabel())*2 != len(labels) {
				continue
			}
			for _, lp := range mm.GetLabel() {
				found := false
				for i := 0; i < len(labels); i += 2 {
					if labels[i] == lp.GetName() && labels[i+1] == lp.GetValue() {
						found = true
					}
				}
				if !found {
					continue next
				}
			}
			return mm, true
		}
	}
	return nil, false
}

// value is a counter's or gauge's value (0 when absent).
func value(t testing.TB, m *metrics.Metrics, name string, labels ...string) float64 {
	t.Helper()
	mm, ok := series(t, m, name, labels...)
	switch {
	case !ok:
		return 0
	case mm.Counter != nil:
		return mm.GetCounter().GetValue()
	case mm.Gauge != nil:
		return mm.GetGauge().GetValue()
	}
	t.Fatalf("%s is neither counter nor gauge", name)
	return 0
}

// total sums a metric over all its series.
func total(t testing.TB, m *metrics.Metrics, name string) float64 {
	t.Helper()
	fams, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, f := range fams {
		if f.GetName() == name {
			for _, mm := range f.GetMetric() {
				sum += mm.GetCounter().GetValue()
			}
		}
	}
	return sum
}

func newClockStore() storage.Store { return storage.NewMemory(newClock().Now) }
