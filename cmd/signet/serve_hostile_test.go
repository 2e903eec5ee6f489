package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Clients of the hostile-input test: svc-a is the legitimate client,
// never used by a hostile request; svc-b authenticates the hostile
// requests that fail before or after authentication (never by a wrong
// secret, so its failure limit is untouched); svc-post uses
// client_secret_post; svc-victim takes the failed authentications.
const (
	secretPost   = "sP-0123456789abcdefghijklmnopqrstuvwxyzABCD"
	secretVictim = "sV-0123456789abcdefghijklmnopqrstuvwxyzABCD"
)

// writeMethodClients writes a clients file with svc-a, svc-b and
// svc-victim (client_secret_basic) and svc-post (client_secret_post).
func writeMethodClients(t *testing.T) string {
	t.Helper()
	entry := func(id, secret, method string) map[string]any {
		sum := sha256.Sum256([]byte(secret))
		return map[string]any{"client_id": id, "client_secret_sha256": hex.EncodeToString(sum[:]),
			"token_endpoint_auth_method": method, "scope": "read write", "audience": []string{testAudience}}
	}
	b, err := json.Marshal(map[string]any{"clients": []any{
		entry("svc-a", secretA, "client_secret_basic"),
		entry("svc-b", secretB, "client_secret_basic"),
		entry("svc-victim", secretVictim, "client_secret_basic"),
		entry("svc-post", secretPost, "client_secret_post"),
	}})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "clients.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// hostile is one malformed request and the answer it must get.
type hostile struct {
	name    string
	path    string   // /oauth2/token when empty
	method  string   // POST when empty
	ctype   string   // the form's media type when empty; "-" for none
	headers []string // further header lines
	body    string
	// raw, when set, is sent as is (the whole request) instead.
	raw string
	// halfClose sends the request and closes the writing side, so a body
	// shorter than its Content-Length ends early.
	halfClose bool
	status    int
	code      string // the RFC 6749 §5.2 error; "" for net/http's own plain-text 4xx
}

// TestServeHostileInput: against a running serve, malformed, oversized
// and duplicated form fields, duplicated, malformed and huge
// Authorization headers, wrong content types, bodies over the limit or
// cut short, and requests net/http itself refuses each get a clean 4xx
// (the RFC 6749 §5.2 JSON error, with no-store and, for 401, a Basic
// challenge, where the service answers); connections that stall in
// their headers do not hold anyone off. Afterwards the process is alive,
// nothing answered 5xx, the legitimate client still gets tokens, and the
// tokens issued before introspect as before.
func TestServeHostileInput(t *testing.T) {
	r := startServe(t, []string{"--clients", writeMethodClients(t), "--data", t.TempDir(), "--addr", "127.0.0.1:0",
		"--issuer", "https://auth.example.com"}, nil)
	live, revoked := r.token("svc-a", secretA), r.token("svc-a", secretA)
	if code, m := post(t, r.url("/oauth2/revoke"), url.Values{"token": {revoked}}, "svc-a", secretA); code != http.StatusOK {
		t.Fatalf("revoke: %d %v", code, m)
	}

	auth := func(id, secret string) string {
		return "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte(url.QueryEscape(id)+":"+url.QueryEscape(secret)))
	}
	basicB := auth("svc-b", secretB)
	gt := "grant_type=client_credentials"
	postCreds := "client_id=svc-post&client_secret=" + url.QueryEscape(secretPost)
	const (
		ir  = http.StatusBadRequest
		ic  = http.StatusUnauthorized
		big = http.StatusRequestEntityTooLarge
	)
	many := gt
	for i := range 32 {
		many += "&p" + strconv.Itoa(i) + "=1"
	}
	cases := []hostile{
		// Duplicated form fields (RFC 6749 §3.2: no parameter twice).
		{name: "grant_type twice", headers: []string{basicB}, body: gt + "&" + gt, status: ir, code: "invalid_request"},
		{name: "grant_type twice, two grants", headers: []string{basicB}, body: gt + "&grant_type=password", status: ir, code: "invalid_request"},
		{name: "scope twice", headers: []string{basicB}, body: gt + "&scope=read&scope=write", status: ir, code: "invalid_request"},
		{name: "client_id twice with Basic", headers: []string{basicB}, body: gt + "&client_id=svc-b&client_id=svc-b", status: ir, code: "invalid_request"},
		{name: "client_id twice (post)", body: gt + "&" + postCreds + "&client_id=svc-post", status: ir, code: "invalid_request"},
		{name: "client_id twice, two clients (post)", body: gt + "&" + postCreds + "&client_id=svc-a", status: ir, code: "invalid_request"},
		{name: "client_secret twice (post)", body: gt + "&" + postCreds + "&client_secret=x", status: ir, code: "invalid_request"},
		{name: "resource twice", headers: []string{basicB}, body: gt + "&resource=" + url.QueryEscape(testAudience) + "&resource=" + url.QueryEscape(testAudience), status: ir, code: "invalid_target"},
		{name: "Basic and post", headers: []string{basicB}, body: gt + "&" + postCreds, status: ir, code: "invalid_request"},
		{name: "Basic and another client_id", headers: []string{basicB}, body: gt + "&client_id=svc-a", status: ir, code: "invalid_request"},
		// Malformed and oversized fields.
		{name: "bad percent-encoding", headers: []string{basicB}, body: gt + "&scope=%zz", status: ir, code: "invalid_request"},
		{name: "NUL in a value", headers: []string{basicB}, body: gt + "&scope=read%00", status: ir, code: "invalid_request"},
		{name: "invalid UTF-8", headers: []string{basicB}, body: gt + "&scope=%ff%fe", status: ir, code: "invalid_request"},
		{name: "nameless parameter", headers: []string{basicB}, body: gt + "&=x", status: ir, code: "invalid_request"},
		{name: "33 parameters", headers: []string{basicB}, body: many, status: ir, code: "invalid_request"},
		{name: "parameters in the URL", path: "/oauth2/token?grant_type=client_credentials", headers: []string{basicB}, body: gt, status: ir, code: "invalid_request"},
		{name: "empty body", headers: []string{basicB}, body: "", status: ir, code: "invalid_request"},
		{name: "no grant_type", headers: []string{basicB}, body: "scope=read", status: ir, code: "invalid_request"},
		{name: "password grant", headers: []string{basicB}, body: "grant_type=password&username=a&password=b", status: ir, code: "unsupported_grant_type"},
		{name: "scope not the client's", headers: []string{basicB}, body: gt + "&scope=admin", status: ir, code: "invalid_scope"},
		{name: "60 KiB scope", headers: []string{basicB}, body: gt + "&scope=" + strings.Repeat("a", 60<<10), status: ir, code: "invalid_scope"},
		{name: "resource not the client's", headers: []string{basicB}, body: gt + "&resource=" + url.QueryEscape("https://evil.example"), status: ir, code: "invalid_target"},
		{name: "60 KiB resource", headers: []string{basicB}, body: gt + "&resource=https://x.example/" + strings.Repeat("a", 60<<10), status: ir, code: "invalid_target"},
		// Authorization headers.
		{name: "two Authorization headers", headers: []string{basicB, basicB}, body: gt, status: ir, code: "invalid_request"},
		{name: "Authorization and its duplicate of another client", headers: []string{basicB, auth("svc-a", secretA)}, body: gt, status: ir, code: "invalid_request"},
		{name: "Basic not base64", headers: []string{"Authorization: Basic !!!!"}, body: gt, status: ir, code: "invalid_request"},
		{name: "Basic without colon", headers: []string{"Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("svc-b"))}, body: gt, status: ir, code: "invalid_request"},
		{name: "Basic empty secret", headers: []string{"Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("svc-b:"))}, body: gt, status: ir, code: "invalid_request"},
		{name: "Authorization of 5 KiB", headers: []string{"Authorization: Basic " + strings.Repeat("A", 5<<10)}, body: gt, status: ir, code: "invalid_request"},
		{name: "Authorization of 64 KiB", headers: []string{"Authorization: Basic " + strings.Repeat("A", 64<<10)}, body: gt, status: http.StatusRequestHeaderFieldsTooLarge},
		{name: "Bearer scheme", headers: []string{"Authorization: Bearer " + live}, body: gt, status: ic, code: "invalid_client"},
		{name: "empty Authorization", headers: []string{"Authorization:"}, body: gt, status: ic, code: "invalid_client"},
		{name: "no client authentication", body: gt, status: ic, code: "invalid_client"},
		{name: "unknown client", headers: []string{auth("nobody", secretA)}, body: gt, status: ic, code: "invalid_client"},
		{name: "wrong secret", headers: []string{auth("svc-victim", secretA)}, body: gt, status: ic, code: "invalid_client"},
		{name: "post for a Basic client", body: gt + "&client_id=svc-victim&client_secret=" + url.QueryEscape(secretVictim), status: ic, code: "invalid_client"},
		// Content types.
		{name: "JSON body", ctype: "application/json", headers: []string{basicB}, body: `{"grant_type":"client_credentials"}`, status: ir, code: "invalid_request"},
		{name: "no Content-Type", ctype: "-", headers: []string{basicB}, body: gt, status: ir, code: "invalid_request"},
		{name: "text/plain", ctype: "text/plain", headers: []string{basicB}, body: gt, status: ir, code: "invalid_request"},
		{name: "multipart", ctype: "multipart/form-data; boundary=x", headers: []string{basicB}, body: gt, status: ir, code: "invalid_request"},
		{name: "latin-1 charset", ctype: "application/x-www-form-urlencoded; charset=iso-8859-1", headers: []string{basicB}, body: gt, status: ir, code: "invalid_request"},
		{name: "two Content-Types", headers: []string{basicB, "Content-Type: application/x-www-form-urlencoded"}, body: gt, status: ir, code: "invalid_request"},
		{name: "malformed Content-Type", ctype: "application/x-www-form-urlencoded; =", headers: []string{basicB}, body: gt, status: ir, code: "invalid_request"},
		// Bodies over the limit or cut short.
		{name: "body of 65 KiB", headers: []string{basicB}, body: gt + "&pad=" + strings.Repeat("a", 65<<10), status: big, code: "invalid_request"},
		{name: "chunked body of 65 KiB", raw: chunked("/oauth2/token", basicB, gt+"&pad="+strings.Repeat("a", 65<<10)), status: big, code: "invalid_request"},
		{name: "Content-Length of 1 TB", raw: "POST /oauth2/token HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\n" + basicB + "\r\nContent-Length: 1000000000000\r\n\r\n" + gt, status: big, code: "invalid_request"},
		{name: "body shorter than its Content-Length", raw: "POST /oauth2/token HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\n" + basicB + "\r\nContent-Length: 100\r\n\r\n" + gt, halfClose: true, status: ir, code: "invalid_request"},
		// Requests net/http refuses itself.
		{name: "two Content-Lengths", raw: "POST /oauth2/token HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", status: ir},
		{name: "Content-Length not a number", raw: "POST /oauth2/token HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: x\r\n\r\n", status: ir},
		{name: "header line without colon", raw: "POST /oauth2/token HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization Basic x\r\nContent-Length: 0\r\n\r\n", status: ir},
		{name: "no Host", raw: "POST /oauth2/token HTTP/1.1\r\nConnection: close\r\nContent-Length: 0\r\n\r\n", status: ir},
		// Methods.
		{name: "GET", method: http.MethodGet, headers: []string{basicB}, status: http.StatusMethodNotAllowed, code: "invalid_request"},
		{name: "PUT", method: http.MethodPut, headers: []string{basicB}, body: gt, status: http.StatusMethodNotAllowed, code: "invalid_request"},
		// Introspection and revocation.
		{name: "introspect: token twice", path: "/oauth2/introspect", headers: []string{basicB}, body: "token=" + live + "&token=" + revoked, status: ir, code: "invalid_request"},
		{name: "introspect: token_type_hint twice", path: "/oauth2/introspect", headers: []string{basicB}, body: "token=" + live + "&token_type_hint=access_token&token_type_hint=access_token", status: ir, code: "invalid_request"},
		{name: "introspect: no client", path: "/oauth2/introspect", body: "token=" + live, status: ic, code: "invalid_client"},
		{name: "introspect: two Authorization headers", path: "/oauth2/introspect", headers: []string{basicB, basicB}, body: "token=" + live, status: ir, code: "invalid_request"},
		{name: "introspect: JSON", path: "/oauth2/introspect", ctype: "application/json", headers: []string{basicB}, body: `{"token":"` + live + `"}`, status: ir, code: "invalid_request"},
		{name: "introspect: body of 65 KiB", path: "/oauth2/introspect", headers: []string{basicB}, body: "token=" + strings.Repeat("a", 65<<10), status: big, code: "invalid_request"},
		{name: "revoke: token twice", path: "/oauth2/revoke", headers: []string{auth("svc-a", secretA)}, body: "token=" + live + "&token=" + live, status: ir, code: "invalid_request"},
		{name: "revoke: client_id twice (post)", path: "/oauth2/revoke", body: "token=" + live + "&" + postCreds + "&client_id=svc-post", status: ir, code: "invalid_request"},
		{name: "revoke: no client", path: "/oauth2/revoke", body: "token=" + live, status: ic, code: "invalid_client"},
		{name: "revoke: Basic not base64", path: "/oauth2/revoke", headers: []string{"Authorization: Basic %%%"}, body: "token=" + live, status: ir, code: "invalid_request"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, body := sendHostile(t, r.inst.addr, c)
			if res.StatusCode != c.status {
				t.Fatalf("%d %q, want %d %s", res.StatusCode, clipped(body), c.status, c.code)
			}
			if c.code == "" {
				return
			}
			var e struct {
				Error string `json:"error"`
			}
			if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") || json.Unmarshal(body, &e) != nil || e.Error != c.code {
				t.Fatalf("%d %s %q, want the JSON error %s", res.StatusCode, ct, clipped(body), c.code)
			}
			if cc := res.Header.Get("Cache-Control"); cc != "no-store" {
				t.Errorf("Cache-Control %q, want no-store", cc)
			}
			if res.StatusCode == http.StatusUnauthorized && !strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Basic") {
				t.Errorf("401 without a Basic challenge: %q", res.Header.Get("WWW-Authenticate"))
			}
		})
	}

	// A token too large for any JWT is not active: introspection answers
	// 200 {"active":false} (RFC 7662 §2.2), not an error.
	if code, m := post(t, r.url("/oauth2/introspect"), url.Values{"token": {strings.Repeat("a", 60<<10)}}, "svc-b", secretB); code != http.StatusOK || m["active"] != false {
		t.Fatalf("introspection of a 60 KiB token: %d %v", code, m)
	}

	// Connections that stall in their headers hold no one off.
	var stalled []net.Conn
	for range 50 {
		c, err := net.Dial("tcp", r.inst.addr)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprint(c, "POST /oauth2/token HTTP/1.1\r\nHost: x\r\nContent-Type: appl")
		stalled = append(stalled, c)
	}
	tok := r.token("svc-a", secretA)
	for _, c := range stalled {
		c.Close()
	}

	// Alive, nothing lost.
	select {
	case code := <-r.done:
		r.stopped, r.code = true, code
		t.Fatalf("serve exited (%d) under hostile input:\n%s", code, r.stderr)
	default:
	}
	if code, _ := get(t, r.url("/healthz")); code != http.StatusOK {
		t.Fatalf("/healthz: %d", code)
	}
	if code, _ := get(t, r.url("/readyz")); code != http.StatusOK {
		t.Fatalf("/readyz: %d", code)
	}
	r.verifyFromJWKS(tok, testAudience)
	r.verifyFromJWKS(r.token("svc-b", secretB), testAudience)
	if code, m := post(t, r.url("/oauth2/token"), url.Values{"grant_type": {"client_credentials"}, "client_id": {"svc-post"}, "client_secret": {secretPost}}, "", ""); code != http.StatusOK {
		t.Fatalf("client_secret_post after the hostile requests: %d %v", code, m)
	}
	if !r.introspect(live, "svc-b", secretB) || !r.introspect(tok, "svc-b", secretB) {
		t.Fatal("a token issued to the legitimate client is no longer active")
	}
	if r.introspect(revoked, "svc-b", secretB) {
		t.Fatal("the token revoked before the hostile requests is active again")
	}
	if code := r.stop(); code != exitOK {
		t.Fatalf("exit %d:\n%s", code, r.stderr)
	}
	logs := r.stderr.String()
	for _, s := range []string{secretA, secretB, secretPost, secretVictim, live} {
		if strings.Contains(logs, s) {
			t.Fatal("the logs hold a secret or a token")
		}
	}
	sc := bufio.NewScanner(strings.NewReader(logs))
	sc.Buffer(nil, 1<<20)
	requests := 0
	for sc.Scan() {
		var m struct {
			Msg    string `json:"msg"`
			Status int    `json:"status"`
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("log line is not JSON: %q", clipped(sc.Bytes()))
		}
		if m.Msg == "request" {
			requests++
			if m.Status >= 500 {
				t.Fatalf("a request answered %d:\n%s", m.Status, sc.Text())
			}
		}
	}
	t.Logf("%d hostile requests, each a clean 4xx; %d requests logged, none 5xx", len(cases)+1, requests)
}

// chunked is a POST of body in chunks of 4 KiB (no Content-Length).
func chunked(path, authLine, body string) string {
	var b strings.Builder
	b.WriteString("POST " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\n" + authLine + "\r\nTransfer-Encoding: chunked\r\n\r\n")
	for len(body) > 0 {
		n := min(len(body), 4<<10)
		fmt.Fprintf(&b, "%x\r\n%s\r\n", n, body[:n])
		body = body[n:]
	}
	b.WriteString("0\r\n\r\n")
	return b.String()
}

// sendHostile sends c on a connection of its own and reads the answer,
// within 10 s.
func sendHostile(t *testing.T, addr string, c hostile) (*http.Response, []byte) {
	t.Helper()
	raw := c.raw
	if raw == "" {
		method, path := c.method, c.path
		if method == "" {
			method = http.MethodPost
		}
		if path == "" {
			path = "/oauth2/token"
		}
		var b strings.Builder
		b.WriteString(method + " " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n")
		switch c.ctype {
		case "":
			b.WriteString("Content-Type: application/x-www-form-urlencoded\r\n")
		case "-":
		default:
			b.WriteString("Content-Type: " + c.ctype + "\r\n")
		}
		for _, h := range c.headers {
			b.WriteString(h + "\r\n")
		}
		b.WriteString("Content-Length: " + strconv.Itoa(len(c.body)) + "\r\n\r\n" + c.body)
		raw = b.String()
	}
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(30 * time.Second)) // bounds a hang only
	// The server may answer and close before reading all of a large
	// request: a failed write is not the test's failure, a missing answer
	// is.
	io.WriteString(conn, raw)
	if c.halfClose {
		conn.(*net.TCPConn).CloseWrite()
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no HTTP answer: %v", err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	return res, body
}

// clipped shortens what a failure prints.
func clipped(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}
