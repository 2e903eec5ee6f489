package oauth

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/jwt"
)

// checkAccessToken verifies tok as RFC 9068 says a resource server would,
// and checks that it carries exactly the claims of RFC 9068 §2.2.
func checkAccessToken(t *testing.T, e *env, tok, client, aud, scope string, ttl time.Duration) accessClaims {
	t.Helper()
	// As a resource server does: keys from the published JWKS.
	published, err := jwk.ParseSet(publicSet(t, e.keys.signer))
	if err != nil {
		t.Fatal(err)
	}
	c, err := jwt.Verify[accessClaims](published, tok, jwt.Policy{Type: "at+jwt", Issuer: testIssuer, Audience: []string{aud}, Now: e.clock.Now})
	if err != nil {
		t.Fatalf("issued token does not verify as at+jwt: %v", err)
	}
	_, h, err := jwt.VerifyBytes(e.keys.pub, tok, jwt.Policy{Type: "at+jwt"})
	if err != nil || h.Type != "at+jwt" || h.KeyID != e.keys.signer.KeyID() || h.Algorithm != signet.ES256 {
		t.Fatalf("header %+v, %v; want typ at+jwt, kid %q", h, err, e.keys.signer.KeyID())
	}
	now := e.clock.Now().Unix()
	if c.Subject != client || c.ClientID != client || c.Scope != scope || int64(c.IssuedAt) != now ||
		int64(c.ExpiresAt) != now+int64(ttl/time.Second) || c.NotBefore != 0 {
		t.Fatalf("claims %+v", c)
	}
	if raw, err := base64.RawURLEncoding.DecodeString(c.ID); err != nil || len(raw) != 16 {
		t.Fatalf("jti %q is not 128 random bits in base64url", c.ID)
	}
	payload, err := base64.RawURLEncoding.DecodeString(strings.Split(tok, ".")[1])
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(payload, &m); err != nil {
		t.Fatal(err)
	}
	want := []string{"aud", "client_id", "exp", "iat", "iss", "jti", "sub"}
	if scope != "" {
		want = append(want, "scope")
	}
	var got []string
	for k := range m {
		got = append(got, k)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("claims %v, want %v", got, want)
	}
	return c
}

