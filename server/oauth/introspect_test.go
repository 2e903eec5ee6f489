package oauth

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwt"
	"github.com/signet-go/signet/paseto"
	"github.com/signet-go/signet/server/storage"
)

func (e *env) introspect(tok string, auth map[string][]string) *resp {
	if auth == nil {
		auth = basicHeader("svc-basic", secretBasic)
	}
	return e.do(req{path: PathIntrospect, form: "token=" + url.QueryEscape(tok), header: auth})
}

func (e *env) revokeAs(tok string, auth map[string][]string) *resp {
	return e.do(req{path: PathRevoke, form: "token=" + url.QueryEscape(tok) + "&token_type_hint=access_token", header: auth})
}

func wantActive(t *testing.T, r *resp, active bool) {
	t.Helper()
	if r.status != 200 || r.json["active"] != active {
		t.Fatalf("introspection: %d %s, want active %v", r.status, r.body, active)
	}
	if r.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("introspection response without no-store: %v", r.header)
	}
	if !active && len(r.json) != 1 {
		t.Fatalf("an inactive token's response says more: %s", r.body)
	}
}

func TestIntrospection(t *testing.T) {
	e := newEnv(t, FormatJWT)
	tok := e.accessToken()
	r := e.introspect(tok, nil)
	wantActive(t, r, true)
	c := claimsOf(t, tok)
	want := map[string]any{
		"active": true, "scope": "read write admin", "client_id": "svc-basic", "sub": "svc-basic",
		"aud": apiA, "iss": testIssuer, "exp": c["exp"], "iat": c["iat"], "jti": c["jti"], "token_type": "Bearer",
	}
	if len(r.json) != len(want) {
		t.Fatalf("response %s", r.body)
	}
	for k, v := range want {
		if r.json[k] != v {
			t.Fatalf("response %s: %s is %v, want %v", r.body, k, r.json[k], v)
		}
	}
	t.Run("any authenticated client", func(t *testing.T) {
		wantActive(t, e.do(req{path: PathIntrospect, form: "token=" + tok + "&client_id=svc-post&client_secret=" + url.QueryEscape(secretPost)}), true)
		wantActive(t, e.do(req{path: PathIntrospect, form: "token=" + tok + assertionForm(e.assertion(e.jwtKey, nil))}), true)
	})
	t.Run("multiple audiences", func(t *testing.T) {
		r := e.tokenBasic("&resource=" + url.QueryEscape(apiA) + "&resource=" + url.QueryEscape(apiB))
		ir := e.introspect(r.json["access_token"].(string), nil)
		wantActive(t, ir, true)
		if aud, _ := json.Marshal(ir.json["aud"]); string(aud) != `["`+apiA+`","`+apiB+`"]` {
			t.Fatalf("aud %s", aud)
		}
	})
	t.Run("inactive", func(t *testing.T) {
		other := newStaticKeys(t, signet.ES256)
		foreign, _ := jwt.SignBytes(other.signer, []byte(strings.Replace(string(mustPayload(t, tok)), `"iss"`, `"iss"`, 1)), "at+jwt")
		id, _ := jwt.Sign(e.keys.signer, jwt.Claims{Issuer: testIssuer, Subject: "svc-basic", ExpiresAt: jwt.At(e.clock.Now().Add(time.Hour))}, jwt.Options{Now: e.clock.Now})
		typJWT, _ := jwt.Sign(e.keys.signer, accessClaims{Claims: jwt.Claims{Issuer: testIssuer, Subject: "svc-basic", Audience: jwt.Audience{apiA}, ID: "x", ExpiresAt: jwt.At(e.clock.Now().Add(time.Hour))}, ClientID: "svc-basic"}, jwt.Options{Now: e.clock.Now})
		otherIss, _ := jwt.SignBytes(e.keys.signer, []byte(strings.Replace(string(mustPayload(t, tok)), testIssuer, "https://evil.example", 1)), "at+jwt")
		for name, bad := range map[string]string{
			"garbage":                "not-a-token",
			"empty":                  "",
			"tampered":               tok[:len(tok)-2] + "AA",
			"foreign key":            foreign,
			"typ JWT":                typJWT,
			"ID token shaped":        id,
			"other issuer":           otherIss,
			"oversized":              strings.Repeat("a", MaxTokenSize+1),
			"PASETO to a JWT server": "v4.public.eyJ9",
		} {
			t.Run(name, func(t *testing.T) { wantActive(t, e.introspect(bad, nil), false) })
		}
	})
	t.Run("expired", func(t *testing.T) {
		e := newEnv(t, FormatJWT)
		tok := e.accessToken()
		e.clock.Advance(10*time.Minute - time.Second)
		wantActive(t, e.introspect(tok, nil), true)
		e.clock.Advance(time.Second)
		wantActive(t, e.introspect(tok, nil), false)
	})
	t.Run("unauthenticated", func(t *testing.T) {
		wantError(t, e.do(req{path: PathIntrospect, form: "token=" + tok}), 401, ErrInvalidClient)
		wantError(t, e.introspect(tok, basicHeader("svc-basic", "wrong")), 401, ErrInvalidClient)
	})
	t.Run("no token", func(t *testing.T) {
		wantError(t, e.do(req{path: PathIntrospect, form: "token_type_hint=access_token", header: basicHeader("svc-basic", secretBasic)}), 400, ErrInvalidRequest)
	})
	t.Run("repeated token", func(t *testing.T) {
		wantError(t, e.do(req{path: PathIntrospect, form: "token=" + tok + "&token=" + tok, header: basicHeader("svc-basic", secretBasic)}), 400, ErrInvalidRequest)
	})
}

