package oauth

import (
	"net/http"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"
)

// The limit on failed client authentications.
//
// Threat model. An attacker who knows a client id (ids are not secret)
// tries to guess its secret, or to forge its assertions, online; or,
// knowing that failures are limited, spends them to lock the real client
// out. The limiter bounds the first without giving the second away:
// failures are counted per client id and per source (the request's
// address: an IPv4 address, or the /56 prefix of an IPv6 address, what a
// home or small site is commonly given, so that an attacker holding a /64
// or a /56 is one source, not 2^64).
//
//   - Each (client id, source) pair has a bucket of FailureBurst failures,
//     refilled by one every FailureRefill. While it is empty, that source's
//     authentications as that client are refused (invalid_client, metric
//     ReasonRateLimited) without the credential being checked: a source
//     guesses a client's secret at most FailureBurst times, then once per
//     FailureRefill.
//   - A source that has not failed has a full bucket: its correct
//     credential is always checked and accepted, whatever other sources
//     did. An attacker locks out only its own address (and its /56).
//   - The table of buckets is bounded (failureSources entries; a full
//     bucket is forgotten). If an attacker fails from so many sources at
//     once that the table is full, the failures of sources not in it are
//     counted per client id, in one more bucket for that client; once it
//     is empty, sources not in the table are refused for that client until
//     it refills. Only then, under a distributed attack of that size on one
//     client, can a source that never failed be held off; brute force stays
//     bounded by the table's and that bucket's rates.
//
// Behind a load balancer or reverse proxy, a request's address
// (http.Request.RemoteAddr) is the proxy's, so every client shares one
// source and the limit is per client id, as if from one address: an
// attacker behind the same proxy can then lock a client out. No header is
// trusted by default (X-Forwarded-For is whatever the client wrote); a
// deployment behind a proxy that sets the client's address itself sets
// Config.SourceAddr to read it (ForwardedFor, `signet serve
// --trusted-proxy`). The counts live in each instance's
// memory, not in the store: N instances behind a balancer allow a source
// up to N times the guesses of one (and forget them on restart).
const (
	// FailureBurst is how many failures a (client id, source) pair may
	// have in a row.
	FailureBurst = 10
	// FailureRefill is how often the pair regains one.
	FailureRefill = 6 * time.Second
	// failureSources bounds the limiter's table of (client, source)
	// buckets, about 100 bytes each.
	failureSources = 1 << 15
	// ipv6SourceBits is the prefix of an IPv6 address that is one source.
	ipv6SourceBits = 56
)

type bucket struct {
	tokens float64
	last   time.Time
}

// sourceKey is a bucket's client id and source.
type sourceKey struct {
	id  string
	src netip.Prefix // the zero Prefix: the source is unknown
}

// limiter counts failed authentications per client id and source.
type limiter struct {
	now  func() time.Time
	addr func(*http.Request) netip.Addr // Config.SourceAddr
	max  int                            // failureSources but in tests
	mu   sync.Mutex
	m    map[sourceKey]*bucket
	over map[string]*bucket // per client id: failures of sources not in m once m is full
	// n is len(m)+len(over): with none, every request is allowed without
	// taking the lock or reading its address.
	n atomic.Int64
	// swept is when the full buckets were last dropped: at most once per
	// FailureRefill, so that failures on a full table stay cheap.
	swept time.Time
}

func newLimiter(now func() time.Time, addr func(*http.Request) netip.Addr) *limiter {
	if addr == nil {
		addr = remoteAddr
	}
	return &limiter{now: now, addr: addr, max: failureSources, m: make(map[sourceKey]*bucket), over: make(map[string]*bucket)}
}

// sourceOf is the source a request's failures are counted by: its
// address if IPv4, its /56 if IPv6; the zero Prefix (one source for all
// such requests) when it has no valid address.
func sourceOf(addr netip.Addr) netip.Prefix {
	addr = addr.Unmap()
	switch {
	case addr.Is4():
		return netip.PrefixFrom(addr, 32)
	case addr.Is6():
		p, _ := addr.WithZone("").Prefix(ipv6SourceBits)
		return p
	}
	return netip.Prefix{}
}

// remoteAddr is the default Config.SourceAddr: the host of r.RemoteAddr.
func remoteAddr(r *http.Request) netip.Addr {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		a, _ := netip.ParseAddr(r.RemoteAddr)
		return a
	}
	return ap.Addr()
}

// refill brings b up to date at now and returns its tokens.
func refill(b *bucket, now time.Time) float64 {
	if d := now.Sub(b.last); d > 0 {
		b.tokens = min(FailureBurst, b.tokens+float64(d)/float64(FailureRefill))
		b.last = now
	}
	return b.tokens
}

// sweep drops the buckets that are full again (as good as none), at most
// once per FailureRefill. l.mu is held.
func (l *limiter) sweep(now time.Time) {
	if now.Sub(l.swept) < FailureRefill {
		return
	}
	l.swept = now
	for k, v := range l.m {
		if refill(v, now) >= FailureBurst {
			delete(l.m, k)
		}
	}
	for k, v := range l.over {
		if refill(v, now) >= FailureBurst {
			delete(l.over, k)
		}
	}
	l.n.Store(int64(len(l.m) + len(l.over)))
}

// allow reports whether r's source may try to authenticate as id: its
// bucket is not empty (or it has none), and, for a source not in the
// table while the table is full, id's overflow bucket is not empty.
func (l *limiter) allow(id string, r *http.Request) bool {
	if l.n.Load() == 0 {
		return true
	}
	src := sourceOf(l.addr(r))
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	l.sweep(now)
	if b, ok := l.m[sourceKey{id, src}]; ok {
		return refill(b, now) >= 1
	}
	if b, ok := l.over[id]; ok && len(l.m) >= l.max {
		return refill(b, now) >= 1
	}
	return true
}

// fail spends one of the tokens of r's source for id: from its bucket,
// made if need be; from id's overflow bucket when the table is full.
func (l *limiter) fail(id string, r *http.Request) {
	src := sourceOf(l.addr(r))
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	k := sourceKey{id, src}
	b, ok := l.m[k]
	if !ok && len(l.m) >= l.max {
		l.sweep(now)
	}
	if !ok {
		if len(l.m) < l.max {
			b = &bucket{tokens: FailureBurst, last: now}
			l.m[k] = b
		} else if b, ok = l.over[id]; !ok {
			b = &bucket{tokens: FailureBurst, last: now}
			l.over[id] = b
		}
	}
	l.n.Store(int64(len(l.m) + len(l.over)))
	refill(b, now)
	b.tokens = max(0, b.tokens-1)
}
