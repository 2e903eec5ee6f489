//go:build !race

package httpsig

import (
	"testing"

	"github.com/signet-go/signet"
)

// TestAllocations pins the HMAC hot paths of the benchmark's request:
// signing makes the two field lines (one string) and their header slices
// (one array); verifying makes the Result.
func TestAllocations(t *testing.T) {
	c := newBenchCase(t, signet.HMACSHA256)
	r := benchRequest()
	if got := testing.AllocsPerRun(200, func() { c.signOnce(t, r) }); got > 2 {
		t.Errorf("sign: %.0f allocations", got)
	}
	if got := testing.AllocsPerRun(200, func() { c.verifyOnce(t) }); got > 1 {
		t.Errorf("verify: %.0f allocations", got)
	}
}
