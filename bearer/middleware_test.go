package bearer_test

import (
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/bearer"
)

// The bodies and challenges of RFC 6750 §3, as the tests expect them.
const (
	body401        = `{"type":"about:blank","title":"Unauthorized","status":401}` + "\n"
	bodyInvalid    = `{"type":"about:blank","title":"Unauthorized","status":401,"detail":"invalid token"}` + "\n"
	bodyExpired    = `{"type":"about:blank","title":"Unauthorized","status":401,"detail":"token expired"}` + "\n"
	bodyTooLarge   = `{"type":"about:blank","title":"Unauthorized","status":401,"detail":"token too large"}` + "\n"
	body400        = `{"type":"about:blank","title":"Bad Request","status":400,"detail":"malformed bearer credentials"}` + "\n"
	body403        = `{"type":"about:blank","title":"Forbidden","status":403,"detail":"insufficient scope"}` + "\n"
	body503        = `{"type":"about:blank","title":"Service Unavailable","status":503,"detail":"token verification temporarily unavailable"}` + "\n"
	chalMissing    = `Bearer realm="api"`
	chalInvalid    = `Bearer realm="api", error="invalid_token", error_description="invalid token"`
	chalExpired    = `Bearer realm="api", error="invalid_token", error_description="token expired"`
	chalTooLarge   = `Bearer realm="api", error="invalid_token", error_description="token too large"`
	chalBadRequest = `Bearer realm="api", error="invalid_request", error_description="malformed bearer credentials"`
)

