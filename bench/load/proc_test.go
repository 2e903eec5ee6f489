package load

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
)

func TestParseProcStat(t *testing.T) {
	// A command name with spaces and parentheses: fields count after the last ')'.
	line := "4242 (load srv) (x)) S 1 4242 4242 0 -1 4194560 1234 0 0 0 150 27 0 0 20 0 5 0 123456 1000000 500 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n"
	got, err := ParseProcStat([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	if want := 177 * 10 * time.Millisecond; got != want {
		t.Errorf("cpu %v, want %v", got, want)
	}
	for name, bad := range map[string]string{
		"no name":   "4242 load S 1 2 3",
		"short":     "4242 (x) S 1 2 3 4 5",
		"not a num": "4242 (x) S 1 4242 4242 0 -1 4194560 1234 0 0 0 abc 27 0",
		"negative":  "4242 (x) S 1 4242 4242 0 -1 4194560 1234 0 0 0 -5 27 0",
	} {
		if _, err := ParseProcStat([]byte(bad)); !errors.Is(err, signet.ErrMalformed) {
			t.Errorf("%s: %v, want ErrMalformed", name, err)
		}
	}
	if _, err := ParseProcStat([]byte(strings.Repeat("1 ", 3000))); !errors.Is(err, signet.ErrTooLarge) {
		t.Errorf("huge stat: %v, want ErrTooLarge", err)
	}
}

func TestParseProcStatus(t *testing.T) {
	status := "Name:\tloadsrv\nVmPeak:\t  1000 kB\nVmHWM:\t   12345 kB\nVmRSS:\t   12000 kB\n"
	got, err := ParseProcStatus([]byte(status))
	if err != nil || got != 12345*1024 {
		t.Fatalf("VmHWM = %d, %v; want %d", got, err, 12345*1024)
	}
	if _, err := ParseProcStatus([]byte("Name:\tkthreadd\n")); !errors.Is(err, ErrNoVmHWM) || !errors.Is(err, signet.ErrMalformed) {
		t.Errorf("no VmHWM: %v", err)
	}
	for _, bad := range []string{"VmHWM:\t12 MB\n", "VmHWM:\tx kB\n", "VmHWM:\n", "VmHWM:\t-1 kB\n"} {
		if _, err := ParseProcStatus([]byte(bad)); !errors.Is(err, signet.ErrMalformed) {
			t.Errorf("%q: %v, want ErrMalformed", bad, err)
		}
	}
}

// The live files of this process parse (their format, not their values).
func TestProcSelf(t *testing.T) {
	if _, err := ProcCPUTime(os.Getpid()); err != nil {
		t.Fatal(err)
	}
	if rss, err := ProcPeakRSS(os.Getpid()); err != nil || rss <= 0 {
		t.Fatalf("peak RSS %d, %v", rss, err)
	}
}