func mustPayload(t *testing.T, tok string) []byte {
	t.Helper()
	b, err := json.Marshal(claimsOf(t, tok))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRevocation(t *testing.T) {
	e := newEnv(t, FormatJWT)
	tok := e.accessToken()
	postAuth := "&client_id=svc-post&client_secret=" + url.QueryEscape(secretPost)
	t.Run("another client's token", func(t *testing.T) {
		r := e.do(req{path: PathRevoke, form: "token=" + tok + postAuth})
		wantError(t, r, 400, ErrInvalidGrant)
		wantActive(t, e.introspect(tok, nil), true)
	})
	t.Run("unauthenticated", func(t *testing.T) {
		wantError(t, e.do(req{path: PathRevoke, form: "token=" + tok}), 401, ErrInvalidClient)
		wantActive(t, e.introspect(tok, nil), true)
	})
	t.Run("no token", func(t *testing.T) {
		wantError(t, e.do(req{path: PathRevoke, form: "token_type_hint=access_token" + postAuth}), 400, ErrInvalidRequest)
	})
	t.Run("invalid token: 200, nothing done", func(t *testing.T) {
		for _, bad := range []string{"garbage", tok[:len(tok)-2] + "AA", strings.Repeat("x", MaxTokenSize+1)} {
			r := e.revokeAs(bad, basicHeader("svc-basic", secretBasic))
			if r.status != 200 || len(r.body) != 0 || r.header.Get("Cache-Control") != "no-store" {
				t.Fatalf("%d %q %v", r.status, r.body, r.header)
			}
		}
		wantActive(t, e.introspect(tok, nil), true)
	})
	t.Run("own token", func(t *testing.T) {
		r := e.revokeAs(tok, basicHeader("svc-basic", secretBasic))
		if r.status != 200 || len(r.body) != 0 {
			t.Fatalf("%d %s", r.status, r.body)
		}
		wantActive(t, e.introspect(tok, nil), false)
		// Revoking again is fine; other tokens stay active.
		if r := e.revokeAs(tok, basicHeader("svc-basic", secretBasic)); r.status != 200 {
			t.Fatalf("second revocation: %d %s", r.status, r.body)
		}
		wantActive(t, e.introspect(e.accessToken(), nil), true)
	})
	t.Run("expired token: 200", func(t *testing.T) {
		e := newEnv(t, FormatJWT)
		tok := e.accessToken()
		e.clock.Advance(time.Hour)
		if r := e.revokeAs(tok, basicHeader("svc-basic", secretBasic)); r.status != 200 {
			t.Fatalf("%d %s", r.status, r.body)
		}
	})
}

// TestStoreUnavailable: with the store down, nothing that needs it
// answers as if it were up: introspection, revocation and assertion
// checks are 503 (never active:true), /readyz is 503; issuing with a
// secret does not need the store and goes on. Service resumes when the
// store returns.
func TestStoreUnavailable(t *testing.T) {
	e := newEnv(t, FormatJWT)
	tok := e.accessToken()
	e.store.Down.Store(true)
	basic := basicHeader("svc-basic", secretBasic)
	wantError(t, e.introspect(tok, nil), 503, ErrTemporarilyUnavailable)
	wantError(t, e.revokeAs(tok, basic), 503, ErrTemporarilyUnavailable)
	wantError(t, e.do(withPath(e.authJWT(e.assertion(e.jwtKey, nil)), PathToken)), 503, ErrTemporarilyUnavailable)
	if r := e.do(req{method: http.MethodGet, path: PathReady}); r.status != 503 {
		t.Fatalf("/readyz with the store down: %d", r.status)
	}
	if r := e.do(req{method: http.MethodGet, path: PathHealth}); r.status != 200 {
		t.Fatalf("/healthz: %d", r.status)
	}
	checkTokenResponse(t, e.tokenBasic(""), "read write admin", 10*time.Minute)
	if !strings.Contains(e.logs.String(), `"level":"ERROR"`) {
		t.Fatal("503s are not logged as errors")
	}

	e.store.Down.Store(false)
	wantActive(t, e.introspect(tok, nil), true)
	if r := e.do(req{method: http.MethodGet, path: PathReady}); r.status != 200 {
		t.Fatalf("/readyz: %d", r.status)
	}
	checkTokenResponse(t, e.do(withPath(e.authJWT(e.assertion(e.jwtKey, nil)), PathToken)), "read write", DefaultAccessTokenTTL)
}

func TestKeysUnavailable(t *testing.T) {
	e := newEnv(t, FormatJWT)
	tok := e.accessToken()
	e.keys.err = signet.ErrKeyNotFound
	wantError(t, e.tokenBasic(""), 503, ErrTemporarilyUnavailable)
	wantError(t, e.introspect(tok, nil), 503, ErrTemporarilyUnavailable)
	if r := e.do(req{method: http.MethodGet, path: PathReady}); r.status != 503 {
		t.Fatalf("/readyz without a signer: %d", r.status)
	}
}

func TestMetadata(t *testing.T) {
	e := newEnv(t, FormatJWT)
	r := e.do(req{method: http.MethodGet, path: PathMetadata})
	if r.status != 200 || !strings.HasPrefix(r.header.Get("Cache-Control"), "public, max-age=") {
		t.Fatalf("%d %v", r.status, r.header)
	}
	methods := []any{"client_secret_basic", "client_secret_post", "private_key_jwt"}
	str := map[string]string{
		"issuer":                 testIssuer,
		"token_endpoint":         testIssuer + "/oauth2/token",
		"jwks_uri":               testIssuer + "/.well-known/jwks.json",
		"introspection_endpoint": testIssuer + "/oauth2/introspect",
		"revocation_endpoint":    testIssuer + "/oauth2/revoke",
	}
	for k, v := range str {
		if r.json[k] != v {
			t.Errorf("%s = %v, want %s", k, r.json[k], v)
		}
	}
	lists := map[string][]any{
		"grant_types_supported":                         {"client_credentials"},
		"response_types_supported":                      {},
		"scopes_supported":                              {"admin", "read", "write"},
		"token_endpoint_auth_methods_supported":         methods,
		"introspection_endpoint_auth_methods_supported": methods,
		"revocation_endpoint_auth_methods_supported":    methods,
	}
	for k, v := range lists {
		got, _ := r.json[k].([]any)
		if got == nil || !slices.Equal(got, v) {
			t.Errorf("%s = %v, want %v", k, r.json[k], v)
		}
	}
	for _, k := range []string{"token_endpoint_auth_signing_alg_values_supported", "introspection_endpoint_auth_signing_alg_values_supported", "revocation_endpoint_auth_signing_alg_values_supported"} {
		got, _ := r.json[k].([]any)
		if !slices.Contains(got, any("ES256")) || !slices.Contains(got, any("EdDSA")) || !slices.Contains(got, any("Ed25519")) || slices.Contains(got, any("HS256")) || slices.Contains(got, any("none")) {
			t.Errorf("%s = %v", k, got)
		}
	}
	if len(r.json) != len(str)+len(lists)+3 {
		t.Errorf("unexpected members: %s", r.body)
	}
	// The JWKS path is served by Config.JWKS.
	if r := e.do(req{method: http.MethodGet, path: PathJWKS}); r.status != 200 || !strings.Contains(string(r.body), e.keys.signer.KeyID()) {
		t.Fatalf("jwks: %d %s", r.status, r.body)
	}
	// New clients, new scopes_supported.
	cs, _ := ParseClients([]byte(`{"clients":[{"client_id":"x","client_secret_sha256":"` + hashHex(secretBasic) + `","scope":"zeta","audience":["a"]}]}`))
	e.srv.SetClients(cs)
	r = e.do(req{method: http.MethodGet, path: PathMetadata})
	if got, _ := r.json["scopes_supported"].([]any); !slices.Equal(got, []any{"zeta"}) {
		t.Fatalf("scopes after SetClients: %v", got)
	}
	if r := e.do(req{method: http.MethodPost, path: PathMetadata}); r.status != 405 {
		t.Fatalf("POST metadata: %d", r.status)
	}
}

// TestPASETO: with FormatPASETO the token is v4.public with the same
// claims, and introspection and revocation read it.
func TestPASETO(t *testing.T) {
	e := newEnv(t, FormatPASETO)
	r := e.tokenBasic("&scope=read")
	tok := checkTokenResponse(t, r, "read", 10*time.Minute)
	if !strings.HasPrefix(tok, "v4.public.") {
		t.Fatalf("token %q", tok)
	}
	c, err := paseto.Verify[pasetoClaims](e.keys.pub, tok, paseto.Policy{Issuer: testIssuer, Audience: []string{apiA}, Footer: []byte(`{"kid":"k4.pid.test"}`), Now: e.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	if c.Subject != "svc-basic" || c.ClientID != "svc-basic" || c.Scope != "read" || c.ID == "" ||
		!c.ExpiresAt.Equal(e.clock.Now().Add(10*time.Minute).Truncate(time.Second)) {
		t.Fatalf("claims %+v", c)
	}
	wantActive(t, e.introspect(tok, nil), true)
	if r := e.revokeAs(tok, basicHeader("svc-basic", secretBasic)); r.status != 200 {
		t.Fatal(r.status)
	}
	wantActive(t, e.introspect(tok, nil), false)
	// One resource at most: PASETO's aud is one string.
	wantError(t, e.tokenBasic("&resource="+url.QueryEscape(apiA)+"&resource="+url.QueryEscape(apiB)), 400, ErrInvalidTarget)
}

// TestLogs: one JSON record per request with its id, and never a
// secret, a token or an assertion.
func TestLogs(t *testing.T) {
	e := newEnv(t, FormatJWT)
	r := e.tokenBasic("")
	tok := r.json["access_token"].(string)
	a := e.assertion(e.jwtKey, nil)
	e.do(withPath(e.authJWT(a), PathToken))
	e.introspect(tok, nil)
	e.revokeAs(tok, basicHeader("svc-basic", secretBasic))
	e.do(req{path: PathToken, form: "grant_type=client_credentials&client_id=svc-post&client_secret=" + secretBasic})
	logs := e.logs.String()
	for _, secret := range []string{secretBasic, secretPost, tok, a, strings.Split(tok, ".")[2], strings.Split(a, ".")[2]} {
		if strings.Contains(logs, secret) {
			t.Fatalf("logs contain a secret or token: %s", logs)
		}
	}
	lines := strings.Split(strings.TrimSpace(logs), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d records for 5 requests: %s", len(lines), logs)
	}
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		if m["request_id"] == "" || m["status"] == nil || m["path"] == nil {
			t.Fatalf("record %s", l)
		}
	}
	if id := r.header.Get("X-Request-Id"); id == "" || !strings.Contains(logs, `"request_id":"`+id+`"`) {
		t.Fatalf("X-Request-Id %q not in the log", id)
	}
}

func TestNewConfig(t *testing.T) {
	e := newEnv(t, FormatJWT)
	base := Config{Issuer: testIssuer, Clients: e.srv.Clients(), Store: e.store, Keys: e.keys}
	if _, err := New(base); err != nil {
		t.Fatal(err)
	}
	for _, iss := range []string{"", "auth.example.com", "ftp://x", "https://x/path", "https://x/", "https://x?q", "https://x#f", "https://u@x", "https://x\"y"} {
		c := base
		c.Issuer = iss
		if _, err := New(c); err == nil {
			t.Errorf("issuer %q accepted", iss)
		}
	}
	for _, mod := range []func(*Config){
		func(c *Config) { c.Clients = nil },
		func(c *Config) { c.Store = nil },
		func(c *Config) { c.Keys = nil },
		func(c *Config) { c.Format = "cwt" },
	} {
		c := base
		mod(&c)
		if _, err := New(c); err == nil {
			t.Errorf("config %+v accepted", c)
		}
	}
}

// revokedHook is a store that runs hook each time Revoked is asked,
// before answering: the moment a store outage or a reload may change the
// keys under an introspection in flight.
type revokedHook struct {
	storage.Store
	hook func()
}

func (s *revokedHook) Revoked(ctx context.Context, jti string) (bool, error) {
	if s.hook != nil {
		s.hook()
	}
	return s.Store.Revoked(ctx, jti)
}

// TestIntrospectKeysChangeDuringRevocationCheck: a token verified with
// the keys of before an outage is checked for revocation in a store that
// came back without its data (the revocation lost). The introspection
// must not answer active:true on the old keys: if the key source refuses
// by then (it has not reloaded since the outage) the answer is 503; if
// it serves another ring (reloaded from the emptied store), the token is
// verified again with it, and is inactive when its key is gone.
func TestIntrospectKeysChangeDuringRevocationCheck(t *testing.T) {
	e := newEnv(t, FormatJWT)
	tok := e.accessToken()
	if r := e.revokeAs(tok, basicHeader("svc-basic", secretBasic)); r.status != 200 {
		t.Fatalf("revoke: %d %s", r.status, r.body)
	}
	wantActive(t, e.introspect(tok, nil), false)
	hook := &revokedHook{Store: storage.NewMemory(e.clock.Now)} // the store loses the revocation
	e.store.Store = hook
	oldKeys := *e.keys

	hook.hook = func() { e.keys.err = fmt.Errorf("%w: test: not reloaded since the outage", storage.ErrUnavailable) }
	wantError(t, e.introspect(tok, nil), 503, ErrTemporarilyUnavailable)

	other := newStaticKeys(t, signet.ES256)
	*e.keys = oldKeys
	hook.hook = func() { e.keys.pub, e.keys.err = other.pub, nil }
	wantActive(t, e.introspect(tok, nil), false)

	// The keys unchanged: the token the store forgot is active again (the
	// store is the authority on revocations); no second verification.
	*e.keys = oldKeys
	hook.hook = nil
	wantActive(t, e.introspect(tok, nil), true)
	// A ring that changed but still holds the key (a rotation): active.
	hook.hook = func() {
		both, err := signet.NewKeySet(append(oldKeys.pub.Keys(), other.pub.Keys()...)...)
		if err != nil {
			t.Fatal(err)
		}
		e.keys.pub = both
	}
	wantActive(t, e.introspect(tok, nil), true)
}
