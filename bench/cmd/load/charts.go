package main

import (
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/signet-go/signet/bench/load/study"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// chart is one written chart: its title and files, relative to the
// report's directory (as the lab's report has them).
type chart struct {
	title    string
	svg, png string
}

// chartAlgs is the order of the algorithms in the QPS chart.
var chartAlgs = []string{"HS256", "RS256", "PS256", "ES256", "EdDSA", "v4.local", "v4.public"}

// writeCharts draws the QPS-by-algorithm chart, the study's figures beside
// this run's, and the latency percentiles (SVG and PNG, gonum/plot as the
// lab's charts).
func (r *report) writeCharts(dir string) ([]chart, error) {
	if err := os.MkdirAll(filepath.Join(dir, "charts"), 0o755); err != nil {
		return nil, err
	}
	var out []chart
	for _, f := range []func(string) (chart, bool, error){r.qpsChart, r.studyChart, r.latencyChart} {
		c, ok, err := f(dir)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, c)
		}
	}
	return out, nil
}

// series is one bar series: a label and a value per category.
type series struct {
	label  string
	values []float64
}

// barChart draws grouped bars: one group per category, one bar per series.
func barChart(title, ylabel string, cats []string, ss []series, hline float64, hlabel string) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = ylabel
	w := vg.Points(float64(min(18, 72/max(len(ss), 1))))
	for i, s := range ss {
		bc, err := plotter.NewBarChart(plotter.Values(s.values), w)
		if err != nil {
			return nil, err
		}
		bc.Color = plotutil.Color(i)
		bc.LineStyle.Width = 0
		bc.Offset = w * vg.Length(float64(i)-float64(len(ss)-1)/2)
		p.Add(bc)
		p.Legend.Add(s.label, bc)
	}
	if hline > 0 {
		l, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: hline}, {X: float64(len(cats)) - 0.5, Y: hline}})
		if err != nil {
			return nil, err
		}
		l.Color = color.RGBA{R: 90, G: 90, B: 90, A: 255}
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(l)
		p.Legend.Add(hlabel, l)
	}
	top := hline
	for _, s := range ss {
		for _, v := range s.values {
			top = max(top, v)
		}
	}
	// Room above the bars for the legend (one line per series).
	p.Y.Min, p.Y.Max = 0, top*(1.15+0.09*float64(len(ss)+1))
	p.Legend.Top = true
	p.NominalX(cats...)
	return p, nil
}

// qpsChart: requests/s of the issue and check handlers per algorithm and
// library (the study's shape), with /hello as a dashed line.
func (r *report) qpsChart(dir string) (chart, bool, error) {
	var cats []string
	for _, a := range chartAlgs {
		if r.measuredAlg(a) {
			cats = append(cats, a)
		}
	}
	if len(cats) == 0 {
		return chart{}, false, nil
	}
	// Four series: signet and its peer (golang-jwt for JWT, go-paseto for
	// PASETO: whichever was measured for the algorithm), issue and check.
	var ss []series
	for _, op := range []string{"issue", "check"} {
		for _, peer := range []bool{false, true} {
			var names []string
			s := series{}
			n := 0
			for _, a := range cats {
				v := 0.0
				for _, lib := range r.studyLibs() {
					if (lib == "signet") == peer {
						continue
					}
					if m := r.find(op + "/" + a + "/" + lib); m != nil && m.Rounds > 0 {
						v, n = m.RPS, n+1
						if !slices.Contains(names, lib) {
							names = append(names, lib)
						}
						break
					}
				}
				s.values = append(s.values, v)
			}
			s.label = op + " " + strings.Join(names, " / ")
			if n > 0 {
				ss = append(ss, s)
			}
		}
	}
	hello := r.helloRPS()
	p, err := barChart("requests/s by algorithm: a token issued or checked per request (one core)", "requests/s", cats, ss, hello, "/hello")
	if err != nil {
		return chart{}, false, err
	}
	return save(dir, p, "http-qps-by-alg", p.Title.Text, vg.Points(float64(200+90*len(cats))), 4.5*vg.Inch)
}

// studyBaseline is the study rows' baseline: /hello POSTed the study's
// body (load.StudyHello); "hello" (a GET) stands in when it was not run.
const studyBaseline = "hello/post"

// helloRPS is the requests/s of the study rows' baseline.
func (r *report) helloRPS() float64 {
	for _, n := range []string{studyBaseline, "hello"} {
		if v := r.rps(n); v > 0 {
			return v
		}
	}
	return 0
}

// measuredAlg reports whether any study row of alg was measured.
func (r *report) measuredAlg(alg string) bool {
	for _, m := range r.ms {
		if m.Rounds > 0 && labels(m)["alg"] == alg && (labels(m)["op"] == "issue" || labels(m)["op"] == "check") {
			return true
		}
	}
	return false
}

