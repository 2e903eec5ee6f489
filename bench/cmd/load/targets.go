package main

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/signet-go/signet/bench/load"
)

// goalKind is how a target is judged.
type goalKind int

const (
	vsBaseline    goalKind = iota // requests/s over the baseline's (paired per round) ≥ limit
	vsPeer                        // requests/s over the peer row's (per round) ≥ limit
	p99VsBaseline                 // P99 over the baseline's (paired per round) ≤ limit
	vsBound                       // requests/s over 1 / (baseline CPU/req + the primitive's cost) ≥ limit
)

// goal is one line of the Targets.
type goal struct {
	row   string // scenario
	kind  goalKind
	limit float64
	peer  string // vsPeer
	what  string
}

// goals are the issue's Targets ("ratios from one run on this machine,
// one core for the server"), by the scenario names of the lists
// (API17.md).
func goals() []goal {
	var g []goal
	for _, op := range []string{"issue", "check"} {
		row := op + "/HS256/signet"
		g = append(g,
			goal{row: row, kind: vsBaseline, limit: 0.9, what: "HS256 " + op + " ≥ 0.9× /hello req/s"},
			goal{row: row, kind: vsPeer, limit: 1.3, peer: op + "/HS256/golang-jwt", what: "HS256 " + op + " ≥ 1.3× golang-jwt's handler"},
			goal{row: row, kind: p99VsBaseline, limit: 1.2, what: "HS256 " + op + " P99 ≤ 1.2× /hello's"},
		)
	}
	for _, alg := range []string{"ES256", "EdDSA", "RS256", "PS256"} {
		for _, op := range []string{"issue", "check"} {
			g = append(g, goal{row: op + "/" + alg + "/signet", kind: vsBound, limit: 0.95, what: alg + " " + op + " ≥ 0.95× the primitive's bound"})
		}
	}
	g = append(g,
		goal{row: "token/ES256/signet-serve", kind: vsBound, limit: 0.85, what: "signet serve token endpoint (client_secret_basic, ES256) ≥ 0.85× the bound"},
		goal{row: "guard-nocache/ES256/signet-guard", kind: vsBound, limit: 0.9, what: "signet guard, cache off, ES256 ≥ 0.9× 1 / (proxy CPU/req + ES256 verify)"},
		goal{row: "guard-cache/ES256/signet-guard", kind: vsBaseline, limit: 0.8, what: "signet guard, cache on, tokens reused ≥ 0.8× the plain reverse proxy"},
	)
	return g
}

// verdict is a target judged on this run.
type verdict struct {
	goal
	value    float64 // the measured ratio; 0 when not measured
	inServer float64 // a bound target's ratio to the in-server bound; 0 when none
	pass     bool
	measured bool
	detail   string
}

func (r *report) judge(g goal) verdict {
	v := verdict{goal: g}
	m := r.find(g.row)
	if m == nil || m.Rounds == 0 {
		v.detail = "not measured"
		if m != nil {
			v.detail = "failed: " + m.Error
		}
		return v
	}
	switch g.kind {
	case vsBaseline:
		v.value, v.detail = m.RatioRPS, fmt.Sprintf("%s / %s %s req/s", fmtRPS(m.RPS), m.Baseline, fmtRPS(m.BaselineRPS))
	case p99VsBaseline:
		v.value, v.detail = m.RatioP99, fmt.Sprintf("P99 %.3f / %.3f ms", m.P99, m.BaselineP99)
	case vsPeer:
		p := r.find(g.peer)
		if p == nil || p.Rounds == 0 {
			v.detail = g.peer + " not measured"
			return v
		}
		v.value, v.detail = pairedRatio(m.RoundsRPS, p.RoundsRPS), fmt.Sprintf("%s / %s req/s", fmtRPS(m.RPS), fmtRPS(p.RPS))
	case vsBound:
		b := load.Bound(m.BaselineCPUPerReqNS, m.BoundNS)
		if b == 0 {
			v.detail = "no bound: the row has no primitive cost or its baseline no CPU figure"
			return v
		}
		v.value = m.RPS / b
		v.detail = fmt.Sprintf("%s req/s; bound 1e9 / (%s %.1f µs + primitive %.1f µs) = %s; by CPU: (%.1f + %.1f) / %.1f µs per request = %.2f, server busy %.0f%%",
			fmtRPS(m.RPS), m.Baseline, m.BaselineCPUPerReqNS/1e3, m.BoundNS/1e3, fmtRPS(b),
			m.BaselineCPUPerReqNS/1e3, m.BoundNS/1e3, m.CPUPerReqNS/1e3, cpuBoundRatio(*m), busy(*m)*100)
		v.inServer = r.inServerRatio(*m)
		if f := r.floorBeside(*m); f != "" {
			v.detail += "; " + f
		}
	}
	if v.value <= 0 {
		v.detail = "no ratio: " + v.detail
		return v
	}
	v.measured = true
	if g.kind == p99VsBaseline {
		v.pass = v.value <= g.limit
	} else {
		v.pass = v.value >= g.limit
	}
	return v
}

