package load

import (
	"errors"
	"os"
	"testing"

	"github.com/signet-go/signet"
)

// TestPollIdle: with /dev/cpu_dma_latency writable (the lab runs as root)
// PollIdle holds it and releases it; without, its error is
// signet.ErrUnavailable and nothing is held.
func TestPollIdle(t *testing.T) {
	release, err := PollIdle()
	if err != nil {
		if !errors.Is(err, signet.ErrUnavailable) {
			t.Fatalf("error %v does not wrap signet.ErrUnavailable", err)
		}
		if f, werr := os.OpenFile(cpuLatencyFile, os.O_WRONLY, 0); werr == nil {
			f.Close()
			t.Fatalf("%s is writable, yet PollIdle failed: %v", cpuLatencyFile, err)
		}
		return
	}
	if release == nil {
		t.Fatal("no release func")
	}
	release()
}
