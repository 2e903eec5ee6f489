package main

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/signet-go/signet/bench/published"
)

// The verdicts of a study's claim on this run.
const (
	holds      = "holds"
	inPart     = "holds in part"
	direction  = "holds in direction, not in size"
	notHolds   = "does not hold"
	untestable = "cannot be tested here"
)

// A claimVerdict is one claim of a study, tested on this run: the claim
// (quoted, with the study's own figure), the verdict and this run's
// figure behind it.
type claimVerdict struct {
	claim   string
	verdict string
	ours    string
}

// A studySection is one study's part of the report: its text (intro and
// tables) and its claims, tested.
type studySection struct {
	title  string
	body   strings.Builder
	claims []claimVerdict
}

func (s *studySection) claim(claim, verdict, ours string) {
	s.claims = append(s.claims, claimVerdict{claim, verdict, ours})
}

func (s *studySection) write(b *strings.Builder) {
	fmt.Fprintf(b, "### %s\n\n", s.title)
	b.WriteString(s.body.String())
	if len(s.claims) > 0 {
		b.WriteString("Claim by claim, on this machine:\n\n")
		for _, c := range s.claims {
			fmt.Fprintf(b, "- %s — **%s**: %s\n", c.claim, c.verdict, c.ours)
		}
		b.WriteString("\n")
	}
}

// source writes a study's source line.
func source(b *strings.Builder, s published.Source) {
	fmt.Fprintf(b, "Source: \"%s\"", s.Title)
	if s.URL != "" {
		fmt.Fprintf(b, ", %s", s.URL)
	}
	fmt.Fprintf(b, ". It measured %s, on %s.", s.What, s.Machine)
}

// studySections builds the four studies' sections from the run.
func (r *report) studySections() []*studySection {
	return []*studySection{r.studyJWTPASETO(), r.studyJavaRust(), r.studyQPS(), r.studyHTTPSig()}
}

// writeStudies writes the four studies' sections: each study's published
// table beside the same measurement here, as ratios (machines differ),
// and its claims tested one by one.
func (r *report) writeStudies(b *strings.Builder) {
	b.WriteString("## The studies beside this run\n\n")
	b.WriteString("The four studies this project started from (package bench/published transcribes their tables, figures as printed) measured other machines, so each is compared by ratios between libraries or algorithms, never by absolute times. " +
		"A claim **holds** when this run shows it; a claimed size (\"2–2.7×\", \"40–60 % fewer\") holds when each of this run's figures lies in the claimed range widened by 10 % of a factor, or by 5 points of a percentage, at both ends (a single factor: within 10 %); " +
		"when the order holds and the size does not, the claim **holds in direction, not in size**; two libraries within 3 % of each other are level. " +
		"Where one of the study's own libraries was not in this run, the closest stand-ins that were are named as such.\n\n")
	for _, s := range r.studySections() {
		s.write(b)
	}
}

// sizeVerdict judges figures against a claimed range of factors [lo, hi]
// (a point when lo == hi): holds when every figure lies in the range
// widened by 10 % (a point: within 10 %) and above 1, direction when
// every figure shows the claimed order, above 1 by more than 3 % (a figure
// within 3 % of 1 is level, as orderVerdict has it), but one lies outside,
// notHolds otherwise.
func sizeVerdict(figs []float64, lo, hi float64) string {
	if len(figs) == 0 {
		return untestable
	}
	in, above, ordered := true, true, true
	for _, f := range figs {
		if f < lo/1.1 || f > hi*1.1 {
			in = false
		}
		if f <= 1 {
			above = false
		}
		if f <= tieBand {
			ordered = false
		}
	}
	switch {
	case in && above:
		return holds
	case ordered:
		return direction
	}
	return notHolds
}

