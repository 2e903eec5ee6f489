package keys_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/signet-go/signet/jwt"
	"github.com/signet-go/signet/server/keys"
	"github.com/signet-go/signet/server/storage"
)

// A token service's keys: a KEK, a store, one Manager; sign with Signer,
// verify with Verifier, publish with JWKSHandler.
func Example() {
	ctx := context.Background()
	kek, err := keys.GenerateKEK() // in a service: LoadOrCreateKEK(dataDir), LoadKEK or KEKFromEnv
	if err != nil {
		panic(err)
	}
	m, err := keys.New(storage.NewMemory(nil), keys.Config{KEK: kek}) // ES256, rotated weekly
	if err != nil {
		panic(err)
	}
	if err := m.Refresh(ctx); err != nil { // first start: creates the active and next keys
		panic(err)
	}
	go m.Run(ctx) // the rotation loop (until ctx is done)

	k, err := m.Signer(ctx)
	if err != nil {
		panic(err)
	}
	tok, err := jwt.Sign(k, jwt.Claims{Subject: "svc-a"}, jwt.Options{Lifetime: 15 * time.Minute})
	if err != nil {
		panic(err)
	}
	ks, err := m.Verifier(ctx)
	if err != nil {
		panic(err)
	}
	claims, err := jwt.Verify[jwt.Claims](ks, tok, jwt.Policy{})
	fmt.Println(claims.Subject, k.Algorithm(), err)

	mux := http.NewServeMux()
	mux.Handle("/.well-known/jwks.json", m.JWKSHandler())
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/.well-known/jwks.json", nil))
	fmt.Println(rec.Code, rec.Header().Get("Content-Type"))
	fmt.Println(rec.Header().Get("Cache-Control"))
	// Output:
	// svc-a ES256 <nil>
	// 200 application/jwk-set+json
	// public, max-age=900, stale-if-error=86400
}
