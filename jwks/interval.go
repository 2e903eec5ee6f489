package jwks

import (
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// maxDirectives bounds the Cache-Control directives read: the header is
// the server's, but a proxy in between may pile them up.
const maxDirectives = 64

// cacheControl is what refresh needs of a Cache-Control header.
type cacheControl struct {
	maxAge   time.Duration
	hasAge   bool // a valid max-age was given
	noCache  bool // no-cache or no-store
	conflict bool // max-age given twice with different values
}

// parseCacheControl reads the directives of Cache-Control field values
// (RFC 9111 §5.2): names case-insensitive, max-age's value a
// non-negative integer of seconds, possibly quoted. An invalid or repeated
// and conflicting max-age counts as absent. Directives beyond the first
// maxDirectives are ignored.
func parseCacheControl(values []string) cacheControl {
	var cc cacheControl
	n := 0
	for _, v := range values {
		for d := range strings.SplitSeq(v, ",") {
			if n++; n > maxDirectives {
				return cc
			}
			name, arg, _ := strings.Cut(strings.TrimSpace(d), "=")
			switch strings.ToLower(strings.TrimSpace(name)) {
			case "no-cache", "no-store":
				cc.noCache = true
			case "max-age":
				age, ok := parseSeconds(strings.TrimSpace(arg))
				switch {
				case !ok:
					cc.conflict = true
				case cc.hasAge && age != cc.maxAge:
					cc.conflict = true
				default:
					cc.maxAge, cc.hasAge = age, true
				}
			}
		}
	}
	return cc
}

// maxSeconds caps a delta-seconds value (RFC 9111 §1.2.2: at least 2³¹
// must be representable; larger ones mean "a long time").
const maxSeconds = 1 << 31

// parseSeconds reads delta-seconds, bare or quoted.
func parseSeconds(s string) (time.Duration, bool) {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
	}
	if s == "" || len(s) > 19 {
		if len(s) > 19 && strings.Trim(s, "0123456789") == "" {
			return maxSeconds * time.Second, true
		}
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v > maxSeconds {
		v = maxSeconds
	}
	return time.Duration(v) * time.Second, true
}

// freshness is the refresh interval a response asks for, before jitter:
// max-age less the response's Age, else Expires less Date (or now), clamped
// to [MinRefresh, MaxRefresh]; DefaultRefresh when it asks for none, says
// no-cache or no-store, or gives a conflicting max-age.
func (c *config) freshness(h http.Header, now time.Time) time.Duration {
	cc := parseCacheControl(h.Values("Cache-Control"))
	var d time.Duration
	switch {
	case cc.noCache || cc.conflict:
		return c.DefaultRefresh
	case cc.hasAge:
		d = cc.maxAge
		if age, ok := parseSeconds(strings.TrimSpace(h.Get("Age"))); ok {
			d -= age
		}
	case h.Get("Expires") != "":
		exp, err := http.ParseTime(h.Get("Expires"))
		if err != nil { // RFC 9111 §5.3: an invalid date means already expired
			return c.MinRefresh
		}
		base := now
		if date, err := http.ParseTime(h.Get("Date")); err == nil {
			base = date
		}
		d = exp.Sub(base)
	default:
		return c.DefaultRefresh
	}
	return min(max(d, c.MinRefresh), c.MaxRefresh)
}

// refreshIn is when, after a fetch, the background refresh comes: the
// interval less up to 10 % of jitter, times 80 %. rnd is in [0, 1).
func refreshIn(interval time.Duration, rnd float64) time.Duration {
	jittered := interval - time.Duration(float64(interval)*refreshJitterPercent/100*rnd)
	return jittered / 100 * refreshAheadPercent
}

// backoff is the wait before retry number failures (1 for the first
// retry): 1 s doubling to 60 s, spread by ±20 %. rnd is in [0, 1).
func backoff(failures int, rnd float64) time.Duration {
	d := minBackoff
	for i := 1; i < failures && d < maxBackoff; i++ {
		d *= 2
	}
	d = min(d, maxBackoff)
	spread := float64(d) * backoffJitterPercent / 100
	return d + time.Duration(spread*(2*rnd-1))
}

func random() float64 { return rand.Float64() }
