package guard

import (
	"bytes"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwt"
)

// counter returns the value of the counter (or gauge) name whose label
// has value v (any series when label is ""), or fails.
func counter(t *testing.T, m *Metrics, name, label, v string) float64 {
	t.Helper()
	mfs, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, s := range mf.GetMetric() {
			match := label == ""
			for _, l := range s.GetLabel() {
				if l.GetName() == label && l.GetValue() == v {
					match = true
				}
			}
			if !match {
				continue
			}
			switch {
			case s.Counter != nil:
				return s.Counter.GetValue()
			case s.Gauge != nil:
				return s.Gauge.GetValue()
			case s.Histogram != nil:
				return float64(s.Histogram.GetSampleCount())
			}
		}
	}
	t.Fatalf("no metric %s{%s=%q}", name, label, v)
	return 0
}

// TestGuardMetrics: each request is counted by result, every result
// series exists from the start, and the verification latency is
// observed by cache outcome.
func TestGuardMetrics(t *testing.T) {
	f := newFixture(t, Config{Scopes: []string{"read"}})
	m := f.g.Metrics()
	for _, r := range results {
		if got := counter(t, m, "signet_guard_requests_total", "result", r); got != 0 {
			t.Errorf("%s starts at %v", r, got)
		}
	}
	ok := f.token(claims{Scope: "read"})
	f.do(withToken(ok), nil)
	f.do(withToken(ok), nil)
	f.do(nil, nil)
	f.do(withToken("x.y.z"), nil)
	f.do(withToken(f.token(claims{Scope: "write"})), nil)
	f.do([]string{"Bearer a", "Bearer b"}, nil)
	for r, want := range map[string]float64{
		ResultForwarded: 2, ResultNoToken: 1, ResultInvalidToken: 1, ResultInsufficientScope: 1,
		ResultInvalidRequest: 1, ResultUnavailable: 0, ResultUpstreamError: 0,
	} {
		if got := counter(t, m, "signet_guard_requests_total", "result", r); got != want {
			t.Errorf("requests{result=%s} = %v, want %v", r, got, want)
		}
	}
	if got := counter(t, m, "signet_guard_verify_duration_seconds", "cache", "hit"); got != 1 {
		t.Errorf("verify{cache=hit} count %v, want 1", got)
	}
	if got := counter(t, m, "signet_guard_verify_duration_seconds", "cache", "miss"); got != 3 {
		t.Errorf("verify{cache=miss} count %v, want 3", got)
	}
	if got := counter(t, m, "signet_guard_cache_entries", "", ""); got != 1 {
		t.Errorf("cache entries %v, want 1", got)
	}
	if got := counter(t, m, "signet_guard_upstream_duration_seconds", "", ""); got != 2 {
		t.Errorf("upstream observations %v, want 2", got)
	}
}

// TestGuardAdmin: /healthz, /readyz (503 while the key source is
// unavailable) and /metrics answer on the combined handler and the
// admin one; the admin handler forwards nothing.
func TestGuardAdmin(t *testing.T) {
	f := newFixture(t, Config{})
	get := func(h http.Handler, path string) (int, string) {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "http://guard.test"+path, nil))
		return w.Code, w.Body.String()
	}
	for _, h := range []http.Handler{f.g.Handler(), f.g.AdminHandler()} {
		if code, _ := get(h, PathHealth); code != 200 {
			t.Errorf("healthz %d", code)
		}
		if code, _ := get(h, PathReady); code != 200 {
			t.Errorf("readyz %d", code)
		}
		if code, body := get(h, MetricsPath); code != 200 || !strings.Contains(body, "signet_guard_requests_total") {
			t.Errorf("metrics %d", code)
		}
	}
	outage := fmt.Errorf("%w: test", signet.ErrUnavailable)
	f.keys.err.Store(&outage)
	if code, _ := get(f.g.Handler(), PathReady); code != http.StatusServiceUnavailable {
		t.Errorf("readyz during the outage: %d, want 503", code)
	}
	if code, _ := get(f.g.AdminHandler(), "/hello"); code != http.StatusNotFound {
		t.Errorf("admin /hello: %d, want 404", code)
	}
	if n := f.up.count(); n != 0 {
		t.Errorf("the upstream received %d requests", n)
	}
}

// TestGuardLogsNoToken: the JSON log names each request by its id and
// never holds a token, nor any of its segments.
func TestGuardLogsNoToken(t *testing.T) {
	var logs bytes.Buffer // requests are served on this goroutine
	f := newFixture(t, Config{Logger: slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	other, err := signet.GenerateKeyWithID(signet.ES256, "k1")
	if err != nil {
		t.Fatal(err)
	}
	toks := []string{
		f.token(claims{}),
		f.tokenWith(other, claims{}),
		f.token(claims{Claims: jwt.Claims{Issuer: "https://evil.example"}}),
	}
	for _, tok := range toks {
		f.do(withToken(tok), nil)
	}
	out := logs.String()
	if strings.Count(out, `"request_id"`) != len(toks) {
		t.Errorf("want a line with a request_id per request:\n%s", out)
	}
	for _, tok := range toks {
		for _, seg := range strings.Split(tok, ".") {
			if strings.Contains(out, seg) {
				t.Fatalf("the log holds a token segment %q:\n%s", seg, out)
			}
		}
	}
}
