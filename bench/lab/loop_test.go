package lab

import (
	"testing"
)

// A panic in a parallel worker reaches the benchmark's own goroutine,
// where the lab's runner recovers it, instead of ending the process.
func TestParallelLoopPanic(t *testing.T) {
	run := parallelLoop(func() func() { return func() { panic("worker") } })
	var got any
	testing.Benchmark(func(b *testing.B) {
		defer func() {
			if got = recover(); got != nil {
				b.Error(got) // as the runner does: no longer runs
			}
		}()
		run(b)
	})
	if got != "worker" {
		t.Fatalf("recovered %v, want the worker's panic", got)
	}
}
