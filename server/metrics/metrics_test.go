package metrics_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/server/internal/storetest"
	"github.com/signet-go/signet/server/keys"
	"github.com/signet-go/signet/server/metrics"
	"github.com/signet-go/signet/server/oauth"
)

// Each token request moves exactly one counter: issued on success, the
// failure's reason otherwise.
func TestTokenCounters(t *testing.T) {
	e := newServer(t, keys.Config{})
	ok := basic("svc-basic", secretBasic)
	cases := []struct {
		name   string
		method string
		form   string
		hdr    http.Header
		down   bool // the store fails
		status int
		reason string
	}{
		{"wrong secret", "POST", "grant_type=client_credentials", basic("svc-basic", "wrong-secret-0123456789abcdef"), false, 401, oauth.ErrInvalidClient},
		{"unknown client", "POST", "grant_type=client_credentials", basic("nobody", secretBasic), false, 401, oauth.ErrInvalidClient},
		{"no credentials", "POST", "grant_type=client_credentials", nil, false, 401, oauth.ErrInvalidClient},
		{"no grant_type", "POST", "scope=read", ok, false, 400, oauth.ErrInvalidRequest},
		{"repeated parameter", "POST", "grant_type=client_credentials&grant_type=client_credentials", ok, false, 400, oauth.ErrInvalidRequest},
		{"GET", "GET", "", ok, false, 405, oauth.ErrInvalidRequest},
		{"password grant", "POST", "grant_type=password", ok, false, 400, oauth.ErrUnsupportedGrantType},
		{"foreign scope", "POST", "grant_type=client_credentials&scope=admin", ok, false, 400, oauth.ErrInvalidScope},
		{"foreign resource", "POST", "grant_type=client_credentials&resource=" + url.QueryEscape("https://evil.example.com"), ok, false, 400, oauth.ErrInvalidTarget},
		{"store down", "POST", "", nil, true, 503, oauth.ReasonUnavailable},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			form := c.form
			if c.down {
				form, _ = e.assertionForm()
				e.store.Down.Store(true)
				defer e.store.Down.Store(false)
			}
			before := total(t, e.m, "signet_token_requests_failed_total")
			reasonBefore := value(t, e.m, "signet_token_requests_failed_total", "reason", c.reason)
			st, j := e.do(c.method, oauth.PathToken, form, c.hdr)
			if st != c.status {
				t.Fatalf("status %d %v, want %d", st, j, c.status)
			}
			if d := value(t, e.m, "signet_token_requests_failed_total", "reason", c.reason) - reasonBefore; d != 1 {
				t.Errorf("reason %q moved by %v, want 1", c.reason, d)
			}
			if d := total(t, e.m, "signet_token_requests_failed_total") - before; d != 1 {
				t.Errorf("failures moved by %v in all, want 1", d)
			}
		})
	}
	if v := total(t, e.m, "signet_tokens_issued_total"); v != 0 {
		t.Errorf("tokens issued %v after failures only", v)
	}
	if v := value(t, e.m, "signet_store_errors_total", "op", oauth.StoreOpUseOnce); v != 1 {
		t.Errorf("store errors (use_once) %v, want 1", v)
	}

	// Rate limiting: FailureBurst failures, then refused unchecked.
	for range oauth.FailureBurst {
		if st, _ := e.do("POST", oauth.PathToken, "grant_type=client_credentials", basic("svc-limit", "wrong-secret-0123456789abcdef")); st != 401 {
			t.Fatalf("status %d", st)
		}
	}
	if st, _ := e.do("POST", oauth.PathToken, "grant_type=client_credentials", basic("svc-limit", secretLimit)); st != 401 {
		t.Fatalf("rate limited: status %d", st)
	}
	if v := value(t, e.m, "signet_token_requests_failed_total", "reason", oauth.ReasonRateLimited); v != 1 {
		t.Errorf("rate_limited %v, want 1", v)
	}

	// Success: by alg and client.
	e.token()
	e.token()
	form, _ := e.assertionForm()
	if st, j := e.do("POST", oauth.PathToken, form, nil); st != 200 {
		t.Fatalf("private_key_jwt: %d %v", st, j)
	}
	if v := value(t, e.m, "signet_tokens_issued_total", "alg", "ES256", "client_id", "svc-basic"); v != 2 {
		t.Errorf("issued to svc-basic: %v, want 2", v)
	}
	if v := value(t, e.m, "signet_tokens_issued_total", "alg", "ES256", "client_id", "svc-jwt"); v != 1 {
		t.Errorf("issued to svc-jwt: %v, want 1", v)
	}
}

