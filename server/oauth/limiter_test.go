package oauth

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"
)

// basicFrom is a client_secret_basic token request for svc-basic from
// the address remote.
func basicFrom(remote, secret string) req {
	return req{path: PathToken, form: "grant_type=client_credentials", header: basicHeader("svc-basic", secret), remote: remote}
}

// TestFailureLimit: past FailureBurst failures, a client is refused from
// that source without its credential being checked, until the bucket
// refills by one per FailureRefill; other sources, the real client's
// among them, and other clients are not affected.
func TestFailureLimit(t *testing.T) {
	e := newEnv(t, FormatJWT)
	const attacker, client = "198.51.100.7:40000", "203.0.113.5:50000"
	for i := 0; i < FailureBurst; i++ {
		wantError(t, e.do(basicFrom(attacker, "wrong")), 401, ErrInvalidClient)
	}
	if n := strings.Count(e.logs.String(), `"reason":"wrong secret"`); n != FailureBurst {
		t.Fatalf("%d failures checked, want %d", n, FailureBurst)
	}
	// The attacker's source is refused, even with the right secret.
	wantError(t, e.do(basicFrom(attacker, secretBasic)), 401, ErrInvalidClient)
	wantError(t, e.do(basicFrom("198.51.100.7:40001", secretBasic)), 401, ErrInvalidClient) // another port, same source
	if n := strings.Count(e.logs.String(), `"reason":"rate limited"`); n != 2 {
		t.Fatalf("%d refusals logged as rate limited, want 2", n)
	}
	// The real client, from an address that has not failed, is not
	// locked out; neither is another client from the attacker's address.
	checkTokenResponse(t, e.do(basicFrom(client, secretBasic)), "read write admin", 10*time.Minute)
	checkTokenResponse(t, e.do(req{path: PathToken, form: "grant_type=client_credentials&client_id=svc-post&client_secret=" + url.QueryEscape(secretPost), remote: attacker}), "read", DefaultAccessTokenTTL)
	// The client's own failures have their own allowance.
	for i := 0; i < FailureBurst; i++ {
		wantError(t, e.do(basicFrom(client, "wrong")), 401, ErrInvalidClient)
	}
	wantError(t, e.do(basicFrom(client, secretBasic)), 401, ErrInvalidClient)
	if n := strings.Count(e.logs.String(), `"reason":"rate limited"`); n != 3 {
		t.Fatalf("%d refusals logged as rate limited, want 3", n)
	}
	// One refill: one more try each.
	e.clock.Advance(FailureRefill)
	wantError(t, e.do(basicFrom(attacker, "wrong")), 401, ErrInvalidClient)
	wantError(t, e.do(basicFrom(attacker, secretBasic)), 401, ErrInvalidClient)
	if n := strings.Count(e.logs.String(), `"reason":"wrong secret"`); n != 2*FailureBurst+1 {
		t.Fatalf("%d failures checked, want %d", n, 2*FailureBurst+1)
	}
	checkTokenResponse(t, e.do(basicFrom(client, secretBasic)), "read write admin", 10*time.Minute)
	// Refilled to the full burst: as if nothing had happened.
	e.clock.Advance(FailureBurst * FailureRefill)
	checkTokenResponse(t, e.do(basicFrom(attacker, secretBasic)), "read write admin", 10*time.Minute)
}

