package guard_test

import (
	"encoding/base64"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwt"
	"github.com/signet-go/signet/server/guard"
)

// A guard in front of a service that reads the verified claims from the
// X-Signet-Claims header. Here the keys are a local set; in production
// they are usually a jwks.Remote of the issuer's JWKS URL.
func Example() {
	// The service behind the guard.
	service := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		claims, err := base64.RawURLEncoding.DecodeString(r.Header.Get(guard.DefaultClaimsHeader))
		if err != nil {
			http.Error(w, "no claims", http.StatusBadRequest)
			return
		}
		fmt.Fprintf(w, "hello %s", claims)
	}))
	defer service.Close()
	upstream, _ := url.Parse(service.URL)

	key, _ := signet.GenerateKeyWithID(signet.ES256, "k1")
	pub, _ := key.Public()
	keys, _ := signet.NewKeySet(pub)
	g, err := guard.New(guard.Config{
		Upstream: upstream,
		Keys:     keys,
		Issuer:   "https://issuer.example",
		Audience: []string{"https://api.example"},
		Scopes:   []string{"read"},
	})
	if err != nil {
		log.Fatal(err)
	}
	front := httptest.NewServer(g.Handler())
	defer front.Close()

	type claims struct {
		jwt.Claims
		Scope string `json:"scope"`
	}
	tok, _ := jwt.Sign(key, claims{Claims: jwt.Claims{Issuer: "https://issuer.example", Subject: "svc-a",
		Audience: jwt.Audience{"https://api.example"}, ExpiresAt: jwt.At(time.Now().Add(time.Hour))}, Scope: "read"})
	for _, auth := range []string{"", "Bearer " + tok} {
		req, _ := http.NewRequest(http.MethodGet, front.URL+"/hello", nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			log.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			fmt.Println(res.StatusCode, res.Header.Get("WWW-Authenticate"))
			continue
		}
		fmt.Printf("%d %.30s…\n", res.StatusCode, body)
	}
	// Output:
	// 401 Bearer
	// 200 hello {"iss":"https://issuer.e…
}
