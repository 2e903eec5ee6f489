package oauth

import (
	"net/http"
	"testing"
	"time"
)

// TestRoutes: each path of DESIGN §7 is served exactly (no prefix, no
// trailing slash, no cleaning), PathJWKS only with Config.JWKS, and the
// POST endpoints refuse other methods.
func TestRoutes(t *testing.T) {
	e := newEnv(t, FormatJWT)
	cases := []struct {
		method, path string
		status       int
	}{
		{http.MethodGet, PathMetadata, 200},
		{http.MethodGet, PathJWKS, 200},
		{http.MethodGet, PathHealth, 200},
		{http.MethodHead, PathHealth, 200},
		{http.MethodGet, PathReady, 200},
		{http.MethodGet, PathToken, 405},
		{http.MethodPut, PathIntrospect, 405},
		{http.MethodDelete, PathRevoke, 405},
		{http.MethodPost, PathHealth, 405},
		{http.MethodGet, "/", 404},
		{http.MethodPost, PathToken + "/", 404},
		{http.MethodPost, "/oauth2/../oauth2/token", 404},
		{http.MethodPost, "//oauth2/token", 404},
		{http.MethodGet, "/.well-known/", 404},
	}
	for _, c := range cases {
		r := e.do(req{method: c.method, path: c.path, ctype: "-"})
		if r.status != c.status {
			t.Errorf("%s %s: %d, want %d", c.method, c.path, r.status, c.status)
		}
		if r.header.Get("X-Request-Id") == "" {
			t.Errorf("%s %s: no X-Request-Id", c.method, c.path)
		}
	}
	checkTokenResponse(t, e.tokenBasic(""), "read write admin", 10*time.Minute)

	srv, err := New(Config{Issuer: testIssuer, Clients: e.srv.Clients(), Store: e.store, Keys: e.keys, Now: e.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	e.h = srv.Handler()
	if r := e.do(req{method: http.MethodGet, path: PathJWKS, ctype: "-"}); r.status != 404 {
		t.Errorf("%s without Config.JWKS: %d, want 404", PathJWKS, r.status)
	}
}
