package guard

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// recordingTransport answers every forwarded request 200 and keeps its
// headers, without a network.
type recordingTransport struct {
	mu  sync.Mutex
	got []http.Header
}

func (rt *recordingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rt.mu.Lock()
	rt.got = append(rt.got, r.Header.Clone())
	rt.mu.Unlock()
	return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader("")), Request: r}, nil
}

// FuzzGuardHeaders: whatever Authorization and extra header a client
// sends, the guard answers without panicking, forwards only requests
// whose token is the valid one, and the upstream then sees exactly one
// claims header, the token's payload segment, whatever the client sent
// under any spelling of that name.
func FuzzGuardHeaders(f *testing.F) {
	rt := &recordingTransport{}
	fx := newFixture(f, Config{Transport: rt, Scopes: []string{"read"}})
	valid := fx.token(claims{Scope: "read"})
	payload := strings.Split(valid, ".")[1]
	f.Add("Bearer "+valid, "X-Signet-Claims", "forged")
	f.Add("bearer  "+valid, "x_signet_claims", "forged")
	f.Add("Bearer "+valid, "Connection", "X-Signet-Claims")
	f.Add("Bearer "+valid+"x", "X-Signet-Claims", "forged")
	f.Add("Bearer "+strings.Replace(valid, ".", "..", 1), "X-SIGNET-CLAIMS", "")
	f.Add("Basic dXNlcjpwYXNz", "Authorization", "Bearer "+valid)
	f.Add("Bearer", "X-Request-Id", "a b")
	f.Add("", "X-Forwarded-For", "10.0.0.1")
	f.Fuzz(func(t *testing.T, auth, name, value string) {
		r := httptest.NewRequest(http.MethodGet, "http://guard.test/hello", nil)
		if auth != "" {
			r.Header["Authorization"] = []string{auth}
		}
		if validHeaderName(name) {
			r.Header[name] = append(r.Header[name], value)
		}
		rt.mu.Lock()
		before := len(rt.got)
		rt.mu.Unlock()
		w := httptest.NewRecorder()
		fx.g.ServeHTTP(w, r)
		rt.mu.Lock()
		forwarded := rt.got[before:]
		rt.mu.Unlock()
		if w.Code != http.StatusOK {
			if len(forwarded) != 0 {
				t.Fatalf("answered %d but forwarded", w.Code)
			}
			return
		}
		if len(forwarded) != 1 {
			t.Fatalf("answered 200 with %d forwarded requests", len(forwarded))
		}
		if got := r.Header["Authorization"]; len(got) != 1 || !strings.HasSuffix(got[0], " "+valid) {
			t.Fatalf("forwarded with Authorization %q, not the valid token", got)
		}
		h := forwarded[0]
		for k, vs := range h {
			if sameHeader(k, DefaultClaimsHeader) && (k != DefaultClaimsHeader || len(vs) != 1 || vs[0] != payload) {
				t.Fatalf("the upstream got %s: %q", k, vs)
			}
		}
		if h.Get(DefaultClaimsHeader) != payload {
			t.Fatal("no claims header")
		}
		if h.Get("Authorization") != "" {
			t.Fatal("Authorization forwarded")
		}
	})
}
