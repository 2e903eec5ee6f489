package interop_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/jwt"
	"github.com/signet-go/signet/server/keys"
	"github.com/signet-go/signet/server/oauth"
	"github.com/signet-go/signet/server/storage"
)

// envRequire, set to 1, turns a missing peer into a failure.
const envRequire = "SIGNET_INTEROP"

// The resource servers (audiences) the clients may get tokens for.
const (
	apiA = "https://api.example.com"
	apiB = "https://other.example.com"
)

// The registered clients. The secrets are high-entropy, as the service
// requires; secretB64 is what `openssl rand -base64 24` gives, with the
// characters (+ / =) that client_secret_basic must form-urlencode (RFC
// 6749 §2.3.1) and some clients do not.
const (
	idBasic     = "svc-basic"
	idPost      = "svc-post"
	idJWT       = "svc-jwt"
	idB64       = "svc-b64"
	secretBasic = "b4sic-2f9c1e0a7d3b5c4e6f8a9b0c1d2e3f40"
	secretPost  = "p0st-9a8b7c6d5e4f30211203f4e5d6c7b8a9"
	secretB64   = "q+V/3kZp0Tn8Wm2r+Yd/Lx7aB1cE9fGh="
	ttlBasic    = 10 * time.Minute
)

// clientKey is one of svc-jwt's private keys, also written as a PKCS #8
// PEM file for the peers.
type clientKey struct {
	key     *signet.Key // with its kid (the RFC 7638 thumbprint)
	pemFile string
	kty     string // the JWK kty: EC or OKP
}

// service is a token service running on 127.0.0.1.
type service struct {
	issuer  string // http://127.0.0.1:port, also the base of every endpoint
	alg     signet.Algorithm
	keys    *keys.Manager
	jwtKeys []clientKey // svc-jwt's keys: ES256, then EdDSA
	http    *http.Client
}

func hashHex(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// newClientKey generates a key for svc-jwt and writes its private half to
// dir as PEM.
func newClientKey(t *testing.T, alg signet.Algorithm, kty, dir string) clientKey {
	t.Helper()
	k, err := signet.GenerateKey(alg)
	if err != nil {
		t.Fatal(err)
	}
	kid, err := jwk.Thumbprint(k)
	if err != nil {
		t.Fatal(err)
	}
	k = k.WithKeyID(kid)
	pem, err := signet.MarshalPEM(k)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "svc-jwt-"+string(alg)+".pem")
	if err := os.WriteFile(file, pem, 0o600); err != nil {
		t.Fatal(err)
	}
	return clientKey{key: k, pemFile: file, kty: kty}
}

// startService runs a token service signing with alg (keys.Manager over
// storage.Memory, real clock: the peers check exp against theirs) with
// the clients svc-basic (client_secret_basic), svc-post
// (client_secret_post), svc-jwt (private_key_jwt, an ES256 and an EdDSA
// key) and svc-b64 (client_secret_basic, a secret with + / =).
func startService(t *testing.T, alg signet.Algorithm) *service {
	t.Helper()
	return startServiceFormat(t, alg, oauth.FormatJWT)
}