func checkTokenResponse(t *testing.T, r *resp, scope string, ttl time.Duration) string {
	t.Helper()
	if r.status != 200 {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	if r.header.Get("Cache-Control") != "no-store" || r.header.Get("Pragma") != "no-cache" || r.header.Get("Content-Type") != "application/json" {
		t.Fatalf("headers %v", r.header)
	}
	want := map[string]any{"token_type": "Bearer", "expires_in": float64(ttl / time.Second), "scope": scope, "access_token": r.json["access_token"]}
	if len(r.json) != len(want) {
		t.Fatalf("response %s", r.body)
	}
	for k, v := range want {
		if r.json[k] != v {
			t.Fatalf("response %s: %s is %v, want %v", r.body, k, r.json[k], v)
		}
	}
	return r.json["access_token"].(string)
}

func TestTokenEachAuthMethod(t *testing.T) {
	e := newEnv(t, FormatJWT)
	t.Run("client_secret_basic", func(t *testing.T) {
		tok := checkTokenResponse(t, e.tokenBasic(""), "read write admin", 10*time.Minute)
		checkAccessToken(t, e, tok, "svc-basic", apiA, "read write admin", 10*time.Minute)
	})
	t.Run("client_secret_basic form-urlencoded", func(t *testing.T) {
		// RFC 6749 §2.3.1: id and secret are form-urlencoded before Basic.
		e := newEnv(t, FormatJWT)
		cs, err := ParseClients([]byte(`{"clients":[{"client_id":"a b:c%","client_secret_sha256":"` + hashHex("s+e:c r%et-0123456789abcdef") + `","scope":"read","audience":["x"]}]}`))
		if err != nil {
			t.Fatal(err)
		}
		e.srv.SetClients(cs)
		r := e.do(req{path: PathToken, form: "grant_type=client_credentials", header: basicHeader("a b:c%", "s+e:c r%et-0123456789abcdef")})
		checkTokenResponse(t, r, "read", DefaultAccessTokenTTL)
	})
	t.Run("client_secret_post", func(t *testing.T) {
		r := e.do(req{path: PathToken, form: "grant_type=client_credentials&client_id=svc-post&client_secret=" + url.QueryEscape(secretPost)})
		tok := checkTokenResponse(t, r, "read", DefaultAccessTokenTTL)
		checkAccessToken(t, e, tok, "svc-post", apiA, "read", DefaultAccessTokenTTL)
	})
	for _, k := range []*signet.Key{e.jwtKey, e.jwtKey2} {
		t.Run("private_key_jwt "+string(k.Algorithm()), func(t *testing.T) {
			r := e.do(withPath(e.authJWT(e.assertion(k, nil)), PathToken))
			tok := checkTokenResponse(t, r, "read write", DefaultAccessTokenTTL)
			checkAccessToken(t, e, tok, "svc-jwt", apiA, "read write", DefaultAccessTokenTTL)
		})
	}
	t.Run("private_key_jwt aud issuer, client_id given", func(t *testing.T) {
		a := e.assertion(e.jwtKey, func(m *jwt.Map) { (*m)["aud"] = testIssuer })
		r := e.do(req{path: PathToken, form: "grant_type=client_credentials&client_id=svc-jwt" + assertionForm(a)})
		checkTokenResponse(t, r, "read write", DefaultAccessTokenTTL)
	})
}

func withPath(r req, path string) req { r.path = path; return r }

// TestTokenErrors covers each RFC 6749 §5.2 error class the endpoint
// answers, and malformed, oversized and duplicated input: each a clean
// JSON error, the handler alive after it.
func TestTokenErrors(t *testing.T) {
	e := newEnv(t, FormatJWT)
	basic := basicHeader("svc-basic", secretBasic)
	post := "&client_id=svc-post&client_secret=" + url.QueryEscape(secretPost)
	gt := "grant_type=client_credentials"
	cases := []struct {
		name   string
		r      req
		status int
		code   string
	}{
		// invalid_request
		{"no grant_type", req{form: "scope=read", header: basic}, 400, ErrInvalidRequest},
		{"repeated grant_type", req{form: gt + "&" + gt, header: basic}, 400, ErrInvalidRequest},
		{"repeated scope", req{form: gt + "&scope=read&scope=write", header: basic}, 400, ErrInvalidRequest},
		{"repeated client_secret", req{form: gt + post + "&client_secret=x"}, 400, ErrInvalidRequest},
		{"basic and post", req{form: gt + post, header: basic}, 400, ErrInvalidRequest},
		{"basic and assertion", req{form: gt + assertionForm("a.b.c"), header: basic}, 400, ErrInvalidRequest},
		{"post and assertion", req{form: gt + post + assertionForm("a.b.c")}, 400, ErrInvalidRequest},
		{"basic with other client_id", req{form: gt + "&client_id=svc-post", header: basic}, 400, ErrInvalidRequest},
		{"post without secret", req{form: gt + "&client_id=svc-post"}, 401, ErrInvalidClient},
		{"post without id", req{form: gt + "&client_secret=x"}, 400, ErrInvalidRequest},
		{"post empty secret", req{form: gt + "&client_id=svc-post&client_secret="}, 400, ErrInvalidRequest},
		{"assertion without type", req{form: gt + "&client_assertion=a.b.c"}, 400, ErrInvalidRequest},
		{"assertion of other type", req{form: gt + "&client_assertion=a.b.c&client_assertion_type=urn:x"}, 400, ErrInvalidRequest},
		{"assertion type without assertion", req{form: gt + "&client_assertion_type=" + url.QueryEscape(AssertionType)}, 400, ErrInvalidRequest},
		{"JSON body", req{form: `{"grant_type":"client_credentials"}`, ctype: "application/json", header: basic}, 400, ErrInvalidRequest},
		{"no Content-Type", req{form: gt, ctype: "-", header: basic}, 400, ErrInvalidRequest},
		{"multipart", req{form: gt, ctype: "multipart/form-data; boundary=x", header: basic}, 400, ErrInvalidRequest},
		{"latin-1 charset", req{form: gt, ctype: "application/x-www-form-urlencoded; charset=iso-8859-1", header: basic}, 400, ErrInvalidRequest},
		{"two Content-Types", req{form: gt, ctype: "-", header: map[string][]string{"Content-Type": {"application/x-www-form-urlencoded", "application/x-www-form-urlencoded"}, "Authorization": basic["Authorization"]}}, 400, ErrInvalidRequest},
		{"secret in the URL", req{path: PathToken + "?client_secret=x", form: gt, header: basic}, 400, ErrInvalidRequest},
		{"bad percent-encoding", req{form: gt + "&scope=%zz", header: basic}, 400, ErrInvalidRequest},
		{"invalid UTF-8", req{form: gt + "&scope=%ff", header: basic}, 400, ErrInvalidRequest},
		{"control character", req{form: gt + "&scope=%00", header: basic}, 400, ErrInvalidRequest},
		{"nameless parameter", req{form: gt + "&=x", header: basic}, 400, ErrInvalidRequest},
		{"too many parameters", req{form: gt + strings.Repeat("&x", 0) + manyParams(MaxParams), header: basic}, 400, ErrInvalidRequest},
		{"two Authorization headers", req{form: gt, header: map[string][]string{"Authorization": {basic["Authorization"][0], basic["Authorization"][0]}}}, 400, ErrInvalidRequest},
		{"Basic not base64", req{form: gt, header: map[string][]string{"Authorization": {"Basic !!!"}}}, 400, ErrInvalidRequest},
		{"Basic without colon", req{form: gt, header: map[string][]string{"Authorization": {"Basic " + b64("svc-basic")}}}, 400, ErrInvalidRequest},
		{"Basic empty secret", req{form: gt, header: map[string][]string{"Authorization": {"Basic " + b64("svc-basic:")}}}, 400, ErrInvalidRequest},
		{"Basic bad escape", req{form: gt, header: map[string][]string{"Authorization": {"Basic " + b64("svc%zz:x")}}}, 400, ErrInvalidRequest},
		{"Basic oversized", req{form: gt, header: map[string][]string{"Authorization": {"Basic " + strings.Repeat("A", MaxAuthorizationSize)}}}, 400, ErrInvalidRequest},
		{"GET", req{method: http.MethodGet, header: basic}, 405, ErrInvalidRequest},
		// invalid_client: 401 with a Basic challenge
		{"no authentication", req{form: gt}, 401, ErrInvalidClient},
		{"unknown client", req{form: gt, header: basicHeader("nobody", secretBasic)}, 401, ErrInvalidClient},
		{"wrong secret", req{form: gt, header: basicHeader("svc-basic", secretPost)}, 401, ErrInvalidClient},
		{"wrong secret post", req{form: gt + "&client_id=svc-post&client_secret=x"}, 401, ErrInvalidClient},
		{"basic for a post client", req{form: gt, header: basicHeader("svc-post", secretPost)}, 401, ErrInvalidClient},
		{"post for a basic client", req{form: gt + "&client_id=svc-basic&client_secret=" + url.QueryEscape(secretBasic)}, 401, ErrInvalidClient},
		{"Bearer scheme", req{form: gt, header: map[string][]string{"Authorization": {"Bearer abc"}}}, 401, ErrInvalidClient},
		// unsupported_grant_type
		{"password grant", req{form: "grant_type=password&username=a&password=b", header: basic}, 400, ErrUnsupportedGrantType},
		{"authorization_code", req{form: "grant_type=authorization_code&code=x", header: basic}, 400, ErrUnsupportedGrantType},
		// invalid_scope
		{"scope not the client's", req{form: gt + "&scope=read+delete", header: basic}, 400, ErrInvalidScope},
		{"scope of another client only", req{form: gt + "&scope=write" + post}, 400, ErrInvalidScope},
		{"empty scope", req{form: gt + "&scope=", header: basic}, 400, ErrInvalidScope},
		{"scope with two spaces", req{form: gt + "&scope=read++write", header: basic}, 400, ErrInvalidScope},
		{"scope with a quote", req{form: gt + "&scope=%22read%22", header: basic}, 400, ErrInvalidScope},
		// invalid_target
		{"resource not the client's", req{form: gt + "&resource=" + url.QueryEscape("https://evil.example"), header: basic}, 400, ErrInvalidTarget},
		{"resource with fragment", req{form: gt + "&resource=" + url.QueryEscape(apiA+"#x"), header: basic}, 400, ErrInvalidTarget},
		{"resource relative", req{form: gt + "&resource=api", header: basic}, 400, ErrInvalidTarget},
		{"resource repeated", req{form: gt + "&resource=" + url.QueryEscape(apiA) + "&resource=" + url.QueryEscape(apiA), header: basic}, 400, ErrInvalidTarget},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.r.path == "" {
				c.r.path = PathToken
			}
			wantError(t, e.do(c.r), c.status, c.code)
		})
	}
	// The handler is alive and the clients still get tokens (the
	// failures above stay under svc-basic's limit? not necessarily: use
	// a fresh limiter window).
	e.clock.Advance(FailureBurst * FailureRefill)
	checkTokenResponse(t, e.tokenBasic(""), "read write admin", 10*time.Minute)
}

