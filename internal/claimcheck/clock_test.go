package claimcheck

import (
	"testing"
	"time"
)

// TestNowIsTheWallClock: Now reads the same wall clock as time.Now, to
// the microsecond, with no monotonic reading.
func TestNowIsTheWallClock(t *testing.T) {
	before := time.Now().Truncate(time.Microsecond)
	now := Now()
	after := time.Now()
	if now.Before(before) || now.After(after) {
		t.Fatalf("Now() = %v, not between %v and %v", now, before, after)
	}
	if now.Round(0) != now {
		t.Fatalf("Now() = %v carries a monotonic reading", now)
	}
}
