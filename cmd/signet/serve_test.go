package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet/server/keys"
)

// TestServeDev: `signet serve --dev` prints a client id, its secret and a
// curl line; a real HTTP client gets a token with them, and the token
// verifies from the published JWKS as RFC 9068 prescribes. The logs are
// JSON lines and never hold the secret.
func TestServeDev(t *testing.T) {
	r := startServe(t, []string{"--dev", "--addr", "127.0.0.1:0"}, nil)
	out := r.stdout.String()
	id := regexp.MustCompile(`(?m)^client_id:\s+(\S+)$`).FindStringSubmatch(out)
	secret := regexp.MustCompile(`(?m)^client_secret:\s+(\S+)$`).FindStringSubmatch(out)
	if id == nil || secret == nil {
		t.Fatalf("no client id or secret printed:\n%s", out)
	}
	if len(secret[1]) < 43 { // 256 bits in base64url
		t.Fatalf("secret %q is shorter than 256 bits", secret[1])
	}
	curl := "curl -s -u " + id[1] + ":" + secret[1] + " -d grant_type=client_credentials http://" + r.inst.addr + "/oauth2/token"
	if !strings.Contains(out, curl) {
		t.Fatalf("no curl line %q in:\n%s", curl, out)
	}
	if r.inst.issuer != "http://"+r.inst.addr {
		t.Fatalf("issuer %q, want http://%s", r.inst.issuer, r.inst.addr)
	}
	tok := r.token(id[1], secret[1])
	c := r.verifyFromJWKS(tok, r.inst.issuer)
	if c.ClientID != id[1] || c.Subject != id[1] || c.Scope != "read write" {
		t.Fatalf("claims %+v", c)
	}
	if code, _ := post(t, r.url("/oauth2/token"), grant, id[1], "wrong"+secret[1][5:]); code != http.StatusUnauthorized {
		t.Fatalf("a wrong secret got %d, want 401", code)
	}
	if code, body := get(t, r.url("/readyz")); code != http.StatusOK {
		t.Fatalf("/readyz: %d %s", code, body)
	}
	if code := r.stop(); code != exitOK {
		t.Fatalf("exit %d after the context ended, want 0:\n%s", code, r.stderr)
	}
	logs := r.stderr.String()
	if strings.Contains(logs, secret[1]) || strings.Contains(logs, tok) {
		t.Fatalf("the logs hold the secret or the token:\n%s", logs)
	}
	var start map[string]any
	sc := bufio.NewScanner(strings.NewReader(logs))
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("log line is not JSON: %q", sc.Text())
		}
		if m["msg"] == "signet serve: listening" {
			start = m
		}
	}
	if start == nil || start["addr"] != r.inst.addr || start["issuer"] != r.inst.issuer || start["alg"] != "ES256" || start["storage"] != "memory" {
		t.Fatalf("start line %v", start)
	}
	if !strings.Contains(logs, `"msg":"signet serve: stopped"`) {
		t.Fatalf("no stop line:\n%s", logs)
	}
}

// TestServeDevPASETO: --format paseto implies v4.public and issues
// PASETO tokens, whose keys are published as PASERK.
func TestServeDevPASETO(t *testing.T) {
	r := startServe(t, []string{"--dev", "--addr", "127.0.0.1:0", "--format", "paseto"}, nil)
	out := r.stdout.String()
	id := regexp.MustCompile(`(?m)^client_id:\s+(\S+)$`).FindStringSubmatch(out)
	secret := regexp.MustCompile(`(?m)^client_secret:\s+(\S+)$`).FindStringSubmatch(out)
	tok := r.token(id[1], secret[1])
	if !strings.HasPrefix(tok, "v4.public.") {
		t.Fatalf("token %q is not v4.public", tok)
	}
	if !r.introspect(tok, id[1], secret[1]) {
		t.Fatal("the PASETO token is not active")
	}
	body, kids := r.jwks()
	if len(kids) == 0 || !strings.HasPrefix(kids[0], "k4.pid.") || !strings.Contains(string(body), `"paserk":"k4.public.`) {
		t.Fatalf("jwks %s", body)
	}
}

