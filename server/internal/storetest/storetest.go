// Package storetest holds test helpers shared by the server's packages.
package storetest

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/signet-go/signet/server/storage"
)

// Flaky is a storage.Store whose Keys, Revoke, Revoked, UseOnce and Ping
// fail with storage.ErrUnavailable while Down is set.
type Flaky struct {
	storage.Store
	Down atomic.Bool
}

func (s *Flaky) err() error {
	if s.Down.Load() {
		return fmt.Errorf("%w: test store down", storage.ErrUnavailable)
	}
	return nil
}

func (s *Flaky) Keys(ctx context.Context) (storage.KeyRing, error) {
	if err := s.err(); err != nil {
		return storage.KeyRing{}, err
	}
	return s.Store.Keys(ctx)
}

func (s *Flaky) Revoke(ctx context.Context, jti string, until time.Time) error {
	if err := s.err(); err != nil {
		return err
	}
	return s.Store.Revoke(ctx, jti, until)
}

func (s *Flaky) Revoked(ctx context.Context, jti string) (bool, error) {
	if err := s.err(); err != nil {
		return false, err
	}
	return s.Store.Revoked(ctx, jti)
}

func (s *Flaky) UseOnce(ctx context.Context, id string, until time.Time) (bool, error) {
	if err := s.err(); err != nil {
		return false, err
	}
	return s.Store.UseOnce(ctx, id, until)
}

func (s *Flaky) Ping(ctx context.Context) error {
	if err := s.err(); err != nil {
		return err
	}
	return s.Store.Ping(ctx)
}
