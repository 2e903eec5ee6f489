package guard

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwt"
)

// TestCacheHitSkipsVerification: a token seen before is forwarded
// without a key lookup (no Select, so no signature check).
func TestCacheHitSkipsVerification(t *testing.T) {
	f := newFixture(t, Config{})
	tok := f.token(claims{})
	for i := range 5 {
		if w := f.do(withToken(tok), nil); w.Code != http.StatusOK {
			t.Fatalf("request %d: %d %s", i, w.Code, w.Body)
		}
	}
	if n := f.keys.selects.Load(); n != 1 {
		t.Errorf("%d Select calls for 5 requests with one token, want 1", n)
	}
	m := f.g.Metrics()
	if h, mi := counter(t, m, "signet_guard_cache_hits_total", "", ""), counter(t, m, "signet_guard_cache_misses_total", "", ""); h != 4 || mi != 1 {
		t.Errorf("hits %v misses %v, want 4 and 1", h, mi)
	}
	// Each forwarded request carries the claims of its own token.
	if got := f.up.last(t).Get(DefaultClaimsHeader); got == "" {
		t.Error("no claims header on a cache hit")
	}
}

// TestCacheNeverPastExp: an entry is not used at or after the token's
// exp, nor past CacheMaxAge, nor before its iat/nbf when the clock steps
// back: the token is verified again, with the verifier's verdict.
func TestCacheNeverPastExp(t *testing.T) {
	exp := t0.Add(10 * time.Minute)
	for _, tc := range []struct {
		name    string
		at      time.Time
		status  int
		selects int64
	}{
		{"before exp: hit", exp.Add(-time.Second), 200, 1},
		{"at exp: verified again, expired", exp, 401, 2},
		{"after exp: verified again, expired", exp.Add(time.Hour), 401, 2},
		{"clock before iat: verified again, refused", t0.Add(-time.Second), 401, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, Config{CacheMaxAge: time.Hour})
			tok := f.token(claims{Claims: jwt.Claims{ExpiresAt: jwt.At(exp)}})
			if w := f.do(withToken(tok), nil); w.Code != 200 {
				t.Fatalf("first request: %d", w.Code)
			}
			f.clock.Set(tc.at)
			if w := f.do(withToken(tok), nil); w.Code != tc.status {
				t.Errorf("status %d, want %d", w.Code, tc.status)
			}
			if n := f.keys.selects.Load(); n != tc.selects {
				t.Errorf("%d Select calls, want %d", n, tc.selects)
			}
		})
	}
	t.Run("CacheMaxAge", func(t *testing.T) {
		f := newFixture(t, Config{CacheMaxAge: time.Minute})
		tok := f.token(claims{}) // exp t0+15 min
		f.do(withToken(tok), nil)
		f.clock.Set(t0.Add(time.Minute - time.Nanosecond))
		f.do(withToken(tok), nil)
		if n := f.keys.selects.Load(); n != 1 {
			t.Fatalf("within CacheMaxAge: %d Select calls, want 1", n)
		}
		f.clock.Set(t0.Add(time.Minute))
		if w := f.do(withToken(tok), nil); w.Code != 200 {
			t.Fatalf("status %d", w.Code)
		}
		if n := f.keys.selects.Load(); n != 2 {
			t.Errorf("at CacheMaxAge: %d Select calls, want 2 (verified again)", n)
		}
	})
	t.Run("fractional exp", func(t *testing.T) {
		// exp 10.5 s after t0: the entry ends at t0+10 s (rounded down),
		// never after the token's own exp.
		f := newFixture(t, Config{CacheMaxAge: time.Hour})
		payload := fmt.Sprintf(`{"iss":%q,"aud":%q,"exp":%d.5}`, testIssuer, testAudience, t0.Add(10*time.Second).Unix())
		tok, err := jwt.SignBytes(f.key, []byte(payload), "JWT")
		if err != nil {
			t.Fatal(err)
		}
		v, _, err := f.g.check(tok)
		if err != nil {
			t.Fatal(err)
		}
		if want := t0.Add(10 * time.Second); !v.notAfter.Equal(want) {
			t.Errorf("entry usable until %v, want %v", v.notAfter, want)
		}
	})
}

