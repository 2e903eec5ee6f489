package jwks

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/clip"
	"github.com/signet-go/signet/jwk"
)

// The defaults of Options.
const (
	DefaultStartTimeout = 10 * time.Second // longest wait of New for the first fetch
	DefaultFetchTimeout = 5 * time.Second  // longest fetch, body included
	DefaultCooldown     = 30 * time.Second // least time between two fetches for unknown kids
	DefaultMaxStale     = 24 * time.Hour   // longest the last good set serves once fetches fail
	DefaultMinRefresh   = 5 * time.Minute  // shortest refresh interval a response may ask for
	DefaultMaxRefresh   = 24 * time.Hour   // longest refresh interval a response may ask for
	DefaultRefresh      = 15 * time.Minute // refresh interval when a response asks for none
	DefaultMaxSize      = 1 << 20          // largest body read, in bytes
	DefaultMaxKeyID     = 256              // longest kid, in bytes, whose miss may trigger a fetch
)

const (
	minBackoff            = 1 * time.Second  // first retry after a failed fetch
	maxBackoff            = 60 * time.Second // longest wait between retries
	backoffJitterPercent  = 20               // retries are spread by ± this share
	refreshAheadPercent   = 80               // background refresh at this share of the interval
	refreshJitterPercent  = 10               // the interval is shortened by up to this share
	minBackgroundInterval = 10 * time.Millisecond
	userAgent             = "signet-jwks (+https://github.com/signet-go/signet)"
	acceptHeader          = "application/jwk-set+json, application/json"
)

// Options configures a Remote. Only Algorithms is required; a zero
// duration or size takes its default.
type Options struct {
	// Algorithms are the algorithms tokens may use: keys of the set are
	// bound to them (see jwk.ReadSet), and only a lookup for one of them
	// may trigger a refetch. Required. HMAC algorithms are refused: a
	// shared secret never comes from a published set.
	Algorithms []signet.Algorithm
	// Client makes the requests; nil uses a client with
	// http.DefaultTransport. It is copied, and the copy never follows a
	// redirect (its CheckRedirect is replaced). Its own Timeout, if any,
	// applies besides FetchTimeout.
	Client *http.Client
	// AllowHTTP permits a plain http URL to a host that is not loopback
	// (https is required otherwise; http://localhost, 127.0.0.0/8 and [::1]
	// are always allowed, for tests and sidecars).
	AllowHTTP bool
	// StartTimeout bounds how long New waits for the first fetch (default
	// 10 s); FetchTimeout bounds each fetch, reading the body included
	// (default 5 s).
	StartTimeout, FetchTimeout time.Duration
	// Cooldown is the least time between two fetches triggered by unknown
	// key IDs (default 30 s). MaxStale is how long the last good set keeps
	// serving once fetches fail (default 24 h; a negative value serves it
	// forever); after it, Select and Ready report signet.ErrUnavailable.
	Cooldown, MaxStale time.Duration
	// MinRefresh and MaxRefresh clamp the refresh interval the server's
	// Cache-Control max-age or Expires asks for (defaults 5 min and 24 h);
	// DefaultRefresh is used when it asks for none, or says no-cache or
	// no-store (default 15 min).
	MinRefresh, MaxRefresh, DefaultRefresh time.Duration
	// MaxSize is the largest body read (default 1 MiB, at most
	// jwk.MaxSetSize); a larger one fails the fetch.
	MaxSize int64
	// MaxKeyID is the longest key ID whose miss may trigger a refetch
	// (default 256 bytes); a longer unknown one is answered with
	// signet.ErrKeyNotFound at once.
	MaxKeyID int
	// Now is the clock for every decision (refresh times, cooldown,
	// staleness); nil is time.Now. Waiting itself uses real timers.
	Now func() time.Time
}

// config is Options with the defaults filled in and checked.
type config struct {
	Options
	url string
}

func newConfig(rawURL string, o Options) (*config, error) {
	c := &config{Options: o, url: rawURL}
	if err := checkURL(rawURL, o.AllowHTTP); err != nil {
		return nil, err
	}
	if len(o.Algorithms) == 0 {
		return nil, fmt.Errorf("%w: jwks: Options.Algorithms is empty: say which algorithms tokens may use", signet.ErrUnsupported)
	}
	c.Algorithms = append([]signet.Algorithm(nil), o.Algorithms...)
	for _, a := range c.Algorithms {
		if _, err := signet.ParseAlgorithm(string(a)); err != nil {
			return nil, fmt.Errorf("jwks: Options.Algorithms: %w", err)
		}
		if a.Symmetric() {
			return nil, fmt.Errorf("%w: jwks: %s uses a shared secret, which never comes from a published key set", signet.ErrUnsupported, a)
		}
	}
	durations := []struct {
		name string
		v    *time.Duration
		def  time.Duration
	}{
		{"StartTimeout", &c.StartTimeout, DefaultStartTimeout},
		{"FetchTimeout", &c.FetchTimeout, DefaultFetchTimeout},
		{"Cooldown", &c.Cooldown, DefaultCooldown},
		{"MinRefresh", &c.MinRefresh, DefaultMinRefresh},
		{"MaxRefresh", &c.MaxRefresh, DefaultMaxRefresh},
		{"DefaultRefresh", &c.DefaultRefresh, DefaultRefresh},
	}
	for _, d := range durations {
		switch {
		case *d.v < 0:
			return nil, fmt.Errorf("%w: jwks: Options.%s is negative", signet.ErrUnsupported, d.name)
		case *d.v == 0:
			*d.v = d.def
		}
	}
	if c.MaxStale == 0 {
		c.MaxStale = DefaultMaxStale
	}
	if c.MinRefresh > c.MaxRefresh {
		return nil, fmt.Errorf("%w: jwks: Options.MinRefresh (%v) exceeds MaxRefresh (%v)", signet.ErrUnsupported, c.MinRefresh, c.MaxRefresh)
	}
	switch {
	case c.MaxSize < 0 || c.MaxSize > jwk.MaxSetSize:
		return nil, fmt.Errorf("%w: jwks: Options.MaxSize must be between 1 and %d", signet.ErrUnsupported, jwk.MaxSetSize)
	case c.MaxSize == 0:
		c.MaxSize = DefaultMaxSize
	}
	switch {
	case c.MaxKeyID < 0:
		return nil, fmt.Errorf("%w: jwks: Options.MaxKeyID is negative", signet.ErrUnsupported)
	case c.MaxKeyID == 0:
		c.MaxKeyID = DefaultMaxKeyID
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c, nil
}

// checkURL allows https, and http to a loopback host or with allowHTTP.
func checkURL(rawURL string, allowHTTP bool) error {
	u, err := url.Parse(rawURL)
	if err != nil {
		return fmt.Errorf("%w: jwks: URL: %v", signet.ErrMalformed, err)
	}
	if u.Host == "" || u.Opaque != "" {
		return fmt.Errorf("%w: jwks: URL %q has no host", signet.ErrMalformed, clip.String(rawURL))
	}
	if u.User != nil {
		return fmt.Errorf("%w: jwks: URL carries credentials; configure them on the client", signet.ErrUnsupported)
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return nil
	case "http":
		if allowHTTP || isLoopback(u.Hostname()) {
			return nil
		}
		return fmt.Errorf("%w: jwks: plain http to %q: keys must come over https (Options.AllowHTTP opts out)", signet.ErrUnsupported, clip.String(u.Hostname()))
	}
	return fmt.Errorf("%w: jwks: URL scheme %q (https only)", signet.ErrUnsupported, clip.String(u.Scheme))
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
