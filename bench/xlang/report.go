package xlang

import (
	"cmp"
	"fmt"
	"image/color"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// The targets: signet at every core against jsonwebtoken (each
// backend) and jjwt at the same worker count.
var targets = []struct {
	lang, lib string
	want      float64
}{
	{"rust", "jsonwebtoken-rust_crypto", 2.2},
	{"rust", "jsonwebtoken-aws_lc_rs", 2},
	{"java", "jjwt", 3},
}

// Rank orders a round's programs: signet first, then the peers its
// targets name (in the order of the targets), then the others. The runner
// runs each worker count's programs in this order, so that signet's run and
// a target peer's of the same round are seconds apart rather than the
// length of a round (Java's and Python's runs take minutes): the paired
// per-round ratio then compares runs made under the same machine load.
func Rank(lang, lib string) int {
	if lang == "go" && lib == "signet" {
		return 0
	}
	for i, tg := range targets {
		if tg.lang == lang && tg.lib == lib {
			return 1 + i
		}
	}
	return 1 + len(targets)
}

// measured are the records of libraries that ran.
func measured(recs []Record) []Record {
	var out []Record
	for _, r := range recs {
		if r.Suite == "xlang" && r.Skipped == "" && r.Error == "" && r.OpsPerS > 0 {
			out = append(out, r)
		}
	}
	return out
}

// workerCounts lists the worker counts measured: "1 and 2".
func workerCounts(recs []Record) string {
	var ts []int
	for _, r := range recs {
		if !slices.Contains(ts, r.Threads) {
			ts = append(ts, r.Threads)
		}
	}
	slices.Sort(ts)
	var parts []string
	for _, t := range ts {
		parts = append(parts, strconv.Itoa(t))
	}
	if len(parts) <= 1 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// maxThreads is the largest worker count measured: one per core.
func maxThreads(recs []Record) int {
	m := 0
	for _, r := range recs {
		m = max(m, r.Threads)
	}
	return m
}

func find(recs []Record, lang, lib string, threads int) *Record {
	for i := range recs {
		if recs[i].Lang == lang && recs[i].Lib == lib && recs[i].Threads == threads {
			return &recs[i]
		}
	}
	return nil
}

func fmtRate(v float64) string {
	switch {
	case v >= 1e6:
		return strconv.FormatFloat(v/1e6, 'f', 2, 64) + "M"
	case v >= 1e3:
		return strconv.FormatFloat(v/1e3, 'f', 1, 64) + "k"
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}

// Markdown is the report's section on the scenario: one row per library
// and worker count, the targets, what was skipped and why. chart names
// the chart's PNG and SVG, relative to the report ("" for none).
func Markdown(recs []Record, chartPNG, chartSVG string) string {
	var b strings.Builder
	b.WriteString("## Cross-language: HS256 sign + verify (the 1M scenario)\n\n")
	ok := measured(recs)
	if len(ok) == 0 {
		b.WriteString("Not measured in this run (`make xlang` writes out/xlang/results.json; the report includes it when present).\n\n")
		return b.String()
	}
	n, scaled := 0, 0
	for _, r := range ok {
		n = max(n, r.N)
	}
	for _, r := range ok {
		if r.Scaled && r.N > 0 {
			scaled = r.N
		}
	}
	if run := ok[0].Run; run != "" {
		fmt.Fprintf(&b, "Run: %s.\n\n", run)
	}
	fmt.Fprintf(&b, "Each iteration picks the next of 100,000 seeded addresses, builds {sub, iat, exp = iat + 2 h}, signs HS256, verifies and decodes the token (exp required) and compares sub "+
		"(bench/xlang/README.md). Each program ran %d iterations", n)
	if scaled > 0 {
		fmt.Fprintf(&b, " (rows marked * ran %d: the rate is what counts)", scaled)
	}
	fmt.Fprintf(&b, ", at %s workers, the programs interleaved (A B C … A B C …) for %d rounds, each round one worker count after the other with signet and the peers its targets name first, so that a target compares runs seconds apart; JWT/s is the median of the rounds, the range in brackets, and a target is judged on the median of the rounds' ratios. "+
		"A worker is a goroutine (GOMAXPROCS = workers), an OS thread (Rust), a virtual or platform thread (Java), a worker thread (Node), a process (Python); "+
		"with one worker, a runtime's own threads (the JVM's JIT and GC, Node's) may still use another core, which the CPU column shows. "+
		"Wall and CPU are the whole process's (start-up, reading the list, warm-up); peak RSS is the program's own VmHWM (for Python, its processes' peaks added up: an upper bound, pages shared copy-on-write counted in each); medians.\n\n",
		workerCounts(ok), ok[0].Runs)
	b.WriteString("| language | library | version | runtime | workers | JWT/s | range | signet ÷ it | wall s | CPU s | peak RSS MiB |\n|---|---|---|---|---:|---:|---|---:|---:|---:|---:|\n")
	rows := slices.Clone(ok)
	slices.SortStableFunc(rows, func(a, b Record) int {
		if a.Threads != b.Threads {
			return a.Threads - b.Threads
		}
		return cmp.Compare(b.OpsPerS, a.OpsPerS)
	})
	for _, r := range rows {
		lib := r.Lib
		if r.Scaled {
			lib += " *"
		}
		rt := r.Runtime
		if r.Threading != "" {
			rt += ", " + r.Threading + " threads"
		}
		ratio := "—"
		if s := find(ok, "go", "signet", r.Threads); s != nil && !(r.Lang == "go" && r.Lib == "signet") {
			ratio = fmt.Sprintf("%.2f×", s.OpsPerS/r.OpsPerS)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %d | %s | %s–%s | %s | %.2f | %.2f | %.0f |\n",
			r.Lang, lib, r.LibVersion, rt, r.Threads, fmtRate(r.OpsPerS), fmtRate(r.MinOpsPerS), fmtRate(r.MaxOpsPerS), ratio, r.WallS, r.CPUS, r.PeakRSSMiB)
	}
	b.WriteString("\n")
	if chartPNG != "" {
		fmt.Fprintf(&b, "![JWT/s by library and workers](%s) ([SVG](%s))\n\n", chartPNG, chartSVG)
	}
	b.WriteString(TargetLines(recs))
	for _, r := range recs {
		if r.Skipped != "" {
			fmt.Fprintf(&b, "- %s %s: skipped, %s\n", r.Lang, r.Lib, r.Skipped)
		} else if r.Error != "" {
			fmt.Fprintf(&b, "- %s %s at %d workers: failed, %s\n", r.Lang, r.Lib, r.Threads, r.Error)
		}
	}
	b.WriteString("\n")
	return b.String()
}

// Target is one of the targets judged against a run.
type Target struct {
	Name   string // "signet ≥ 2× jsonwebtoken-rust_crypto at one worker per core"
	Got    string // "2.02× (rounds 1.90–2.13; 816.0k vs 383.9k JWT/s)", or why it was not judged
	Judged bool   // both sides were measured
	Met    bool
}

// Targets judges the targets: signet at one worker per core
// against each target library at the same worker count. The ratio is the
// median of the rounds' ratios, each round's signet run against the same
// round's peer run (the rounds are interleaved), so that a slow spell of
// the machine cancels out; the range says how far the rounds spread.
func Targets(recs []Record) []Target {
	ok := measured(recs)
	t := maxThreads(ok)
	s := find(ok, "go", "signet", t)
	var out []Target
	for _, tg := range targets {
		res := Target{Name: fmt.Sprintf("signet ≥ %g× %s at one worker per core", tg.want, tg.lib)}
		p := find(ok, tg.lang, tg.lib, t)
		switch {
		case s == nil:
			res.Got = "not judged: signet not measured"
		case p == nil:
			res.Got = "not judged: " + tg.lib + " not measured (see the list below the table)"
		default:
			var ratios []float64
			for i := range min(len(s.Rounds), len(p.Rounds)) {
				if p.Rounds[i] > 0 {
					ratios = append(ratios, s.Rounds[i]/p.Rounds[i])
				}
			}
			if len(ratios) == 0 {
				ratios = []float64{s.OpsPerS / p.OpsPerS}
			}
			r := median(ratios)
			res.Judged, res.Met = true, r >= tg.want
			res.Got = fmt.Sprintf("%.2f× at %d workers (rounds %.2f–%.2f×; medians %s vs %s JWT/s)",
				r, t, slices.Min(ratios), slices.Max(ratios), fmtRate(s.OpsPerS), fmtRate(p.OpsPerS))
		}
		out = append(out, res)
	}
	return out
}

// TargetLines states Targets as a Markdown list.
func TargetLines(recs []Record) string {
	var b strings.Builder
	for _, t := range Targets(recs) {
		mark := "—"
		switch {
		case t.Met:
			mark = "✅"
		case t.Judged:
			mark = "❌"
		}
		fmt.Fprintf(&b, "- Target %s: %s %s\n", t.Name, t.Got, mark)
	}
	return b.String()
}

// WriteChart draws JWT/s per library, single-threaded and at every core,
// as dir/base.svg and dir/base.png. It reports false when nothing was
// measured.
func WriteChart(dir, base string, recs []Record) (bool, error) {
	ok := measured(recs)
	if len(ok) == 0 {
		return false, nil
	}
	t := maxThreads(ok)
	type lib struct{ lang, name string }
	var libs []lib
	for _, r := range ok {
		if !slices.Contains(libs, lib{r.Lang, r.Lib}) {
			libs = append(libs, lib{r.Lang, r.Lib})
		}
	}
	rate := func(l lib, threads int) float64 {
		if r := find(ok, l.lang, l.name, threads); r != nil {
			return r.OpsPerS / 1e3
		}
		return 0
	}
	slices.SortStableFunc(libs, func(a, b lib) int { return cmp.Compare(rate(b, t), rate(a, t)) })
	var names []string
	one, all := make(plotter.Values, len(libs)), make(plotter.Values, len(libs))
	for i, l := range libs {
		names = append(names, l.lang+"\n"+l.name)
		one[i], all[i] = rate(l, 1), rate(l, t)
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("HS256 sign + verify: thousand JWT/s, median (higher is better; 1 and %d workers)", t)
	p.Y.Label.Text = "thousand JWT/s"
	w := vg.Points(16)
	b1, err := plotter.NewBarChart(one, w)
	if err != nil {
		return false, err
	}
	b1.Color, b1.LineStyle.Width, b1.Offset = color.RGBA{R: 150, G: 170, B: 210, A: 255}, 0, -w/2
	b2, err := plotter.NewBarChart(all, w)
	if err != nil {
		return false, err
	}
	b2.Color, b2.LineStyle.Width, b2.Offset = color.RGBA{R: 40, G: 80, B: 170, A: 255}, 0, w/2
	p.Add(b1, b2)
	p.Legend.Add("1 worker", b1)
	p.Legend.Add(fmt.Sprintf("%d workers", t), b2)
	p.Legend.Top = true
	p.NominalX(names...)
	p.X.Tick.Label.Font.Size = vg.Points(7)
	width := vg.Points(float64(140 + 75*len(libs)))
	for _, ext := range []string{".svg", ".png"} {
		if err := p.Save(width, 4.5*vg.Inch, filepath.Join(dir, base+ext)); err != nil {
			return false, err
		}
	}
	return true, nil
}
