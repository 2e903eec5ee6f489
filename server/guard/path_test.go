package guard

import (
	"errors"
	"net/http"
	"testing"

	"github.com/signet-go/signet"
)

// TestGuardRefusesDotSegments: a request whose path has a dot segment,
// in any spelling an upstream resolves, is refused (400 invalid_request)
// and never forwarded: joined to the upstream's path prefix, /../admin
// would reach the upstream as /api/../admin, outside the prefix. Plain
// paths, and dots inside a segment, are forwarded. Over a real
// connection, so that the server's own parsing applies.
func TestGuardRefusesDotSegments(t *testing.T) {
	got := make(chan string, 1)
	f := newFixture(t, Config{})
	g, srv := f.guardTo(t, "/api", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.RequestURI
	}))
	tok := f.token(claims{})
	for _, tc := range []struct {
		path    string
		forward bool
	}{
		{"/../admin", false},
		{"/x/./y", false},
		{"/x/..", false},
		{"/%2e%2e/admin", false},
		{"/%2E%2e/admin", false},
		{"/.%2e/admin", false},
		{"/x%2F..%2Fadmin", false}, // nginx decodes %2F before it resolves dots
		{"/..%5cadmin", false},
		{"/x/..;/admin", false},
		{"/x/..;a=b/admin", false},
		{"/v1/items", true},
		{"/v1/.well-known/x", true},
		{"/v1/a..b/...", true},
		{"/v1/file.txt", true},
	} {
		status := rawRequest(t, srv.Listener.Addr().String(), "GET "+tc.path+" HTTP/1.1\r\nHost: guard.test\r\nAuthorization: Bearer "+tok+"\r\n\r\n")
		var upstream string
		select {
		case upstream = <-got:
		default:
		}
		if tc.forward {
			if status != http.StatusOK || upstream != "/api"+tc.path {
				t.Errorf("%s: %d, upstream got %q", tc.path, status, upstream)
			}
			continue
		}
		if status != http.StatusBadRequest || upstream != "" {
			t.Errorf("%s: %d, upstream got %q; want 400, not forwarded", tc.path, status, upstream)
		}
	}
	if !errors.Is(errDotSegment, signet.ErrMalformed) {
		t.Errorf("errDotSegment does not wrap signet.ErrMalformed")
	}
	if n := counter(t, g.Metrics(), "signet_guard_requests_total", "result", ResultInvalidRequest); n != 10 {
		t.Errorf("invalid_request count %v, want 10", n)
	}
}