// A service without a loaded key ring answers 503: counted unavailable.
func TestTokenUnavailableWithoutKeys(t *testing.T) {
	e := newServer(t, keys.Config{})
	km, err := keys.New(e.store, keys.Config{KEK: mustKEK(t)})
	if err != nil {
		t.Fatal(err)
	}
	m := metrics.New()
	srv, err := oauth.New(oauth.Config{Issuer: issuer, Clients: e.srv.Clients(), Store: e.store, Keys: km, Observer: m})
	if err != nil {
		t.Fatal(err)
	}
	e.ts = httptest.NewServer(m.Instrument(srv.Handler()))
	defer e.ts.Close()
	if st, _ := e.do("POST", oauth.PathToken, "grant_type=client_credentials", basic("svc-basic", secretBasic)); st != 503 {
		t.Fatalf("status %d, want 503", st)
	}
	if v := value(t, m, "signet_token_requests_failed_total", "reason", oauth.ReasonUnavailable); v != 1 {
		t.Errorf("unavailable %v, want 1", v)
	}
}

func mustKEK(t *testing.T) *signet.Key {
	k, err := keys.GenerateKEK()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestIntrospectionAndRevocationCounters(t *testing.T) {
	e := newServer(t, keys.Config{})
	auth := basic("svc-basic", secretBasic)
	tok := e.token()
	step := func(path, form string, hdr http.Header, status int, metric, result string) {
		t.Helper()
		before := total(t, e.m, metric)
		was := value(t, e.m, metric, "result", result)
		if st, j := e.do("POST", path, form, hdr); st != status {
			t.Fatalf("%s %s: %d %v, want %d", path, result, st, j, status)
		}
		if d := value(t, e.m, metric, "result", result) - was; d != 1 {
			t.Errorf("%s{result=%q} moved by %v, want 1", metric, result, d)
		}
		if d := total(t, e.m, metric) - before; d != 1 {
			t.Errorf("%s moved by %v in all, want 1", metric, d)
		}
	}
	const in, rv = "signet_introspections_total", "signet_revocations_total"
	step(oauth.PathIntrospect, "token="+tok, auth, 200, in, oauth.ResultActive)
	step(oauth.PathIntrospect, "token=not-a-token", auth, 200, in, oauth.ResultInactive)
	step(oauth.PathIntrospect, "token="+tok, nil, 401, in, oauth.ErrInvalidClient)
	step(oauth.PathIntrospect, "", auth, 400, in, oauth.ErrInvalidRequest)

	// Another client's token: invalid_grant.
	form, _ := e.assertionForm()
	step(oauth.PathRevoke, form+"&token="+tok, nil, 400, rv, oauth.ErrInvalidGrant)
	step(oauth.PathRevoke, "token=not-a-token", auth, 200, rv, oauth.ResultIgnored)
	step(oauth.PathRevoke, "token="+tok, auth, 200, rv, oauth.ResultRevoked)
	step(oauth.PathIntrospect, "token="+tok, auth, 200, in, oauth.ResultInactive)
	step(oauth.PathRevoke, "token="+tok, basic("svc-basic", "wrong-secret-0123456789abcdef"), 401, rv, oauth.ErrInvalidClient)

	// The store down: 503, counted, and each failed call a store error.
	tok2 := e.token()
	e.store.Down.Store(true)
	step(oauth.PathIntrospect, "token="+tok2, auth, 503, in, oauth.ReasonUnavailable)
	step(oauth.PathRevoke, "token="+tok2, auth, 503, rv, oauth.ReasonUnavailable)
	if st, _ := e.do("GET", oauth.PathReady, "", nil); st != 503 {
		t.Errorf("readyz with the store down: %d", st)
	}
	e.store.Down.Store(false)
	for _, op := range []string{oauth.StoreOpRevoked, oauth.StoreOpRevoke, oauth.StoreOpPing} {
		if v := value(t, e.m, "signet_store_errors_total", "op", op); v != 1 {
			t.Errorf("store errors {op=%q} %v, want 1", op, v)
		}
	}
	if v := value(t, e.m, "signet_store_errors_total", "op", oauth.StoreOpUseOnce); v != 0 {
		t.Errorf("store errors {op=use_once} %v, want 0", v)
	}
}

func TestLatencyHistogram(t *testing.T) {
	e := newServer(t, keys.Config{})
	e.token()
	e.do("GET", oauth.PathJWKS, "", nil)
	e.do("GET", "/no/such/path/"+secretBasic, "", nil)
	e.do("BREW", oauth.PathHealth, "", nil)

	mm, ok := series(t, e.m, "http_request_duration_seconds", "handler", oauth.PathToken, "method", "POST", "code", "200")
	if !ok {
		t.Fatal("no histogram series for the token endpoint")
	}
	h := mm.GetHistogram()
	if h.GetSampleCount() != 1 {
		t.Errorf("token endpoint: %d samples, want 1", h.GetSampleCount())
	}
	var bounds []float64
	for _, b := range h.GetBucket() {
		bounds = append(bounds, b.GetUpperBound())
	}
	if want := metrics.Buckets(); !slices.Equal(bounds, want) {
		t.Errorf("bucket bounds %v, want %v", bounds, want)
	}
	if bounds[0] != 0.0001 {
		t.Errorf("first bucket %v, want 100 µs", bounds[0])
	}
	for _, s := range [][]string{
		{"handler", oauth.PathJWKS, "method", "GET", "code", "200"},
		{"handler", "other", "method", "GET", "code", "404"},
		{"handler", oauth.PathHealth, "method", "other", "code", "405"},
	} {
		if mm, ok := series(t, e.m, "http_request_duration_seconds", s...); !ok || mm.GetHistogram().GetSampleCount() != 1 {
			t.Errorf("series %v: missing or not one sample", s)
		}
	}
	text := e.scrape()
	for _, want := range []string{
		`http_request_duration_seconds_bucket{code="200",handler="/oauth2/token",method="POST",le="0.0001"}`,
		`http_request_duration_seconds_bucket{code="200",handler="/oauth2/token",method="POST",le="0.00025"}`,
		`http_request_duration_seconds_bucket{code="200",handler="/oauth2/token",method="POST",le="0.0005"}`,
		`http_request_duration_seconds_bucket{code="200",handler="/oauth2/token",method="POST",le="+Inf"} 1`,
		"# TYPE signet_tokens_issued_total counter",
		"# TYPE signet_key_age_seconds gauge",
		"go_goroutines ",
		"process_",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("exposition lacks %q", want)
		}
	}
}

