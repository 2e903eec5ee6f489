package jwks

import (
	"net/http"
	"testing"
	"time"

	"github.com/signet-go/signet"
)

func testConfig(t testing.TB) *config {
	t.Helper()
	c, err := newConfig("http://127.0.0.1/jwks", Options{Algorithms: []signet.Algorithm{signet.ES256}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestFreshness: the refresh interval a response asks for, clamped to
// [5 min, 24 h], 15 min when it asks for none (DESIGN §7b).
func TestFreshness(t *testing.T) {
	now := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	date := func(d time.Duration) string { return now.Add(d).Format(http.TimeFormat) }
	tests := []struct {
		name   string
		header map[string][]string
		want   time.Duration
	}{
		{"nothing", nil, 15 * time.Minute},
		{"max-age in range", map[string][]string{"Cache-Control": {"public, max-age=3600"}}, time.Hour},
		{"max-age below the floor", map[string][]string{"Cache-Control": {"public, max-age=15, stale-while-revalidate=15, stale-if-error=86400"}}, 5 * time.Minute},
		{"max-age above the ceiling", map[string][]string{"Cache-Control": {"max-age=31536000"}}, 24 * time.Hour},
		{"max-age zero", map[string][]string{"Cache-Control": {"max-age=0"}}, 5 * time.Minute},
		{"max-age quoted", map[string][]string{"Cache-Control": {`max-age="1200"`}}, 20 * time.Minute},
		{"max-age case and spaces", map[string][]string{"Cache-Control": {" Max-Age = 900 "}}, 15 * time.Minute},
		{"max-age huge", map[string][]string{"Cache-Control": {"max-age=99999999999999999999999999"}}, 24 * time.Hour},
		{"max-age less Age", map[string][]string{"Cache-Control": {"max-age=3600"}, "Age": {"600"}}, 50 * time.Minute},
		{"Age beyond max-age", map[string][]string{"Cache-Control": {"max-age=600"}, "Age": {"6000"}}, 5 * time.Minute},
		{"max-age over several fields", map[string][]string{"Cache-Control": {"public", "max-age=7200"}}, 2 * time.Hour},
		{"max-age repeated, equal", map[string][]string{"Cache-Control": {"max-age=7200, max-age=7200"}}, 2 * time.Hour},
		{"max-age repeated, conflicting", map[string][]string{"Cache-Control": {"max-age=7200, max-age=60"}}, 15 * time.Minute},
		{"max-age invalid", map[string][]string{"Cache-Control": {"max-age=-5"}}, 15 * time.Minute},
		{"max-age not a number", map[string][]string{"Cache-Control": {"max-age=1h"}}, 15 * time.Minute},
		{"max-age without value", map[string][]string{"Cache-Control": {"max-age"}}, 15 * time.Minute},
		{"no-cache wins", map[string][]string{"Cache-Control": {"no-cache, max-age=7200"}}, 15 * time.Minute},
		{"no-store wins", map[string][]string{"Cache-Control": {"max-age=7200, NO-STORE"}}, 15 * time.Minute},
		{"s-maxage ignored", map[string][]string{"Cache-Control": {"s-maxage=7200"}}, 15 * time.Minute},
		{"max-age over Expires", map[string][]string{"Cache-Control": {"max-age=3600"}, "Expires": {date(10 * time.Hour)}}, time.Hour},
		{"Expires against Date", map[string][]string{"Expires": {date(2 * time.Hour)}, "Date": {date(time.Hour)}}, time.Hour},
		{"Expires against now", map[string][]string{"Expires": {date(3 * time.Hour)}}, 3 * time.Hour},
		{"Expires in the past", map[string][]string{"Expires": {date(-time.Hour)}}, 5 * time.Minute},
		{"Expires far away", map[string][]string{"Expires": {date(30 * 24 * time.Hour)}}, 24 * time.Hour},
		{"Expires invalid", map[string][]string{"Expires": {"0"}}, 5 * time.Minute},
		{"Expires with a bad Date", map[string][]string{"Expires": {date(2 * time.Hour)}, "Date": {"yesterday"}}, 2 * time.Hour},
	}
	c := testConfig(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := c.freshness(http.Header(tt.header), now); got != tt.want {
				t.Fatalf("freshness = %v, want %v", got, tt.want)
			}
		})
	}

	// Lowered bounds (tests and impatient deployments) clamp the same way.
	low, err := newConfig("http://127.0.0.1/", Options{
		Algorithms: []signet.Algorithm{signet.ES256},
		MinRefresh: time.Second, MaxRefresh: time.Minute, DefaultRefresh: 10 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	for h, want := range map[string]time.Duration{"max-age=0": time.Second, "max-age=30": 30 * time.Second, "max-age=600": time.Minute, "": 10 * time.Second} {
		if got := low.freshness(http.Header{"Cache-Control": {h}}, now); got != want {
			t.Errorf("lowered bounds, %q: %v, want %v", h, got, want)
		}
	}
}

// TestMaxDirectives: a header piled up with directives is read only so far.
func TestMaxDirectives(t *testing.T) {
	v := ""
	for range maxDirectives {
		v += "public,"
	}
	if cc := parseCacheControl([]string{v + "max-age=3600"}); cc.hasAge {
		t.Fatal("a directive past maxDirectives was read")
	}
	if cc := parseCacheControl([]string{"max-age=3600," + v}); !cc.hasAge || cc.maxAge != time.Hour {
		t.Fatalf("max-age lost: %+v", cc)
	}
}

// TestRefreshIn: the background fetch comes at 80 % of the interval less
// 0–10 % of jitter.
func TestRefreshIn(t *testing.T) {
	for _, iv := range []time.Duration{5 * time.Minute, 15 * time.Minute, 24 * time.Hour} {
		hi := refreshIn(iv, 0)
		lo := refreshIn(iv, 0.999999)
		if hi != iv*8/10 {
			t.Errorf("%v: no jitter gives %v, want %v", iv, hi, iv*8/10)
		}
		if want := iv * 9 / 10 * 8 / 10; lo < want-time.Millisecond || lo > hi {
			t.Errorf("%v: full jitter gives %v, want about %v", iv, lo, want)
		}
		if mid := refreshIn(iv, random()); mid < lo || mid > hi {
			t.Errorf("%v: %v outside [%v, %v]", iv, mid, lo, hi)
		}
	}
}

// TestBackoff: 1 s doubling to 60 s, ±20 %.
func TestBackoff(t *testing.T) {
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second, 32 * time.Second, 60 * time.Second, 60 * time.Second}
	for i, w := range want {
		n := i + 1
		if got := backoff(n, 0.5); got != w {
			t.Errorf("backoff(%d) = %v, want %v", n, got, w)
		}
		if lo, hi := backoff(n, 0), backoff(n, 0.999999); lo != w*8/10 || hi < w*12/10-time.Millisecond || hi > w*12/10 {
			t.Errorf("backoff(%d) spreads over [%v, %v], want [%v, %v]", n, lo, hi, w*8/10, w*12/10)
		}
	}
	if got := backoff(1000, 0.5); got != maxBackoff {
		t.Errorf("backoff(1000) = %v", got)
	}
}

func FuzzCacheControl(f *testing.F) {
	for _, s := range []string{
		"", "max-age=0", "public, max-age=900, stale-while-revalidate=60, stale-if-error=86400",
		"no-cache", "no-store, max-age=1", `max-age="60"`, "max-age=99999999999999999999", "max-age=-1",
		"max-age=1, max-age=2", "MAX-AGE=5", ",,,,", "max-age==5", `max-age="`, "max-age=\x00",
	} {
		f.Add(s, "")
		f.Add(s, "Thu, 01 Jan 2032 00:00:00 GMT")
	}
	c := testConfig(f)
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, cc, expires string) {
		h := http.Header{"Cache-Control": {cc}, "Expires": {expires}}
		d := c.freshness(h, now)
		if d < c.MinRefresh || d > c.MaxRefresh {
			t.Fatalf("freshness %v outside [%v, %v]", d, c.MinRefresh, c.MaxRefresh)
		}
		p := parseCacheControl([]string{cc})
		if p.hasAge && p.maxAge < 0 {
			t.Fatalf("negative max-age %v", p.maxAge)
		}
	})
}
