package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
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
	// serveOps is signet serve's Redis commands per request, when measured.
	serveOps *serveOps
}

func newReport(cfg config, ms []load.Measurement, started time.Time) *report {
	return &report{cfg: cfg, ms: ms, started: started, env: environment()}
}

// when is the run's start, as HTTP.md gives it.
func (r *report) when() string {
	if r.started.IsZero() {
		return "start not recorded"
	}
	return r.started.UTC().Format("2006-01-02 15:04 UTC")
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
	if err := mergeResults(filepath.Join(dir, "results.json"), r.records(), r.cfg.only != ""); err != nil {
		return err
	}
	return r.writeMarkdown(dir)
}

// writeMarkdown writes the charts and HTTP.md into dir, and links HTTP.md
// from the lab's REPORT.md there.
func (r *report) writeMarkdown(dir string) error {
	charts, err := r.writeCharts(dir)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	r.markdown(&b, charts)
	if err := os.WriteFile(filepath.Join(dir, "HTTP.md"), b.Bytes(), 0o644); err != nil {
		return err
	}
	return linkFromLabReport(dir)
}

// labLink is the line REPORT.md (the lab's, make report) links HTTP.md by.
const labLink = "[HTTP.md](HTTP.md)"

// linkFromLabReport appends a link to HTTP.md to the lab's REPORT.md in
// dir when one exists without it (a make report run before the first make
// load; later lab runs write the link themselves).
func linkFromLabReport(dir string) error {
	path := filepath.Join(dir, "REPORT.md")
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if bytes.Contains(data, []byte(labLink)) {
		return nil
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(f, "\n**The HTTP lab** (`make load`): %s.\n", labLink)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func (r *report) markdown(b *bytes.Buffer, charts []chart) {
	fmt.Fprintf(b, "# The HTTP lab\n\n")
	fmt.Fprintf(b, "signet's token handlers, `signet serve` and `signet guard` under `wrk`, beside a `/hello` baseline measured in the same rounds; then faults under load. `make load` (quick) or `make load-full`; the records are the suites `http` and `http-faults` of results.json.\n\n")
	fmt.Fprintf(b, "Run: %s, %s, %d rounds of %v measured after %v of warm-up per run (servers started afresh for every run), a baseline run before every %d scenarios of a round; %s.\n\n",
		r.cfg.mode, r.when(), r.cfg.opt.Rounds, r.cfg.opt.Duration, r.cfg.opt.Warmup, max(r.cfg.opt.BaselineEvery, 1), r.env.String())
	fmt.Fprintf(b, "Setup: the server on CPU 0 with GOMAXPROCS=1 (unless a row says otherwise), wrk (Debian %s) on CPU 1, `-t1 -c10 --latency` (the study's -c10), 127.0.0.1. Figures are medians over the rounds; \"× base\" is the median of the per-round ratios to the baseline run just before; CPU is the server's utime+stime per request (/proc, all its processes the row names), \"server busy\" that CPU over the run's time (one core is 100%%: well below it, wrk or the machine limited the run, and its requests/s understate the server); RSS is the peak (VmHWM).\n\n", r.env.Wrk)
	fmt.Fprintf(b, "Idle CPUs: %s. %s\n\n", r.idleName(), r.idleWhy())
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
		fmt.Fprintf(b, "| scenario | req/s | × base | P50 ms | P90 ms | P99 ms | P99.9 ms | P99 × base | CPU µs/req | server busy | peak RSS MiB | errors | non-2xx | rounds |\n")
		fmt.Fprintf(b, "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
		for _, m := range r.ms {
			if m.Group != g || m.Suite != "http" {
				continue
			}
			if m.Rounds == 0 {
				fmt.Fprintf(b, "| %s | failed: %s | | | | | | | | | | | | 0 |\n", m.Scenario, mdEscape(m.Error))
				continue
			}
			base := ""
			p99base := ""
			if m.Baseline != "" {
				base = "– (" + m.Baseline + ")"
				if m.RatioRPS > 0 {
					base = fmt.Sprintf("%.2f (%s)", m.RatioRPS, m.Baseline)
				}
				p99base = "–"
				if m.RatioP99 > 0 {
					p99base = fmt.Sprintf("%.2f", m.RatioP99)
				}
			}
			fmt.Fprintf(b, "| %s | %s | %s | %.3f | %.3f | %.3f | %.3f | %s | %.1f | %.0f%% | %.1f | %d | %d | %d |\n",
				m.Scenario, fmtRPS(m.RPS), base, m.P50, m.P90, m.P99, m.P999, p99base, m.CPUPerReqNS/1e3, busy(m)*100, float64(m.PeakRSS)/(1<<20), m.Errors, m.Non2xx, m.Rounds)
		}
		var notes []string
		for _, m := range r.ms {
			if n := m.Labels["note"]; m.Group == g && m.Suite == "http" && n != "" && !slices.Contains(notes, n) {
				notes = append(notes, n)
				fmt.Fprintf(b, "\nNote (%s): %s\n", m.Scenario, mdEscape(n))
			}
		}
		for _, m := range r.ms {
			if m.Group == g && m.Suite == "http" && m.Rounds > 0 && m.Error != "" {
				fmt.Fprintf(b, "\n%s: some rounds failed: %s\n", m.Scenario, mdEscape(m.Error))
			}
		}
		fmt.Fprintln(b)
	}
}

// busy is the share of one core the server's processes used during the
// measured runs (requests/s × CPU per request): near 100% (per core it
// was given) the server was the bottleneck; well below, wrk or the
// machine was, and requests/s understate what the server can do.
func busy(m load.Measurement) float64 { return m.RPS * m.CPUPerReqNS / 1e9 }

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

// idleName is how idle CPUs waited during the run, as HTTP.md says it.
func (r *report) idleName() string {
	switch {
	case r.cfg.idle == "poll":
		return "poll (`/dev/cpu_dma_latency` held at 0 during the run, as tuned's latency-performance profile does; `--idle halt` measures without)"
	case r.cfg.idle == "":
		return "not recorded (a run before the lab held them polling: halt)"
	default:
		return r.cfg.idle
	}
}

// idleWhy says what the idle setting does to the figures.
func (r *report) idleWhy() string {
	const why = "On a virtual machine, waking a halted vCPU exits to the hypervisor, and the kernel bills it to the process that wakes it: when a handler is slow, wrk waits idle between responses, and each response the server writes pays that wake-up as system time (about 12 µs per request on the lab's machine), which /hello, keeping wrk busy, never pays."
	if r.cfg.idle == "poll" {
		return why + " With idle CPUs polling, the server's CPU per request is its own work."
	}
	return why + " That charge is in this run's figures of every slow handler: the bound targets then read low (the floor rows show by how much)."
}
