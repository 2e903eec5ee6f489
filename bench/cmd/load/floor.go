package main

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/signet-go/signet/bench/load"
	"github.com/signet-go/signet/bench/load/study"
)

// The floor rows (study.LibFloor, "issue/ES256/floor") serve the raw
// primitive in the study's handler, no library: the in-server bound. The
// Targets keep the literal bound (the primitive's cost from a
// tight loop); these add the in-server one beside it, without a verdict.

// floorRow returns the floor row of a study row's algorithm and
// operation, measured, or nil.
func (r *report) floorRow(m load.Measurement) *load.Measurement {
	l := labels(m)
	if l["lib"] == study.LibFloor || (l["op"] != "issue" && l["op"] != "check") {
		return nil
	}
	f := r.find(l["op"] + "/" + l["alg"] + "/" + study.LibFloor)
	if f == nil || f.Rounds == 0 || f.RPS <= 0 {
		return nil
	}
	return f
}

// peerLib is the other library of alg's study rows (golang-jwt or
// go-paseto).
func peerLib(alg string) string {
	for _, lib := range study.Libs(alg) {
		if lib != study.LibSignet {
			return lib
		}
	}
	return ""
}

// vsFloor is a row's requests/s over the floor row's (per round, as
// pairedRatio), 0 when either was not measured.
func (r *report) vsFloor(name string, f *load.Measurement) float64 {
	m := r.find(name)
	if m == nil || m.Rounds == 0 || f == nil {
		return 0
	}
	return pairedRatio(m.RoundsRPS, f.RoundsRPS)
}

// floorBeside is the in-server bound of a bound target's row, for its
// figures: the floor row and the ratios of signet and its peer to it;
// "" when the floor row was not measured.
func (r *report) floorBeside(m load.Measurement) string {
	f := r.floorRow(m)
	if f == nil {
		return r.inServerBeside(m)
	}
	l := labels(m)
	s := fmt.Sprintf("in-server bound `%s` %s req/s, %.1f µs/req; signet / floor %s", f.Scenario, fmtRPS(f.RPS), f.CPUPerReqNS/1e3,
		ratioText(r.vsFloor(l["op"]+"/"+l["alg"]+"/"+study.LibSignet, f)))
	if p := peerLib(l["alg"]); p != "" {
		s += fmt.Sprintf(", %s / floor %s", p, ratioText(r.vsFloor(l["op"]+"/"+l["alg"]+"/"+p, f)))
	}
	return s
}

// inServerPrimitive returns, for a bound target's row outside the study
// (signet serve's token endpoint, signet guard), the floor row of the same
// primitive (label "primitive": "ES256 issue small") and the primitive's
// in-server cost: that row's CPU per request less its baseline's. nil
// when the row names no primitive or the floor row was not measured.
func (r *report) inServerPrimitive(m load.Measurement) (*load.Measurement, float64) {
	p := strings.Fields(labels(m)["primitive"])
	if len(p) < 2 || m.CPUPerReqNS <= 0 {
		return nil, 0
	}
	f := r.find(p[1] + "/" + p[0] + "/" + study.LibFloor)
	if f == nil || f.Rounds == 0 || f.CPUPerReqNS <= f.BaselineCPUPerReqNS {
		return nil, 0
	}
	return f, f.CPUPerReqNS - f.BaselineCPUPerReqNS
}

// inServerBeside is, for a row outside the study, the bound's ratio by
// CPU with the primitive's in-server cost (inServerPrimitive) in place of
// its tight-loop one; "" when that floor row was not measured.
func (r *report) inServerBeside(m load.Measurement) string {
	f, prim := r.inServerPrimitive(m)
	if f == nil {
		return ""
	}
	return fmt.Sprintf("with the primitive's in-server cost (`%s` less its baseline: %.1f µs) the same ratio by CPU is (%.1f + %.1f) / %.1f = %.2f",
		f.Scenario, prim/1e3, m.BaselineCPUPerReqNS/1e3, prim/1e3, m.CPUPerReqNS/1e3, (m.BaselineCPUPerReqNS+prim)/m.CPUPerReqNS)
}

// inServerRatio is a bound target's row judged on the in-server bound: a
// study row's requests/s over its floor row's (paired per round); for a
// row outside the study, the ratio inServerBeside gives. 0 when not
// measured.
func (r *report) inServerRatio(m load.Measurement) float64 {
	if f := r.floorRow(m); f != nil {
		return pairedRatio(m.RoundsRPS, f.RoundsRPS)
	}
	f, prim := r.inServerPrimitive(m)
	if f == nil || m.BaselineCPUPerReqNS <= 0 {
		return 0
	}
	return (m.BaselineCPUPerReqNS + prim) / m.CPUPerReqNS
}

func ratioText(v float64) string {
	if v <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", v)
}