// TestServeDataRestart: with --data, the keys (wrapped under a KEK
// created 0600 in the directory) and revocations survive a restart: the
// JWKS publishes the same kids, a token issued before verifies and
// introspects active after, a token revoked before stays revoked.
func TestServeDataRestart(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	clients := writeClients(t, "", []string{"svc-a"}, []string{secretA})
	args := []string{"--clients", clients, "--data", dir, "--addr", "127.0.0.1:0", "--issuer", "https://auth.example.com"}
	r := startServe(t, args, nil)
	tok := r.token("svc-a", secretA)
	revoked := r.token("svc-a", secretA)
	if code, m := post(t, r.url("/oauth2/revoke"), url.Values{"token": {revoked}}, "svc-a", secretA); code != http.StatusOK {
		t.Fatalf("revoke: %d %v", code, m)
	}
	_, kids := r.jwks()
	r.verifyFromJWKS(tok, testAudience)
	if code := r.stop(); code != exitOK {
		t.Fatalf("exit %d:\n%s", code, r.stderr)
	}
	fi, err := os.Stat(filepath.Join(dir, keys.KEKFile))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("KEK file mode %v, want 0600", fi.Mode().Perm())
	}
	if _, err := os.Stat(filepath.Join(dir, "signet.db")); err != nil {
		t.Fatal(err)
	}

	r2 := startServe(t, args, nil)
	if _, kids2 := r2.jwks(); strings.Join(kids2, " ") != strings.Join(kids, " ") {
		t.Fatalf("kids after restart %v, before %v", kids2, kids)
	}
	r2.verifyFromJWKS(tok, testAudience)
	if !r2.introspect(tok, "svc-a", secretA) {
		t.Fatal("a token issued before the restart is inactive after it")
	}
	if r2.introspect(revoked, "svc-a", secretA) {
		t.Fatal("a token revoked before the restart is active after it")
	}
	if tok2 := r2.token("svc-a", secretA); strings.Split(tok2, ".")[0] != strings.Split(tok, ".")[0] {
		t.Fatal("the restarted service signs with another key (header differs)")
	}
}

