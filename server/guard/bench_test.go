package guard

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/signet-go/signet/jwt"
)

// okTransport answers every forwarded request 200 without a network, so
// that the ServeHTTP benchmarks measure the guard.
type okTransport struct{}

func (okTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader("")), Request: r}, nil
}

// BenchmarkGuardCheck is the cost of checking a token: hit (in the cache
// of verified tokens: a SHA-256 and a map lookup), miss (ES256 signature
// and claims), and no cache at all; jwt.Verify alone is the floor of a
// miss.
func BenchmarkGuardCheck(b *testing.B) {
	for _, mode := range []string{"hit", "miss", "nocache"} {
		b.Run(mode, func(b *testing.B) {
			cfg := Config{}
			if mode == "nocache" {
				cfg.CacheSize = -1
			}
			f := newFixture(b, cfg)
			toks := []string{f.token(claims{Scope: "read write", ClientID: "svc-a"})}
			if mode == "miss" {
				// More distinct tokens than the cache holds, so that every
				// check misses.
				toks = make([]string, DefaultCacheSize*2)
				for i := range toks {
					toks[i] = f.token(claims{Claims: jwt.Claims{ID: "jti-" + strconv.Itoa(i)}, Scope: "read write", ClientID: "svc-a"})
				}
			}
			if _, _, err := f.g.check(toks[0]); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if _, _, err := f.g.check(toks[i%len(toks)]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("jwt.Verify", func(b *testing.B) {
		f := newFixture(b, Config{})
		tok := f.token(claims{Scope: "read write", ClientID: "svc-a"})
		p := f.g.policy
		p.Now = f.clock.Now
		b.ReportAllocs()
		for b.Loop() {
			if _, err := jwt.Verify[jwt.Claims](f.keys, tok, p); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkGuardServeHTTP is a whole request through the guard (token
// from the cache, forwarded to a transport that answers at once).
func BenchmarkGuardServeHTTP(b *testing.B) {
	f := newFixture(b, Config{Transport: okTransport{}})
	tok := f.token(claims{})
	h := f.g.Handler()
	b.ReportAllocs()
	for b.Loop() {
		r := httptest.NewRequest(http.MethodGet, "http://guard.test/hello", nil)
		r.Header.Set("Authorization", "Bearer "+tok)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != 200 {
			b.Fatal(w.Code)
		}
	}
}
