//go:build !race

package bearer_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/bearer"
	"github.com/signet-go/signet/jwt"
)

// TestAllocations pins what the middleware adds to jwt.Verify on a
// verified request: one allocation, the request copy and its context
// with the claims together (BenchmarkRatio reports it as allocs-added).
func TestAllocations(t *testing.T) {
	f := newFixture(t, signet.HS256)
	for name, opts := range map[string]bearer.Options{
		"plain":        {Policy: policy()},
		"access token": {Policy: policy(), AccessToken: true, Scopes: []string{"orders:read"}},
	} {
		typ, p := "", policy()
		if opts.AccessToken {
			typ, p.Type = "at+jwt", bearer.AccessTokenType
		}
		tok := f.sign(t, claims(), typ)
		m, err := bearer.New[jwt.Claims](f.pub, opts)
		if err != nil {
			t.Fatal(err)
		}
		next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) })
		h, req, rec := m.Wrap(next), request("Bearer "+tok), httptest.NewRecorder()
		verify := testing.AllocsPerRun(200, func() { _, _ = jwt.Verify[jwt.Claims](f.pub, tok, p) })
		through := testing.AllocsPerRun(200, func() { h.ServeHTTP(rec, req) })
		if rec.Code != 204 || through-verify != 1 {
			t.Errorf("%s: %d; %.0f allocations through the middleware, %.0f in jwt.Verify: want one more", name, rec.Code, through, verify)
		}
	}
}
