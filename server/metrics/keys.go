package metrics

import (
	"errors"
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/server/keys"
	"github.com/signet-go/signet/server/storage"
)

// KeyRing is what the key gauges read at each scrape: *keys.Manager.
type KeyRing interface {
	// Ring describes the keys served now (nil before the first load).
	Ring() []keys.KeyInfo
	// Now is the clock key ages are measured with.
	Now() time.Time
}

// WatchKeys adds signet_key_age_seconds{state} and signet_keys_published,
// read from ring at each scrape (one Ring call per scrape, so the gauges
// agree). Call it once.
func (m *Metrics) WatchKeys(ring KeyRing) error {
	if ring == nil {
		return fmt.Errorf("%w: metrics: nil key ring", signet.ErrMalformed)
	}
	err := errors.New("WatchKeys called twice")
	m.keysOnce.Do(func() { err = m.reg.Register(newKeyCollector(ring)) })
	if err != nil {
		return fmt.Errorf("%w: metrics: %w", signet.ErrMalformed, err)
	}
	return nil
}

// keyCollector turns a ring into the key gauges.
type keyCollector struct {
	ring      KeyRing
	age       *prometheus.Desc
	published *prometheus.Desc
}

func newKeyCollector(ring KeyRing) *keyCollector {
	return &keyCollector{
		ring: ring,
		age: prometheus.NewDesc("signet_key_age_seconds",
			"Seconds the key has been in its state: the active key since it started signing, the next key since it was published, the oldest retired key since it retired.",
			[]string{"state"}, nil),
		published: prometheus.NewDesc("signet_keys_published",
			"Keys in the published key set (JWKS).", nil, nil),
	}
}

// Describe implements prometheus.Collector.
func (c *keyCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.age
	ch <- c.published
}

// Collect implements prometheus.Collector.
func (c *keyCollector) Collect(ch chan<- prometheus.Metric) {
	ring := c.ring.Ring()
	now := c.ring.Now()
	published := 0
	var (
		haveActive, haveNext, haveRetired bool
		active, next, retired             time.Duration
	)
	for _, k := range ring {
		if k.Published {
			published++
		}
		switch k.State {
		case storage.KeyActive:
			haveActive, active = true, now.Sub(k.ActivateAt)
		case storage.KeyNext:
			haveNext, next = true, now.Sub(k.Created)
		case storage.KeyRetired:
			if a := now.Sub(k.RetireAt); !haveRetired || a > retired {
				haveRetired, retired = true, a
			}
		}
	}
	ch <- prometheus.MustNewConstMetric(c.published, prometheus.GaugeValue, float64(published))
	for _, s := range [...]struct {
		have  bool
		state storage.KeyState
		age   time.Duration
	}{{haveActive, storage.KeyActive, active}, {haveNext, storage.KeyNext, next}, {haveRetired, storage.KeyRetired, retired}} {
		if s.have {
			ch <- prometheus.MustNewConstMetric(c.age, prometheus.GaugeValue, s.age.Seconds(), string(s.state))
		}
	}
}