// TestFailureLimitSources: an IPv6 /56 is one source, an IPv4-mapped
// address is its IPv4 address, and Config.SourceAddr replaces the
// request's address.
func TestFailureLimitSources(t *testing.T) {
	t.Run("IPv6 /56", func(t *testing.T) {
		e := newEnv(t, FormatJWT)
		for i := 0; i < FailureBurst; i++ {
			wantError(t, e.do(basicFrom("[2001:db8:1:100::1]:1", "wrong")), 401, ErrInvalidClient)
		}
		wantError(t, e.do(basicFrom("[2001:db8:1:1ff::2]:1", secretBasic)), 401, ErrInvalidClient)      // same /56
		wantError(t, e.do(basicFrom("[2001:db8:1:100::1%eth0]:1", secretBasic)), 401, ErrInvalidClient) // with a zone
		checkTokenResponse(t, e.do(basicFrom("[2001:db8:1:200::1]:1", secretBasic)), "read write admin", 10*time.Minute)
	})
	t.Run("IPv4-mapped", func(t *testing.T) {
		e := newEnv(t, FormatJWT)
		for i := 0; i < FailureBurst; i++ {
			wantError(t, e.do(basicFrom("[::ffff:198.51.100.7]:1", "wrong")), 401, ErrInvalidClient)
		}
		wantError(t, e.do(basicFrom("198.51.100.7:2", secretBasic)), 401, ErrInvalidClient)
		checkTokenResponse(t, e.do(basicFrom("198.51.100.8:2", secretBasic)), "read write admin", 10*time.Minute)
	})
	t.Run("SourceAddr", func(t *testing.T) {
		e := newEnv(t, FormatJWT)
		srv, err := New(Config{Issuer: testIssuer, Clients: e.srv.Clients(), Store: e.store, Keys: e.keys, Now: e.clock.Now,
			SourceAddr: func(r *http.Request) netip.Addr {
				a, _ := netip.ParseAddr(r.Header.Get("X-Test-Client"))
				return a
			}})
		if err != nil {
			t.Fatal(err)
		}
		e.h = srv.Handler()
		from := func(client, secret string) req {
			r := basicFrom("10.0.0.1:1", secret) // the proxy
			r.header["X-Test-Client"] = []string{client}
			return r
		}
		for i := 0; i < FailureBurst; i++ {
			wantError(t, e.do(from("198.51.100.7", "wrong")), 401, ErrInvalidClient)
		}
		wantError(t, e.do(from("198.51.100.7", secretBasic)), 401, ErrInvalidClient)
		checkTokenResponse(t, e.do(from("203.0.113.5", secretBasic)), "read write admin", 10*time.Minute)
		// No valid address: one source for all such requests.
		for i := 0; i < FailureBurst; i++ {
			wantError(t, e.do(from("", "wrong")), 401, ErrInvalidClient)
		}
		wantError(t, e.do(from("not an address", secretBasic)), 401, ErrInvalidClient)
		checkTokenResponse(t, e.do(from("203.0.113.5", secretBasic)), "read write admin", 10*time.Minute)
	})
}

// TestLimiterTable: the table of buckets is bounded; when it is full,
// the failures of sources not in it spend one bucket per client, and
// once that is empty such sources are refused for that client (only
// them, only that client); full buckets are dropped.
func TestLimiterTable(t *testing.T) {
	clock := newClock()
	l := newLimiter(clock.Now, nil)
	l.max = 2
	from := func(addr string) *http.Request {
		r := httptest.NewRequest(http.MethodPost, PathToken, nil)
		r.RemoteAddr = addr + ":1"
		return r
	}
	a, b, c, d := from("192.0.2.1"), from("192.0.2.2"), from("192.0.2.3"), from("192.0.2.4")
	if !l.allow("x", a) || l.n.Load() != 0 {
		t.Fatal("an empty limiter refuses or holds entries")
	}
	for range FailureBurst {
		l.fail("x", a)
	}
	l.fail("x", b)
	if len(l.m) != 2 || len(l.over) != 0 || l.allow("x", a) || !l.allow("x", b) || !l.allow("x", c) {
		t.Fatalf("table %d/%d entries: a refused, b and c allowed expected", len(l.m), len(l.over))
	}
	// The table is full: c's failures spend x's overflow bucket.
	for range FailureBurst - 1 {
		l.fail("x", c)
	}
	if len(l.m) != 2 || len(l.over) != 1 || !l.allow("x", d) {
		t.Fatalf("table %d/%d entries: d refused before the overflow is spent", len(l.m), len(l.over))
	}
	l.fail("x", c)
	if l.allow("x", c) || l.allow("x", d) {
		t.Fatal("sources not in a full table allowed with the overflow spent")
	}
	if !l.allow("x", b) || !l.allow("y", d) || l.allow("x", a) {
		t.Fatal("b (in the table, not empty) or another client refused, or a allowed")
	}
	// One refill: one more failure anywhere.
	clock.Advance(FailureRefill)
	if !l.allow("x", d) || !l.allow("x", a) {
		t.Fatal("no refill after FailureRefill")
	}
	// All refilled: the sweep drops every bucket.
	clock.Advance(FailureBurst * FailureRefill)
	if !l.allow("x", a) || len(l.m) != 0 || len(l.over) != 0 || l.n.Load() != 0 {
		t.Fatalf("full buckets kept: %d/%d entries, n %d", len(l.m), len(l.over), l.n.Load())
	}
}
