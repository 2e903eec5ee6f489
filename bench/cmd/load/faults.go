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
	fmt.Fprintf(b, "Each runs once under load (loopback only, bounded); the statuses are what wrk's clients saw, the other figures what the scenario checked (results.json suite `http-faults`).\n\n")
	fmt.Fprintf(b, "| scenario | req/s | requests | statuses | socket errors | what it checked |\n|---|--:|--:|---|--:|---|\n")
	for _, m := range r.ms {
		if m.Suite != "http-faults" {
			continue
		}
		if m.Rounds == 0 {
			fmt.Fprintf(b, "| %s | failed | | | | %s |\n", m.Scenario, mdEscape(m.Error))
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
		var keys []string
		for k := range m.Extra {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var ex []string
		for _, k := range keys {
			ex = append(ex, k+" = "+fmtValue(m.Extra[k]))
		}
		if m.Error != "" {
			ex = append(ex, "error: "+m.Error)
		}
		fmt.Fprintf(b, "| %s | %s | %d | %s | %d | %s |\n", m.Scenario, fmtRPS(m.RPS), m.Requests, strings.Join(st, ", "), m.Errors, mdEscape(strings.Join(ex, "; ")))
	}
	fmt.Fprintln(b)
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