// pctVerdict judges fractions (0.4 for "40 % fewer") against a claimed
// range [lo, hi] widened by 5 points: holds when each lies in it,
// direction when each is above 0, notHolds otherwise.
func pctVerdict(figs []float64, lo, hi float64) string {
	if len(figs) == 0 {
		return untestable
	}
	in, ordered := true, true
	for _, f := range figs {
		if f < lo-0.05 || f > hi+0.05 {
			in = false
		}
		if f <= 0 {
			ordered = false
		}
	}
	switch {
	case in && ordered:
		return holds
	case ordered:
		return direction
	}
	return notHolds
}

// orderVerdict judges an order claimed without a size ("A beats B") from
// A's advantage as factors (B's time over A's): holds when every one is
// above 1 by more than 3 %, notHolds when none is, inPart otherwise.
func orderVerdict(figs []float64) string {
	held := 0
	for _, f := range figs {
		if f > tieBand {
			held++
		}
	}
	return countVerdict(held, len(figs))
}

// countVerdict is the verdict of a claim made of parts: holds when every
// part holds, notHolds when none does, inPart otherwise.
func countVerdict(held, of int) string {
	switch {
	case of == 0:
		return untestable
	case held == of:
		return holds
	case held == 0:
		return notHolds
	}
	return inPart
}

// span formats the range of figures as "a–b" with f, or "a" when they
// are one.
func span(figs []float64, f func(float64) string) string {
	if len(figs) == 0 {
		return "—"
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range figs {
		lo, hi = min(lo, v), max(hi, v)
	}
	if f(lo) == f(hi) {
		return f(lo)
	}
	return f(lo) + "–" + f(hi)
}

// spanFewer formats fractions "fewer" (0.4: 40 % fewer; negative: more)
// as a range in words: "15–64 % fewer", "17–29 % more", or "from 122 %
// more to 51 % fewer".
func spanFewer(figs []float64) string {
	if len(figs) == 0 {
		return "—"
	}
	lo, hi := slices.Min(figs), slices.Max(figs)
	num := func(a, b float64) string {
		if fmt.Sprintf("%.0f", 100*a) == fmt.Sprintf("%.0f", 100*b) {
			return fmt.Sprintf("%.0f %%", 100*a)
		}
		return fmt.Sprintf("%.0f–%.0f %%", 100*a, 100*b)
	}
	switch {
	case lo >= 0:
		return num(lo, hi) + " fewer"
	case hi < 0:
		return num(-hi, -lo) + " more"
	}
	return fmt.Sprintf("from %.0f %% more to %.0f %% fewer", -100*lo, 100*hi)
}

func times(v float64) string { return fmt.Sprintf("%.2f×", v) }
func pct(v float64) string   { return fmt.Sprintf("%.0f %%", 100*v) }

// thousands formats v with thousands separators, as the studies print.
func thousands(v float64) string {
	s := fmt.Sprintf("%.0f", v)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var out []string
	for len(s) > 3 {
		out = append([]string{s[len(s)-3:]}, out...)
		s = s[:len(s)-3]
	}
	out = append([]string{s}, out...)
	if neg {
		return "-" + strings.Join(out, ",")
	}
	return strings.Join(out, ",")
}

// level reports whether two times are within 3 % of each other (tieBand).
func level(ratio float64) bool { return ratio <= tieBand && ratio >= 1/tieBand }

// hasLib reports whether the run measured lib in format.
func (r *report) hasLib(format, lib string) bool {
	for _, m := range r.ms {
		if m.c.Format == format && m.c.Lib == lib && m.failure == "" && len(m.ns) > 0 {
			return true
		}
	}
	return false
}

// ratioOf is a's time over b's: paired by rounds when both have them
// (pairedRatio), 0 when either is missing.
func ratioOf(a, b *measurement) float64 {
	if a == nil || b == nil || b.median() == 0 {
		return 0
	}
	return pairedRatio(a, b)
}

// sized finds a case of the payload class size: the size benchmarks'
// row, or for "small" (the lab's default payload) the default row.
func (r *report) sized(format, alg, size, op, lib string) *measurement {
	if m := r.find(format, alg, size, op, lib, false, 1); m != nil {
		return m
	}
	if size == "small" {
		return r.find(format, alg, "", op, lib, false, 1)
	}
	return nil
}
