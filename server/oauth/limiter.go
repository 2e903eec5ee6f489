package oauth

import (
	"sync"
	"time"
)

// The limit on failed client authentications: each registered client id
// has a bucket of FailureBurst failures, refilled by one every
// FailureRefill. While a client's bucket is empty, its authentications
// are refused (invalid_client) without the credential being checked, so
// that its secret cannot be guessed faster than the refill rate.
const (
	FailureBurst  = 10
	FailureRefill = 6 * time.Second
	// maxBuckets bounds the limiter's memory: only registered client ids
	// get buckets, and full ones are dropped when it is reached.
	maxBuckets = 2 * MaxClients
)

type bucket struct {
	tokens float64
	last   time.Time
}

// limiter counts failed authentications per client id.
type limiter struct {
	now func() time.Time
	mu  sync.Mutex
	m   map[string]*bucket
}

func newLimiter(now func() time.Time) *limiter {
	return &limiter{now: now, m: make(map[string]*bucket)}
}

// refill brings b up to date at now and returns its tokens.
func refill(b *bucket, now time.Time) float64 {
	if d := now.Sub(b.last); d > 0 {
		b.tokens = min(FailureBurst, b.tokens+float64(d)/float64(FailureRefill))
		b.last = now
	}
	return b.tokens
}

// allow reports whether id may try to authenticate: its bucket is not
// empty.
func (l *limiter) allow(id string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.m[id]
	if !ok {
		return true
	}
	return refill(b, l.now()) >= 1
}

// fail spends one of id's tokens.
func (l *limiter) fail(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b, ok := l.m[id]
	if !ok {
		if len(l.m) >= maxBuckets {
			for k, v := range l.m {
				if refill(v, now) >= FailureBurst {
					delete(l.m, k)
				}
			}
			if len(l.m) >= maxBuckets {
				return
			}
		}
		b = &bucket{tokens: FailureBurst, last: now}
		l.m[id] = b
	}
	refill(b, now)
	b.tokens = max(0, b.tokens-1)
}
