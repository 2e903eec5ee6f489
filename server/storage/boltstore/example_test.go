package boltstore_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/signet-go/signet/server/storage/boltstore"
)

func Example() {
	dir, err := os.MkdirTemp("", "signet-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	s, err := boltstore.Open(filepath.Join(dir, "signet.db"), nil)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	if err := s.Revoke(ctx, "token-jti", time.Now().Add(15*time.Minute)); err != nil {
		log.Fatal(err)
	}
	s.Close()

	// After a restart the revocation is still there.
	s, err = boltstore.Open(filepath.Join(dir, "signet.db"), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	revoked, err := s.Revoked(ctx, "token-jti")
	fmt.Println(revoked, err)
	// Output: true <nil>
}
