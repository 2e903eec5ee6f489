package bearer_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/bearer"
	"github.com/signet-go/signet/internal/ratio"
	"github.com/signet-go/signet/jwt"
)

// BenchmarkRatio puts a verified request through the middleware beside
// its floor, jwt.Verify alone on the same token followed by the same
// handler called directly, in alternating slices of one loop (x-floor:
// ES256 ≤ 1.01; HS256, whose verification is some 60 times shorter, 1.12, and
// 1.33 with AccessToken's second read of the payload; see the package
// doc), and reports the allocations the middleware adds
// (allocs-added: the context holding the claims and the request copy of
// http.Request.WithContext).
//
//	go test -run '^$' -bench Ratio -benchtime 1s -count 3 ./bearer
func BenchmarkRatio(b *testing.B) {
	for _, alg := range []signet.Algorithm{signet.ES256, signet.HS256} {
		f := newFixture(b, alg)
		b.Run(string(alg)+"/Claims", func(b *testing.B) {
			benchRatio[Claims](b, f, bearer.Options{Policy: policy()}, "")
		})
		b.Run(string(alg)+"/jwt.Claims", func(b *testing.B) {
			benchRatio[jwt.Claims](b, f, bearer.Options{Policy: policy()}, "")
		})
		b.Run(string(alg)+"/AccessToken", func(b *testing.B) {
			benchRatio[Claims](b, f, bearer.Options{Policy: policy(), AccessToken: true, Scopes: []string{"orders:read"}}, "at+jwt")
		})
	}
}

func benchRatio[T any](b *testing.B, f fixture, opts bearer.Options, typ string) {
	tok := f.sign(b, claims(), typ)
	m, err := bearer.New[T](f.pub, opts)
	if err != nil {
		b.Fatal(err)
	}
	p := opts.Policy
	if opts.AccessToken {
		p.Type = bearer.AccessTokenType
	}
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	h := m.Wrap(next)
	req := request("Bearer " + tok)
	rec := httptest.NewRecorder()
	floor := func() {
		if _, err := jwt.Verify[T](f.pub, tok, p); err != nil {
			b.Fatal(err)
		}
		next.ServeHTTP(rec, req)
	}
	op := func() {
		h.ServeHTTP(rec, req)
	}
	op()
	if rec.Code != http.StatusNoContent {
		b.Fatalf("middleware answered %d", rec.Code)
	}
	added := testing.AllocsPerRun(100, op) - testing.AllocsPerRun(100, floor)
	b.ResetTimer()
	ratio.Run(b, floor, op)
	b.ReportMetric(added, "allocs-added")
}
