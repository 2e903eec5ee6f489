package ratio_test

import (
	"crypto/sha256"
	"testing"

	"github.com/signet-go/signet/internal/ratio"
)

// A benchmark that reports how much a wrapper costs over the primitive it
// wraps (x-floor); run it with go test -bench . -cpu 1.
func ExampleRun() {
	msg := make([]byte, 256)
	_ = func(b *testing.B) {
		ratio.Run(b,
			func() { sha256.Sum256(msg) },
			func() { sha256.Sum256(append([]byte("prefix"), msg...)) })
	}
}
