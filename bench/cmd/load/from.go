package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/signet-go/signet/bench/load"
)

// runRecord is the run's settings as a record of the scale suite (op
// "run"), so that --from can say what it re-renders.
func (r *report) runRecord() record {
	return record{"suite": scaleSuite, "op": "run", "mode": r.cfg.mode, "rounds": r.cfg.opt.Rounds,
		"duration_s": r.cfg.opt.Duration.Seconds(), "warmup_s": r.cfg.opt.Warmup.Seconds(),
		"baseline_every": r.cfg.opt.BaselineEvery, "idle": r.cfg.idle, "started": r.started.UTC().Format(time.RFC3339)}
}

// measurementKeys are the fields recordOf writes itself; the others of an
// http record are the scenario's labels, of an http-faults record its
// Check's values.
var measurementKeys = map[string]bool{
	"suite": true, "scenario": true, "group": true, "lang": true, "runs": true, "ops_per_s": true,
	"p50_ms": true, "p90_ms": true, "p99_ms": true, "p999_ms": true, "cpu_ns_per_req": true, "server_busy": true,
	"peak_rss_bytes": true, "requests": true, "errors": true, "non2xx": true, "statuses": true, "ops_per_s_rounds": true,
	"baseline": true, "baseline_ops_per_s": true, "baseline_p99_ms": true, "baseline_cpu_ns_per_req": true,
	"ops_ratio": true, "p99_ratio": true, "primitive_ns": true, "bound_ops_per_s": true, "bound_ratio": true,
	"cpu_bound_ratio": true, "error": true,
}

// labelKeys are kept as labels in a fault record too.
var labelKeys = map[string]bool{"format": true, "alg": true, "op": true, "lib": true}

// readRecords reads a results.json back (--from): the measurements of the
// suites http and http-faults, the scale measurements and the run's
// settings into cfg, so that HTTP.md can be written again without
// running anything.
func readRecords(path string, cfg *config) (*report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(data) > maxResults {
		return nil, fmt.Errorf("%s: %d bytes, more than results.json ever holds", path, len(data))
	}
	var recs []map[string]any
	if err := json.Unmarshal(data, &recs); err != nil {
		return nil, fmt.Errorf("%s: not a JSON array of records: %v", path, err)
	}
	rep := &report{cfg: *cfg, env: environment()}
	for _, rec := range recs {
		suite, _ := rec["suite"].(string)
		switch suite {
		case "http", "http-faults":
			rep.ms = append(rep.ms, measurementOf(rec))
		case scaleSuite:
			rep.readScale(rec)
		}
	}
	if len(rep.ms) == 0 {
		return nil, fmt.Errorf("%s holds no record of the suites http and http-faults (make load writes them)", path)
	}
	*cfg = rep.cfg
	return rep, nil
}

func (r *report) readScale(rec map[string]any) {
	str := func(k string) string { s, _ := rec[k].(string); return s }
	num := func(k string) float64 { v, _ := number(rec[k]); return v }
	switch str("op") {
	case "run":
		r.cfg.mode = str("mode")
		r.cfg.opt.Rounds = int(num("rounds"))
		r.cfg.opt.Duration = time.Duration(num("duration_s") * float64(time.Second))
		r.cfg.opt.Warmup = time.Duration(num("warmup_s") * float64(time.Second))
		r.cfg.opt.BaselineEvery = int(num("baseline_every"))
		r.cfg.idle = str("idle")
		r.started, _ = time.Parse(time.RFC3339, str("started"))
	case "redis-capacity":
		if r.redis == nil {
			r.redis = &redisCap{}
		}
		if e := str("error"); e != "" {
			r.redis.Err = e
			return
		}
		r.redis.Ops = append(r.redis.Ops, redisOp{Name: str("command"), Description: str("description"), RPS: num("ops_per_s"), PerCPUSec: num("ops_per_cpu_s")})
	case "redis-commands":
		if r.serveOps == nil {
			r.serveOps = &serveOps{}
		}
		if e := str("error"); e != "" {
			r.serveOps.Err = e
			return
		}
		r.serveOps.N = int(num("requests"))
		p := serveOpsPhase{Endpoint: str("endpoint"), Calls: map[string]float64{}}
		if calls, ok := rec["calls_per_request"].(map[string]any); ok {
			for k, v := range calls {
				if x, ok := number(v); ok {
					p.Calls[k] = x
				}
			}
		}
		r.serveOps.Phases = append(r.serveOps.Phases, p)
	}
}

// measurementOf is recordOf's inverse.
func measurementOf(rec map[string]any) load.Measurement {
	str := func(k string) string { s, _ := rec[k].(string); return s }
	num := func(k string) float64 { v, _ := number(rec[k]); return v }
	m := load.Measurement{Scenario: str("scenario"), Group: str("group"), Suite: str("suite"), Baseline: str("baseline"), Error: str("error"),
		Rounds: int(num("runs")), RPS: num("ops_per_s"), P50: num("p50_ms"), P90: num("p90_ms"), P99: num("p99_ms"), P999: num("p999_ms"),
		CPUPerReqNS: num("cpu_ns_per_req"), PeakRSS: int64(num("peak_rss_bytes")), Requests: int64(num("requests")),
		Errors: int64(num("errors")), Non2xx: int64(num("non2xx")), BaselineRPS: num("baseline_ops_per_s"),
		BaselineP99: num("baseline_p99_ms"), BaselineCPUPerReqNS: num("baseline_cpu_ns_per_req"),
		RatioRPS: num("ops_ratio"), RatioP99: num("p99_ratio"), BoundNS: num("primitive_ns"), Labels: map[string]string{}}
	if st, ok := rec["statuses"].(map[string]any); ok {
		m.Statuses = map[int]int64{}
		for k, v := range st {
			code, err := strconv.Atoi(k)
			if x, ok := number(v); ok && err == nil {
				m.Statuses[code] = int64(x)
			}
		}
	}
	if rs, ok := rec["ops_per_s_rounds"].([]any); ok {
		for _, v := range rs {
			if x, ok := number(v); ok {
				m.RoundsRPS = append(m.RoundsRPS, x)
			}
		}
	}
	for k, v := range rec {
		if measurementKeys[k] {
			continue
		}
		if m.Suite == "http-faults" && !labelKeys[k] {
			if m.Extra == nil {
				m.Extra = map[string]any{}
			}
			m.Extra[k] = v
			continue
		}
		m.Labels[k] = fmtValue(v)
	}
	return m
}
