// Package clock reads the wall clock for the validity checks of tokens and
// signatures (exp, nbf, iat, created, expires): seconds, or a time.Time
// without a monotonic reading.
//
// time.Now reads two clocks (wall and monotonic) and switches stacks to do
// so; a validity check needs only the wall clock. On linux/amd64 this
// package reads it with one vDSO call (gettimeofday), about a third of
// time.Now's cost, which is a few percent of an HS256 verification.
// Elsewhere it is time.Now.
package clock

import "time"

// Unix returns the current Unix time in seconds, as time.Now().Unix().
func Unix() int64 {
	if sec, _, ok := wall(); ok {
		return sec
	}
	return time.Now().Unix()
}

// Now returns the current wall-clock time (microsecond resolution where it
// is read with gettimeofday) without a monotonic reading.
func Now() time.Time {
	if sec, usec, ok := wall(); ok {
		return time.Unix(sec, usec*1000)
	}
	return time.Now()
}
