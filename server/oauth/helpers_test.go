package oauth

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/jwt"
	"github.com/signet-go/signet/server/internal/storetest"
	"github.com/signet-go/signet/server/storage"
)

const (
	testIssuer = "https://auth.example.com"
	apiA       = "https://api.example.com"
	apiB       = "https://other.example.com"
	// Test secrets: 128 bits and more, as a real deployment's.
	secretBasic = "b4sic-2f9c1e0a7d3b5c4e6f8a9b0c1d2e3f40"
	secretPost  = "p0st-9a8b7c6d5e4f30211203f4e5d6c7b8a9"
)

// testClock is a clock the tests move.
type testClock struct{ t atomic.Int64 }

func newClock() *testClock {
	c := &testClock{}
	c.t.Store(time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC).UnixNano())
	return c
}
func (c *testClock) Now() time.Time          { return time.Unix(0, c.t.Load()).UTC() }
func (c *testClock) Advance(d time.Duration) { c.t.Add(int64(d)) }

// staticKeys is a KeySource with one signing key.
type staticKeys struct {
	signer *signet.Key
	pub    *signet.KeySet
	err    error
}

func (k *staticKeys) Signer(context.Context) (*signet.Key, error)   { return k.signer, k.err }
func (k *staticKeys) Verifier(context.Context) (signet.Keys, error) { return k.pub, k.err }

func newStaticKeys(t testing.TB, alg signet.Algorithm) *staticKeys {
	t.Helper()
	k, err := signet.GenerateKey(alg)
	if err != nil {
		t.Fatal(err)
	}
	kid := "test-" + string(alg)
	if !alg.IsJWS() {
		kid = "k4.pid.test"
	} else if tp, err := jwk.Thumbprint(k); err == nil {
		kid = tp
	}
	k = k.WithKeyID(kid)
	pub := k
	if !k.Symmetric() {
		if pub, err = k.Public(); err != nil {
			t.Fatal(err)
		}
	}
	set, err := signet.NewKeySet(pub)
	if err != nil {
		t.Fatal(err)
	}
	return &staticKeys{signer: k, pub: set}
}

func hashHex(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// env is a server under test with its clients' credentials.
type env struct {
	t        testing.TB
	clock    *testClock
	store    *storetest.Flaky
	keys     *staticKeys
	srv      *Server
	h        http.Handler
	jwtKey   *signet.Key // svc-jwt's private key (ES256)
	jwtKey2  *signet.Key // svc-jwt's second key (EdDSA)
	otherKey *signet.Key // svc-jwt2's private key
	logs     *storetest.LogBuffer
}

func publicSet(t testing.TB, keys ...*signet.Key) json.RawMessage {
	t.Helper()
	b, err := jwk.MarshalSet(keys...)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func testClientsJSON(t testing.TB, jwtKeys, otherKeys json.RawMessage) []byte {
	return fmt.Appendf(nil, `{"clients":[
 {"client_id":"svc-basic","client_secret_sha256":%q,"token_endpoint_auth_method":"client_secret_basic",
  "scope":"read write admin","audience":[%q,%q],"access_token_ttl":"10m"},
 {"client_id":"svc-post","client_secret_sha256":%q,"token_endpoint_auth_method":"client_secret_post",
  "scope":"read","audience":[%q]},
 {"client_id":"svc-jwt","token_endpoint_auth_method":"private_key_jwt","jwks":%s,"scope":"read write","audience":[%q]},
 {"client_id":"svc-jwt2","token_endpoint_auth_method":"private_key_jwt","jwks":%s,"scope":"read","audience":[%q]}
]}`, hashHex(secretBasic), apiA, apiB, hashHex(secretPost), apiA, jwtKeys, apiA, otherKeys, apiB)
}

func newEnv(t testing.TB, format Format) *env {
	t.Helper()
	e := &env{t: t, clock: newClock(), logs: &storetest.LogBuffer{}}
	e.store = &storetest.Flaky{Store: storage.NewMemory(e.clock.Now)}
	alg := signet.ES256
	if format == FormatPASETO {
		alg = signet.V4Public
	}
	e.keys = newStaticKeys(t, alg)
	var err error
	if e.jwtKey, err = signet.GenerateKeyWithID(signet.ES256, "jwt-es"); err != nil {
		t.Fatal(err)
	}
	if e.jwtKey2, err = signet.GenerateKeyWithID(signet.EdDSA, "jwt-ed"); err != nil {
		t.Fatal(err)
	}
	if e.otherKey, err = signet.GenerateKeyWithID(signet.ES256, "jwt2-es"); err != nil {
		t.Fatal(err)
	}
	cs, err := ParseClients(testClientsJSON(t, publicSet(t, e.jwtKey, e.jwtKey2), publicSet(t, e.otherKey)))
	if err != nil {
		t.Fatal(err)
	}
	e.srv, err = New(Config{
		Issuer: testIssuer, Clients: cs, Store: e.store, Keys: e.keys, Format: format,
		JWKS: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Write(publicSet(t, e.keys.signer))
		}),
		Now:    e.clock.Now,
		Logger: slogJSON(e.logs),
	})
	if err != nil {
		t.Fatal(err)
	}
	e.h = e.srv.Handler()
	return e
}

