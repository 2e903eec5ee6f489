package metrics

import (
	"net/http"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/signet-go/signet/server/keys"
	"github.com/signet-go/signet/server/oauth"
)

// Path is where the service serves its metrics.
const Path = "/metrics"

// Buckets returns the latency histogram's upper bounds, in seconds: from
// 100 µs to 2.5 s.
func Buckets() []float64 {
	return []float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5}
}

// The label values created at zero by New.
var (
	tokenReasons = []string{
		oauth.ErrInvalidRequest, oauth.ErrInvalidClient, oauth.ErrInvalidScope, oauth.ErrInvalidTarget,
		oauth.ErrUnsupportedGrantType, oauth.ReasonRateLimited, oauth.ReasonUnavailable, oauth.ReasonServerError,
	}
	introspectResults = []string{
		oauth.ResultActive, oauth.ResultInactive, oauth.ReasonUnavailable,
		oauth.ErrInvalidRequest, oauth.ErrInvalidClient, oauth.ReasonRateLimited, oauth.ReasonServerError,
	}
	revokeResults = []string{
		oauth.ResultRevoked, oauth.ResultIgnored, oauth.ErrInvalidGrant, oauth.ReasonUnavailable,
		oauth.ErrInvalidRequest, oauth.ErrInvalidClient, oauth.ReasonRateLimited,
	}
	storeOps = []string{
		oauth.StoreOpUseOnce, oauth.StoreOpRevoked, oauth.StoreOpRevoke, oauth.StoreOpPing,
		keys.StoreOpKeys, keys.StoreOpSwapKeys,
	}
)

// Metrics holds the service's metrics and the registry they are
// registered on. It implements oauth.Observer and keys.Observer. Make
// one with New; it is safe for concurrent use.
type Metrics struct {
	reg *prometheus.Registry

	issued         *prometheus.CounterVec
	failed         labelled
	introspections labelled
	revocations    labelled
	storeErrors    labelled
	rotations      prometheus.Counter
	duration       *prometheus.HistogramVec

	mu       sync.RWMutex
	issuedBy map[[2]string]prometheus.Counter // {alg, client_id}
	durBy    map[durKey]prometheus.Observer

	keysOnce sync.Once
}

// Interface checks.
var (
	_ oauth.Observer = (*Metrics)(nil)
	_ keys.Observer  = (*Metrics)(nil)
)

// labelled is a counter with one label whose known values are created up
// front, so that counting one of them takes a map read and no allocation.
type labelled struct {
	vec   *prometheus.CounterVec
	known map[string]prometheus.Counter // read-only after New
}

func newLabelled(reg *prometheus.Registry, name, help, label string, values []string) labelled {
	l := labelled{
		vec:   prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, []string{label}),
		known: make(map[string]prometheus.Counter, len(values)),
	}
	reg.MustRegister(l.vec)
	for _, v := range values {
		l.known[v] = l.vec.WithLabelValues(v)
	}
	return l
}

func (l *labelled) inc(v string) {
	if c, ok := l.known[v]; ok {
		c.Inc()
		return
	}
	l.vec.WithLabelValues(v).Inc()
}

// New makes the metrics on a registry of their own, with the Go runtime
// and process collectors.
func New() *Metrics {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m := &Metrics{
		reg: reg,
		issued: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "signet_tokens_issued_total",
			Help: "Access tokens issued, by signing algorithm and client.",
		}, []string{"alg", "client_id"}),
		failed: newLabelled(reg, "signet_token_requests_failed_total",
			"Token requests refused, by RFC 6749 error code or rate_limited, unavailable, server_error.", "reason", tokenReasons),
		introspections: newLabelled(reg, "signet_introspections_total",
			"Introspection requests, by result (active, inactive, unavailable or the error code of a refused request).", "result", introspectResults),
		revocations: newLabelled(reg, "signet_revocations_total",
			"Revocation requests, by result (revoked, ignored, invalid_grant, unavailable or the error code of a refused request).", "result", revokeResults),
		storeErrors: newLabelled(reg, "signet_store_errors_total",
			"Failed store calls, by operation.", "op", storeOps),
		rotations: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "signet_key_rotations_total",
			Help: "Key rotations this instance stored (a new key started signing).",
		}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "http_request_duration_seconds",
			Help:    "Latency of the service's HTTP requests, by route, method and status code.",
			Buckets: Buckets(),
		}, []string{"handler", "method", "code"}),
		issuedBy: make(map[[2]string]prometheus.Counter),
		durBy:    make(map[durKey]prometheus.Observer),
	}
	reg.MustRegister(m.issued, m.rotations, m.duration)
	return m
}

// Registry returns the registry the metrics are registered on, for
// collectors of other parts of the service.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the metrics in the Prometheus exposition formats (mount
// it at Path).
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// TokenIssued implements oauth.Observer.
func (m *Metrics) TokenIssued(alg, clientID string) {
	k := [2]string{alg, clientID}
	m.mu.RLock()
	c, ok := m.issuedBy[k]
	m.mu.RUnlock()
	if !ok {
		c = m.issued.WithLabelValues(alg, clientID)
		m.mu.Lock()
		m.issuedBy[k] = c
		m.mu.Unlock()
	}
	c.Inc()
}

// TokenFailed implements oauth.Observer.
func (m *Metrics) TokenFailed(reason string) { m.failed.inc(reason) }

// Introspected implements oauth.Observer.
func (m *Metrics) Introspected(result string) { m.introspections.inc(result) }

// Revoked implements oauth.Observer.
func (m *Metrics) Revoked(result string) { m.revocations.inc(result) }

// StoreError implements oauth.Observer and keys.Observer.
func (m *Metrics) StoreError(op string) { m.storeErrors.inc(op) }

// Rotated implements keys.Observer.
func (m *Metrics) Rotated() { m.rotations.Inc() }
