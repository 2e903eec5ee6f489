// Package stamp is the ordered form of a time that the persistent stores
// keep with each entry (boltstore as 8 bytes, redisstore as 20 digits).
package stamp

import (
	"math"
	"time"
)

// Of is t as Unix nanoseconds with the sign bit flipped, so that the order
// of the numbers is the order of the times, clamped to the range of int64
// nanoseconds.
func Of(t time.Time) uint64 {
	var ns int64
	switch {
	case t.Before(minTime):
		ns = math.MinInt64
	case t.After(maxTime):
		ns = math.MaxInt64
	default:
		ns = t.UnixNano()
	}
	return uint64(ns) ^ (1 << 63)
}

var (
	minTime = time.Unix(0, math.MinInt64)
	maxTime = time.Unix(0, math.MaxInt64)
)