// req is one request to the handler.
type req struct {
	method, path string
	form         string              // raw body
	header       map[string][]string // extra headers
	ctype        string              // "" means form-urlencoded; "-" none
	remote       string              // RemoteAddr; "" means httptest's 192.0.2.1:1234
}

type resp struct {
	status int
	header http.Header
	body   []byte
	json   map[string]any
}

func (e *env) do(r req) *resp {
	e.t.Helper()
	if r.method == "" {
		r.method = http.MethodPost
	}
	hr := httptest.NewRequest(r.method, r.path, strings.NewReader(r.form))
	switch r.ctype {
	case "":
		hr.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	case "-":
	default:
		hr.Header.Set("Content-Type", r.ctype)
	}
	for k, vs := range r.header {
		for _, v := range vs {
			hr.Header.Add(k, v)
		}
	}
	if r.remote != "" {
		hr.RemoteAddr = r.remote
	}
	w := httptest.NewRecorder()
	e.h.ServeHTTP(w, hr)
	out := &resp{status: w.Code, header: w.Header(), body: w.Body.Bytes()}
	if strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(out.body, &out.json); err != nil {
			e.t.Fatalf("%s %s: body is not JSON: %v: %q", r.method, r.path, err, out.body)
		}
	}
	return out
}

func basicHeader(id, secret string) map[string][]string {
	cred := url.QueryEscape(id) + ":" + url.QueryEscape(secret)
	return map[string][]string{"Authorization": {"Basic " + base64.StdEncoding.EncodeToString([]byte(cred))}}
}

// tokenBasic asks for a token as svc-basic with extra form parameters.
func (e *env) tokenBasic(extra string) *resp {
	return e.do(req{path: PathToken, form: "grant_type=client_credentials" + extra, header: basicHeader("svc-basic", secretBasic)})
}

// accessToken gets an access token for svc-basic.
func (e *env) accessToken() string {
	e.t.Helper()
	r := e.tokenBasic("")
	if r.status != 200 {
		e.t.Fatalf("token: %d %s", r.status, r.body)
	}
	return r.json["access_token"].(string)
}

// assertion signs a client assertion with key; mod changes its claims.
func (e *env) assertion(key *signet.Key, mod func(*jwt.Map)) string {
	e.t.Helper()
	now := e.clock.Now()
	c := jwt.Map{
		"iss": "svc-jwt", "sub": "svc-jwt", "aud": testIssuer + PathToken,
		"exp": now.Add(time.Minute).Unix(), "iat": now.Unix(), "jti": fmt.Sprintf("a-%d", e.clock.t.Add(1)),
	}
	if mod != nil {
		mod(&c)
	}
	tok, err := jwt.Sign(key, c, jwt.Options{Now: e.clock.Now, NoExpiry: c["exp"] == nil})
	if err != nil {
		e.t.Fatal(err)
	}
	return tok
}

func assertionForm(a string) string {
	return "&client_assertion_type=" + url.QueryEscape(AssertionType) + "&client_assertion=" + a
}

func (e *env) authJWT(a string) req {
	return req{form: "grant_type=client_credentials" + assertionForm(a)}
}

// wantError checks an RFC 6749 §5.2 error response.
func wantError(t testing.TB, r *resp, status int, code string) {
	t.Helper()
	if r.status != status || r.json["error"] != code {
		t.Fatalf("got %d %s, want %d %s", r.status, r.body, status, code)
	}
	for k := range r.json {
		if k != "error" && k != "error_description" {
			t.Errorf("error response has member %q", k)
		}
	}
	if d, ok := r.json["error_description"].(string); ok {
		for _, c := range []byte(d) {
			if c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
				t.Errorf("error_description has character %q outside RFC 6749 §5.2's set", c)
			}
		}
	}
	if r.header.Get("Cache-Control") != "no-store" || r.header.Get("Pragma") != "no-cache" {
		t.Errorf("error response without Cache-Control: no-store and Pragma: no-cache: %v", r.header)
	}
	if status == http.StatusUnauthorized && !strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Basic realm=") {
		t.Errorf("401 without a Basic challenge: %v", r.header)
	}
}

func newRecorder() *httptest.ResponseRecorder { return httptest.NewRecorder() }
