package oauth_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http/httptest"
	"net/url"
	"strings"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwt"
	"github.com/signet-go/signet/server/oauth"
	"github.com/signet-go/signet/server/storage"
)

// oneKey is a KeySource with one key; the service's key manager rotates
// keys instead.
type oneKey struct{ priv, pub *signet.Key }

func (k oneKey) Signer(context.Context) (*signet.Key, error)   { return k.priv, nil }
func (k oneKey) Verifier(context.Context) (signet.Keys, error) { return k.pub, nil }

func Example() {
	priv, _ := signet.GenerateKeyWithID(signet.ES256, "key-1")
	pub, _ := priv.Public()

	secret := "s3cr3t-of-at-least-128-bits-2f9c1e0a7d3b5c4e"
	sum := sha256.Sum256([]byte(secret))
	clients, err := oauth.ParseClients([]byte(`{"clients":[{"client_id":"svc-a",
		"client_secret_sha256":"` + hex.EncodeToString(sum[:]) + `",
		"scope":"read write","audience":["https://api.example.com"]}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	srv, err := oauth.New(oauth.Config{
		Issuer:  "https://auth.example.com",
		Clients: clients,
		Store:   storage.NewMemory(nil),
		Keys:    oneKey{priv, pub},
	})
	if err != nil {
		fmt.Println(err)
		return
	}

	// A client asks for a token (client_secret_basic).
	req := httptest.NewRequest("POST", "/oauth2/token", strings.NewReader("grant_type=client_credentials&scope=read"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(url.QueryEscape("svc-a"), url.QueryEscape(secret))
	w := httptest.NewRecorder()
	srv.Handler().ServeHTTP(w, req)
	body, _ := io.ReadAll(w.Result().Body)
	tok := strings.Split(string(body), `"`)[3]

	// A resource server verifies it.
	type accessToken struct {
		jwt.Claims
		ClientID string `json:"client_id"`
		Scope    string `json:"scope"`
	}
	c, err := jwt.Verify[accessToken](pub, tok, jwt.Policy{
		Type: "at+jwt", Issuer: "https://auth.example.com", Audience: []string{"https://api.example.com"},
	})
	fmt.Println(w.Code, w.Header().Get("Cache-Control"), err)
	fmt.Println(c.ClientID, c.Scope, c.Audience)
	// Output:
	// 200 no-store <nil>
	// svc-a read [https://api.example.com]
}
