package guard

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwks"
)

// StatsSource is a key source that reports its counters: *jwks.Remote.
type StatsSource interface {
	Stats() jwks.Stats
}

// watchKeys registers the key source's stats when keys report them.
func (m *Metrics) watchKeys(keys signet.Keys) error {
	s, ok := keys.(StatsSource)
	if !ok {
		return nil
	}
	return m.reg.Register(newKeyStatsCollector(s))
}

// keyStatsCollector turns a remote key set's Stats into metrics, read
// once per scrape (so that the series of one scrape agree).
type keyStatsCollector struct {
	src StatsSource

	fetches, fetchErrors, notModified     *prometheus.Desc
	kidMisses, missFetches, missCooldown  *prometheus.Desc
	skipped, keys, lastSuccess, readiness *prometheus.Desc
}

func newKeyStatsCollector(src StatsSource) *keyStatsCollector {
	d := func(name, help string) *prometheus.Desc { return prometheus.NewDesc(name, help, nil, nil) }
	return &keyStatsCollector{
		src:          src,
		fetches:      d("signet_jwks_fetches_total", "Fetches of the remote JWK Set started."),
		fetchErrors:  d("signet_jwks_fetch_errors_total", "Fetches of the remote JWK Set that failed (network, timeout, status, size, no usable key)."),
		notModified:  d("signet_jwks_not_modified_total", "Fetches answered 304 Not Modified."),
		kidMisses:    d("signet_jwks_kid_misses_total", "Lookups of a key ID the set does not hold."),
		missFetches:  d("signet_jwks_miss_fetches_total", "Unknown key IDs that started a fetch."),
		missCooldown: d("signet_jwks_miss_cooldown_total", "Unknown key IDs refused at once because the refetch cooldown was running."),
		skipped:      d("signet_jwks_skipped_keys_total", "Keys left out of fetched sets as unusable, over all fetches."),
		keys:         d("signet_jwks_keys", "Keys in the current set."),
		lastSuccess:  d("signet_jwks_last_success_timestamp_seconds", "When a fetch last succeeded, in Unix seconds (0: never)."),
		readiness:    d("signet_jwks_ready", "1 when the key set can verify tokens, 0 when it is unavailable."),
	}
}

// Describe implements prometheus.Collector.
func (c *keyStatsCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.fetches, c.fetchErrors, c.notModified, c.kidMisses, c.missFetches,
		c.missCooldown, c.skipped, c.keys, c.lastSuccess, c.readiness} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *keyStatsCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.src.Stats()
	counter := func(d *prometheus.Desc, v uint64) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, float64(v))
	}
	gauge := func(d *prometheus.Desc, v float64) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v)
	}
	counter(c.fetches, s.Fetches)
	counter(c.fetchErrors, s.FetchErrors)
	counter(c.notModified, s.NotModified)
	counter(c.kidMisses, s.KidMisses)
	counter(c.missFetches, s.MissFetches)
	counter(c.missCooldown, s.MissCooldown)
	counter(c.skipped, s.SkippedKeys)
	gauge(c.keys, float64(s.Keys))
	last := 0.0
	if !s.LastSuccess.IsZero() {
		last = float64(s.LastSuccess.UnixNano()) / 1e9
	}
	gauge(c.lastSuccess, last)
	ready := 0.0
	if s.Ready {
		ready = 1
	}
	gauge(c.readiness, ready)
}
