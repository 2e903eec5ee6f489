package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/signet-go/signet/bench/published"
)

// studyHTTPSig is the RFC 9421 study's section: its four libraries'
// times and memory as ratios to forcebit's, beside this run's.
func (r *report) studyHTTPSig() *studySection {
	st := published.HTTPSig
	s := &studySection{title: "RFC 9421 libraries (forcebit's comparison)"}
	b := &s.body
	source(b, st.Source)
	head := st.Headline
	others := slices.DeleteFunc(slices.Clone(st.Libs), func(l string) bool { return l == head })
	present := r.hasLib("HTTPSig", head)
	if present {
		b.WriteString(" This run measures the same libraries (and signet) on the lab's request (docs/design.md, \"Reference workloads\"), so the table sets each library's time over forcebit's, the study's against this run's (above 1: forcebit is faster).\n\n")
	} else {
		b.WriteString(" **forcebit, the study's headline library, was not in this run** (the lab builds it only where its module can be downloaded; see the peers skipped, if any, above): the claims about it cannot be tested here, and the table sets the other libraries' times over **signet's, as a stand-in** — not forcebit's.\n\n")
	}
	base := head
	if !present {
		base = "signet"
	}
	// Times.
	fmt.Fprintf(b, "| alg, op | study: forcebit ns | study: %s ÷ forcebit | this run: %s | this run: %s ÷ %s |", strings.Join(others, ", "), base, strings.Join(withSignet(others, present), ", "), base)
	b.WriteString("\n|---|--:|--:|--:|--:|\n")
	for _, row := range st.Rows {
		var theirs []string
		for _, l := range others {
			theirs = append(theirs, times(row.Figs[l].Ns/row.Figs[head].Ns))
		}
		baseM := r.find("HTTPSig", row.Alg, "", row.Op, base, false, 1)
		ours, baseCell := "not measured", "not measured"
		if baseM != nil {
			baseCell = fmtNs(baseM.median())
			var cells []string
			for _, l := range withSignet(others, present) {
				cells = append(cells, orDashF(ratioOf(r.find("HTTPSig", row.Alg, "", row.Op, l, false, 1), baseM), times))
			}
			ours = strings.Join(cells, ", ")
		}
		fmt.Fprintf(b, "| %s %s | %s | %s | %s | %s |\n", row.Alg, strings.ToLower(row.Op), thousands(row.Figs[head].Ns), strings.Join(theirs, ", "), baseCell, ours)
	}
	b.WriteString("\n")
	// Memory.
	libs := append([]string{head}, others...)
	fmt.Fprintf(b, "| alg, op | study B/op / allocs: %s | this run B/op / allocs: %s |\n|---|---|---|\n", strings.Join(libs, ", "), strings.Join(append(slices.Clone(libs), "signet"), ", "))
	for _, row := range st.Rows {
		var theirs, ours []string
		for _, l := range libs {
			theirs = append(theirs, fmt.Sprintf("%s / %s", thousands(row.Figs[l].Bytes), thousands(row.Figs[l].Allocs)))
		}
		for _, l := range append(slices.Clone(libs), "signet") {
			if m := r.find("HTTPSig", row.Alg, "", row.Op, l, false, 1); m != nil {
				ours = append(ours, fmt.Sprintf("%s / %d", thousands(float64(m.bytes)), m.allocs))
			} else {
				ours = append(ours, "—")
			}
		}
		fmt.Fprintf(b, "| %s %s | %s | %s |\n", row.Alg, strings.ToLower(row.Op), strings.Join(theirs, "; "), strings.Join(ours, "; "))
	}
	b.WriteString("\n")

	if !present {
		var lead []float64
		for _, row := range st.Rows {
			sg := r.find("HTTPSig", row.Alg, "", row.Op, "signet", false, 1)
			for _, l := range others {
				if v := ratioOf(r.find("HTTPSig", row.Alg, "", row.Op, l, false, 1), sg); v > 0 {
					lead = append(lead, v)
				}
			}
		}
		for _, c := range st.Speed {
			s.claim("\""+c.Text+"\"", untestable, "forcebit was not in this run")
		}
		s.claim("forcebit \"consistently uses 35-85% less memory\", \"50-90% fewer allocations\", the least memory in every row", untestable, "forcebit was not in this run")
		if len(lead) > 0 {
			s.claim("Stand-in, not the study's claim: the lab's own library ahead of yaronf, remitly and common-fate in every row", orderVerdict(lead),
				fmt.Sprintf("their times over signet's: %s", span(lead, times)))
		}
		return s
	}

	// Speed, claim by claim.
	fastestHeld, fastestOf := 0, 0
	for _, c := range st.Speed {
		f := r.find("HTTPSig", c.Alg, "", c.Op, head, false, 1)
		var figs []float64
		var texts []string
		for _, l := range others {
			if v := ratioOf(r.find("HTTPSig", c.Alg, "", c.Op, l, false, 1), f); v > 0 {
				figs = append(figs, v)
				texts = append(texts, fmt.Sprintf("%s %.2f×", l, v))
			}
		}
		fastestOf++
		if orderVerdict(figs) == holds {
			fastestHeld++
		}
		ours := "the alternatives' times over forcebit's: " + strings.Join(texts, ", ")
		if sg := ratioOf(r.find("HTTPSig", c.Alg, "", c.Op, "signet", false, 1), f); sg > 0 {
			ours += fmt.Sprintf("; signet's %.2f×", sg)
		}
		if len(figs) == 0 {
			ours = "the alternatives were not measured"
		}
		s.claim("\""+c.Text+"\"", sizeVerdict(figs, c.Lo, c.Hi), ours)
	}
	s.claim("forcebit fastest of the four in every row (the study's bold)", countVerdict(fastestHeld, fastestOf),
		fmt.Sprintf("forcebit ahead of all three by more than 3 %% in %d of %d rows", fastestHeld, fastestOf))
	// Memory.
	var lessMem, fewerAllocs []float64
	leastHeld, leastOf := 0, 0
	var sigBelow []string
	for _, row := range st.Rows {
		f := r.find("HTTPSig", row.Alg, "", row.Op, head, false, 1)
		if f == nil {
			continue
		}
		least := true
		for _, l := range others {
			m := r.find("HTTPSig", row.Alg, "", row.Op, l, false, 1)
			if m == nil || m.bytes == 0 {
				continue
			}
			lessMem = append(lessMem, 1-float64(f.bytes)/float64(m.bytes))
			if m.allocs > 0 {
				fewerAllocs = append(fewerAllocs, 1-float64(f.allocs)/float64(m.allocs))
			}
			if f.bytes >= m.bytes {
				least = false
			}
		}
		leastOf++
		if least {
			leastHeld++
		}
		if sg := r.find("HTTPSig", row.Alg, "", row.Op, "signet", false, 1); sg != nil && sg.bytes < f.bytes {
			sigBelow = append(sigBelow, row.Alg+" "+strings.ToLower(row.Op))
		}
	}
	studyLess, studyFewer := studyMemory(st)
	s.claim(fmt.Sprintf("\"Forcebit consistently uses 35-85%% less memory than alternatives\" (its own table: %s B/op)", spanFewer(studyLess)), pctVerdict(lessMem, st.MemoryLess[0], st.MemoryLess[1]),
		fmt.Sprintf("forcebit uses %s B/op than each alternative", spanFewer(lessMem)))
	s.claim(fmt.Sprintf("\"Forcebit makes 50-90%% fewer allocations than alternatives\" (its own table: %s)", spanFewer(studyFewer)), pctVerdict(fewerAllocs, st.FewerAllocs[0], st.FewerAllocs[1]),
		fmt.Sprintf("forcebit makes %s allocations than each alternative", spanFewer(fewerAllocs)))
	least := fmt.Sprintf("lowest B/op of the four in %d of %d rows", leastHeld, leastOf)
	if len(sigBelow) > 0 {
		least += fmt.Sprintf("; signet's B/op is below forcebit's in %d of them (%s)", len(sigBelow), strings.Join(sigBelow, ", "))
	}
	s.claim("\"forcebit uses the least memory\" (of the four, every row)", countVerdict(leastHeld, leastOf), least)
	return s
}

// studyMemory computes, from the study's own table, how much less memory
// and how many fewer allocations forcebit has than each alternative.
func studyMemory(st published.HTTPSigStudy) (less, fewer []float64) {
	for _, row := range st.Rows {
		f := row.Figs[st.Headline]
		for _, l := range st.Libs {
			if l == st.Headline {
				continue
			}
			less = append(less, 1-f.Bytes/row.Figs[l].Bytes)
			fewer = append(fewer, 1-f.Allocs/row.Figs[l].Allocs)
		}
	}
	return less, fewer
}

// withSignet is the libraries of this run's ratio column: the study's
// alternatives, and signet when forcebit is the base.
func withSignet(others []string, forcebit bool) []string {
	if forcebit {
		return append(slices.Clone(others), "signet")
	}
	return others
}

func orDashF(v float64, f func(float64) string) string {
	if v <= 0 {
		return "—"
	}
	return f(v)
}
