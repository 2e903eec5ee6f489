package oauth

import (
	"cmp"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
)

// recorder is an Observer that records its calls as "method:arg".
type recorder struct {
	mu    sync.Mutex
	calls []string
}

func (r *recorder) add(s string) {
	r.mu.Lock()
	r.calls = append(r.calls, s)
	r.mu.Unlock()
}
func (r *recorder) TokenIssued(alg, client string) { r.add("issued:" + alg + "," + client) }
func (r *recorder) TokenFailed(reason string)      { r.add("failed:" + reason) }
func (r *recorder) Introspected(result string)     { r.add("introspected:" + result) }
func (r *recorder) Revoked(result string)          { r.add("revoked:" + result) }
func (r *recorder) StoreError(op string)           { r.add("store:" + op) }

func (r *recorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := r.calls
	r.calls = nil
	return c
}

// Each request to the token, introspection and revocation endpoints is
// reported once, with its outcome, and every failed store call.
func TestObserver(t *testing.T) {
	e := newEnv(t, FormatJWT)
	rec := &recorder{}
	srv, err := New(Config{Issuer: testIssuer, Clients: e.srv.Clients(), Store: e.store, Keys: e.keys, Now: e.clock.Now, Observer: rec})
	if err != nil {
		t.Fatal(err)
	}
	e.h = srv.Handler()
	tok := e.accessToken()
	if got := rec.take(); !slices.Equal(got, []string{"issued:ES256,svc-basic"}) {
		t.Fatalf("issue: %v", got)
	}
	auth := basicHeader("svc-basic", secretBasic)
	big := "grant_type=client_credentials&scope=" + strings.Repeat("a", MaxBodySize)
	cases := []struct {
		name string
		r    req
		down bool
		want []string
	}{
		{"oversized body", req{path: PathToken, form: big, header: auth}, false, []string{"failed:invalid_request"}},
		{"PUT", req{method: http.MethodPut, path: PathIntrospect, header: auth}, false, []string{"introspected:invalid_request"}},
		{"wrong secret", req{path: PathRevoke, form: "token=x", header: basicHeader("svc-basic", "nope-0123456789abcdef0123456789")}, false, []string{"revoked:invalid_client"}},
		{"active", req{path: PathIntrospect, form: "token=" + tok, header: auth}, false, []string{"introspected:active"}},
		{"inactive", req{path: PathIntrospect, form: "token=x", header: auth}, false, []string{"introspected:inactive"}},
		{"store down: introspect", req{path: PathIntrospect, form: "token=" + tok, header: auth}, true, []string{"store:revoked", "introspected:unavailable"}},
		{"store down: revoke", req{path: PathRevoke, form: "token=" + tok, header: auth}, true, []string{"store:revoke", "revoked:unavailable"}},
		{"store down: assertion", e.authJWT(e.assertion(e.jwtKey, nil)), true, []string{"store:use_once", "failed:unavailable"}},
		{"store down: readyz", req{method: http.MethodGet, path: PathReady}, true, []string{"store:ping"}},
		{"ignored", req{path: PathRevoke, form: "token=x", header: auth}, false, []string{"revoked:ignored"}},
		{"revoked", req{path: PathRevoke, form: "token=" + tok, header: auth}, false, []string{"revoked:revoked"}},
		{"healthz", req{method: http.MethodGet, path: PathHealth}, false, nil},
	}
	for _, c := range cases {
		c.r.path = cmp.Or(c.r.path, PathToken)
		e.store.Down.Store(c.down)
		e.do(c.r)
		e.store.Down.Store(false)
		if got := rec.take(); !slices.Equal(got, c.want) {
			t.Errorf("%s: observed %v, want %v", c.name, got, c.want)
		}
	}
}
