package jwks_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/jwks"
	"github.com/signet-go/signet/jwt"
)

// A service verifies tokens from an issuer whose keys it fetches from the
// issuer's JWKS URL (here a local test server standing in for it).
func Example() {
	// The issuer's side: a signing key, published as a JWK Set.
	key, _ := signet.GenerateKeyWithID(signet.ES256, "2030-06")
	published, _ := jwk.MarshalSet(key)
	issuer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=900")
		w.Write(published)
	}))
	defer issuer.Close()
	token, _ := jwt.Sign(key, jwt.Claims{
		Issuer: "https://issuer.example", Subject: "alice",
		ExpiresAt: jwt.At(time.Now().Add(time.Hour)),
	})

	// The service's side: one Remote for the life of the process.
	keys, err := jwks.New(context.Background(), issuer.URL, jwks.Options{
		Algorithms: []signet.Algorithm{signet.ES256},
	})
	if err != nil {
		fmt.Println("configuration:", err)
		return
	}
	defer keys.Close()

	policy := jwt.Policy{Issuer: "https://issuer.example"}
	claims, err := jwt.Verify[jwt.Claims](keys, token, policy)
	switch {
	case errors.Is(err, signet.ErrUnavailable):
		fmt.Println("503: keys unavailable, try again later")
	case err != nil:
		fmt.Println("401:", err)
	default:
		fmt.Println("hello,", claims.Subject)
	}

	// A token naming a key the issuer never published is refused; the
	// Remote fetched the set once more to be sure, and will not again
	// for another Options.Cooldown.
	other, _ := signet.GenerateKeyWithID(signet.ES256, "made-up")
	forged, _ := jwt.Sign(other, jwt.Claims{Issuer: "https://issuer.example", ExpiresAt: jwt.At(time.Now().Add(time.Hour))})
	_, err = jwt.Verify[jwt.Claims](keys, forged, policy)
	fmt.Println("forged:", errors.Is(err, signet.ErrKeyNotFound))

	st := keys.Stats()
	fmt.Println("ready:", keys.Ready() == nil, "keys:", st.Keys, "fetches:", st.Fetches, "kid misses:", st.KidMisses)
	// Output:
	// hello, alice
	// forged: true
	// ready: true keys: 1 fetches: 2 kid misses: 1
}