func manyParams(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString("&p")
		b.WriteString(strings.Repeat("x", i+1))
		b.WriteString("=1")
	}
	return b.String()
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func TestTokenOversizedBody(t *testing.T) {
	e := newEnv(t, FormatJWT)
	big := "grant_type=client_credentials&pad=" + strings.Repeat("a", MaxBodySize)
	r := e.do(req{path: PathToken, form: big, header: basicHeader("svc-basic", secretBasic)})
	wantError(t, r, http.StatusRequestEntityTooLarge, ErrInvalidRequest)
	// Without a Content-Length (chunked), the limit holds while reading.
	hr, _ := http.NewRequest(http.MethodPost, PathToken, strings.NewReader(big))
	hr.ContentLength = -1
	hr.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	hr.Header.Set("Authorization", basicHeader("svc-basic", secretBasic)["Authorization"][0])
	w := newRecorder()
	e.h.ServeHTTP(w, hr)
	if w.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("chunked oversized body: %d %s", w.Code, w.Body)
	}
	checkTokenResponse(t, e.tokenBasic(""), "read write admin", 10*time.Minute)
}

func TestTokenScope(t *testing.T) {
	e := newEnv(t, FormatJWT)
	for _, c := range []struct{ ask, want string }{
		{"", "read write admin"},
		{"&scope=read", "read"},
		{"&scope=admin+read", "read admin"}, // the client's order
		{"&scope=write%20read%20write", "read write"},
		{"&scope=read+write+admin", "read write admin"},
	} {
		tok := checkTokenResponse(t, e.tokenBasic(c.ask), c.want, 10*time.Minute)
		checkAccessToken(t, e, tok, "svc-basic", apiA, c.want, 10*time.Minute)
	}
}