// TestMiddleware runs requests through the middleware and checks the whole
// answer: status, challenge, body, whether the handler ran, and the cause
// handed to OnError (errors.Is).
func TestMiddleware(t *testing.T) {
	es := newFixture(t, signet.ES256)
	other := newFixture(t, signet.ES256)
	good := es.sign(t, claims(), "")
	at := es.sign(t, claims(), "at+jwt")

	type row struct {
		name   string
		opts   func(*bearer.Options)
		keys   signet.Keys // nil: es.pub
		req    func() *http.Request
		status int
		chal   string
		body   string
		cause  error // errors.Is of the *Error given to OnError; nil when the handler runs
		claims bool  // the handler sees claims
	}
	auth := func(a ...string) func() *http.Request { return func() *http.Request { return request(a...) } }
	scopes := func(s ...string) func(*bearer.Options) { return func(o *bearer.Options) { o.Scopes = s } }
	profile := func(o *bearer.Options) { o.AccessToken = true }
	rows := []row{
		// RFC 6750 §2.1 and §3.1: the credentials.
		{name: "valid", req: auth("Bearer " + good), status: 204, claims: true},
		{name: "scheme in any case, several spaces", req: auth("bEaReR   " + good), status: 204, claims: true},
		{name: "no Authorization", req: auth(), status: 401, chal: chalMissing, body: body401, cause: bearer.ErrNoToken},
		{name: "empty Authorization", req: auth(""), status: 401, chal: chalMissing, body: body401, cause: bearer.ErrNoToken},
		{name: "other scheme", req: auth("Basic YWxpY2U6cGFzcw=="), status: 401, chal: chalMissing, body: body401, cause: bearer.ErrNoToken},
		{name: "scheme that starts like Bearer", req: auth("Bearerish " + good), status: 401, chal: chalMissing, body: body401, cause: bearer.ErrNoToken},
		{name: "token in the query string", req: func() *http.Request {
			r := request()
			r.URL.RawQuery = "access_token=" + url.QueryEscape(good)
			return r
		}, status: 401, chal: chalMissing, body: body401, cause: bearer.ErrNoToken},
		{name: "token in a form body", req: func() *http.Request {
			r := request()
			r.Method = "POST"
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			r.Body = http.NoBody
			r.Form = url.Values{"access_token": {good}}
			r.PostForm = r.Form
			return r
		}, status: 401, chal: chalMissing, body: body401, cause: bearer.ErrNoToken},
		{name: "two Authorization headers", req: auth("Bearer "+good, "Bearer "+good), status: 400, chal: chalBadRequest, body: body400, cause: bearer.ErrInvalidRequest},
		{name: "Bearer without token", req: auth("Bearer"), status: 400, chal: chalBadRequest, body: body400, cause: bearer.ErrInvalidRequest},
		{name: "Bearer and spaces", req: auth("Bearer    "), status: 400, chal: chalBadRequest, body: body400, cause: bearer.ErrInvalidRequest},
		{name: "tab after scheme", req: auth("Bearer\t" + good), status: 400, chal: chalBadRequest, body: body400, cause: bearer.ErrInvalidRequest},
		{name: "two tokens", req: auth("Bearer " + good + " " + good), status: 400, chal: chalBadRequest, body: body400, cause: bearer.ErrInvalidRequest},
		{name: "comma list", req: auth("Bearer " + good + ", Bearer " + good), status: 400, chal: chalBadRequest, body: body400, cause: bearer.ErrInvalidRequest},
		{name: "not token68", req: auth("Bearer " + good[:10] + "\"" + good[11:]), status: 400, chal: chalBadRequest, body: body400, cause: bearer.ErrInvalidRequest},
		{name: "padding inside", req: auth("Bearer ab=cd"), status: 400, chal: chalBadRequest, body: body400, cause: bearer.ErrInvalidRequest},
		{name: "token68 but not a JWT", req: auth("Bearer abc+/~=="), status: 401, chal: chalInvalid, body: bodyInvalid, cause: signet.ErrMalformed},

		// The token.
		{name: "expired", req: auth("Bearer " + es.sign(t, with(map[string]any{"exp": now.Unix()}), "")), status: 401, chal: chalExpired, body: bodyExpired, cause: signet.ErrExpired},
		{name: "no exp", req: auth("Bearer " + es.sign(t, with(map[string]any{"exp": nil}), "")), status: 401, chal: chalInvalid, body: bodyInvalid, cause: signet.ErrMissingClaim},
		{name: "not yet valid", req: auth("Bearer " + es.sign(t, with(map[string]any{"nbf": now.Unix() + 60}), "")), status: 401, chal: chalInvalid, body: bodyInvalid, cause: signet.ErrNotYetValid},
		{name: "other key", req: auth("Bearer " + other.sign(t, claims(), "")), status: 401, chal: chalInvalid, body: bodyInvalid, cause: signet.ErrSignatureInvalid},
		{name: "forged signature", req: auth("Bearer " + forge(good)), status: 401, chal: chalInvalid, body: bodyInvalid, cause: signet.ErrSignatureInvalid},
		{name: "wrong issuer", req: auth("Bearer " + es.sign(t, with(map[string]any{"iss": "https://evil.example"}), "")), status: 401, chal: chalInvalid, body: bodyInvalid, cause: signet.ErrIssuer},
		{name: "wrong audience", req: auth("Bearer " + es.sign(t, with(map[string]any{"aud": "https://other.example"}), "")), status: 401, chal: chalInvalid, body: bodyInvalid, cause: signet.ErrAudience},
		{name: "alg none", req: auth("Bearer " + unsigned(claims())), status: 401, chal: chalInvalid, body: bodyInvalid, cause: signet.ErrMalformed},
		{name: "alg none, a signature", req: auth("Bearer " + unsigned(claims()) + "c2ln"), status: 401, chal: chalInvalid, body: bodyInvalid, cause: signet.ErrAlgorithmMismatch},
		{name: "typ at+jwt without the profile", req: auth("Bearer " + at), status: 401, chal: chalInvalid, body: bodyInvalid, cause: signet.ErrType},
		{name: "oversized", req: auth("Bearer " + longToken(bearer.DefaultMaxSize+1)), status: 401, chal: chalTooLarge, body: bodyTooLarge, cause: signet.ErrTooLarge},
		{name: "oversized by leading spaces", req: auth("Bearer " + strings.Repeat(" ", bearer.DefaultMaxSize) + good), status: 401, chal: chalTooLarge, body: bodyTooLarge, cause: signet.ErrTooLarge},
		{name: "MaxSize lowered", opts: func(o *bearer.Options) { o.Policy.MaxSize = len(good) - 1 }, req: auth("Bearer " + good), status: 401, chal: chalTooLarge, body: bodyTooLarge, cause: signet.ErrTooLarge},
		{name: "MaxSize exactly", opts: func(o *bearer.Options) { o.Policy.MaxSize = len(good) }, req: auth("Bearer " + good), status: 204, claims: true},
		{name: "MaxSize the largest int", opts: func(o *bearer.Options) { o.Policy.MaxSize = math.MaxInt }, req: auth("Bearer " + good), status: 204, claims: true},

		// The key source.
		{name: "key source unavailable", keys: downKeys{}, req: auth("Bearer " + good), status: 503, body: body503, cause: signet.ErrUnavailable},
		{name: "key source unavailable, no token", keys: downKeys{}, req: auth(), status: 401, chal: chalMissing, body: body401, cause: bearer.ErrNoToken},
		// The profile and scope path (jwt.VerifyPayload, then the checks):
		// 503 still, not 403 for a scope the token lacks nor 401.
		{name: "key source unavailable, access token and scopes", keys: downKeys{}, opts: func(o *bearer.Options) { profile(o); scopes("admin")(o) },
			req: auth("Bearer " + at), status: 503, body: body503, cause: signet.ErrUnavailable},

		// Scopes.
		{name: "scope held", opts: scopes("orders:read"), req: auth("Bearer " + good), status: 204, claims: true},
		{name: "all scopes held", opts: scopes("orders:write", "orders:read"), req: auth("Bearer " + good), status: 204, claims: true},
		{name: "scope missing", opts: scopes("orders:read", "admin"), req: auth("Bearer " + good), status: 403,
			chal: `Bearer realm="api", error="insufficient_scope", error_description="insufficient scope", scope="orders:read admin"`, body: body403, cause: bearer.ErrInsufficientScope},
		{name: "scope claim absent", opts: scopes("orders:read"), req: auth("Bearer " + es.sign(t, with(map[string]any{"scope": nil}), "")), status: 403,
			chal: `Bearer realm="api", error="insufficient_scope", error_description="insufficient scope", scope="orders:read"`, body: body403, cause: bearer.ErrInsufficientScope},
		{name: "scope prefix is not the scope", opts: scopes("orders"), req: auth("Bearer " + good), status: 403,
			chal: `Bearer realm="api", error="insufficient_scope", error_description="insufficient scope", scope="orders"`, body: body403, cause: bearer.ErrInsufficientScope},
		{name: "scope as an array", opts: scopes("orders:read"), req: auth("Bearer " + es.sign(t, with(map[string]any{"scope": []string{"orders:read"}}), "")), status: 401, chal: chalInvalid, body: bodyInvalid, cause: signet.ErrMalformed},
		{name: "scope with escapes", opts: scopes("orders:read"), req: auth("Bearer " + es.sign(t, with(map[string]any{"scope": "<x>\u00e9 orders:read"}), "")), status: 204, claims: true},
		{name: "scope nested is not the scope", opts: scopes("orders:read"), req: auth("Bearer " + es.sign(t, with(map[string]any{
			"scope": nil, "x": map[string]any{"scope": "orders:read"}}), "")), status: 403,
			chal: `Bearer realm="api", error="insufficient_scope", error_description="insufficient scope", scope="orders:read"`, body: body403, cause: bearer.ErrInsufficientScope},
		{name: "scope name escaped", opts: scopes("orders:read"), req: auth("Bearer " + es.signRaw(t,
			`{"iss":"https://id.example","aud":"https://api.example","sub":"alice","exp":1800003600,"tenant":"acme","sc\u006fpe":"orders:read"}`, "")), status: 204, claims: true},
		{name: "scope in another case is not the scope", opts: scopes("orders:read"), req: auth("Bearer " + es.signRaw(t,
			`{"iss":"https://id.example","aud":"https://api.example","sub":"alice","exp":1800003600,"SCOPE":"orders:read"}`, "")), status: 403,
			chal: `Bearer realm="api", error="insufficient_scope", error_description="insufficient scope", scope="orders:read"`, body: body403, cause: bearer.ErrInsufficientScope},
		{name: "scope checked after the token", opts: scopes("admin"), req: auth("Bearer " + forge(good)), status: 401, chal: chalInvalid, body: bodyInvalid, cause: signet.ErrSignatureInvalid},

		// RFC 9068.
		{name: "access token", opts: profile, req: auth("Bearer " + at), status: 204, claims: true},
		{name: "access token, application/at+jwt", opts: profile, req: auth("Bearer " + es.sign(t, claims(), "application/at+JWT")), status: 204, claims: true},
		{name: "access token with scope", opts: func(o *bearer.Options) { profile(o); scopes("orders:write")(o) }, req: auth("Bearer " + at), status: 204, claims: true},
		{name: "access token without the scope", opts: func(o *bearer.Options) { profile(o); scopes("admin")(o) }, req: auth("Bearer " + at), status: 403,
			chal: `Bearer realm="api", error="insufficient_scope", error_description="insufficient scope", scope="admin"`, body: body403, cause: bearer.ErrInsufficientScope},
		{name: "access token typ JWT", opts: profile, req: auth("Bearer " + good), status: 401, chal: chalInvalid, body: bodyInvalid, cause: signet.ErrType},
		{name: "access token no client_id", opts: profile, req: auth("Bearer " + es.sign(t, with(map[string]any{"client_id": nil}), "at+jwt")), status: 401, chal: chalInvalid, body: bodyInvalid, cause: signet.ErrMissingClaim},
		{name: "access token empty client_id", opts: profile, req: auth("Bearer " + es.sign(t, with(map[string]any{"client_id": ""}), "at+jwt")), status: 401, chal: chalInvalid, body: bodyInvalid, cause: signet.ErrMissingClaim},
		{name: "access token numeric client_id", opts: profile, req: auth("Bearer " + es.sign(t, with(map[string]any{"client_id": 7}), "at+jwt")), status: 401, chal: chalInvalid, body: bodyInvalid, cause: signet.ErrMalformed},
		{name: "access token no sub", opts: profile, req: auth("Bearer " + es.sign(t, with(map[string]any{"sub": nil}), "at+jwt")), status: 401, chal: chalInvalid, body: bodyInvalid, cause: signet.ErrMissingClaim},
		{name: "access token no iat", opts: profile, req: auth("Bearer " + es.sign(t, with(map[string]any{"iat": nil}), "at+jwt")), status: 401, chal: chalInvalid, body: bodyInvalid, cause: signet.ErrMissingClaim},
		{name: "access token no jti", opts: profile, req: auth("Bearer " + es.sign(t, with(map[string]any{"jti": nil}), "at+jwt")), status: 401, chal: chalInvalid, body: bodyInvalid, cause: signet.ErrMissingClaim},
		{name: "access token no exp", opts: profile, req: auth("Bearer " + es.sign(t, with(map[string]any{"exp": nil}), "at+jwt")), status: 401, chal: chalInvalid, body: bodyInvalid, cause: signet.ErrMissingClaim},
		{name: "access token no aud", opts: profile, req: auth("Bearer " + es.sign(t, with(map[string]any{"aud": nil}), "at+jwt")), status: 401, chal: chalInvalid, body: bodyInvalid, cause: signet.ErrAudience},
		{name: "access token no iss", opts: profile, req: auth("Bearer " + es.sign(t, with(map[string]any{"iss": nil}), "at+jwt")), status: 401, chal: chalInvalid, body: bodyInvalid, cause: signet.ErrIssuer},
		{name: "access token, 17 members (general reader)", opts: profile, req: auth("Bearer " + es.sign(t, with(map[string]any{
			"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8}), "at+jwt")), status: 204, claims: true},
		{name: "access token, no client_id, general reader", opts: profile, req: auth("Bearer " + es.sign(t, with(map[string]any{
			"client_id": nil, "x": map[string]any{"client_id": "nested"}}), "at+jwt")), status: 401, chal: chalInvalid, body: bodyInvalid, cause: signet.ErrMissingClaim},

		// Optional credentials.
		{name: "optional, no token", opts: func(o *bearer.Options) { o.Optional = true }, req: auth(), status: 204},
		{name: "optional, other scheme", opts: func(o *bearer.Options) { o.Optional = true }, req: auth("Basic YWxpY2U6cGFzcw=="), status: 204},
		{name: "optional, valid token", opts: func(o *bearer.Options) { o.Optional = true }, req: auth("Bearer " + good), status: 204, claims: true},
		{name: "optional, bad token", opts: func(o *bearer.Options) { o.Optional = true }, req: auth("Bearer " + forge(good)), status: 401, chal: chalInvalid, body: bodyInvalid, cause: signet.ErrSignatureInvalid},
		{name: "optional, two headers", opts: func(o *bearer.Options) { o.Optional = true }, req: auth("Bearer "+good, "Basic x"), status: 400, chal: chalBadRequest, body: body400, cause: bearer.ErrInvalidRequest},
		{name: "optional, oversized", opts: func(o *bearer.Options) { o.Optional = true }, req: auth("Bearer " + longToken(bearer.DefaultMaxSize+1)), status: 401, chal: chalTooLarge, body: bodyTooLarge, cause: signet.ErrTooLarge},
		{name: "optional, key source unavailable", keys: downKeys{}, opts: func(o *bearer.Options) { o.Optional = true }, req: auth("Bearer " + good), status: 503, body: body503, cause: signet.ErrUnavailable},
	}
	for _, c := range rows {
		t.Run(c.name, func(t *testing.T) {
			opts := bearer.Options{Policy: policy(), Realm: "api"}
			if c.opts != nil {
				c.opts(&opts)
			}
			keys := c.keys
			if keys == nil {
				keys = es.pub
			}
			// Once with the default answer, once through OnError.
			m, err := bearer.New[Claims](keys, opts)
			if err != nil {
				t.Fatal(err)
			}
			res := serve(t, m, c.req())
			if res.rec.Code != c.status {
				t.Fatalf("status %d, want %d (body %s)", res.rec.Code, c.status, res.rec.Body)
			}
			if got := res.rec.Header().Get("WWW-Authenticate"); got != c.chal {
				t.Errorf("WWW-Authenticate %s\nwant             %s", got, c.chal)
			}
			if c.cause == nil {
				if !res.reached || res.has != c.claims {
					t.Fatalf("handler reached %v, claims %v; want true, %v", res.reached, res.has, c.claims)
				}
				if c.claims && (res.claims.Subject != "alice" || res.claims.Tenant != "acme") {
					t.Errorf("claims %+v", res.claims)
				}
				return
			}
			refused := func(res result) {
				t.Helper()
				if res.reached {
					t.Fatal("handler reached")
				}
				if got := res.rec.Body.String(); got != c.body {
					t.Errorf("body %s\nwant %s", got, c.body)
				}
				h := res.rec.Header()
				if h.Get("Cache-Control") != "no-store" || h.Get("Content-Type") != "application/problem+json" {
					t.Errorf("headers %v", h)
				}
				if want := map[bool]string{true: "30", false: ""}[c.status == 503]; h.Get("Retry-After") != want {
					t.Errorf("Retry-After %q, want %q", h.Get("Retry-After"), want)
				}
			}
			refused(res)

			// A hook that only logs leaves the answer to the default one,
			// never the empty 200 net/http sends for a handler that wrote
			// nothing (which a forward-auth proxy would take for a pass).
			logged := 0
			opts.OnError = func(http.ResponseWriter, *http.Request, *bearer.Error) { logged++ }
			if m, err = bearer.New[Claims](keys, opts); err != nil {
				t.Fatal(err)
			}
			res = serve(t, m, c.req())
			if logged != 1 || res.rec.Code != c.status || res.rec.Header().Get("WWW-Authenticate") != c.chal {
				t.Fatalf("log-only OnError (%d calls): %d %s, want %d %s", logged, res.rec.Code, res.rec.Header().Get("WWW-Authenticate"), c.status, c.chal)
			}
			refused(res)

			var got *bearer.Error
			opts.OnError = func(w http.ResponseWriter, r *http.Request, e *bearer.Error) {
				got = e
				w.WriteHeader(599)
			}
			m, err = bearer.New[Claims](keys, opts)
			if err != nil {
				t.Fatal(err)
			}
			res = serve(t, m, c.req())
			if res.reached || res.rec.Code != 599 || got == nil {
				t.Fatalf("OnError not used: %d %v", res.rec.Code, got)
			}
			if got.Status != c.status || !errors.Is(got, c.cause) || !errors.Is(got.Err, c.cause) {
				t.Errorf("OnError got %v (status %d), want status %d and %v", got, got.Status, c.status, c.cause)
			}
			var e *bearer.Error
			if !errors.As(got, &e) || e != got {
				t.Error("errors.As")
			}
		})
	}
}

// forge changes the last character of a token's signature.
func forge(tok string) string {
	last := tok[len(tok)-2]
	c := byte('A')
	if last == 'A' {
		c = 'B'
	}
	return tok[:len(tok)-2] + string(c) + tok[len(tok)-1:]
}

// unsigned is an alg "none" token.
func unsigned(c map[string]any) string {
	return b64(`{"alg":"none","typ":"JWT"}`) + "." + b64(mustJSON(c)) + "."
}

// TestOnErrorAnswer: what an OnError hook writes is the answer; a hook
// that writes nothing leaves the default one (never net/http's empty
// 200), and the next handler never runs either way.
func TestOnErrorAnswer(t *testing.T) {
	f := newFixture(t, signet.HS256)
	for _, c := range []struct {
		name   string
		hook   func(w http.ResponseWriter, e *bearer.Error)
		status int
		body   string // "" for the default body
		header string // X-Hook expected
	}{
		{"logs only", func(http.ResponseWriter, *bearer.Error) {}, 401, "", ""},
		{"sets a header only", func(w http.ResponseWriter, _ *bearer.Error) { w.Header().Set("X-Hook", "1") }, 401, "", "1"},
		{"writes the default itself", func(w http.ResponseWriter, e *bearer.Error) { e.WriteTo(w, "api") }, 401, "", ""},
		{"own status", func(w http.ResponseWriter, _ *bearer.Error) { w.WriteHeader(404) }, 404, "-", ""},
		{"own body", func(w http.ResponseWriter, _ *bearer.Error) { w.Write([]byte("no")) }, 200, "no", ""},
		{"flushes", func(w http.ResponseWriter, _ *bearer.Error) {
			if err := http.NewResponseController(w).Flush(); err != nil {
				t.Errorf("Flush: %v", err)
			}
		}, 200, "-", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := bearer.New[Claims](f.pub, bearer.Options{Policy: policy(), Realm: "api",
				OnError: func(w http.ResponseWriter, _ *http.Request, e *bearer.Error) { c.hook(w, e) }})
			if err != nil {
				t.Fatal(err)
			}
			res := serve(t, m, request("Bearer "+forge(f.sign(t, claims(), ""))))
			if res.reached || res.rec.Code != c.status {
				t.Fatalf("status %d, reached %v; want %d", res.rec.Code, res.reached, c.status)
			}
			want := c.body
			switch want {
			case "":
				want = bodyInvalid
				if got := res.rec.Header().Get("WWW-Authenticate"); got != chalInvalid {
					t.Errorf("WWW-Authenticate %s", got)
				}
			case "-":
				want = ""
			}
			if got := res.rec.Body.String(); got != want {
				t.Errorf("body %q, want %q", got, want)
			}
			if got := res.rec.Header().Get("X-Hook"); got != c.header {
				t.Errorf("X-Hook %q", got)
			}
		})
	}
}

// TestOnErrorEarlyHints: an informational status is not an answer: a hook
// that sends 103 and nothing else leaves the default answer after it (a
// real server, since httptest.ResponseRecorder takes 103 as final).
func TestOnErrorEarlyHints(t *testing.T) {
	f := newFixture(t, signet.HS256)
	m, err := bearer.New[Claims](f.pub, bearer.Options{Policy: policy(), Realm: "api",
		OnError: func(w http.ResponseWriter, _ *http.Request, _ *bearer.Error) {
			w.Header().Set("Link", "</style.css>; rel=preload")
			w.WriteHeader(http.StatusEarlyHints)
		}})
	if err != nil {
		t.Fatal(err)
	}
	reached := false
	srv := httptest.NewServer(m.Wrap(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { reached = true })))
	defer srv.Close()
	req, err := http.NewRequest("GET", srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+forge(f.sign(t, claims(), "")))
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if reached || resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != chalInvalid || string(body) != bodyInvalid {
		t.Fatalf("reached %v, %d %s %s", reached, resp.StatusCode, resp.Header.Get("WWW-Authenticate"), body)
	}
}
