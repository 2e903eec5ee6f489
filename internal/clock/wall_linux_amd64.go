package clock

import "syscall"

// wall reads the wall clock with gettimeofday, which the syscall package
// calls through the vDSO on linux/amd64.
func wall() (sec, usec int64, ok bool) {
	var tv syscall.Timeval
	if err := syscall.Gettimeofday(&tv); err != nil {
		return 0, 0, false
	}
	return tv.Sec, tv.Usec, true
}
