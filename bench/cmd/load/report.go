package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/signet-go/signet/bench/load"
)

// report is a run's measurements and what HTTP.md says about them.
type report struct {
	cfg     config
	ms      []load.Measurement
	started time.Time
	env     envInfo
	redis   *redisCap // one Redis's capacity, when measured
}

func newReport(cfg config, ms []load.Measurement, started time.Time) *report {
	return &report{cfg: cfg, ms: ms, started: started, env: environment()}
}

// find returns the measurement of a scenario, or nil.
func (r *report) find(name string) *load.Measurement {
	for i := range r.ms {
		if r.ms[i].Scenario == name {
			return &r.ms[i]
		}
	}
	return nil
}

// write writes results.json (merged), the charts and HTTP.md into dir.
func (r *report) write(dir string) error {
	if err := mergeResults(filepath.Join(dir, "results.json"), r.ms, r.cfg.only != ""); err != nil {
		return err
	}
	charts, err := r.writeCharts(dir)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	r.markdown(&b, charts)
	return os.WriteFile(filepath.Join(dir, "HTTP.md"), b.Bytes(), 0o644)
}

func (r *report) markdown(b *bytes.Buffer, charts []chart) {
	fmt.Fprintf(b, "# The HTTP lab\n\n")
	fmt.Fprintf(b, "signet's token handlers, `signet serve` and `signet guard` under `wrk`, beside a `/hello` baseline measured in the same rounds; then faults under load. `make load` (quick) or `make load-full`; the records are the suites `http` and `http-faults` of results.json.\n\n")
	fmt.Fprintf(b, "Run: %s, %s, %d rounds of %v measured after %v of warm-up per run (servers started afresh for every run), a baseline run before every %d scenarios of a round; %s.\n\n",
		r.cfg.mode, r.started.UTC().Format("2006-01-02 15:04 UTC"), r.cfg.opt.Rounds, r.cfg.opt.Duration, r.cfg.opt.Warmup, max(r.cfg.opt.BaselineEvery, 1), r.env.String())
	fmt.Fprintf(b, "Setup: the server on CPU 0 with GOMAXPROCS=1 (unless a row says otherwise), wrk (Debian %s) on CPU 1, `-t1 -c10 --latency` (the study's -c10), 127.0.0.1. Figures are medians over the rounds; \"× base\" is the median of the per-round ratios to the baseline run just before; CPU is the server's utime+stime per request (/proc, all its processes the row names); RSS is the peak (VmHWM).\n\n", r.env.Wrk)
	r.targetsSection(b)
	r.groupTables(b)
	r.chartsSection(b, charts)
	r.studySection(b)
	r.faultsSection(b)
	r.scaleSection(b)
}

// groupOrder is the order of the report's tables.
var groupOrder = []string{"baseline", "study", "payload", "runtime", "serve", "guard", "middleware"}

func (r *report) groups() []string {
	seen := map[string]bool{}
	var out []string
	for _, g := range groupOrder {
		for _, m := range r.ms {
			if m.Group == g && m.Suite == "http" && !seen[g] {
				seen[g] = true
				out = append(out, g)
			}
		}
	}
	for _, m := range r.ms {
		if m.Suite == "http" && !seen[m.Group] {
			seen[m.Group] = true
			out = append(out, m.Group)
		}
	}
	return out
}

func (r *report) groupTables(b *bytes.Buffer) {
	fmt.Fprintf(b, "## Measurements\n\n")
	for _, g := range r.groups() {
		fmt.Fprintf(b, "### %s\n\n", g)
		fmt.Fprintf(b, "| scenario | req/s | × base | P50 ms | P90 ms | P99 ms | P99.9 ms | P99 × base | CPU µs/req | peak RSS MiB | errors | non-2xx | rounds |\n")
		fmt.Fprintf(b, "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
		for _, m := range r.ms {
			if m.Group != g || m.Suite != "http" {
				continue
			}
			if m.Rounds == 0 {
				fmt.Fprintf(b, "| %s | failed: %s | | | | | | | | | | | 0 |\n", m.Scenario, mdEscape(m.Error))
				continue
			}
			base := ""
			p99base := ""
			if m.Baseline != "" {
				base = fmt.Sprintf("%.2f (%s)", m.RatioRPS, m.Baseline)
				p99base = fmt.Sprintf("%.2f", m.RatioP99)
			}
			fmt.Fprintf(b, "| %s | %s | %s | %.3f | %.3f | %.3f | %.3f | %s | %.1f | %.1f | %d | %d | %d |\n",
				m.Scenario, fmtRPS(m.RPS), base, m.P50, m.P90, m.P99, m.P999, p99base, m.CPUPerReqNS/1e3, float64(m.PeakRSS)/(1<<20), m.Errors, m.Non2xx, m.Rounds)
		}
		for _, m := range r.ms {
			if m.Group == g && m.Suite == "http" && m.Rounds > 0 && m.Error != "" {
				fmt.Fprintf(b, "\n%s: some rounds failed: %s\n", m.Scenario, mdEscape(m.Error))
			}
		}
		fmt.Fprintln(b)
	}
}

func fmtRPS(v float64) string {
	s := fmt.Sprintf("%.0f", v)
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

func mdEscape(s string) string {
	s = strings.ReplaceAll(s, "|", "\\|")
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
