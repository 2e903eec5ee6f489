package main

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// faultsSection writes the fault scenarios' results (suite http-faults):
// what the clients saw, and the values each scenario's Check reported.
func (r *report) faultsSection(b *bytes.Buffer) {
	fmt.Fprintf(b, "## Faults under load\n\n")
	var rows int
	for _, m := range r.ms {
		if m.Suite == "http-faults" {
			rows++
		}
	}
	if rows == 0 {
		fmt.Fprintf(b, "No fault scenario ran (`--only faults` runs them alone).\n\n")
		return
	}
	fmt.Fprintf(b, "Each runs once under load (loopback only, bounded). The statuses are those of the main wrk run; the checks and figures are what the scenario saw and judged (results.json suite `http-faults`).\n\n")
	fmt.Fprintf(b, "| fault | verdict | req/s | requests | statuses | checks | figures |\n|---|---|--:|--:|---|---|---|\n")
	var notes []string
	for _, m := range r.ms {
		if m.Suite != "http-faults" {
			continue
		}
		if m.Rounds == 0 {
			fmt.Fprintf(b, "| %s | **FAIL**: did not run | | | | %s | |\n", m.Scenario, mdEscape(m.Error))
			continue
		}
		var codes []int
		for c := range m.Statuses {
			codes = append(codes, c)
		}
		slices.Sort(codes)
		var st []string
		for _, c := range codes {
			st = append(st, fmt.Sprintf("%d: %d", c, m.Statuses[c]))
		}
		verdict, checks, figures, ns := faultDetails(m.Extra)
		if m.Error != "" {
			verdict = "**FAIL**"
			checks = append(checks, "error: "+m.Error)
		}
		for _, n := range ns {
			notes = append(notes, m.Scenario+": "+n)
		}
		fmt.Fprintf(b, "| %s | %s | %s | %d | %s | %s | %s |\n", m.Scenario, verdict, fmtRPS(m.RPS), m.Requests, strings.Join(st, ", "),
			mdEscape(strings.Join(checks, "; ")), mdEscape(strings.Join(figures, "; ")))
	}
	fmt.Fprintln(b)
	for _, n := range notes {
		fmt.Fprintf(b, "- %s\n", mdEscape(n))
	}
	if len(notes) > 0 {
		fmt.Fprintln(b)
	}
}

// faultDetails reads a fault scenario's Check values: "pass" (the
// verdict), "checks" (target, pass, got), "notes", and the other scalar
// figures.
func faultDetails(extra map[string]any) (verdict string, checks, figures, notes []string) {
	verdict = "–"
	if p, ok := extra["pass"].(bool); ok {
		verdict = "pass"
		if !p {
			verdict = "**FAIL**"
		}
	}
	if cs, ok := extra["checks"].([]any); ok {
		for _, c := range cs {
			m, ok := c.(map[string]any)
			if !ok {
				continue
			}
			mark := "ok"
			if p, _ := m["pass"].(bool); !p {
				mark = "FAIL"
			}
			checks = append(checks, fmt.Sprintf("%s: %s (%s)", fmtValue(m["target"]), mark, fmtValue(m["got"])))
		}
	}
	if ns, ok := extra["notes"].([]any); ok {
		for _, n := range ns {
			notes = append(notes, fmtValue(n))
		}
	}
	var keys []string
	for k, v := range extra {
		switch v.(type) {
		case []any, map[string]any, []string:
			continue
		}
		if k != "pass" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		figures = append(figures, k+" = "+fmtValue(extra[k]))
	}
	return verdict, checks, figures, notes
}

func fmtValue(v any) string {
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		return x
	}
	return fmt.Sprint(v)
}
