// Package ratio measures an operation against its floor (the raw
// primitive) in one benchmark loop: slices of each alternate, so that the
// ratio survives the noise of a shared machine. Benchmarks only.
package ratio

import (
	"slices"
	"testing"
	"time"
)

// Run alternates slices of floor and op over b.N iterations each. It
// reports the median over slices of op/floor (x-floor), which shrugs off
// the interruptions of a shared machine, and the ratio of the total times
// (x-floor-total), which also carries op's share of garbage collection.
func Run(b *testing.B, floor, op func()) {
	const slice = 128
	var tf, to time.Duration
	var ratios []float64
	b.ReportAllocs()
	for n := 0; n < b.N; n += slice {
		k := min(slice, b.N-n)
		t0 := time.Now()
		for i := 0; i < k; i++ {
			floor()
		}
		t1 := time.Now()
		for i := 0; i < k; i++ {
			op()
		}
		t2 := time.Now()
		tf += t1.Sub(t0)
		to += t2.Sub(t1)
		if k == slice {
			ratios = append(ratios, float64(t2.Sub(t1))/float64(t1.Sub(t0)))
		}
	}
	if len(ratios) > 0 {
		slices.Sort(ratios)
		b.ReportMetric(ratios[len(ratios)/2], "x-floor")
	}
	b.ReportMetric(float64(tf.Nanoseconds())/float64(b.N), "floor-ns/op")
	b.ReportMetric(float64(to)/float64(tf), "x-floor-total")
}
