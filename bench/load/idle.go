package load

import (
	"encoding/binary"
	"fmt"
	"os"

	"github.com/signet-go/signet"
)

// cpuLatencyFile is the kernel's PM QoS interface: while a process holds
// it open with a value written, no CPU enters an idle state whose exit
// latency exceeds that value (microseconds).
const cpuLatencyFile = "/dev/cpu_dma_latency"

// PollIdle keeps every CPU from halting while the run lasts, as tuned's
// latency-performance profile does: it holds /dev/cpu_dma_latency open with
// 0 written, so an idle CPU polls instead of halting. Call release when the
// run ends.
//
// Why the lab wants it: on a virtual machine, waking a halted vCPU takes an
// interrupt across CPUs that exits to the hypervisor, and the kernel bills
// that to the process that does the waking. When a handler is slow (an
// asymmetric signature), wrk on the other CPU waits idle between responses,
// so every response the server writes pays that wake-up, about 12 µs of
// system time per request on the lab's machine; /hello keeps wrk busy and
// pays nothing. The server's CPU per request then grows with the handler's
// length for a reason outside the server, and no handler reaches the bound
// 1 / (hello + primitive). Polling removes that charge; it costs no server
// CPU (an idle CPU polls in the idle task), only power.
//
// It needs root (or write access to the file); the error wraps
// signet.ErrUnavailable, and the run then goes on with halting idle CPUs
// and says so.
func PollIdle() (release func(), err error) {
	f, err := os.OpenFile(cpuLatencyFile, os.O_WRONLY, 0)
	if err != nil {
		return nil, fmt.Errorf("%w: idle CPUs poll only with %s writable: %v", signet.ErrUnavailable, cpuLatencyFile, err)
	}
	var b [4]byte
	binary.NativeEndian.PutUint32(b[:], 0)
	if _, err := f.Write(b[:]); err != nil {
		f.Close()
		return nil, fmt.Errorf("%w: writing 0 to %s: %v", signet.ErrUnavailable, cpuLatencyFile, err)
	}
	return func() { f.Close() }, nil
}
