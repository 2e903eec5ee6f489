package storage_test

import (
	"testing"
	"time"

	"github.com/signet-go/signet/server/storage"
	"github.com/signet-go/signet/server/storage/conformance"
)

func TestMemoryConformance(t *testing.T) {
	conformance.Run(t, func(t *testing.T, now func() time.Time) storage.Store {
		s := storage.NewMemory(now)
		t.Cleanup(func() { s.Close() })
		return s
	})
}