// floorSection writes the in-server bound beside the literal one: a
// paragraph and a table of every measured floor row.
func (r *report) floorSection(b *bytes.Buffer) {
	var floors []load.Measurement
	for _, m := range r.ms {
		if l := labels(m); l["lib"] == study.LibFloor && m.Rounds > 0 && m.RPS > 0 && (l["op"] == "issue" || l["op"] == "check") {
			floors = append(floors, m)
		}
	}
	if len(floors) == 0 {
		return
	}
	fmt.Fprintf(b, "### The bound in a server: the floor rows\n\n")
	fmt.Fprintf(b, "The bound targets above take the primitive's cost from a tight loop: the raw signature or verification on the bytes of one token, run back to back under testing.Benchmark at GOMAXPROCS=1 (study.Floor), with its code and data hot in the caches and nothing between two calls. ")
	fmt.Fprintf(b, "The floor rows (`loadsrv -lib floor`) run that same primitive once per request in the study's handler, measured in the same rounds as the libraries: /issue signs the same bytes and answers a pre-made token of the same length in the same JSON; /check base64-decodes the Bearer token's signature and verifies it (a forged one gets 401), with no header, claims or exp, and answers the same identity. ")
	fmt.Fprintf(b, "No library can do less, so a floor row is the in-server bound; its CPU per request less the baseline's is what the primitive costs between the kernel's networking, net/http and the collector (for /check it also counts reading the Bearer header and decoding the signature, which /hello does not do: most of HS256's figure, whose primitive is a fraction of a microsecond). ")
	var lo, hi float64
	for _, f := range floors {
		if x := inServerFactor(f); x > 0 && f.BoundNS >= factorMinNS {
			if lo == 0 || x < lo {
				lo = x
			}
			hi = max(hi, x)
		}
	}
	if lo > 0 {
		fmt.Fprintf(b, "On this run the asymmetric primitives (every floor row but HS256's) cost %.2f to %.2f× their tight-loop figure in the server, so the literal bound is above what any library reaches here (column \"floor / literal bound\"), and a library is better judged by its ratio to the floor. ", lo, hi)
	}
	fmt.Fprintf(b, "The Targets table judges each bound target both ways: on the issue's literal bound, as written, and on this in-server bound (column \"in-server bound\"). The table below has every floor row (requests/s paired per round; in parentheses the same ratio read from CPU per request, which holds when wrk, not the server, limited the run: \"server busy\" below 100%%).\n\n")
	fmt.Fprintf(b, "| floor row | primitive µs, loop | primitive µs, in server | literal bound req/s | floor req/s | floor CPU µs/req | floor / literal bound (CPU) | signet CPU µs/req | signet / floor (CPU) | peer | peer CPU µs/req | peer / floor (CPU) |\n")
	fmt.Fprintf(b, "|---|--:|--:|--:|--:|--:|--:|--:|--:|---|--:|--:|\n")
	for _, f := range floors {
		l := labels(f)
		bound := load.Bound(f.BaselineCPUPerReqNS, f.BoundNS)
		inServer := "–"
		if f.BaselineCPUPerReqNS > 0 {
			inServer = fmt.Sprintf("%.1f", (f.CPUPerReqNS-f.BaselineCPUPerReqNS)/1e3)
		}
		floorVsBound := "–"
		if bound > 0 {
			floorVsBound = fmt.Sprintf("%.2f", f.RPS/bound)
			if c := cpuBoundRatio(f); c > 0 {
				floorVsBound += fmt.Sprintf(" (%.2f)", c)
			}
		}
		lib := func(name string) (cpu, ratio string) {
			m := r.find(name)
			if m == nil || m.Rounds == 0 {
				return "–", "–"
			}
			cpu = fmt.Sprintf("%.1f", m.CPUPerReqNS/1e3)
			ratio = ratioText(r.vsFloor(name, &f))
			if m.CPUPerReqNS > 0 {
				ratio += fmt.Sprintf(" (%.2f)", f.CPUPerReqNS/m.CPUPerReqNS)
			}
			return cpu, ratio
		}
		sCPU, sRatio := lib(l["op"] + "/" + l["alg"] + "/" + study.LibSignet)
		peer := peerLib(l["alg"])
		pCPU, pRatio := lib(l["op"] + "/" + l["alg"] + "/" + peer)
		fmt.Fprintf(b, "| `%s` | %s | %s | %s | %s | %.1f | %s | %s | %s | %s | %s | %s |\n", f.Scenario, orDash(f.BoundNS/1e3, func(v float64) string { return fmt.Sprintf("%.1f", v) }),
			inServer, orDash(bound, fmtRPS), fmtRPS(f.RPS), f.CPUPerReqNS/1e3, floorVsBound, sCPU, sRatio, orDash1(peer), pCPU, pRatio)
	}
	fmt.Fprintln(b)
}

// factorMinNS is the smallest tight-loop cost whose in-server factor the
// floor section quotes: below it (HS256) the per-request work around the
// primitive is the whole difference.
const factorMinNS = 1000

// inServerFactor is the floor row's primitive in the server (its CPU per
// request less the baseline's) over the tight loop's; 0 when unknown.
func inServerFactor(f load.Measurement) float64 {
	if f.BoundNS <= 0 || f.BaselineCPUPerReqNS <= 0 || f.CPUPerReqNS <= f.BaselineCPUPerReqNS {
		return 0
	}
	return (f.CPUPerReqNS - f.BaselineCPUPerReqNS) / f.BoundNS
}

func orDash1(s string) string {
	if s == "" {
		return "–"
	}
	return s
}
