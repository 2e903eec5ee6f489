package load

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/signet-go/signet"
)

// reportPrefix starts the line lua/report.lua prints in done().
const reportPrefix = "SIGNET-WRK "

// reportLine is the JSON of that line.
type reportLine struct {
	Requests   float64 `json:"requests"`
	DurationUS float64 `json:"duration_us"`
	Errors     struct {
		Connect, Read, Write, Status, Timeout float64
	} `json:"errors"`
	Latency struct {
		P50  float64 `json:"p50"`
		P90  float64 `json:"p90"`
		P99  float64 `json:"p99"`
		P999 float64 `json:"p999"`
		Max  float64 `json:"max"`
	} `json:"latency_us"`
	Statuses map[string]float64 `json:"statuses"`
}

// ParseWrkOutput reads wrk's --latency output: its text (requests,
// elapsed time, Requests/sec, the latency distribution, non-2xx
// responses, socket errors; units us/ms/s/m/h and k/M/G suffixes) and,
// when present, the SIGNET-WRK line of lua/report.lua (statuses, P99.9).
// Where both say, the reporter's figures win (they are exact, wrk's text
// is rounded). Output larger than 1 MiB is refused (signet.ErrTooLarge);
// output without a request count and a duration is malformed
// (signet.ErrMalformed).
func ParseWrkOutput(out []byte) (WrkResult, error) {
	var r WrkResult
	if len(out) > maxWrkOutput {
		return r, fmt.Errorf("%w: wrk output of %d bytes", signet.ErrTooLarge, len(out))
	}
	var sawRequests, sawRPS, sawReport bool
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), maxWrkOutput)
	inDist := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		f := strings.Fields(line)
		switch {
		case strings.HasPrefix(line, reportPrefix):
			if err := r.applyReport(line[len(reportPrefix):]); err != nil {
				return WrkResult{}, err
			}
			sawReport = true
		case line == "Latency Distribution":
			inDist = true
		case inDist && len(f) == 2 && strings.HasSuffix(f[0], "%"):
			d, err := ParseWrkDuration(f[1])
			if err != nil {
				return WrkResult{}, err
			}
			switch f[0] {
			case "50%":
				r.P50 = d
			case "90%":
				r.P90 = d
			case "99%":
				r.P99 = d
			case "99.9%", "99.900%":
				r.P999 = d
			}
		case len(f) >= 4 && f[1] == "requests" && f[2] == "in":
			inDist = false
			n, err := strconv.ParseInt(f[0], 10, 64)
			if err != nil || n < 0 {
				return WrkResult{}, fmt.Errorf("%w: wrk request count %q", signet.ErrMalformed, f[0])
			}
			d, err := ParseWrkDuration(strings.TrimSuffix(f[3], ","))
			if err != nil {
				return WrkResult{}, err
			}
			r.Requests, r.Elapsed, sawRequests = n, d, true
		case strings.HasPrefix(line, "Requests/sec:") && len(f) == 2:
			v, err := ParseWrkMetric(f[1])
			if err != nil {
				return WrkResult{}, err
			}
			r.RPS, sawRPS = v, true
		case strings.HasPrefix(line, "Non-2xx or 3xx responses:"):
			n, err := strconv.ParseInt(f[len(f)-1], 10, 64)
			if err != nil || n < 0 {
				return WrkResult{}, fmt.Errorf("%w: wrk non-2xx count %q", signet.ErrMalformed, line)
			}
			r.Non2xx = n
		case strings.HasPrefix(line, "Socket errors:"):
			// Socket errors: connect 0, read 0, write 0, timeout 0
			var sum int64
			for i := 2; i+1 < len(f); i += 2 {
				n, err := strconv.ParseInt(strings.TrimSuffix(f[i+1], ","), 10, 64)
				if err != nil || n < 0 {
					return WrkResult{}, fmt.Errorf("%w: wrk socket errors %q", signet.ErrMalformed, line)
				}
				sum += n
				if f[i] == "timeout" {
					r.Timeouts = n
				}
			}
			r.SocketErrors = sum
		case len(f) >= 4 && f[0] == "Latency" && !inDist:
			// Thread Stats: Latency avg stdev max +/-stdev
			if d, err := ParseWrkDuration(f[3]); err == nil {
				r.Max = d
			}
		}
	}
	if err := sc.Err(); err != nil {
		return WrkResult{}, fmt.Errorf("%w: wrk output: %v", signet.ErrMalformed, err)
	}
	if !sawRequests && !sawReport {
		return WrkResult{}, fmt.Errorf("%w: wrk output has no request count (%q)", signet.ErrMalformed, tail(string(out)))
	}
	if !sawRPS && r.Elapsed > 0 {
		r.RPS = float64(r.Requests) / r.Elapsed.Seconds()
	}
	if r.Elapsed <= 0 {
		return WrkResult{}, fmt.Errorf("%w: wrk output has no duration", signet.ErrMalformed)
	}
	return r, nil
}

