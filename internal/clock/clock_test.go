package clock

import (
	"testing"
	"time"
)

// Unix and Now agree with time.Now (to the second: the readings are not
// simultaneous) and Now carries no monotonic reading.
func TestAgreesWithTimeNow(t *testing.T) {
	for range 1000 {
		before := time.Now().Unix()
		u, n := Unix(), Now()
		after := time.Now().Unix()
		if u < before || u > after {
			t.Fatalf("Unix %d outside [%d, %d]", u, before, after)
		}
		if s := n.Unix(); s < before || s > after {
			t.Fatalf("Now %v outside [%d, %d]", n, before, after)
		}
		if n != n.Round(0) {
			t.Fatalf("Now %v has a monotonic reading", n)
		}
	}
}

func BenchmarkUnix(b *testing.B) {
	var s int64
	for b.Loop() {
		s += Unix()
	}
	_ = s
}

func BenchmarkTimeNowUnix(b *testing.B) {
	var s int64
	for b.Loop() {
		s += time.Now().Unix()
	}
	_ = s
}
