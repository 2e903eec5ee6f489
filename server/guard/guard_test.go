package guard

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwt"
)

// TestGuardRefusals is the table of requests the guard answers itself:
// each with its status, RFC 6750 error code, signet sentinel (checked
// on Guard.check) and nothing sent to the upstream.
func TestGuardRefusals(t *testing.T) {
	other, err := signet.GenerateKeyWithID(signet.ES256, "k1") // same kid, another key
	if err != nil {
		t.Fatal(err)
	}
	unavailable := fmt.Errorf("%w: test outage", signet.ErrUnavailable)
	for _, tc := range []struct {
		name     string
		cfg      Config
		auth     func(f *fixture) []string
		at       time.Time // the clock at the request (t0 when zero)
		outage   bool      // the key source fails with ErrUnavailable
		status   int
		code     string // the error code of the WWW-Authenticate challenge ("" for none)
		sentinel error  // what Guard.check returns, for a request with a token
	}{
		{name: "no token", auth: func(*fixture) []string { return nil }, status: 401},
		{name: "other scheme", auth: func(*fixture) []string { return []string{"Basic dXNlcjpwYXNz"} }, status: 401},
		{name: "two headers", auth: func(f *fixture) []string {
			tok := f.token(claims{})
			return []string{"Bearer " + tok, "Bearer " + tok}
		}, status: 400, code: "invalid_request"},
		{name: "not a JWT", auth: func(*fixture) []string { return withToken("abc.def") }, status: 401, code: "invalid_token", sentinel: signet.ErrMalformed},
		{name: "forged signature", auth: func(f *fixture) []string { return withToken(f.tokenWith(other, claims{})) },
			status: 401, code: "invalid_token", sentinel: signet.ErrSignatureInvalid},
		{name: "expired", auth: func(f *fixture) []string { return withToken(f.token(claims{})) }, at: t0.Add(15 * time.Minute),
			status: 401, code: "invalid_token", sentinel: signet.ErrExpired},
		{name: "not yet valid", auth: func(f *fixture) []string {
			return withToken(f.token(claims{Claims: jwt.Claims{NotBefore: jwt.At(t0.Add(time.Minute))}}))
		}, status: 401, code: "invalid_token", sentinel: signet.ErrNotYetValid},
		{name: "wrong issuer", auth: func(f *fixture) []string {
			return withToken(f.token(claims{Claims: jwt.Claims{Issuer: "https://evil.example"}}))
		}, status: 401, code: "invalid_token", sentinel: signet.ErrIssuer},
		{name: "wrong audience", auth: func(f *fixture) []string {
			return withToken(f.token(claims{Claims: jwt.Claims{Audience: jwt.Audience{"https://other.example"}}}))
		}, status: 401, code: "invalid_token", sentinel: signet.ErrAudience},
		{name: "missing scope", cfg: Config{Scopes: []string{"read", "write"}}, auth: func(f *fixture) []string {
			return withToken(f.token(claims{Scope: "read"}))
		}, status: 403, code: "insufficient_scope", sentinel: signet.ErrMissingClaim},
		{name: "scope of another type", cfg: Config{Scopes: []string{"read"}}, auth: func(f *fixture) []string {
			tok, err := jwt.Sign(f.key, jwt.Map{"iss": testIssuer, "aud": testAudience, "exp": t0.Add(time.Hour).Unix(), "scope": []string{"read"}})
			if err != nil {
				t.Fatal(err)
			}
			return withToken(tok)
		}, status: 401, code: "invalid_token", sentinel: signet.ErrMalformed},
		// RFC 6749 §3.3: scope names are separated by SP (%x20) only, as
		// package bearer reads them; a tab, a newline or a Unicode space
		// does not split "read<sep>admin" into a scope "admin".
		{name: "scope split by a tab", cfg: Config{Scopes: []string{"admin"}}, auth: func(f *fixture) []string {
			return withToken(f.token(claims{Scope: "read\tadmin"}))
		}, status: 403, code: "insufficient_scope", sentinel: signet.ErrMissingClaim},
		{name: "scope split by a newline", cfg: Config{Scopes: []string{"admin"}}, auth: func(f *fixture) []string {
			return withToken(f.token(claims{Scope: "read\nadmin"}))
		}, status: 403, code: "insufficient_scope", sentinel: signet.ErrMissingClaim},
		{name: "scope split by a no-break space", cfg: Config{Scopes: []string{"admin"}}, auth: func(f *fixture) []string {
			return withToken(f.token(claims{Scope: "read\u00a0admin"}))
		}, status: 403, code: "insufficient_scope", sentinel: signet.ErrMissingClaim},
		{name: "scope prefix is not the scope", cfg: Config{Scopes: []string{"read"}}, auth: func(f *fixture) []string {
			return withToken(f.token(claims{Scope: "readonly reader"}))
		}, status: 403, code: "insufficient_scope", sentinel: signet.ErrMissingClaim},
		{name: "too large", auth: func(f *fixture) []string {
			return withToken(f.token(claims{Scope: strings.Repeat("s", DefaultMaxTokenSize)}))
		}, status: 401, code: "invalid_token", sentinel: signet.ErrTooLarge},
		{name: "keys unavailable", outage: true, auth: func(f *fixture) []string { return withToken(f.token(claims{})) },
			status: 503, sentinel: signet.ErrUnavailable},
		{name: "access token profile: typ JWT", cfg: Config{AccessToken: true}, auth: func(f *fixture) []string {
			return withToken(f.token(claims{ClientID: "svc-a"}))
		}, status: 401, code: "invalid_token", sentinel: signet.ErrType},
		{name: "access token profile: no client_id", cfg: Config{AccessToken: true}, auth: func(f *fixture) []string {
			return withToken(accessToken(t, f, map[string]any{"client_id": nil}))
		}, status: 401, code: "invalid_token", sentinel: signet.ErrMissingClaim},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, tc.cfg)
			if tc.outage {
				f.keys.err.Store(&unavailable)
			}
			if !tc.at.IsZero() {
				f.clock.Set(tc.at)
			}
			auth := tc.auth(f)
			w := f.do(auth, nil)
			if w.Code != tc.status {
				t.Fatalf("status %d, want %d (%s)", w.Code, tc.status, w.Body)
			}
			if n := f.up.count(); n != 0 {
				t.Errorf("the upstream received %d requests", n)
			}
			challenge := w.Header().Get("WWW-Authenticate")
			switch {
			case tc.status == 503:
				if challenge != "" {
					t.Errorf("503 with a challenge %q", challenge)
				}
			case !strings.HasPrefix(challenge, "Bearer"):
				t.Errorf("WWW-Authenticate %q, want a Bearer challenge", challenge)
			case tc.code == "" && strings.Contains(challenge, "error="):
				t.Errorf("WWW-Authenticate %q has an error code; want none (RFC 6750 §3.1)", challenge)
			case tc.code != "" && !strings.Contains(challenge, `error="`+tc.code+`"`):
				t.Errorf("WWW-Authenticate %q, want error %q", challenge, tc.code)
			}
			if tc.code == "insufficient_scope" && !strings.Contains(challenge, `scope="`+strings.Join(tc.cfg.Scopes, " ")+`"`) {
				t.Errorf("WWW-Authenticate %q does not name the required scopes", challenge)
			}
			if tc.sentinel != nil {
				tok := strings.TrimPrefix(auth[0], "Bearer ")
				if _, _, err := f.g.check(tok); !errors.Is(err, tc.sentinel) {
					t.Errorf("check: %v, want %v", err, tc.sentinel)
				}
			}
		})
	}
}

