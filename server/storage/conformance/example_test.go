package conformance_test

import (
	"testing"
	"time"

	"github.com/signet-go/signet/server/storage"
	"github.com/signet-go/signet/server/storage/conformance"
)

// An implementation's test runs the suite with an open function that
// makes a new, empty store on the suite's clock (a compile-only example:
// the suite runs inside a test).
func ExampleRun() {
	testConformance := func(t *testing.T) {
		conformance.Run(t, func(t *testing.T, now func() time.Time) storage.Store {
			s := storage.NewMemory(now)
			t.Cleanup(func() { s.Close() })
			return s
		})
	}
	_ = testConformance
}
