package claimcheck

import (
	"syscall"
	"time"
)

// wallNow reads the wall clock alone, to the microsecond, through the
// vDSO's gettimeofday (syscall.Gettimeofday calls it there), and falls
// back to time.Now should that fail.
func wallNow() time.Time {
	var tv syscall.Timeval
	if syscall.Gettimeofday(&tv) != nil {
		return time.Now()
	}
	return time.Unix(tv.Sec, tv.Usec*1000)
}
