package load

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
)

func TestParseWrkOutputRecorded(t *testing.T) {
	cases := []struct {
		file                string
		requests            int64
		elapsed             time.Duration
		rps                 float64
		p50, p90, p99, p999 time.Duration
		non2xx, sockErrs    int64
		statuses            map[int]int64
	}{
		{"wrk-hello-plain.txt", 29888, time.Second, 29788.00,
			213 * time.Microsecond, 2150 * time.Microsecond, 3920 * time.Microsecond, 0, 0, 0, nil},
		// The reporter's line wins over wrk's rounded text.
		{"wrk-hello-report.txt", 35162, 1004693 * time.Microsecond, 35162 / 1.004693,
			179 * time.Microsecond, 2326 * time.Microsecond, 4619 * time.Microsecond, 10965 * time.Microsecond, 0, 0, map[int]int64{200: 35162}},
		{"wrk-404-tokens.txt", 35924, 1102446 * time.Microsecond, 35924 / 1.102446,
			211 * time.Microsecond, 3651 * time.Microsecond, 8173 * time.Microsecond, 14862 * time.Microsecond, 35924, 0, map[int]int64{404: 35924}},
		{"wrk-synthetic-units.txt", 1234567, time.Minute, 20576.12,
			1500 * time.Millisecond, 812400 * time.Microsecond, 61200 * time.Millisecond, 0, 77, 416, nil},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", c.file))
			if err != nil {
				t.Fatal(err)
			}
			r, err := ParseWrkOutput(data)
			if err != nil {
				t.Fatal(err)
			}
			if r.Requests != c.requests || r.Elapsed != c.elapsed {
				t.Errorf("requests %d in %v, want %d in %v", r.Requests, r.Elapsed, c.requests, c.elapsed)
			}
			if d := r.RPS - c.rps; d > 0.01 || d < -0.01 {
				t.Errorf("RPS %.2f, want %.2f", r.RPS, c.rps)
			}
			if r.P50 != c.p50 || r.P90 != c.p90 || r.P99 != c.p99 || r.P999 != c.p999 {
				t.Errorf("P50/P90/P99/P99.9 %v %v %v %v, want %v %v %v %v", r.P50, r.P90, r.P99, r.P999, c.p50, c.p90, c.p99, c.p999)
			}
			if r.Non2xx != c.non2xx || r.SocketErrors != c.sockErrs {
				t.Errorf("non-2xx %d, socket errors %d; want %d, %d", r.Non2xx, r.SocketErrors, c.non2xx, c.sockErrs)
			}
			if len(r.Statuses) != len(c.statuses) {
				t.Errorf("statuses %v, want %v", r.Statuses, c.statuses)
			}
			for k, v := range c.statuses {
				if r.Statuses[k] != v {
					t.Errorf("status %d: %d, want %d", k, r.Statuses[k], v)
				}
			}
		})
	}
}

func TestParseWrkUnits(t *testing.T) {
	durs := map[string]time.Duration{
		"223.45us": 223450 * time.Nanosecond, "0.90ms": 900 * time.Microsecond, "4.56ms": 4560 * time.Microsecond,
		"2.00s": 2 * time.Second, "1.02m": 61200 * time.Millisecond, "1.00h": time.Hour, "0.00us": 0,
	}
	for s, want := range durs {
		if got, err := ParseWrkDuration(s); err != nil || got != want {
			t.Errorf("ParseWrkDuration(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	metrics := map[string]float64{"45.12k": 45120, "1.20M": 1.2e6, "2.10G": 2.1e9, "873.00": 873, "0": 0}
	for s, want := range metrics {
		if got, err := ParseWrkMetric(s); err != nil || got-want > 1e-6 || want-got > 1e-6 {
			t.Errorf("ParseWrkMetric(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, bad := range []string{"", "ms", "1.0", "-1ms", "1e400s", "NaNs", "12xs", "1.5 ms"} {
		if _, err := ParseWrkDuration(bad); !errors.Is(err, signet.ErrMalformed) {
			t.Errorf("ParseWrkDuration(%q): %v, want ErrMalformed", bad, err)
		}
	}
	for _, bad := range []string{"", "k", "-3", "1.2T", "Inf", "NaN"} {
		if _, err := ParseWrkMetric(bad); !errors.Is(err, signet.ErrMalformed) {
			t.Errorf("ParseWrkMetric(%q): %v, want ErrMalformed", bad, err)
		}
	}
}

func TestParseWrkOutputRefuses(t *testing.T) {
	bad := map[string]string{
		"empty":         "",
		"no count":      "Running 1s test @ http://x\nRequests/sec: 12.00\n",
		"bad count":     "  -5 requests in 1.00s, 1MB read\n",
		"bad time":      "  5 requests in forever, 1MB read\n",
		"zero time":     "  5 requests in 0.00us, 1MB read\n",
		"bad report":    "SIGNET-WRK {\"requests\":\n",
		"report status": `SIGNET-WRK {"requests":1,"duration_us":10,"statuses":{"abc":1}}` + "\n",
		"report time":   `SIGNET-WRK {"requests":1,"duration_us":0}` + "\n",
		"bad latency":   "  Latency Distribution\n     50%  fast\n  5 requests in 1.00s, 1MB read\n",
		"bad non2xx":    "  5 requests in 1.00s, 1MB read\n  Non-2xx or 3xx responses: many\n",
		"bad sockets":   "  5 requests in 1.00s, 1MB read\n  Socket errors: connect x, read 0, write 0, timeout 0\n",
	}
	for name, out := range bad {
		if _, err := ParseWrkOutput([]byte(out)); !errors.Is(err, signet.ErrMalformed) {
			t.Errorf("%s: %v, want ErrMalformed", name, err)
		}
	}
	huge := []byte(strings.Repeat("x", maxWrkOutput+1))
	if _, err := ParseWrkOutput(huge); !errors.Is(err, signet.ErrTooLarge) {
		t.Errorf("huge output: %v, want ErrTooLarge", err)
	}
}

func FuzzParseWrkOutput(f *testing.F) {
	files, _ := filepath.Glob("testdata/wrk-*.txt")
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseWrkOutput(data)
		if err != nil {
			if !errors.Is(err, signet.ErrMalformed) && !errors.Is(err, signet.ErrTooLarge) {
				t.Fatalf("error without a sentinel: %v", err)
			}
			return
		}
		if r.Requests < 0 || r.Elapsed <= 0 || r.RPS < 0 {
			t.Fatalf("accepted nonsense: %+v", r)
		}
	})
}