func TestTokenResource(t *testing.T) {
	e := newEnv(t, FormatJWT)
	tok := checkTokenResponse(t, e.tokenBasic("&resource="+url.QueryEscape(apiB)), "read write admin", 10*time.Minute)
	c := checkAccessToken(t, e, tok, "svc-basic", apiB, "read write admin", 10*time.Minute)
	if !slices.Equal(c.Audience, jwt.Audience{apiB}) {
		t.Fatalf("aud %v", c.Audience)
	}
	tok = checkTokenResponse(t, e.tokenBasic("&resource="+url.QueryEscape(apiB)+"&resource="+url.QueryEscape(apiA)), "read write admin", 10*time.Minute)
	c = checkAccessToken(t, e, tok, "svc-basic", apiA, "read write admin", 10*time.Minute)
	if !slices.Equal(c.Audience, jwt.Audience{apiB, apiA}) {
		t.Fatalf("aud %v", c.Audience)
	}
	// The default audience is the first.
	c = checkAccessToken(t, e, e.accessToken(), "svc-basic", apiA, "read write admin", 10*time.Minute)
	if !slices.Equal(c.Audience, jwt.Audience{apiA}) {
		t.Fatalf("aud %v", c.Audience)
	}
}

// TestAssertions covers RFC 7523 §3 for private_key_jwt: each refused
// assertion is invalid_client (401), and a jti is never accepted twice.
func TestAssertions(t *testing.T) {
	e := newEnv(t, FormatJWT)
	hs, _ := signet.GenerateKeyWithID(signet.HS256, "jwt-es")
	stranger, _ := signet.GenerateKeyWithID(signet.ES256, "jwt-es")
	cases := []struct {
		name string
		key  *signet.Key
		mod  func(*jwt.Map)
	}{
		{"wrong aud", e.jwtKey, func(m *jwt.Map) { (*m)["aud"] = "https://api.example.com" }},
		{"no aud", e.jwtKey, func(m *jwt.Map) { delete(*m, "aud") }},
		{"aud the introspection endpoint", e.jwtKey, func(m *jwt.Map) { (*m)["aud"] = testIssuer + PathIntrospect }},
		{"wrong iss", e.jwtKey, func(m *jwt.Map) { (*m)["iss"] = "svc-jwt2" }},
		{"wrong sub", e.jwtKey, func(m *jwt.Map) { (*m)["sub"] = "svc-basic" }},
		{"no exp", e.jwtKey, func(m *jwt.Map) { delete(*m, "exp") }},
		{"expired", e.jwtKey, func(m *jwt.Map) { (*m)["exp"] = e.clock.Now().Add(-time.Second).Unix() }},
		{"exp too far", e.jwtKey, func(m *jwt.Map) { (*m)["exp"] = e.clock.Now().Add(MaxAssertionLifetime + time.Second).Unix() }},
		{"iat in the future", e.jwtKey, func(m *jwt.Map) { (*m)["iat"] = e.clock.Now().Add(time.Minute).Unix() }},
		{"no jti", e.jwtKey, func(m *jwt.Map) { delete(*m, "jti") }},
		{"long jti", e.jwtKey, func(m *jwt.Map) { (*m)["jti"] = strings.Repeat("j", MaxAssertionIDLength+1) }},
		{"HS256 with the kid of a registered key", hs, nil},
		{"unregistered key with a registered kid", stranger, nil},
		{"another client's key", e.otherKey, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.clock.Advance(FailureBurst * FailureRefill) // keep under the failure limit
			r := e.do(withPath(e.authJWT(e.assertion(c.key, c.mod)), PathToken))
			wantError(t, r, http.StatusUnauthorized, ErrInvalidClient)
		})
	}
	t.Run("alg none", func(t *testing.T) {
		e.clock.Advance(FailureBurst * FailureRefill)
		a := e.assertion(e.jwtKey, nil)
		parts := strings.Split(a, ".")
		none := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","kid":"jwt-es"}`)) + "." + parts[1] + "."
		wantError(t, e.do(withPath(e.authJWT(none), PathToken)), 401, ErrInvalidClient)
	})
	t.Run("oversized", func(t *testing.T) {
		wantError(t, e.do(withPath(e.authJWT(strings.Repeat("a", MaxAssertionSize+1)), PathToken)), 401, ErrInvalidClient)
	})
	t.Run("replayed jti", func(t *testing.T) {
		e.clock.Advance(FailureBurst * FailureRefill)
		a := e.assertion(e.jwtKey, nil)
		checkTokenResponse(t, e.do(withPath(e.authJWT(a), PathToken)), "read write", DefaultAccessTokenTTL)
		wantError(t, e.do(withPath(e.authJWT(a), PathToken)), 401, ErrInvalidClient)
		// Another assertion with the same jti, freshly signed: refused too.
		b := e.assertion(e.jwtKey, func(m *jwt.Map) { (*m)["jti"] = claimsOf(t, a)["jti"]; (*m)["iat"] = e.clock.Now().Unix() - 1 })
		wantError(t, e.do(withPath(e.authJWT(b), PathToken)), 401, ErrInvalidClient)
		// The same jti from another client is that client's own.
		o := e.assertion(e.otherKey, func(m *jwt.Map) {
			(*m)["iss"], (*m)["sub"], (*m)["jti"] = "svc-jwt2", "svc-jwt2", claimsOf(t, a)["jti"]
		})
		checkTokenResponse(t, e.do(withPath(e.authJWT(o), PathToken)), "read", DefaultAccessTokenTTL)
	})
}

