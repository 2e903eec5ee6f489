package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/signet-go/signet/bench/load"
)

// record is one line of results.json (docs/design.md, "The lab's output";
// API17.md): the lab's fields where they fit (suite, format, alg, op, lib,
// lang, ops_per_s, p50_ms, p99_ms, runs) and the HTTP lab's own. A map, so
// that a fault scenario's own values (Target.Check) are fields too.
type record map[string]any

// labels returns a measurement's format, alg, op and lib: its scenario's
// Labels, else read from a name "op/alg/lib" (format HTTP).
func labels(m load.Measurement) map[string]string {
	l := map[string]string{}
	parts := strings.Split(m.Scenario, "/")
	switch len(parts) {
	case 1:
		l["op"] = parts[0]
	case 2:
		l["op"], l["lib"] = parts[0], parts[1]
	default:
		l["op"], l["alg"], l["lib"] = parts[0], parts[1], strings.Join(parts[2:], "/")
	}
	l["format"] = "HTTP"
	if strings.HasPrefix(l["alg"], "v4.") || strings.HasPrefix(l["alg"], "v3.") {
		l["format"] = "PASETO"
	} else if l["alg"] != "" {
		l["format"] = "JWT"
	}
	for k, v := range m.Labels {
		l[k] = v
	}
	return l
}

func recordOf(m load.Measurement) record {
	r := record{"suite": m.Suite, "scenario": m.Scenario, "group": m.Group, "lang": "go"}
	for k, v := range labels(m) {
		if n, err := strconv.Atoi(v); err == nil && (k == "gomaxprocs" || k == "threads") {
			r[k] = n
		} else {
			r[k] = v
		}
	}
	if m.Rounds == 0 {
		r["error"] = m.Error
		return r
	}
	r["runs"] = m.Rounds
	r["ops_per_s"] = round(m.RPS, 0)
	r["p50_ms"], r["p90_ms"], r["p99_ms"], r["p999_ms"] = round(m.P50, 3), round(m.P90, 3), round(m.P99, 3), round(m.P999, 3)
	r["cpu_ns_per_req"] = round(m.CPUPerReqNS, 0)
	r["peak_rss_bytes"] = m.PeakRSS
	r["requests"] = m.Requests
	r["errors"] = m.Errors
	r["non2xx"] = m.Non2xx
	if len(m.Statuses) > 0 {
		st := map[string]int64{}
		for c, n := range m.Statuses {
			st[strconv.Itoa(c)] = n
		}
		r["statuses"] = st
	}
	var rounds []float64
	for _, v := range m.RoundsRPS {
		rounds = append(rounds, round(v, 0))
	}
	r["ops_per_s_rounds"] = rounds
	if m.Baseline != "" {
		r["baseline"] = m.Baseline
		r["baseline_ops_per_s"] = round(m.BaselineRPS, 0)
		r["baseline_p99_ms"] = round(m.BaselineP99, 3)
		r["baseline_cpu_ns_per_req"] = round(m.BaselineCPUPerReqNS, 0)
		r["ops_ratio"] = round(m.RatioRPS, 3)
		r["p99_ratio"] = round(m.RatioP99, 3)
	}
	if b := load.Bound(m.BaselineCPUPerReqNS, m.BoundNS); b > 0 {
		r["primitive_ns"] = round(m.BoundNS, 0)
		r["bound_ops_per_s"] = round(b, 0)
		r["bound_ratio"] = round(m.RPS/b, 3)
	}
	if m.Error != "" {
		r["error"] = m.Error
	}
	for k, v := range m.Extra {
		if _, taken := r[k]; !taken {
			r[k] = v
		}
	}
	return r
}

func round(v float64, digits int) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	f, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', digits, 64), 64)
	return f
}

// maxResults bounds the results.json the driver reads back.
const maxResults = 64 << 20

// mergeResults writes results.json: the records already there except
// those this run replaces, then this run's. A full run (only == false)
// replaces its suites whole; a run of some scenarios (--only) replaces
// the records of those scenarios only.
func mergeResults(path string, ms []load.Measurement, only bool) error {
	var kept []json.RawMessage
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return err
	case len(data) > maxResults:
		return fmt.Errorf("%s: %d bytes, more than results.json ever holds", path, len(data))
	default:
		var old []json.RawMessage
		if err := json.Unmarshal(data, &old); err != nil {
			return fmt.Errorf("%s: not a JSON array of records (%v): move it away or fix it", path, err)
		}
		suites, names := map[string]bool{}, map[string]bool{}
		for _, m := range ms {
			suites[m.Suite] = true
			names[m.Suite+"\x00"+m.Scenario] = true
		}
		for _, raw := range old {
			var head struct{ Suite, Scenario string }
			if err := json.Unmarshal(raw, &head); err != nil {
				return fmt.Errorf("%s: a record is not an object: %v", path, err)
			}
			replaced := suites[head.Suite] && (!only || names[head.Suite+"\x00"+head.Scenario])
			if !replaced {
				kept = append(kept, raw)
			}
		}
	}
	all := slices.Clone(kept)
	for _, m := range ms {
		b, err := json.Marshal(recordOf(m))
		if err != nil {
			return err
		}
		all = append(all, b)
	}
	out, err := json.MarshalIndent(all, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(out, '\n'), 0o644)
}