// TestServeKEKOptions: --kek-file and SIGNET_KEK replace the KEK kept in
// the data directory; a store written under one KEK does not start under
// another (exit 1, the keys never overwritten).
func TestServeKEKOptions(t *testing.T) {
	dir := t.TempDir()
	clients := writeClients(t, "", []string{"svc-a"}, []string{secretA})
	kek, err := keys.GenerateKEK()
	if err != nil {
		t.Fatal(err)
	}
	text, err := keys.FormatKEK(kek)
	if err != nil {
		t.Fatal(err)
	}
	kekFile := filepath.Join(t.TempDir(), "kek")
	if err := os.WriteFile(kekFile, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data")
	r := startServe(t, []string{"--clients", clients, "--data", data, "--kek-file", kekFile, "--addr", "127.0.0.1:0"}, nil)
	r.token("svc-a", secretA)
	r.stop()
	if _, err := os.Stat(filepath.Join(data, keys.KEKFile)); !os.IsNotExist(err) {
		t.Fatalf("a KEK was created in the data directory despite --kek-file: %v", err)
	}
	// The same KEK from the environment opens the same store.
	r = startServe(t, []string{"--clients", clients, "--data", data, "--addr", "127.0.0.1:0"}, map[string]string{"SIGNET_KEK": text})
	r.token("svc-a", secretA)
	r.stop()
	// Another KEK (the one created in the directory) does not.
	var stdout, stderr syncBuffer
	code := serve(context.Background(), []string{"--clients", clients, "--data", data, "--addr", "127.0.0.1:0"}, &stdout, &stderr,
		serveHooks{getenv: func(string) string { return "" }, ready: func(*instance) { t.Error("started under another KEK") }})
	if code != exitRejected || !strings.Contains(stderr.String(), "key-encryption key") {
		t.Fatalf("exit %d, stderr %s", code, stderr.String())
	}
}

// TestServeUsage: command lines serve cannot act on exit 2 with a message
// on stderr, before listening.
func TestServeUsage(t *testing.T) {
	clients := writeClients(t, "", []string{"svc-a"}, []string{secretA})
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{[]string{"--clients", clients}, nil, "no store"},
		{[]string{"--data", dir}, nil, "--clients is required"},
		{[]string{"--clients", clients, "--data", dir, "--redis", "redis://127.0.0.1:1/0"}, nil, "--data and --redis together"},
		{[]string{"--clients", clients, "--redis", "redis://127.0.0.1:1/0"}, nil, "--redis needs the key-encryption key"},
		{[]string{"--clients", clients, "--data", dir, "--tls-cert", "cert.pem"}, nil, "--tls-cert and --tls-key go together"},
		{[]string{"--clients", clients, "--data", dir, "--tls-key", "key.pem"}, nil, "--tls-cert and --tls-key go together"},
		{[]string{"--clients", clients, "--data", dir, "--rotate", "weekly"}, nil, "--rotate"},
		{[]string{"--clients", clients, "--data", dir, "--rotate", "-1h"}, nil, "--rotate"},
		{[]string{"--clients", clients, "--data", dir, "--rotate", "0s"}, nil, "--rotate"},
		{[]string{"--clients", clients, "--data", dir, "--format", "jwe"}, nil, "unknown --format"},
		{[]string{"--clients", clients, "--data", dir, "--alg", "ES257"}, nil, "unknown algorithm"},
		{[]string{"--clients", clients, "--data", dir, "--alg", "v4.public"}, nil, "not a JWS algorithm"},
		{[]string{"--clients", clients, "--data", dir, "--alg", "v4.local"}, nil, "not a JWS algorithm"},
		{[]string{"--clients", clients, "--data", dir, "--format", "paseto", "--alg", "ES256"}, nil, "--format paseto signs with v4.public"},
		{[]string{"--clients", clients, "--data", dir, "--alg", "ecdsa-p256-sha256"}, nil, "not a JWS algorithm"},
		{[]string{"--dev", "--data", dir}, nil, "--dev takes no --data"},
		{[]string{"--dev", "--clients", clients}, nil, "--dev takes no --clients"},
		{[]string{"--dev", "extra"}, nil, "unexpected argument"},
		{[]string{"--dev", "--no-such-flag"}, nil, "no-such-flag"},
		{[]string{"--dev", "--issuer", "ftp://x"}, nil, "issuer"},
		{[]string{"--dev", "--trusted-proxy", "10.0.0.0/33"}, nil, "trusted-proxy"},
		{[]string{"--dev", "--trusted-proxy", "proxy.internal"}, nil, "trusted-proxy"},
		{[]string{"--dev", "--trusted-proxy", "0.0.0.0/0"}, nil, "trusts every address"},
		{[]string{"--dev", "--trusted-proxy", "::/0"}, nil, "trusts every address"},
		{[]string{"--clients", clients, "--redis", "not a url"}, map[string]string{"SIGNET_KEK": "k4.local.AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"}, "--redis"},
	} {
		var stdout, stderr syncBuffer
		env := tc.env
		code := serve(context.Background(), append(tc.args, "--addr", "127.0.0.1:0"), &stdout, &stderr,
			serveHooks{getenv: func(k string) string { return env[k] }, ready: func(*instance) { t.Errorf("%v: started", tc.args) }})
		if code != exitUsage || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr.String(), tc.want)
		}
		if stdout.String() != "" {
			t.Errorf("%v: stdout %q", tc.args, stdout.String())
		}
	}
}

// TestServeHelp: -h prints the synopsis and flags on stdout, exit 0.
func TestServeHelp(t *testing.T) {
	var stdout, stderr syncBuffer
	if code := serve(context.Background(), []string{"-h"}, &stdout, &stderr, serveHooks{}); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, want := range []string{"signet serve --clients F", "--redis", "--kek-file", "--admin-addr", "--dev"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("help lacks %q:\n%s", want, stdout.String())
		}
	}
}

// TestServeGracefulShutdown: when the context ends (SIGTERM) while a
// request is in flight, the listener closes, the request completes with
// its token, and serve returns 0.
func TestServeGracefulShutdown(t *testing.T) {
	clients := writeClients(t, "", []string{"svc-a"}, []string{secretA})
	r := startServe(t, []string{"--clients", clients, "--data", t.TempDir(), "--addr", "127.0.0.1:0"}, nil)
	conn, err := net.Dial("tcp", r.inst.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	body := grant.Encode()
	req := "POST /oauth2/token HTTP/1.1\r\nHost: " + r.inst.addr + "\r\n" +
		"Authorization: Basic " + basic("svc-a", secretA) + "\r\n" +
		"Content-Type: application/x-www-form-urlencoded\r\nExpect: 100-continue\r\n" +
		"Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n"
	if _, err := conn.Write([]byte(req)); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	// 100 Continue: the handler runs and is reading the body.
	line, err := br.ReadString('\n')
	if err != nil || !strings.Contains(line, "100") {
		t.Fatalf("want 100 Continue, got %q %v", line, err)
	}
	br.ReadString('\n') // the blank line after it
	r.cancel()
	// The listener closes: new connections are refused.
	for deadline := time.Now().Add(30 * time.Second); ; {
		c, err := net.Dial("tcp", r.inst.addr)
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("the listener still accepts 30 s after the context ended")
		}
		time.Sleep(10 * time.Millisecond)
	}
	select {
	case code := <-r.done:
		t.Fatalf("serve returned %d with a request in flight", code)
	default:
	}
	if _, err := conn.Write([]byte(body)); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.NewDecoder(res.Body).Decode(&m)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || m["access_token"] == nil {
		t.Fatalf("in-flight request: %d %v", res.StatusCode, m)
	}
	if code := r.stop(); code != exitOK {
		t.Fatalf("exit %d:\n%s", code, r.stderr)
	}
}