// No label, whatever the requests carried, holds a secret, a token or an
// assertion.
func TestNoSecretsInExposition(t *testing.T) {
	e := newServer(t, keys.Config{})
	tok := e.token()
	form, assertion := e.assertionForm()
	e.do("POST", oauth.PathToken, form, nil)
	e.do("POST", oauth.PathToken, form, nil) // replayed
	e.do("POST", oauth.PathIntrospect, "token="+tok, basic("svc-basic", secretBasic))
	e.do("POST", oauth.PathRevoke, "token="+tok, basic("svc-basic", secretBasic))
	e.do("POST", oauth.PathToken, "grant_type=client_credentials", basic(secretBasic, secretBasic)) // a secret as client id
	e.do("POST", oauth.PathToken, "grant_type="+secretBasic, basic("svc-basic", secretBasic))       // and as grant type
	e.do("POST", oauth.PathToken, "grant_type=client_credentials&scope="+tok, basic("svc-basic", secretBasic))
	e.do("GET", "/"+tok, "", nil)
	e.do(secretLimit, oauth.PathToken, "", nil)
	text := e.scrape()
	if !strings.Contains(text, "signet_tokens_issued_total") {
		t.Fatal("nothing scraped")
	}
	for name, s := range map[string]string{
		"secret": secretBasic, "other secret": secretLimit, "secret hash": hashHex(secretBasic),
		"token": tok, "token's signature": tok[strings.LastIndexByte(tok, '.')+1:],
		"assertion": assertion, "assertion's signature": assertion[strings.LastIndexByte(assertion, '.')+1:],
	} {
		if strings.Contains(text, s) {
			t.Errorf("the exposition holds the %s", name)
		}
	}
}

