package oauth

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
)

func TestParseClients(t *testing.T) {
	k, _ := signet.GenerateKeyWithID(signet.ES256, "k1")
	cs, err := ParseClients(testClientsJSON(t, publicSet(t, k), publicSet(t, k)))
	if err != nil {
		t.Fatal(err)
	}
	if len(cs.All()) != 4 {
		t.Fatalf("%d clients", len(cs.All()))
	}
	b, _ := cs.Lookup("svc-basic")
	if b.Method != ClientSecretBasic || b.TTL != 10*time.Minute || strings.Join(b.Scopes, " ") != "read write admin" || b.Audience[0] != apiA {
		t.Fatalf("%+v", b)
	}
	if !b.CheckSecret(secretBasic) || b.CheckSecret(secretPost) || b.CheckSecret("") {
		t.Fatal("CheckSecret")
	}
	p, _ := cs.Lookup("svc-post")
	if p.TTL != DefaultAccessTokenTTL {
		t.Fatalf("default TTL %v", p.TTL)
	}
	j, _ := cs.Lookup("svc-jwt")
	if j.Method != PrivateKeyJWT || j.Keys.Len() != 1 || j.CheckSecret("") {
		t.Fatalf("%+v", j)
	}
	if _, ok := cs.Lookup("nobody"); ok {
		t.Fatal("unknown client found")
	}
	// The method defaults to client_secret_basic (RFC 7591 §2).
	cs, err = ParseClients([]byte(`{"clients":[{"client_id":"d","client_secret_sha256":"` + strings.ToUpper(hashHex("x")) + `","audience":["a"]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := cs.Lookup("d"); d.Method != ClientSecretBasic || len(d.Scopes) != 0 || !d.CheckSecret("x") {
		t.Fatalf("%+v", d)
	}
}

func TestLoadClients(t *testing.T) {
	p := filepath.Join(t.TempDir(), "clients.json")
	if err := os.WriteFile(p, []byte(`{"clients":[{"client_id":"a","client_secret_sha256":"`+hashHex("s")+`","audience":["x"]}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadClients(p); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadClients(p + ".missing"); err == nil {
		t.Fatal("missing file read")
	}
	if err := os.WriteFile(p, make([]byte, MaxClientsSize+1), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadClients(p); !errors.Is(err, signet.ErrTooLarge) {
		t.Fatalf("oversized file: %v", err)
	}
}

// TestParseClientsErrors: every refusal names the client's index and
// wraps its sentinel.
func TestParseClientsErrors(t *testing.T) {
	pub, _ := signet.GenerateKeyWithID(signet.ES256, "k1")
	priv, _ := jwk.Marshal(pub)
	hs, _ := signet.GenerateKeyWithID(signet.HS256, "h1")
	hsJWK, _ := jwk.Marshal(hs)
	noAlg := `{"kty":"EC","crv":"P-256","x":"` + strings.Split(strings.Split(string(publicSet(t, pub)), `"x":"`)[1], `"`)[0] + `","y":"` + strings.Split(strings.Split(string(publicSet(t, pub)), `"y":"`)[1], `"`)[0] + `"}`
	ok := `{"client_id":"ok","client_secret_sha256":"` + hashHex("s") + `","audience":["a"]}`
	h := hashHex("s")
	rsa, _ := signet.GenerateKey(signet.RS256)
	rsaPub, _ := jwk.MarshalPublic(rsa)
	rsaNoAlg := strings.Replace(string(rsaPub), `"alg":"RS256",`, "", 1)
	if strings.Contains(rsaNoAlg, `"alg"`) {
		t.Fatalf("alg left in %s", rsaNoAlg)
	}

	// An EC key without alg fits one algorithm: it is bound to it, as
	// keys exported by npm jose (which writes no alg) are registered.
	cs, err := ParseClients([]byte(`{"clients":[{"client_id":"c","token_endpoint_auth_method":"private_key_jwt","jwks":{"keys":[` + noAlg + `]},"audience":["a"]}]}`))
	if err != nil {
		t.Fatalf("EC key without alg: %v", err)
	}
	if c, ok := cs.Lookup("c"); !ok || c.Keys.Len() != 1 || c.Keys.Keys()[0].Algorithm() != signet.ES256 {
		t.Fatalf("EC key without alg not bound to ES256: %+v", c)
	}
	cases := []struct {
		name   string
		client string
		err    error
	}{
		{"unknown member", `{"client_id":"c","client_secret_sha256":"` + h + `","audience":["a"],"redirect_uris":[]}`, signet.ErrMalformed},
		{"repeated member", `{"client_id":"c","client_id":"d","client_secret_sha256":"` + h + `","audience":["a"]}`, signet.ErrMalformed},
		{"member in another case", `{"client_id":"c","client_secret_sha256":"` + h + `","audience":["a"],"Scope":"admin"}`, signet.ErrMalformed},
		{"member repeated in another case", `{"client_id":"c","client_secret_sha256":"` + h + `","scope":"read","audience":["a"],"SCOPE":"admin"}`, signet.ErrMalformed},
		{"duplicate client id", `{"client_id":"ok","client_secret_sha256":"` + h + `","audience":["a"]}`, signet.ErrMalformed},
		{"empty client id", `{"client_id":"","client_secret_sha256":"` + h + `","audience":["a"]}`, signet.ErrMalformed},
		{"client id with newline", `{"client_id":"a\nb","client_secret_sha256":"` + h + `","audience":["a"]}`, signet.ErrMalformed},
		{"long client id", `{"client_id":"` + strings.Repeat("c", MaxClientIDLength+1) + `","client_secret_sha256":"` + h + `","audience":["a"]}`, signet.ErrMalformed},
		{"short hash", `{"client_id":"c","client_secret_sha256":"` + h[:62] + `","audience":["a"]}`, signet.ErrMalformed},
		{"hash not hex", `{"client_id":"c","client_secret_sha256":"` + strings.Repeat("z", 64) + `","audience":["a"]}`, signet.ErrMalformed},
		{"hash of the empty secret", `{"client_id":"c","client_secret_sha256":"` + hashHex("") + `","audience":["a"]}`, signet.ErrMalformed},
		{"basic without a hash", `{"client_id":"c","token_endpoint_auth_method":"client_secret_basic","audience":["a"]}`, signet.ErrMalformed},
		{"post without a hash", `{"client_id":"c","token_endpoint_auth_method":"client_secret_post","audience":["a"]}`, signet.ErrMalformed},
		{"secret method with jwks", `{"client_id":"c","client_secret_sha256":"` + h + `","jwks":` + string(publicSet(t, pub)) + `,"audience":["a"]}`, signet.ErrMalformed},
		{"private_key_jwt without jwks", `{"client_id":"c","token_endpoint_auth_method":"private_key_jwt","audience":["a"]}`, signet.ErrMalformed},
		{"private_key_jwt with a hash", `{"client_id":"c","token_endpoint_auth_method":"private_key_jwt","client_secret_sha256":"` + h + `","jwks":` + string(publicSet(t, pub)) + `,"audience":["a"]}`, signet.ErrMalformed},
		{"unknown method", `{"client_id":"c","token_endpoint_auth_method":"none","audience":["a"]}`, signet.ErrMalformed},
		{"private key in jwks", `{"client_id":"c","token_endpoint_auth_method":"private_key_jwt","jwks":{"keys":[` + string(priv) + `]},"audience":["a"]}`, signet.ErrKeyUsage},
		{"HMAC key in jwks", `{"client_id":"c","token_endpoint_auth_method":"private_key_jwt","jwks":{"keys":[` + string(hsJWK) + `]},"audience":["a"]}`, signet.ErrKeyUsage},
		{"RSA jwks without alg", `{"client_id":"c","token_endpoint_auth_method":"private_key_jwt","jwks":{"keys":[` + rsaNoAlg + `]},"audience":["a"]}`, signet.ErrUnsupported},
		{"EC jwks with an unknown curve", `{"client_id":"c","token_endpoint_auth_method":"private_key_jwt","jwks":{"keys":[` + strings.Replace(noAlg, "P-256", "P-192", 1) + `]},"audience":["a"]}`, signet.ErrUnsupported},
		{"one good key, one without alg", `{"client_id":"c","token_endpoint_auth_method":"private_key_jwt","jwks":{"keys":[` + noAlg + `,` + rsaNoAlg + `]},"audience":["a"]}`, signet.ErrUnsupported},
		{"empty jwks", `{"client_id":"c","token_endpoint_auth_method":"private_key_jwt","jwks":{"keys":[]},"audience":["a"]}`, signet.ErrKeyNotFound},
		{"jwks not a set", `{"client_id":"c","token_endpoint_auth_method":"private_key_jwt","jwks":[1],"audience":["a"]}`, signet.ErrMalformed},
		{"scope with two spaces", `{"client_id":"c","client_secret_sha256":"` + h + `","scope":"a  b","audience":["a"]}`, signet.ErrMalformed},
		{"scope with a quote", `{"client_id":"c","client_secret_sha256":"` + h + `","scope":"a\"","audience":["a"]}`, signet.ErrMalformed},
		{"scope repeated", `{"client_id":"c","client_secret_sha256":"` + h + `","scope":"a a","audience":["a"]}`, signet.ErrMalformed},
		{"no audience", `{"client_id":"c","client_secret_sha256":"` + h + `"}`, signet.ErrMalformed},
		{"empty audience", `{"client_id":"c","client_secret_sha256":"` + h + `","audience":[""]}`, signet.ErrMalformed},
		{"audience repeated", `{"client_id":"c","client_secret_sha256":"` + h + `","audience":["a","a"]}`, signet.ErrMalformed},
		{"TTL over 24h", `{"client_id":"c","client_secret_sha256":"` + h + `","audience":["a"],"access_token_ttl":"25h"}`, signet.ErrMalformed},
		{"TTL zero", `{"client_id":"c","client_secret_sha256":"` + h + `","audience":["a"],"access_token_ttl":"0s"}`, signet.ErrMalformed},
		{"TTL negative", `{"client_id":"c","client_secret_sha256":"` + h + `","audience":["a"],"access_token_ttl":"-1m"}`, signet.ErrMalformed},
		{"TTL fraction of a second", `{"client_id":"c","client_secret_sha256":"` + h + `","audience":["a"],"access_token_ttl":"1.5s"}`, signet.ErrMalformed},
		{"TTL not a duration", `{"client_id":"c","client_secret_sha256":"` + h + `","audience":["a"],"access_token_ttl":"900"}`, signet.ErrMalformed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseClients([]byte(`{"clients":[` + ok + `,` + c.client + `]}`))
			if !errors.Is(err, c.err) || !strings.Contains(err.Error(), "clients[1]") {
				t.Fatalf("got %v, want %v naming clients[1]", err, c.err)
			}
		})
	}
	for name, file := range map[string]string{
		"not JSON":               `{"clients":`,
		"trailing data":          `{"clients":[]} {}`,
		"unknown member":         `{"clients":[],"x":1}`,
		"repeated member":        `{"clients":[],"clients":[]}`,
		"member in another case": `{"Clients":[]}`,
		"invalid UTF-8":          "{\"clients\":[],\"\xff\":1}",
		"too deep":               `{"clients":[],"x":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}`,
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := ParseClients([]byte(file)); !errors.Is(err, signet.ErrMalformed) {
				t.Fatalf("got %v", err)
			}
		})
	}
	t.Run("too many clients", func(t *testing.T) {
		var b strings.Builder
		b.WriteString(`{"clients":[`)
		for i := 0; i <= MaxClients; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"client_id":"c%d","client_secret_sha256":"%s","audience":["a"]}`, i, h)
		}
		b.WriteString(`]}`)
		if _, err := ParseClients([]byte(b.String())); !errors.Is(err, signet.ErrTooLarge) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("oversized", func(t *testing.T) {
		if _, err := ParseClients(make([]byte, MaxClientsSize+1)); !errors.Is(err, signet.ErrTooLarge) {
			t.Fatalf("got %v", err)
		}
	})
}

// TestClientKeyErrorHint: a client key refused is reported with its own
// reason; the hint to add an "alg" comes only with an RSA key without one.
func TestClientKeyErrorHint(t *testing.T) {
	ec, _ := signet.GenerateKeyWithID(signet.ES256, "e1")
	ecSet := string(publicSet(t, ec))
	rsa, _ := signet.GenerateKey(signet.RS256)
	rsaPub, _ := jwk.MarshalPublic(rsa)
	for _, c := range []struct {
		name, jwks string
		err        error
		hint       bool
	}{
		{"EC key for encryption", strings.Replace(ecSet, `"use":"sig"`, `"use":"enc"`, 1), signet.ErrKeyUsage, false},
		{"EC key with another curve's alg", strings.Replace(ecSet, `"alg":"ES256"`, `"alg":"ES384"`, 1), signet.ErrAlgorithmMismatch, false},
		{"RSA key without alg", `{"keys":[` + strings.Replace(string(rsaPub), `"alg":"RS256",`, "", 1) + `]}`, signet.ErrUnsupported, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := parseClientKeys(json.RawMessage(c.jwks))
			if !errors.Is(err, c.err) {
				t.Fatalf("err = %v, want %v (jwks %s)", err, c.err, c.jwks)
			}
			if hint := strings.Contains(err.Error(), "RSA key needs"); hint != c.hint {
				t.Fatalf("err = %v: the RSA hint present %v, want %v", err, hint, c.hint)
			}
		})
	}
}
