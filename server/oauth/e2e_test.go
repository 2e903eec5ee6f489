package oauth

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/signet-go/signet/jwt"
)

// TestOverHTTP runs the service on 127.0.0.1 and fetches a token with each
// client authentication method through net/http's client, then
// introspects and revokes it.
func TestOverHTTP(t *testing.T) {
	e := newEnv(t, FormatJWT)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(e.h)
	ts.Listener.Close()
	ts.Listener = ln
	ts.Start()
	defer ts.Close()
	post := func(path string, form url.Values, id, secret string) (*http.Response, map[string]any) {
		t.Helper()
		r, _ := http.NewRequest(http.MethodPost, ts.URL+path, strings.NewReader(form.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if id != "" {
			r.SetBasicAuth(url.QueryEscape(id), url.QueryEscape(secret))
		}
		res, err := ts.Client().Do(r)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		var m map[string]any
		if len(b) > 0 {
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatalf("%s: %q", path, b)
			}
		}
		return res, m
	}
	grant := url.Values{"grant_type": {"client_credentials"}}
	tokens := map[string]string{}
	res, m := post(PathToken, grant, "svc-basic", secretBasic)
	if res.StatusCode != 200 {
		t.Fatalf("basic: %d %v", res.StatusCode, m)
	}
	tokens["svc-basic"] = m["access_token"].(string)
	res, m = post(PathToken, url.Values{"grant_type": {"client_credentials"}, "client_id": {"svc-post"}, "client_secret": {secretPost}}, "", "")
	if res.StatusCode != 200 {
		t.Fatalf("post: %d %v", res.StatusCode, m)
	}
	tokens["svc-post"] = m["access_token"].(string)
	res, m = post(PathToken, url.Values{"grant_type": {"client_credentials"}, "client_assertion_type": {AssertionType}, "client_assertion": {e.assertion(e.jwtKey, nil)}}, "", "")
	if res.StatusCode != 200 {
		t.Fatalf("private_key_jwt: %d %v", res.StatusCode, m)
	}
	tokens["svc-jwt"] = m["access_token"].(string)
	for client, tok := range tokens {
		if _, err := jwt.Verify[accessClaims](e.keys.pub, tok, jwt.Policy{Type: "at+jwt", Issuer: testIssuer, Audience: []string{apiA}, Now: e.clock.Now}); err != nil {
			t.Fatalf("%s's token: %v", client, err)
		}
		_, m := post(PathIntrospect, url.Values{"token": {tok}}, "svc-basic", secretBasic)
		if m["active"] != true || m["client_id"] != client {
			t.Fatalf("introspection of %s's token: %v", client, m)
		}
	}
	if res, _ := post(PathRevoke, url.Values{"token": {tokens["svc-basic"]}}, "svc-basic", secretBasic); res.StatusCode != 200 {
		t.Fatalf("revoke: %d", res.StatusCode)
	}
	if _, m := post(PathIntrospect, url.Values{"token": {tokens["svc-basic"]}}, "svc-basic", secretBasic); m["active"] != false {
		t.Fatalf("revoked token: %v", m)
	}
	res, m = post(PathToken, grant, "svc-basic", "wrong")
	if res.StatusCode != 401 || m["error"] != ErrInvalidClient || !strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Basic ") {
		t.Fatalf("wrong secret: %d %v %v", res.StatusCode, m, res.Header)
	}
	// Malformed header lines the server's HTTP parser sees first are 4xx
	// too, and the service stays up.
	for _, h := range []string{"Authorization: Basic\x00x", "Authorization: " + strings.Repeat("A", 2<<20)} {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(c, "POST /oauth2/token HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n"+h+"\r\n\r\n")
		buf := make([]byte, 12)
		io.ReadFull(c, buf)
		c.Close()
		if !strings.HasPrefix(string(buf), "HTTP/1.1 4") {
			t.Fatalf("raw header %.40q: %q", h, buf)
		}
	}
	if res, _ := post(PathToken, grant, "svc-post", secretPost); res.StatusCode != 401 {
		t.Fatalf("service not answering after raw requests: %d", res.StatusCode)
	}
}
