package bearer_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/bearer"
	"github.com/signet-go/signet/jwt"
)

// The claims the service reads: the registered ones, and a private one.
type Claims struct {
	jwt.Claims
	Tenant string `json:"tenant"`
}

func Example() {
	// The identity provider's key; a service would use jwks.New(ctx,
	// "https://id.example/.well-known/jwks.json", ...) instead.
	key, _ := signet.GenerateKey(signet.ES256)
	pub, _ := key.Public()

	mw, err := bearer.New[Claims](pub, bearer.Options{
		Policy: jwt.Policy{Issuer: "https://id.example", Audience: []string{"https://api.example"}},
		Scopes: []string{"orders:read"},
		Realm:  "api",
	})
	if err != nil {
		panic(err)
	}
	orders := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, _ := bearer.ClaimsFrom[Claims](r.Context())
		fmt.Fprintf(w, "orders of %s in %s", c.Subject, c.Tenant)
	})
	h := mw.Wrap(orders) // http.Handle("/orders/", h)

	// A request with a token, and one without.
	tok, _ := jwt.Sign(key, map[string]any{
		"iss": "https://id.example", "aud": "https://api.example", "sub": "alice",
		"tenant": "acme", "scope": "orders:read orders:write",
		"exp": time.Now().Add(time.Minute).Unix(),
	})
	for _, auth := range []string{"Bearer " + tok, ""} {
		r := httptest.NewRequest("GET", "/orders/", nil)
		if auth != "" {
			r.Header.Set("Authorization", auth)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		fmt.Println(w.Code, w.Header().Get("WWW-Authenticate"), w.Body.String())
	}
	// Output:
	// 200  orders of alice in acme
	// 401 Bearer realm="api" {"type":"about:blank","title":"Unauthorized","status":401}
}
