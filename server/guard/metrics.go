package guard

import (
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/signet-go/signet"
)

// MetricsPath is where the guard serves its metrics.
const MetricsPath = "/metrics"

// VerifyBuckets returns the upper bounds, in seconds, of the verification
// latency histogram: from 5 µs (a cache hit) to 100 ms (an RSA-4096
// check on a loaded machine), since Prometheus's default buckets start at
// 5 ms.
func VerifyBuckets() []float64 {
	return []float64{5e-6, 1e-5, 2.5e-5, 5e-5, 1e-4, 2.5e-4, 5e-4, 1e-3, 2.5e-3, 5e-3, 0.01, 0.025, 0.1}
}

// UpstreamBuckets returns the upper bounds, in seconds, of the upstream
// latency histogram: from 100 µs to 10 s.
func UpstreamBuckets() []float64 {
	return []float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10}
}

// Metrics are a Guard's Prometheus metrics, on a registry of their own
// (no global registry), with the Go runtime and process collectors. One
// Metrics serves one Guard. See the package doc for the list.
type Metrics struct {
	reg *prometheus.Registry

	requestsVec *prometheus.CounterVec
	requests    map[string]prometheus.Counter // read-only after NewMetrics
	verifyHit   prometheus.Observer
	verifyMiss  prometheus.Observer
	upstreamDur prometheus.Observer
	hits        prometheus.Counter
	misses      prometheus.Counter
	evictions   prometheus.Counter

	watchOnce sync.Once
}

// NewMetrics makes the metrics of a Guard (pass them in Config.Metrics,
// or let New make them).
func NewMetrics() *Metrics {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m := &Metrics{
		reg: reg,
		requestsVec: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "signet_guard_requests_total",
			Help: "Requests the guard handled, by result: forwarded, no_token, invalid_request, invalid_token, insufficient_scope, unavailable, upstream_error, canceled.",
		}, []string{"result"}),
		requests: make(map[string]prometheus.Counter, len(results)),
		hits: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "signet_guard_cache_hits_total",
			Help: "Tokens found in the cache of verified tokens (no signature check).",
		}),
		misses: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "signet_guard_cache_misses_total",
			Help: "Tokens not in the cache of verified tokens (verified in full).",
		}),
		evictions: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "signet_guard_cache_evictions_total",
			Help: "Verified tokens dropped from the full cache to make room.",
		}),
	}
	verify := prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "signet_guard_verify_duration_seconds",
		Help:    "Time to check a request's token, by cache: hit (found verified) or miss (signature and claims checked).",
		Buckets: VerifyBuckets(),
	}, []string{"cache"})
	m.verifyHit, m.verifyMiss = verify.WithLabelValues("hit"), verify.WithLabelValues("miss")
	upstream := prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "signet_guard_upstream_duration_seconds",
		Help:    "Time from forwarding a verified request to the end of the upstream's answer.",
		Buckets: UpstreamBuckets(),
	})
	m.upstreamDur = upstream
	reg.MustRegister(m.requestsVec, m.hits, m.misses, m.evictions, verify, upstream)
	for _, r := range results {
		m.requests[r] = m.requestsVec.WithLabelValues(r)
	}
	return m
}

// Registry returns the registry the metrics are registered on.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the metrics in the Prometheus exposition formats (mount
// it at MetricsPath).
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

func (m *Metrics) request(result string) {
	if c, ok := m.requests[result]; ok {
		c.Inc()
		return
	}
	m.requestsVec.WithLabelValues(result).Inc()
}

func (m *Metrics) verified(hit bool, d time.Duration) {
	if hit {
		m.verifyHit.Observe(d.Seconds())
	} else {
		m.verifyMiss.Observe(d.Seconds())
	}
}

func (m *Metrics) upstream(d time.Duration) { m.upstreamDur.Observe(d.Seconds()) }
func (m *Metrics) cacheHit()                { m.hits.Inc() }
func (m *Metrics) cacheMiss()               { m.misses.Inc() }
func (m *Metrics) cacheEvicted()            { m.evictions.Inc() }

// watch adds the gauges read from g at each scrape: the cache's entries
// and, when g's keys report them, the key source's stats.
func (m *Metrics) watch(g *Guard) error {
	err := errors.New("the Metrics already serve another Guard")
	m.watchOnce.Do(func() {
		err = nil
		if g.cache != nil {
			c := g.cache
			err = m.reg.Register(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
				Name: "signet_guard_cache_entries",
				Help: "Verified tokens in the cache now.",
			}, func() float64 { return float64(c.len()) }))
		}
		if err == nil {
			err = m.watchKeys(g.keys)
		}
	})
	if err != nil {
		return fmt.Errorf("%w: guard: metrics: %w", signet.ErrMalformed, err)
	}
	return nil
}