// applyReport fills r from the reporter's JSON.
func (r *WrkResult) applyReport(js string) error {
	var rep reportLine
	if len(js) > 64<<10 {
		return fmt.Errorf("%w: SIGNET-WRK line of %d bytes", signet.ErrTooLarge, len(js))
	}
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		return fmt.Errorf("%w: SIGNET-WRK line: %v", signet.ErrMalformed, err)
	}
	if rep.Requests < 0 || rep.DurationUS <= 0 || rep.Requests > math.MaxInt64/2 {
		return fmt.Errorf("%w: SIGNET-WRK line: %d requests in %v µs", signet.ErrMalformed, int64(rep.Requests), rep.DurationUS)
	}
	r.Requests = int64(rep.Requests)
	r.Elapsed = time.Duration(rep.DurationUS * 1e3)
	r.RPS = rep.Requests / r.Elapsed.Seconds()
	us := func(v float64) time.Duration { return time.Duration(v * 1e3) }
	r.P50, r.P90, r.P99, r.P999, r.Max = us(rep.Latency.P50), us(rep.Latency.P90), us(rep.Latency.P99), us(rep.Latency.P999), us(rep.Latency.Max)
	r.Non2xx = int64(rep.Errors.Status)
	r.Timeouts = int64(rep.Errors.Timeout)
	r.SocketErrors = int64(rep.Errors.Connect + rep.Errors.Read + rep.Errors.Write + rep.Errors.Timeout)
	r.Statuses = map[int]int64{}
	for k, v := range rep.Statuses {
		code, err := strconv.Atoi(k)
		if err != nil || code < 100 || code > 999 || v < 0 {
			return fmt.Errorf("%w: SIGNET-WRK status %q", signet.ErrMalformed, k)
		}
		r.Statuses[code] = int64(v)
	}
	return nil
}

// ParseWrkDuration reads wrk's durations: a decimal number with the unit
// us, ms, s, m or h ("223.45us", "4.56ms", "2.00s", "1.02m").
func ParseWrkDuration(s string) (time.Duration, error) {
	units := []struct {
		suffix string
		scale  float64
	}{{"us", 1e3}, {"µs", 1e3}, {"ms", 1e6}, {"ns", 1}, {"s", 1e9}, {"m", 60e9}, {"h", 3600e9}}
	for _, u := range units {
		if num, ok := strings.CutSuffix(s, u.suffix); ok {
			v, err := strconv.ParseFloat(num, 64)
			if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) || v*u.scale > math.MaxInt64 {
				break
			}
			return time.Duration(v * u.scale), nil
		}
	}
	return 0, fmt.Errorf("%w: wrk duration %q", signet.ErrMalformed, s)
}

// ParseWrkMetric reads wrk's counts and rates: a decimal number with an
// optional k, M, G (×1000) suffix ("45.12k", "1.20M", "873.00").
func ParseWrkMetric(s string) (float64, error) {
	scale := 1.0
	num := s
	switch {
	case strings.HasSuffix(s, "k"):
		scale, num = 1e3, s[:len(s)-1]
	case strings.HasSuffix(s, "M"):
		scale, num = 1e6, s[:len(s)-1]
	case strings.HasSuffix(s, "G"):
		scale, num = 1e9, s[:len(s)-1]
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("%w: wrk figure %q", signet.ErrMalformed, s)
	}
	return v * scale, nil
}