// cpuBoundRatio is the bound's ratio read from CPU time instead of
// requests/s: (baseline CPU/req + primitive) / CPU/req. It does not
// assume the server was saturated (see busy); 0 when unknown.
func cpuBoundRatio(m load.Measurement) float64 {
	if m.CPUPerReqNS <= 0 || m.BaselineCPUPerReqNS <= 0 || m.BoundNS <= 0 {
		return 0
	}
	return (m.BaselineCPUPerReqNS + m.BoundNS) / m.CPUPerReqNS
}

// pairedRatio is the median of round-by-round ratios when both rows ran
// the same rounds, else the ratio of the medians.
func pairedRatio(a, b []float64) float64 {
	if len(a) == len(b) && len(a) > 0 {
		var rs []float64
		for i := range a {
			if b[i] > 0 {
				rs = append(rs, a[i]/b[i])
			}
		}
		return load.Median(rs)
	}
	if mb := load.Median(b); mb > 0 {
		return load.Median(a) / mb
	}
	return 0
}

// faultGoals are the fault targets: a field each fault scenario's Check
// reports (Measurement.Extra), which must be 0 in every one that has it.
var faultGoals = []struct {
	fields []string // the first a scenario reports is read
	what   string
}{
	{[]string{"failed_verifications"}, "0 failed verifications (across rotation, two instances, outages)"},
	{[]string{"revoked_active"}, "0 tokens reported active that were revoked"},
	{[]string{"other_5xx", "unexpected_5xx"}, "0 5xx other than the 503s while Redis is away"},
}

func (r *report) targetsSection(b *bytes.Buffer) {
	fmt.Fprintf(b, "## Targets\n\n")
	fmt.Fprintf(b, "The issue's targets, judged on this run's medians (ratios from one run on this machine, one core for the server). A target whose row was not measured says so; quick runs are short and noisy, the reference run is the full one on a quiet machine. A bound is judged on requests/s, as the issue states it; the figures add the same ratio read from CPU time ((baseline + primitive) / the row's CPU per request), which holds when the server was not saturated (\"server busy\" below 100%%).\n\n")
	var vs []verdict
	for _, g := range goals() {
		vs = append(vs, r.judge(g))
	}
	if slices.ContainsFunc(vs, func(v verdict) bool { return v.inServer > 0 }) {
		fmt.Fprintf(b, "A bound target has a second verdict, on the in-server bound (see \"The bound in a server\" below): a study row over its floor row, the raw primitive served by the same handler; signet serve's and signet guard's rows by CPU, with the primitive's cost as that floor row measured it in the server.\n\n")
	}
	fmt.Fprintf(b, "| target | row | ratio | goal | verdict | in-server bound | figures |\n|---|---|--:|--:|---|---|---|\n")
	for _, v := range vs {
		g := v.goal
		op := "≥"
		if g.kind == p99VsBaseline {
			op = "≤"
		}
		ratio, verdictText := "–", "not measured"
		if v.measured {
			ratio = fmt.Sprintf("%.2f", v.value)
			verdictText = "**FAIL**"
			if v.pass {
				verdictText = "pass"
			}
		}
		inServer := "–"
		if v.inServer > 0 {
			inServer = fmt.Sprintf("%.2f fail", v.inServer)
			if v.inServer >= g.limit {
				inServer = fmt.Sprintf("%.2f pass", v.inServer)
			}
		}
		fmt.Fprintf(b, "| %s | `%s` | %s | %s %.2f | %s | %s | %s |\n", g.what, g.row, ratio, op, g.limit, verdictText, inServer, mdEscape(v.detail))
	}
	for _, fg := range faultGoals {
		var rows []string
		total, seen := 0.0, 0
		for _, m := range r.ms {
			if m.Suite != "http-faults" || m.Extra == nil {
				continue
			}
			if x, ok := firstNumber(m.Extra, fg.fields); ok {
				seen++
				total += x
				if x != 0 {
					rows = append(rows, fmt.Sprintf("%s: %v", m.Scenario, x))
				}
			}
		}
		switch {
		case seen == 0:
			fmt.Fprintf(b, "| %s | faults | – | = 0 | not measured | – | no fault scenario reported `%s` |\n", fg.what, fg.fields[0])
		case total == 0:
			fmt.Fprintf(b, "| %s | faults | 0 | = 0 | pass | – | %d scenarios report `%s` |\n", fg.what, seen, fg.fields[0])
		default:
			fmt.Fprintf(b, "| %s | faults | %v | = 0 | **FAIL** | – | %s |\n", fg.what, total, mdEscape(strings.Join(rows, "; ")))
		}
	}
	fmt.Fprintln(b)
	r.floorSection(b)
}

// firstNumber returns the first of fields that extra holds as a number.
func firstNumber(extra map[string]any, fields []string) (float64, bool) {
	for _, f := range fields {
		if x, ok := number(extra[f]); ok {
			return x, true
		}
	}
	return 0, false
}

// number reads a JSON-ish number (Check's values: ints, int64s, float64s).
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case float64:
		return x, true
	case uint64:
		return float64(x), true
	}
	return 0, false
}