func claimsOf(t *testing.T, tok string) map[string]any {
	t.Helper()
	p, err := base64.RawURLEncoding.DecodeString(strings.Split(tok, ".")[1])
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(p, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestAssertionReplayConcurrent: of many concurrent requests with one
// assertion, exactly one gets a token.
func TestAssertionReplayConcurrent(t *testing.T) {
	e := newEnv(t, FormatJWT)
	a := e.assertion(e.jwtKey, nil)
	const n = 16
	codes := make(chan int, n)
	for range n {
		go func() { codes <- e.do(withPath(e.authJWT(a), PathToken)).status }()
	}
	ok := 0
	for range n {
		switch c := <-codes; c {
		case 200:
			ok++
		case 401:
		default:
			t.Errorf("status %d", c)
		}
	}
	if ok != 1 {
		t.Fatalf("%d of %d concurrent uses of one assertion got a token", ok, n)
	}
}

// withHeaderAlg re-signs an assertion of key under the header alg given
// (and the key's kid), as openid-client 6 signs with an Ed25519 key:
// {"alg":"Ed25519"}, RFC 9864's name for EdDSA.
func withHeaderAlg(t *testing.T, key *signet.Key, assertion, alg string) string {
	t.Helper()
	h := base64.RawURLEncoding.EncodeToString(fmt.Appendf(nil, `{"alg":%q,"kid":%q,"typ":"JWT"}`, alg, key.KeyID()))
	msg := h + "." + strings.Split(assertion, ".")[1]
	sig, err := key.Sign(nil, []byte(msg))
	if err != nil {
		t.Fatal(err)
	}
	return msg + "." + base64.RawURLEncoding.EncodeToString(sig)
}

// TestAssertionEd25519: an assertion from a client's Ed25519 key is
// accepted under either name of the algorithm (header alg "EdDSA", RFC
// 8037, or "Ed25519", RFC 9864), whichever the client registered its JWK
// with; the name never reaches another key: "Ed25519" with the kid of the
// client's ES256 key, or signed by an unregistered Ed25519 key, is
// invalid_client, and "Ed448" is no algorithm of the service.
func TestAssertionEd25519(t *testing.T) {
	e := newEnv(t, FormatJWT)
	stranger, err := signet.GenerateKeyWithID(signet.EdDSA, "jwt-ed")
	if err != nil {
		t.Fatal(err)
	}
	// assertion is a fresh assertion of the client svc-jwt, signed by
	// signer under the header alg given and signer's kid.
	assertion := func(signer *signet.Key, alg string) string {
		e.clock.Advance(FailureBurst * FailureRefill) // keep under the failure limit
		return withHeaderAlg(t, signer, e.assertion(e.jwtKey2, nil), alg)
	}
	for _, registered := range []string{"EdDSA", "Ed25519"} {
		t.Run("registered "+registered, func(t *testing.T) {
			set := publicSet(t, e.jwtKey, e.jwtKey2)
			if registered != "EdDSA" {
				renamed := strings.Replace(string(set), `"alg":"EdDSA"`, `"alg":"Ed25519"`, 1)
				if renamed == string(set) {
					t.Fatalf("no EdDSA key in %s", set)
				}
				set = json.RawMessage(renamed)
			}
			cs, err := ParseClients(testClientsJSON(t, set, publicSet(t, e.otherKey)))
			if err != nil {
				t.Fatalf("client JWK with alg %s: %v", registered, err)
			}
			e.srv.SetClients(cs)
			for _, alg := range []string{"EdDSA", "Ed25519"} {
				r := e.do(withPath(e.authJWT(assertion(e.jwtKey2, alg)), PathToken))
				checkTokenResponse(t, r, "read write", DefaultAccessTokenTTL)
			}
			for _, c := range []struct {
				name   string
				signer *signet.Key
				alg    string
			}{
				{"an unregistered Ed25519 key with the registered kid", stranger, "Ed25519"},
				{"an Ed25519 signature under the ES256 key's kid", e.jwtKey2.WithKeyID(e.jwtKey.KeyID()), "Ed25519"},
				{"alg Ed448", e.jwtKey2, "Ed448"},
				{"alg ed25519 (RFC 9421's name)", e.jwtKey2, "ed25519"},
			} {
				t.Run(c.name, func(t *testing.T) {
					wantError(t, e.do(withPath(e.authJWT(assertion(c.signer, c.alg)), PathToken)), 401, ErrInvalidClient)
				})
			}
		})
	}
}

// TestTokenEachAlgorithm: the access token, signed in place in the
// response, is the JWS jwt.SignBytes makes of its payload (byte for byte
// where the signature is deterministic), verifies for every JWS
// algorithm, and its header follows the signing key when keys rotate.
func TestTokenEachAlgorithm(t *testing.T) {
	e := newEnv(t, FormatJWT)
	for _, alg := range []signet.Algorithm{signet.HS256, signet.HS512, signet.ES256, signet.ES384, signet.ES512, signet.EdDSA, signet.RS256, signet.PS256} {
		t.Run(string(alg), func(t *testing.T) {
			e.keys = newStaticKeys(t, alg)
			srv, err := New(Config{Issuer: testIssuer, Clients: e.srv.Clients(), Store: e.store, Keys: e.keys, Now: e.clock.Now})
			if err != nil {
				t.Fatal(err)
			}
			e.h = srv.Handler()
			for range 2 { // the second from the cached header
				tok := checkTokenResponse(t, e.tokenBasic(""), "read write admin", 10*time.Minute)
				payload, h, err := jwt.VerifyBytes(e.keys.pub, tok, jwt.Policy{Type: AccessTokenType})
				if err != nil || h.Algorithm != alg || h.KeyID != e.keys.signer.KeyID() || h.Type != AccessTokenType {
					t.Fatalf("header %+v: %v", h, err)
				}
				want, err := jwt.SignBytes(e.keys.signer, payload, AccessTokenType)
				if err != nil {
					t.Fatal(err)
				}
				if alg.Symmetric() && tok != want {
					t.Fatalf("token\n%s\nwant\n%s", tok, want)
				}
				if wh, _, _ := strings.Cut(want, "."); !strings.HasPrefix(tok, wh+".") {
					t.Fatalf("header of %s, want %s", tok, wh)
				}
			}
			// Rotation: the next key's header, not the cached one.
			next := newStaticKeys(t, alg)
			e.keys.signer, e.keys.pub = next.signer, next.pub
			tok := checkTokenResponse(t, e.tokenBasic(""), "read write admin", 10*time.Minute)
			if _, h, err := jwt.VerifyBytes(next.pub, tok, jwt.Policy{Type: AccessTokenType}); err != nil || h.KeyID != next.signer.KeyID() {
				t.Fatalf("after rotation: header %+v: %v", h, err)
			}
		})
	}
}

// TestTokenSignerNotJWS: a v4.public signer with the JWT format is a
// server error (503 to the client), never a token.
func TestTokenSignerNotJWS(t *testing.T) {
	e := newEnv(t, FormatJWT)
	e.keys.signer = newStaticKeys(t, signet.V4Public).signer
	wantError(t, e.tokenBasic(""), 503, ErrTemporarilyUnavailable)
}

// TestAssertionLifetime: an assertion valid for MaxAssertionLifetime (an
// hour, Authlib's default) is accepted, and its jti is refused as a
// replay for as long as it is valid, a fractional exp included.
func TestAssertionLifetime(t *testing.T) {
	e := newEnv(t, FormatJWT)
	hour := e.assertion(e.jwtKey, func(m *jwt.Map) { (*m)["exp"] = e.clock.Now().Add(MaxAssertionLifetime).Unix() })
	checkTokenResponse(t, e.do(withPath(e.authJWT(hour), PathToken)), "read write", DefaultAccessTokenTTL)
	e.clock.Advance(MaxAssertionLifetime - time.Second)
	wantError(t, e.do(withPath(e.authJWT(hour), PathToken)), 401, ErrInvalidClient)
	if !strings.Contains(e.logs.String(), `"reason":"assertion: jti replayed"`) {
		t.Fatalf("the replay an hour on is not refused as one: %s", e.logs)
	}

	// exp = now + 60.5 s: valid until then, not only until now + 60 s.
	frac := e.assertion(e.jwtKey, func(m *jwt.Map) { (*m)["exp"] = float64(e.clock.Now().Unix()) + 60.5 })
	checkTokenResponse(t, e.do(withPath(e.authJWT(frac), PathToken)), "read write", DefaultAccessTokenTTL)
	e.clock.Advance(60*time.Second + 200*time.Millisecond)
	wantError(t, e.do(withPath(e.authJWT(frac), PathToken)), 401, ErrInvalidClient)
	if strings.Count(e.logs.String(), `"reason":"assertion: jti replayed"`) != 2 {
		t.Fatalf("a replay before a fractional exp is not refused as one: %s", e.logs)
	}
	e.clock.Advance(time.Second)
	wantError(t, e.do(withPath(e.authJWT(frac), PathToken)), 401, ErrInvalidClient) // expired
}
