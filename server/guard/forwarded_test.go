package guard

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestGuardStripsForwardedSpellings: the headers the guard sets itself
// (X-Forwarded-For, -Host, -Proto and X-Request-Id) reach the upstream
// only as the guard wrote them. The proxy drops the client's copies in
// canonical spelling only; a copy spelled with '_' for '-' is the same
// variable to CGI, WSGI, Rack and PHP (werkzeug, for one, joins the two
// as "guard's,client's", and a ProxyFix that trusts the last hop then
// reads the client's forged address), so it is dropped as the claims
// header's is. The request goes over a real connection.
func TestGuardStripsForwardedSpellings(t *testing.T) {
	f := newFixture(t, Config{})
	srv := httptest.NewServer(f.g.Handler())
	defer srv.Close()
	raw := "GET /hello HTTP/1.1\r\nHost: guard.test\r\n" +
		"Authorization: Bearer " + f.token(claims{}) + "\r\n" +
		"X-Request-Id: req-1\r\n" +
		"X_Forwarded_For: 203.0.113.9\r\n" +
		"x_forwarded_host: forged.example\r\n" +
		"X_FORWARDED_PROTO: https\r\n" +
		"X_Request_Id: forged-id\r\n" +
		"\r\n"
	if status := rawRequest(t, srv.Listener.Addr().String(), raw); status != http.StatusOK {
		t.Fatalf("status %d", status)
	}
	h := f.up.last(t)
	for _, name := range []string{"X-Forwarded-For", "X-Forwarded-Host", "X-Forwarded-Proto", RequestIDHeader} {
		for k, vs := range h {
			if sameHeader(k, name) && k != name {
				t.Errorf("the upstream got %s as %q: %q", name, k, vs)
			}
		}
		if len(h[name]) != 1 {
			t.Errorf("the upstream got %s %q, want the guard's one", name, h[name])
		}
	}
	if got := h.Get("X-Forwarded-For"); got != "127.0.0.1" {
		t.Errorf("X-Forwarded-For %q, want the client's address", got)
	}
	if got := h.Get(RequestIDHeader); got != "req-1" {
		t.Errorf("X-Request-Id %q", got)
	}
}