// TestServeReload: SIGHUP's reload replaces the clients from the file; a
// file that does not parse is logged and the clients before kept.
func TestServeReload(t *testing.T) {
	clients := writeClients(t, "", []string{"svc-a"}, []string{secretA})
	r := startServe(t, []string{"--clients", clients, "--data", t.TempDir(), "--addr", "127.0.0.1:0"}, nil)
	r.token("svc-a", secretA)
	writeClients(t, clients, []string{"svc-b"}, []string{secretB})
	if err := r.inst.reload(); err != nil {
		t.Fatal(err)
	}
	r.token("svc-b", secretB)
	if code, _ := post(t, r.url("/oauth2/token"), grant, "svc-a", secretA); code != http.StatusUnauthorized {
		t.Fatalf("a client removed by the reload got %d, want 401", code)
	}
	if err := os.WriteFile(clients, []byte(`{"clients": [`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := r.inst.reload(); err == nil {
		t.Fatal("a broken clients file reloaded")
	}
	r.token("svc-b", secretB)
	logs := r.stderr.String()
	if !strings.Contains(logs, `"msg":"clients: reloaded"`) || !strings.Contains(logs, `"msg":"clients: reload failed; keeping the clients loaded before"`) {
		t.Fatalf("reloads not logged:\n%s", logs)
	}
}

// TestServeReloadOnHUP: a value on the hup channel (SIGHUP in main)
// reloads the clients file.
func TestServeReloadOnHUP(t *testing.T) {
	clients := writeClients(t, "", []string{"svc-a"}, []string{secretA})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	hup := make(chan os.Signal, 1)
	ready := make(chan *instance, 1)
	var stdout, stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- serve(ctx, []string{"--clients", clients, "--data", t.TempDir(), "--addr", "127.0.0.1:0"}, &stdout, &stderr,
			serveHooks{hup: hup, ready: func(i *instance) { ready <- i }, getenv: func(string) string { return "" }})
	}()
	inst := <-ready
	writeClients(t, clients, []string{"svc-b"}, []string{secretB})
	hup <- os.Interrupt // any value: the channel stands for SIGHUP
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(stderr.String(), "clients: reloaded"); {
		if time.Now().After(deadline) {
			t.Fatalf("no reload logged:\n%s", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if code, m := post(t, "http://"+inst.addr+"/oauth2/token", grant, "svc-b", secretB); code != http.StatusOK {
		t.Fatalf("after the reload: %d %v", code, m)
	}
	cancel()
	if code := <-done; code != exitOK {
		t.Fatalf("exit %d", code)
	}
}

// TestServeAdminAddr: with --admin-addr the health checks answer there
// and not on the main listener.
func TestServeAdminAddr(t *testing.T) {
	r := startServe(t, []string{"--dev", "--addr", "127.0.0.1:0", "--admin-addr", "127.0.0.1:0"}, nil)
	if r.inst.adminAddr == "" || r.inst.adminAddr == r.inst.addr {
		t.Fatalf("admin addr %q", r.inst.adminAddr)
	}
	for _, p := range []string{"/healthz", "/readyz"} {
		if code, body := get(t, "http://"+r.inst.adminAddr+p); code != http.StatusOK {
			t.Errorf("admin %s: %d %s", p, code, body)
		}
		if code, _ := get(t, r.url(p)); code != http.StatusNotFound {
			t.Errorf("main %s: %d, want 404", p, code)
		}
	}
	if code, _ := get(t, r.url("/.well-known/oauth-authorization-server")); code != http.StatusOK {
		t.Errorf("discovery on the main listener: %d", code)
	}
}

// TestServeHTTPServerLimits: the servers carry timeouts and a header
// limit.
func TestServeHTTPServerLimits(t *testing.T) {
	s := newHTTPServer(http.NotFoundHandler(), nil, nil)
	if s.ReadHeaderTimeout <= 0 || s.ReadTimeout <= 0 || s.WriteTimeout <= 0 || s.IdleTimeout <= 0 || s.MaxHeaderBytes <= 0 {
		t.Fatalf("server %+v lacks a timeout or limit", s)
	}
}

// TestBaseURL: the default issuer is the bound address, localhost for a
// wildcard host, https with TLS.
func TestBaseURL(t *testing.T) {
	bound := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 4242}
	for _, tc := range []struct {
		addr  string
		https bool
		want  string
	}{
		{"127.0.0.1:0", false, "http://127.0.0.1:4242"},
		{":8080", false, "http://localhost:4242"},
		{"0.0.0.0:8080", true, "https://localhost:4242"},
		{"[::]:8080", false, "http://localhost:4242"},
		{"auth.internal:8080", true, "https://auth.internal:4242"},
	} {
		if got := baseURL(tc.addr, bound, tc.https); got != tc.want {
			t.Errorf("baseURL(%q, %v) = %q, want %q", tc.addr, tc.https, got, tc.want)
		}
	}
}

func basic(id, secret string) string {
	req, _ := http.NewRequest("GET", "/", nil)
	req.SetBasicAuth(id, secret)
	return strings.TrimPrefix(req.Header.Get("Authorization"), "Basic ")
}

// TestServeMetrics: /metrics answers beside the endpoints, counts the
// token issued to the dev client, and moves to the admin listener when
// there is one.
func TestServeMetrics(t *testing.T) {
	r := startServe(t, []string{"--dev", "--addr", "127.0.0.1:0"}, nil)
	out := r.stdout.String()
	id := regexp.MustCompile(`(?m)^client_id:\s+(\S+)$`).FindStringSubmatch(out)
	secret := regexp.MustCompile(`(?m)^client_secret:\s+(\S+)$`).FindStringSubmatch(out)
	if id == nil || secret == nil {
		t.Fatalf("no client id or secret printed:\n%s", out)
	}
	tok := r.token(id[1], secret[1])
	code, raw := get(t, r.url("/metrics"))
	if code != http.StatusOK {
		t.Fatalf("/metrics: %d", code)
	}
	body := string(raw)
	want := `signet_tokens_issued_total{alg="ES256",client_id="` + id[1] + `"} 1`
	if !strings.Contains(body, want) {
		t.Errorf("/metrics lacks %s", want)
	}
	if !strings.Contains(body, `http_request_duration_seconds_bucket{code="200",handler="/oauth2/token",method="POST",le="0.0001"}`) {
		t.Errorf("/metrics lacks the token endpoint's latency histogram with its sub-millisecond buckets")
	}
	if strings.Contains(body, secret[1]) || strings.Contains(body, tok) {
		t.Fatal("/metrics holds the secret or the token")
	}

	a := startServe(t, []string{"--dev", "--addr", "127.0.0.1:0", "--admin-addr", "127.0.0.1:0"}, nil)
	if code, _ := get(t, "http://"+a.inst.adminAddr+"/metrics"); code != http.StatusOK {
		t.Errorf("admin /metrics: %d", code)
	}
	if code, _ := get(t, a.url("/metrics")); code != http.StatusNotFound {
		t.Errorf("main /metrics with an admin listener: %d, want 404", code)
	}
}

// TestServeAccessLog: every request gets an access record (held back
// while serving, see logWriter), all of them written by the time serve
// has stopped, in the form logWriter recognises.
func TestServeAccessLog(t *testing.T) {
	clients := writeClients(t, "", []string{"svc-a"}, []string{secretA})
	r := startServe(t, []string{"--clients", clients, "--data", t.TempDir(), "--addr", "127.0.0.1:0"}, nil)
	for range 3 {
		r.token("svc-a", secretA)
	}
	if code := r.stop(); code != exitOK {
		t.Fatalf("exit %d", code)
	}
	n := 0
	for _, line := range strings.Split(r.stderr.String(), "\n") {
		if strings.Contains(line, string(accessRecord)) && strings.Contains(line, `"path":"/oauth2/token"`) && strings.Contains(line, `"client_id":"svc-a"`) {
			n++
		}
	}
	if n != 3 {
		t.Fatalf("%d access records of the 3 token requests:\n%s", n, r.stderr)
	}
}
