package redisstore_test

import (
	"context"
	"errors"
	"log"
	"net/http"
	"time"

	"github.com/signet-go/signet/server/storage"
	"github.com/signet-go/signet/server/storage/redisstore"
)

// Two service instances on one Redis: a token revoked through one is
// refused by the other at once; and when Redis cannot answer, the service
// fails closed.
func Example() {
	ctx := context.Background()
	a, err := redisstore.Open(ctx, "redis://127.0.0.1:6379/0", redisstore.Options{Prefix: "signet:"})
	if err != nil {
		log.Fatal(err)
	}
	defer a.Close()
	b, err := redisstore.Open(ctx, "redis://127.0.0.1:6379/0", redisstore.Options{Prefix: "signet:"})
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()

	if err := a.Revoke(ctx, "token-jti", time.Now().Add(15*time.Minute)); err != nil {
		log.Fatal(err)
	}
	revoked, err := b.Revoked(ctx, "token-jti")
	switch {
	case errors.Is(err, storage.ErrUnavailable):
		log.Println(http.StatusServiceUnavailable) // never "active": the revocation could not be checked
	case revoked:
		log.Println("refused")
	}
}