// TestCacheOnlyVerified: refused tokens are never cached; each try costs
// a verification and gets the same verdict.
func TestCacheOnlyVerified(t *testing.T) {
	f := newFixture(t, Config{Scopes: []string{"admin"}})
	tok := f.token(claims{Scope: "read"})
	for range 3 {
		if w := f.do(withToken(tok), nil); w.Code != http.StatusForbidden {
			t.Fatalf("status %d, want 403", w.Code)
		}
	}
	if n := f.keys.selects.Load(); n != 3 {
		t.Errorf("%d Select calls, want 3", n)
	}
	if n := f.g.cache.len(); n != 0 {
		t.Errorf("%d cache entries, want 0", n)
	}
}

// TestCacheDisabled: CacheSize < 0 verifies every request.
func TestCacheDisabled(t *testing.T) {
	f := newFixture(t, Config{CacheSize: -1})
	tok := f.token(claims{})
	for range 3 {
		f.do(withToken(tok), nil)
	}
	if n := f.keys.selects.Load(); n != 3 {
		t.Errorf("%d Select calls, want 3", n)
	}
}

// TestCacheBounded: the cache never holds more than its size, evicting
// the least recently used entry; the evictions are counted.
func TestCacheBounded(t *testing.T) {
	f := newFixture(t, Config{CacheSize: 8})
	toks := make([]string, 20)
	for i := range toks {
		toks[i] = f.token(claims{Claims: jwt.Claims{ID: fmt.Sprint("jti-", i)}})
		if w := f.do(withToken(toks[i]), nil); w.Code != 200 {
			t.Fatal(w.Code)
		}
		// Keep token 0 recently used: it must survive.
		f.do(withToken(toks[0]), nil)
	}
	if n := f.g.cache.len(); n != 8 {
		t.Errorf("%d entries, want 8", n)
	}
	if got := counter(t, f.g.Metrics(), "signet_guard_cache_evictions_total", "", ""); got != 12 {
		t.Errorf("evictions %v, want 12", got)
	}
	before := f.keys.selects.Load()
	f.do(withToken(toks[0]), nil)
	f.do(withToken(toks[19]), nil)
	if n := f.keys.selects.Load() - before; n != 0 {
		t.Errorf("the recently used tokens were evicted (%d Select calls)", n)
	}
	f.do(withToken(toks[1]), nil)
	if n := f.keys.selects.Load() - before; n != 1 {
		t.Errorf("the least recently used token was kept (%d Select calls)", n)
	}
}

// TestCacheShards: a large cache holds exactly its size, over its shards.
func TestCacheShards(t *testing.T) {
	const size = 1000
	c := newCache(size)
	total := 0
	for i := range c.shards {
		total += c.shards[i].max
	}
	if total != size {
		t.Fatalf("shards hold %d, want %d", total, size)
	}
	v := verified{notAfter: t0.Add(time.Hour)}
	for i := range 5 * size {
		k := cacheKey(sha256.Sum256(fmt.Append(nil, i)))
		c.put(&k, v)
	}
	if n := c.len(); n != size {
		t.Errorf("%d entries, want %d", n, size)
	}
}

// TestCacheOutage: during a key source outage (its Ready fails), a token
// already verified gets the 503 a new one gets: the cache never answers
// for a key source that says it cannot (see TestCacheFollowsRemoteKeys).
func TestCacheOutage(t *testing.T) {
	f := newFixture(t, Config{})
	known := f.token(claims{})
	f.do(withToken(known), nil)
	outage := fmt.Errorf("%w: test", signet.ErrUnavailable)
	f.keys.err.Store(&outage)
	if w := f.do(withToken(known), nil); w.Code != http.StatusServiceUnavailable {
		t.Errorf("cached token during the outage: %d, want 503", w.Code)
	}
	fresh := f.token(claims{Claims: jwt.Claims{ID: "other"}})
	if w := f.do(withToken(fresh), nil); w.Code != http.StatusServiceUnavailable {
		t.Errorf("new token during the outage: %d, want 503", w.Code)
	}
	if _, _, err := f.g.check(fresh); !errors.Is(err, signet.ErrUnavailable) {
		t.Errorf("check: %v", err)
	}
}
