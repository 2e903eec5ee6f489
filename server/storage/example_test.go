package storage_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/signet-go/signet/server/storage"
)

// The service's three uses of a Store: rotating the key ring by
// compare-and-swap, revoking a token until it would expire, and accepting
// a client assertion's jti once.
func Example() {
	ctx := context.Background()
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	s := storage.NewMemory(func() time.Time { return now })
	defer s.Close()

	ring, _ := s.Keys(ctx)
	keys := append(ring.Keys, storage.Key{ID: "kid-1", Algorithm: "ES256", State: storage.KeyActive, Wrapped: "…", Created: now})
	ring, err := s.SwapKeys(ctx, ring.Version, keys)
	fmt.Println(ring.Version, err)
	// Another instance that read version 0 rotates too late.
	_, err = s.SwapKeys(ctx, 0, nil)
	fmt.Println(errors.Is(err, storage.ErrConflict))

	_ = s.Revoke(ctx, "token-jti", now.Add(15*time.Minute))
	revoked, _ := s.Revoked(ctx, "token-jti")
	fmt.Println(revoked)

	first, _ := s.UseOnce(ctx, "assertion-jti", now.Add(5*time.Minute))
	again, _ := s.UseOnce(ctx, "assertion-jti", now.Add(5*time.Minute))
	fmt.Println(first, again)
	// Output:
	// 1 <nil>
	// true
	// true
	// true false
}