// accessToken signs an RFC 9068 access token (typ at+jwt) with every
// claim the profile requires, changed by set (a nil value removes).
func accessToken(t *testing.T, f *fixture, set map[string]any) string {
	t.Helper()
	c := map[string]any{"iss": testIssuer, "aud": testAudience, "sub": "svc-a", "client_id": "svc-a",
		"iat": t0.Unix(), "exp": t0.Add(15 * time.Minute).Unix(), "jti": "j1", "scope": "read write"}
	for k, v := range set {
		if v == nil {
			delete(c, k)
		} else {
			c[k] = v
		}
	}
	payload, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := jwt.SignBytes(f.key, payload, "at+jwt")
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// TestGuardForwards: a valid token reaches the upstream with the claims
// header (the payload segment, exactly as signed), the request id, and
// without the Authorization header unless ForwardToken.
func TestGuardForwards(t *testing.T) {
	for _, forward := range []bool{false, true} {
		t.Run(fmt.Sprintf("ForwardToken=%v", forward), func(t *testing.T) {
			f := newFixture(t, Config{Scopes: []string{"read"}, ForwardToken: forward, AccessToken: true})
			tok := accessToken(t, f, nil)
			w := f.do(withToken(tok), nil)
			if w.Code != http.StatusOK {
				t.Fatalf("status %d: %s", w.Code, w.Body)
			}
			h := f.up.last(t)
			got := h.Values(DefaultClaimsHeader)
			if len(got) != 1 || got[0] != strings.Split(tok, ".")[1] {
				t.Fatalf("claims header %q, want the payload segment", got)
			}
			raw, err := base64.RawURLEncoding.DecodeString(got[0])
			if err != nil {
				t.Fatal(err)
			}
			var c map[string]any
			if err := json.Unmarshal(raw, &c); err != nil || c["client_id"] != "svc-a" {
				t.Fatalf("claims %s (%v)", raw, err)
			}
			if auth := h.Get("Authorization"); (auth != "") != forward {
				t.Errorf("Authorization %q forwarded with ForwardToken=%v", auth, forward)
			}
			if id := w.Header().Get(RequestIDHeader); id == "" || h.Get(RequestIDHeader) != id {
				t.Errorf("request id %q to the client, %q to the upstream", id, h.Get(RequestIDHeader))
			}
		})
	}
}

// TestGuardStripsClaimsHeader: every incoming copy of the claims header
// is removed before the guard sets its own: duplicated, in any case,
// with '_' for '-', and when the client names it in Connection (a
// hop-by-hop trick that would make a Director-based proxy drop the
// header it set). The request goes over a real connection, so the
// server's own header parsing applies.
func TestGuardStripsClaimsHeader(t *testing.T) {
	for _, name := range []string{"", "X-Auth-Claims"} {
		t.Run("header="+name, func(t *testing.T) {
			f := newFixture(t, Config{ClaimsHeader: name})
			want := name
			if want == "" {
				want = DefaultClaimsHeader
			}
			srv := httptest.NewServer(f.g.Handler())
			defer srv.Close()
			tok := f.token(claims{})
			lower, under := strings.ToLower(want), strings.ReplaceAll(want, "-", "_")
			raw := "GET /hello HTTP/1.1\r\nHost: guard.test\r\n" +
				"Authorization: Bearer " + tok + "\r\n" +
				want + ": forged-1\r\n" +
				lower + ": forged-2\r\n" +
				strings.ToUpper(want) + ": forged-3\r\n" +
				under + ": forged-4\r\n" +
				strings.ToLower(under) + ": forged-5\r\n" +
				"Connection: " + want + ", " + RequestIDHeader + "\r\n" +
				"\r\n"
			if status := rawRequest(t, srv.Listener.Addr().String(), raw); status != http.StatusOK {
				t.Fatalf("status %d", status)
			}
			h := f.up.last(t)
			for k, vs := range h {
				if sameHeader(k, want) && k != http.CanonicalHeaderKey(want) {
					t.Errorf("the upstream got %s: %q", k, vs)
				}
				for _, v := range vs {
					if strings.HasPrefix(v, "forged") {
						t.Errorf("the upstream got %s: %q", k, v)
					}
				}
			}
			if got := h.Values(want); len(got) != 1 || got[0] != strings.Split(tok, ".")[1] {
				t.Errorf("%s: %q, want the payload segment alone", want, got)
			}
			if h.Get(RequestIDHeader) == "" {
				t.Error("the request id was dropped")
			}
		})
	}
}

// TestGuardUpstreamDown: a verified request whose upstream cannot be
// reached is answered 502 and counted as upstream_error.
func TestGuardUpstreamDown(t *testing.T) {
	f := newFixture(t, Config{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	cfg := f.g.cfg
	cfg.Upstream = &url.URL{Scheme: "http", Host: addr}
	cfg.Metrics = nil
	g, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	f.g = g
	w := f.do(withToken(f.token(claims{})), nil)
	if w.Code != http.StatusBadGateway {
		t.Fatalf("status %d, want 502", w.Code)
	}
	if got := counter(t, g.Metrics(), "signet_guard_requests_total", "result", ResultUpstreamError); got != 1 {
		t.Errorf("upstream_error = %v, want 1", got)
	}
	if got := counter(t, g.Metrics(), "signet_guard_requests_total", "result", ResultForwarded); got != 0 {
		t.Errorf("forwarded = %v, want 0", got)
	}
}

// TestGuardRequestID: a plain incoming request id is kept; anything else
// is replaced by one of the guard's.
func TestGuardRequestID(t *testing.T) {
	f := newFixture(t, Config{})
	tok := f.token(claims{})
	for _, tc := range []struct {
		in   string
		keep bool
	}{
		{"req-42.a:b_c", true},
		{"has space", false},
		{strings.Repeat("a", maxRequestID+1), false},
		{"", false},
	} {
		w := f.do(withToken(tok), http.Header{RequestIDHeader: {tc.in}})
		got := w.Header().Get(RequestIDHeader)
		if (got == tc.in) != tc.keep || got == "" {
			t.Errorf("incoming %q: id %q (keep %v)", tc.in, got, tc.keep)
		}
		if up := f.up.last(t).Get(RequestIDHeader); up != got {
			t.Errorf("incoming %q: the upstream got %q, the client %q", tc.in, up, got)
		}
	}
}

// TestGuardConfig: New refuses configurations it cannot act on.
func TestGuardConfig(t *testing.T) {
	key, err := signet.GenerateKey(signet.ES256)
	if err != nil {
		t.Fatal(err)
	}
	up := &url.URL{Scheme: "http", Host: "127.0.0.1:1"}
	for _, tc := range []struct {
		name string
		cfg  Config
		err  error
	}{
		{"no upstream", Config{Keys: key}, signet.ErrMalformed},
		{"relative upstream", Config{Keys: key, Upstream: &url.URL{Path: "/x"}}, signet.ErrMalformed},
		{"ftp upstream", Config{Keys: key, Upstream: &url.URL{Scheme: "ftp", Host: "h"}}, signet.ErrMalformed},
		{"no keys", Config{Upstream: up}, signet.ErrMalformed},
		{"bad header name", Config{Keys: key, Upstream: up, ClaimsHeader: "X Claims"}, signet.ErrMalformed},
		{"claims in Authorization", Config{Keys: key, Upstream: up, ClaimsHeader: "authorization"}, signet.ErrMalformed},
		{"claims in a hop-by-hop header", Config{Keys: key, Upstream: up, ClaimsHeader: "Connection"}, signet.ErrMalformed},
		{"claims in X-Forwarded-For", Config{Keys: key, Upstream: up, ClaimsHeader: "X_Forwarded_For"}, signet.ErrMalformed},
		{"claims in X-Request-Id", Config{Keys: key, Upstream: up, ClaimsHeader: "x-request-id"}, signet.ErrMalformed},
		{"leeway too large", Config{Keys: key, Upstream: up, Leeway: time.Hour}, signet.ErrUnsupported},
		{"audience and ignore", Config{Keys: key, Upstream: up, Audience: []string{"a"}, IgnoreAudience: true}, signet.ErrMalformed},
		{"access token without issuer", Config{Keys: key, Upstream: up, Audience: []string{"a"}, AccessToken: true}, signet.ErrMalformed},
		{"bad scope", Config{Keys: key, Upstream: up, Scopes: []string{"read write"}}, signet.ErrMalformed},
		{"negative size", Config{Keys: key, Upstream: up, MaxTokenSize: -1}, signet.ErrMalformed},
	} {
		if _, err := New(tc.cfg); !errors.Is(err, tc.err) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.err)
		}
	}
	m := NewMetrics()
	if _, err := New(Config{Keys: key, Upstream: up, Metrics: m}); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Config{Keys: key, Upstream: up, Metrics: m}); !errors.Is(err, signet.ErrMalformed) {
		t.Errorf("two guards on one Metrics: %v", err)
	}
}

func TestSameHeader(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"X-Signet-Claims", "x-signet-claims", true},
		{"X_SIGNET_CLAIMS", "X-Signet-Claims", true},
		{"X-Signet-Claim", "X-Signet-Claims", false},
		{"X-Signet-Claimz", "X-Signet-Claims", false},
		{"X.Signet.Claims", "X-Signet-Claims", false},
	} {
		if got := sameHeader(tc.a, tc.b); got != tc.same {
			t.Errorf("sameHeader(%q, %q) = %v", tc.a, tc.b, got)
		}
	}
}
