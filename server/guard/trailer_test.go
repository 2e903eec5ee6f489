package guard

import (
	"fmt"
	"io"
	"net/http"
	"testing"
)

// TestGuardStripsClaimsTrailer: a client that declares the claims header
// (in any spelling), a header the guard sets (X-Forwarded-For, …) or
// Authorization as a trailer of a chunked body gets
// none of them to the upstream, not even as a declared name: an upstream
// that folds trailers into its headers must not see a claims field the
// guard did not set.
func TestGuardStripsClaimsTrailer(t *testing.T) {
	got := make(chan http.Header, 1)
	f := newFixture(t, Config{})
	_, srv := f.guardTo(t, "", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		got <- r.Trailer.Clone()
	}))
	status := rawRequest(t, srv.Listener.Addr().String(), fmt.Sprintf("POST /x HTTP/1.1\r\nHost: guard.test\r\nAuthorization: Bearer %s\r\nTransfer-Encoding: chunked\r\n"+
		"Trailer: X-Signet-Claims, x_signet_claims, Authorization, X-Forwarded-For, X_Request_Id, X-Other\r\n\r\n"+
		"3\r\nabc\r\n0\r\nX-Signet-Claims: e30\r\nx_signet_claims: e30\r\nAuthorization: Bearer x\r\n"+
		"X-Forwarded-For: 203.0.113.9\r\nX_Request_Id: forged\r\nX-Other: 1\r\n\r\n", f.token(claims{})))
	if status != http.StatusOK {
		t.Fatalf("status %d", status)
	}
	for name := range <-got {
		if sameHeader(name, DefaultClaimsHeader) || sameHeader(name, "Authorization") || isSetHeader(name) {
			t.Errorf("the upstream got a trailer %q", name)
		}
	}
}