// startServiceFormat is startService issuing tokens in format (for
// oauth.FormatPASETO, alg is signet.V4Public).
func startServiceFormat(t *testing.T, alg signet.Algorithm, format oauth.Format) *service {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	s := &service{alg: alg, http: &http.Client{Timeout: 10 * time.Second}}
	s.jwtKeys = []clientKey{
		newClientKey(t, signet.ES256, "EC", dir),
		newClientKey(t, signet.EdDSA, "OKP", dir),
	}
	var pubs []*signet.Key
	for _, ck := range s.jwtKeys {
		pub, err := ck.key.Public()
		if err != nil {
			t.Fatal(err)
		}
		pubs = append(pubs, pub)
	}
	jwks, err := jwk.MarshalSet(pubs...)
	if err != nil {
		t.Fatal(err)
	}
	clients, err := oauth.ParseClients(fmt.Appendf(nil, `{"clients":[
 {"client_id":%q,"client_secret_sha256":%q,"token_endpoint_auth_method":"client_secret_basic",
  "scope":"read write admin","audience":[%q,%q],"access_token_ttl":%q},
 {"client_id":%q,"client_secret_sha256":%q,"token_endpoint_auth_method":"client_secret_post",
  "scope":"read","audience":[%q]},
 {"client_id":%q,"token_endpoint_auth_method":"private_key_jwt","jwks":%s,
  "scope":"read write","audience":[%q]},
 {"client_id":%q,"client_secret_sha256":%q,"token_endpoint_auth_method":"client_secret_basic",
  "scope":"read","audience":[%q]}
]}`, idBasic, hashHex(secretBasic), apiA, apiB, ttlBasic.String(),
		idPost, hashHex(secretPost), apiA,
		idJWT, jwks, apiA,
		idB64, hashHex(secretB64), apiA))
	if err != nil {
		t.Fatal(err)
	}

	store := storage.NewMemory(nil)
	kek, err := keys.GenerateKEK()
	if err != nil {
		t.Fatal(err)
	}
	if s.keys, err = keys.New(store, keys.Config{KEK: kek, Algorithm: alg}); err != nil {
		t.Fatal(err)
	}
	if err := s.keys.Refresh(ctx); err != nil {
		t.Fatal(err)
	}

	// The issuer is the URL the peers reach: listen first, then build.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.issuer = "http://" + ln.Addr().String()
	srv, err := oauth.New(oauth.Config{
		Issuer:  s.issuer,
		Clients: clients,
		Store:   store,
		Keys:    s.keys,
		Format:  format,
		JWKS:    s.keys.JWKSHandler(),
	})
	if err != nil {
		ln.Close()
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(srv.Handler())
	ts.Listener.Close()
	ts.Listener = ln
	ts.Start()
	t.Cleanup(ts.Close)
	return s
}

// tokenURL is the token endpoint.
func (s *service) tokenURL() string { return s.issuer + oauth.PathToken }

// accessClaims are the claims of an RFC 9068 access token.
type accessClaims struct {
	jwt.Claims
	ClientID string `json:"client_id"`
	Scope    string `json:"scope"`
}

// publishedKeys fetches the JWKS the service publishes, as a resource
// server would, and checks that it holds the service's signing keys only
// (public, of its algorithm).
func (s *service) publishedKeys(t *testing.T) *signet.KeySet {
	t.Helper()
	res, err := s.http.Get(s.issuer + oauth.PathJWKS)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v %q", oauth.PathJWKS, res.StatusCode, err, body)
	}
	var doc struct {
		Keys []map[string]any `json:"keys"`
	}
	if err := json.Unmarshal(body, &doc); err != nil || len(doc.Keys) == 0 {
		t.Fatalf("JWKS %q: %v", body, err)
	}
	for _, k := range doc.Keys {
		if k["alg"] != string(s.alg) || k["d"] != nil || k["kid"] == nil {
			t.Fatalf("JWKS key %v: want a public %s key with a kid", k, s.alg)
		}
	}
	set, err := jwk.ParseSet(body)
	if err != nil {
		t.Fatalf("JWKS: %v", err)
	}
	return set
}

// verify checks an access token with signet from the published JWKS, as
// a resource server for audience would (RFC 9068 typ at+jwt, iss, aud,
// exp), and the claims the service promises: sub = client_id, jti, iat.
func (s *service) verify(t *testing.T, token, clientID, audience, scope string, ttl time.Duration) accessClaims {
	t.Helper()
	c, err := jwt.Verify[accessClaims](s.publishedKeys(t), token, jwt.Policy{
		Type: "at+jwt", Issuer: s.issuer, Audience: []string{audience},
	})
	if err != nil {
		t.Fatalf("%s's token does not verify from the JWKS for %s: %v", clientID, audience, err)
	}
	if c.Subject != clientID || c.ClientID != clientID || c.Scope != scope || c.ID == "" ||
		len(c.Audience) != 1 || c.Audience[0] != audience {
		t.Fatalf("%s's token claims: %+v (want sub = client_id = %s, aud %s, scope %q, a jti)", clientID, c, clientID, audience, scope)
	}
	if got := c.ExpiresAt.Time().Sub(c.IssuedAt.Time()); got != ttl {
		t.Fatalf("%s's token lives %v, want %v", clientID, got, ttl)
	}
	return c
}

// introspect asks the service about token as svc-basic.
func (s *service) introspect(t *testing.T, token string) map[string]any {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, s.issuer+oauth.PathIntrospect,
		strings.NewReader(url.Values{"token": {token}}.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(idBasic, secretBasic)
	res, err := s.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(res.Body).Decode(&m); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("introspect: %d %v", res.StatusCode, err)
	}
	return m
}