// studyLibs lists the libraries of the study rows, signet first; the
// floor (the raw primitive, no library) is not one.
func (r *report) studyLibs() []string {
	var out []string
	for _, m := range r.ms {
		l := labels(m)
		if (l["op"] == "issue" || l["op"] == "check") && l["lib"] != "" && l["lib"] != study.LibFloor && !slices.Contains(out, l["lib"]) {
			out = append(out, l["lib"])
		}
	}
	slices.SortStableFunc(out, func(a, b string) int {
		switch {
		case a == "signet" && b != "signet":
			return -1
		case b == "signet" && a != "signet":
			return 1
		}
		return 0
	})
	return out
}

// studyChart: the study's requests/s (its machine) beside this run's for
// the algorithms it measured.
func (r *report) studyChart(dir string) (chart, bool, error) {
	var cats []string
	study := series{label: "the study: golang-jwt issue (i7-11800H, cores not pinned)"}
	ours := map[string]*series{}
	var order []string
	for _, f := range studyFigures {
		if f.Table != "ch1" {
			continue
		}
		cats = append(cats, f.Alg)
		study.values = append(study.values, f.QPS)
		for _, lib := range r.studyLibs() {
			if ours[lib] == nil {
				ours[lib] = &series{label: "this machine: " + lib + " issue, one core"}
				order = append(order, lib)
			}
			v := 0.0
			if m := r.find("issue/" + f.Alg + "/" + lib); m != nil && m.Rounds > 0 {
				v = m.RPS
			}
			ours[lib].values = append(ours[lib].values, v)
		}
	}
	ss := []series{study}
	for _, lib := range order {
		if slices.ContainsFunc(ours[lib].values, func(v float64) bool { return v > 0 }) {
			ss = append(ss, *ours[lib])
		}
	}
	if len(ss) < 2 {
		return chart{}, false, nil
	}
	hello := r.helloRPS()
	p, err := barChart("issue endpoint, requests/s: the study's figures beside this run", "requests/s", cats, ss, hello, "/hello, this machine")
	if err != nil {
		return chart{}, false, err
	}
	return save(dir, p, "http-study-beside", p.Title.Text, 7*vg.Inch, 4.5*vg.Inch)
}

// latencyRows picks the rows of the latency chart: hello, then the
// headline rows measured, at most eight.
func (r *report) latencyRows() []string {
	want := []string{studyBaseline, "hello", "issue/HS256/signet", "check/HS256/signet", "issue/ES256/signet", "check/ES256/signet",
		"issue/HS256/golang-jwt", "token/ES256/signet-serve", "introspect/ES256/signet-serve", "proxy", "guard-nocache/ES256/signet-guard", "guard-cache/ES256/signet-guard"}
	var out []string
	for _, n := range want {
		if m := r.find(n); m != nil && m.Rounds > 0 && m.Suite == "http" && len(out) < 8 {
			out = append(out, n)
		}
	}
	return out
}

// latencyChart: P50, P90, P99, P99.9 per row, log scale.
func (r *report) latencyChart(dir string) (chart, bool, error) {
	rows := r.latencyRows()
	if len(rows) == 0 {
		return chart{}, false, nil
	}
	p := plot.New()
	p.Title.Text = "latency percentiles under wrk -c10 (ms, log scale)"
	p.Y.Label.Text = "ms"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.TickerFunc(logTicks125)
	for i, n := range rows {
		m := r.find(n)
		var pts plotter.XYs
		for j, v := range []float64{m.P50, m.P90, m.P99, m.P999} {
			if v > 0 {
				pts = append(pts, plotter.XY{X: float64(j), Y: v})
			}
		}
		if len(pts) < 2 {
			continue
		}
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return chart{}, false, err
		}
		line.Color, points.Color = plotutil.Color(i), plotutil.Color(i)
		points.Shape = plotutil.Shape(i)
		p.Add(line, points)
		p.Legend.Add(n, line, points)
	}
	// Latencies grow to the right: the bottom right is free for the legend.
	p.Legend.Top, p.Legend.Left = false, false
	p.NominalX("P50", "P90", "P99", "P99.9")
	return save(dir, p, "http-latency", p.Title.Text, 7*vg.Inch, 4.5*vg.Inch)
}

func save(dir string, p *plot.Plot, base, title string, w, h vg.Length) (chart, bool, error) {
	c := chart{title: title, svg: "charts/" + base + ".svg", png: "charts/" + base + ".png"}
	for _, f := range []string{c.svg, c.png} {
		if err := p.Save(w, h, filepath.Join(dir, f)); err != nil {
			return chart{}, false, fmt.Errorf("chart %s: %w", f, err)
		}
	}
	return c, true, nil
}

// logTicks125 labels 1, 2 and 5 of every decade in [lo, hi] (ms).
func logTicks125(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for d := 1e-3; d <= 1e5; d *= 10 {
		for _, k := range []float64{1, 2, 5} {
			if v := d * k; v >= lo*0.999 && v <= hi*1.001 {
				ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', 4, 64)})
			}
		}
	}
	return ts
}
