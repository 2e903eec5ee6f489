package main

import (
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/signet-go/signet/bench/lab"
)

// chart is one written chart: its title and files, relative to the
// report's directory.
type chart struct {
	title    string
	svg, png string
}

// writeCharts draws the headline comparisons: per library ns/op of the
// main operations, and ns/op against payload size.
func (r *report) writeCharts(dir string) ([]chart, error) {
	if err := os.MkdirAll(filepath.Join(dir, "charts"), 0o755); err != nil {
		return nil, err
	}
	var out []chart
	bars := []struct{ format, alg, op string }{
		{"JWT", "HS256", "Sign"}, {"JWT", "HS256", "Verify"}, {"JWT", "EdDSA", "Verify"}, {"JWT", "HS256", "Forged"},
		{"PASETO", "v4.local", "Encrypt"}, {"PASETO", "v4.local", "Decrypt"}, {"PASETO", "v4.public", "Verify"},
		{"JWE", "dir+A256GCM", "Encrypt"}, {"JWE", "dir+A256GCM", "Decrypt"}, {"JWE", "ECDH-ES+A256KW+A256GCM", "Decrypt"},
		{"HTTPSig", "hmac-sha256", "Sign"}, {"HTTPSig", "hmac-sha256", "Verify"}, {"HTTPSig", "ecdsa-p256-sha256", "Verify"},
	}
	for _, c := range bars {
		ch, ok, err := r.barChart(dir, c.format, c.alg, c.op)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, ch)
		}
	}
	for _, c := range []struct{ format, alg, op string }{{"JWT", "HS256", "Verify"}, {"PASETO", "v4.local", "Decrypt"}, {"JWE", "dir+A256GCM", "Decrypt"}} {
		ch, ok, err := r.sizeChart(dir, c.format, c.alg, c.op)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, ch)
		}
	}
	return out, nil
}

// barChart draws ns/op per library (and the floor) for one case.
func (r *report) barChart(dir, format, alg, op string) (chart, bool, error) {
	var names []string
	var values plotter.Values
	for _, l := range r.libs(format) {
		if m := r.find(format, alg, "", op, l, false, 1); m != nil {
			names = append(names, l)
			values = append(values, m.median()/1e3)
		}
	}
	if len(values) < 2 {
		return chart{}, false, nil
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s %s %s: µs per operation (lower is better)", format, alg, op)
	p.Y.Label.Text = "µs/op"
	bc, err := plotter.NewBarChart(values, vg.Points(28))
	if err != nil {
		return chart{}, false, err
	}
	bc.Color = color.RGBA{R: 70, G: 110, B: 190, A: 255}
	bc.LineStyle.Width = 0
	p.Add(bc)
	p.NominalX(names...)
	base := fmt.Sprintf("%s-%s-%s", strings.ToLower(format), alg, strings.ToLower(op))
	return r.save(dir, p, base, p.Title.Text, vg.Points(float64(120+70*len(names))), 4*vg.Inch)
}

// sizeChart draws ns/op against the payload size class, one line per
// library, on log scales.
func (r *report) sizeChart(dir, format, alg, op string) (chart, bool, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s %s %s by payload size (µs, log scale)", format, alg, op)
	p.Y.Label.Text = "µs/op"
	p.X.Label.Text = "payload class: tiny 50 B … verylarge 500 KiB"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{}
	lines := 0
	for i, l := range r.libs(format) {
		var pts plotter.XYs
		for j, size := range lab.Sizes {
			if m := r.find(format, alg, size, op, l, false, 1); m != nil {
				pts = append(pts, plotter.XY{X: float64(j), Y: m.median() / 1e3})
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
		p.Legend.Add(l, line, points)
		lines++
	}
	if lines < 2 {
		return chart{}, false, nil
	}
	p.Legend.Top = false
	p.Legend.Left = true
	p.NominalX(lab.Sizes...)
	base := fmt.Sprintf("%s-%s-%s-size", strings.ToLower(format), alg, strings.ToLower(op))
	return r.save(dir, p, base, p.Title.Text, 7*vg.Inch, 4.5*vg.Inch)
}

func (r *report) save(dir string, p *plot.Plot, base, title string, w, h vg.Length) (chart, bool, error) {
	c := chart{title: title, svg: "charts/" + base + ".svg", png: "charts/" + base + ".png"}
	for _, f := range []string{c.svg, c.png} {
		if err := p.Save(w, h, filepath.Join(dir, f)); err != nil {
			return chart{}, false, err
		}
	}
	return c, true, nil
}