// The key gauges follow the ring on a fake clock: ages by state, the
// published count, rotations.
func TestKeyGauges(t *testing.T) {
	e := newServer(t, keys.Config{Rotate: time.Hour, MaxAge: time.Minute, MaxTokenTTL: 10 * time.Minute, Reload: 10 * time.Second})
	age := func(state string) (float64, bool) {
		mm, ok := series(t, e.m, "signet_key_age_seconds", "state", state)
		return mm.GetGauge().GetValue(), ok
	}
	want := func(state string, v float64) {
		t.Helper()
		if got, ok := age(state); !ok || got != v {
			t.Errorf("key age {state=%q} %v (present %v), want %v", state, got, ok, v)
		}
	}
	want("active", 0)
	want("next", 0)
	if _, ok := age("retired"); ok {
		t.Error("a retired key's age before any rotation")
	}
	if v := value(t, e.m, "signet_keys_published"); v != 2 {
		t.Errorf("published %v, want 2", v)
	}
	if v := value(t, e.m, "signet_key_rotations_total"); v != 0 {
		t.Errorf("rotations %v at first start, want 0", v)
	}

	e.clock.Advance(30 * time.Minute)
	want("active", 1800)
	want("next", 1800)

	// Past the hour: the next key signs, the active one retires.
	e.clock.Advance(30*time.Minute + 10*time.Second)
	if err := e.km.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(5 * time.Second)
	want("active", 15) // it was due 15 s ago
	want("next", 5)
	want("retired", 5)
	if v := value(t, e.m, "signet_keys_published"); v != 3 {
		t.Errorf("published %v, want 3", v)
	}
	if v := value(t, e.m, "signet_key_rotations_total"); v != 1 {
		t.Errorf("rotations %v, want 1", v)
	}
	// A refresh with nothing due is no rotation.
	if err := e.km.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if v := value(t, e.m, "signet_key_rotations_total"); v != 1 {
		t.Errorf("rotations %v after an idle refresh, want 1", v)
	}

	// The store down: the refresh fails, counted; the gauges still read
	// the ring served.
	e.store.Down.Store(true)
	if err := e.km.Refresh(context.Background()); err == nil {
		t.Fatal("refresh with the store down succeeded")
	}
	e.store.Down.Store(false)
	if v := value(t, e.m, "signet_store_errors_total", "op", keys.StoreOpKeys); v != 1 {
		t.Errorf("store errors {op=keys} %v, want 1", v)
	}
	want("active", 15)
}

func TestKeyGaugesBeforeLoadAndHMAC(t *testing.T) {
	// Before any ring is loaded: nothing published, no ages.
	m := metrics.New()
	km, err := keys.New(&storetest.Flaky{Store: newClockStore()}, keys.Config{KEK: mustKEK(t)})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.WatchKeys(km); err != nil {
		t.Fatal(err)
	}
	if _, ok := series(t, m, "signet_keys_published"); !ok || value(t, m, "signet_keys_published") != 0 {
		t.Error("published before a ring is loaded: want 0")
	}
	for _, s := range []string{"active", "next", "retired"} {
		if _, ok := series(t, m, "signet_key_age_seconds", "state", s); ok {
			t.Errorf("key age {state=%q} before a ring is loaded", s)
		}
	}
	// HMAC keys are never published.
	e := newServer(t, keys.Config{Algorithm: signet.HS256})
	if v := value(t, e.m, "signet_keys_published"); v != 0 {
		t.Errorf("HS256: published %v, want 0", v)
	}
	e.token()
	if v := value(t, e.m, "signet_tokens_issued_total", "alg", "HS256", "client_id", "svc-basic"); v != 1 {
		t.Errorf("HS256 issued %v, want 1", v)
	}
}

func TestWatchKeysErrors(t *testing.T) {
	e := newServer(t, keys.Config{})
	if err := e.m.WatchKeys(e.km); !errors.Is(err, signet.ErrMalformed) {
		t.Errorf("second WatchKeys: %v, want ErrMalformed", err)
	}
	if err := metrics.New().WatchKeys(nil); !errors.Is(err, signet.ErrMalformed) {
		t.Errorf("WatchKeys(nil): %v, want ErrMalformed", err)
	}
}

// The observer's calls on the hot path allocate nothing once a series
// exists.
func TestObserverAllocations(t *testing.T) {
	m := metrics.New()
	m.TokenIssued("ES256", "svc-basic")
	for name, f := range map[string]func(){
		"TokenIssued":  func() { m.TokenIssued("ES256", "svc-basic") },
		"TokenFailed":  func() { m.TokenFailed(oauth.ErrInvalidClient) },
		"Introspected": func() { m.Introspected(oauth.ResultActive) },
		"Revoked":      func() { m.Revoked(oauth.ResultRevoked) },
		"StoreError":   func() { m.StoreError(oauth.StoreOpRevoked) },
		"Rotated":      m.Rotated,
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocations, want 0", name, n)
		}
	}
}
