// Command load is the HTTP lab's driver (`make load`, `make load-full`,
// `signet bench --http`): it builds the real signet CLI and the scenario
// server, runs every scenario under wrk in interleaved rounds beside its
// baseline (package load), and writes out/report/HTTP.md, its charts and
// the suites "http" and "http-faults" of out/report/results.json (the
// lab's other records are kept).
//
//	go run ./cmd/load --quick                 (make load: a few minutes)
//	go run ./cmd/load --full                  (make load-full)
//	go run ./cmd/load --list                  the scenarios and the run order
//	go run ./cmd/load --quick --only study    one group (or one scenario, or a glob of names)
//	go run ./cmd/load --from ../docs/results/results.json --out /tmp/r   HTTP.md again from a run's records
//
// Servers run on CPU 0 with GOMAXPROCS=1 unless a scenario says otherwise,
// wrk on CPU 1 (taskset). Progress and an ETA go to stderr.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"
	"time"

	"github.com/signet-go/signet/bench/load"
)

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
}

// config is a run's settings.
type config struct {
	mode string // "quick" or "full"
	out  string
	root string // the repository's root (cmd/signet is built there)
	bin  string // prebuilt binaries ("" = build them)
	only string
	list bool
	from string // re-render HTTP.md from this results.json
	// idle is how idle CPUs wait during the run: "poll" (asked for with
	// --idle poll, the default, and granted), "halt" (--idle halt), or
	// "halt (…)" when polling was asked for and refused.
	idle string
	opt  load.Options
}

func parse(args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	quick := fs.Bool("quick", false, "the quick run (the default): the short lists, 3 rounds of 1 s after 1 s of warm-up per run; a few minutes")
	full := fs.Bool("full", false, "every scenario, 5 rounds of 3 s after 1 s of warm-up per run (about 50 minutes)")
	out := fs.String("out", "../out/report", "`directory` for HTTP.md, charts and results.json")
	root := fs.String("root", "..", "the repository's root `directory` (cmd/signet is built there)")
	bin := fs.String("bin", "", "`directory` of prebuilt signet and loadsrv binaries (default: build them into a temporary directory)")
	only := fs.String("only", "", "run one group, or the scenarios whose name matches (a name, a name prefix before /, or a glob such as 'issue/*/signet'); their baselines come along")
	list := fs.Bool("list", false, "list the scenarios and the order of the runs, and exit")
	from := fs.String("from", "", "write HTTP.md and the charts again from a results.json `file` of an earlier run (its http suites), running nothing")
	rounds := fs.Int("rounds", 0, "rounds (overrides the mode's)")
	duration := fs.Duration("duration", 0, "measured wrk run per scenario and round, whole seconds (overrides the mode's)")
	warmup := fs.Duration("warmup", 0, "warm-up per run, whole seconds; -1s for none (overrides the mode's)")
	every := fs.Int("baseline-every", 0, "a baseline run serves this many scenarios of a round (default 4; 1 pairs every run)")
	idle := fs.String("idle", "poll", "how idle CPUs wait during the run: poll (hold /dev/cpu_dma_latency at 0, as tuned's latency-performance profile does; needs root) or halt (the kernel's default)")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *idle != "poll" && *idle != "halt" {
		return config{}, fmt.Errorf("--idle %q: poll or halt", *idle)
	}
	if *quick && *full {
		return config{}, errors.New("--quick and --full together")
	}
	cfg := config{mode: "quick", out: *out, root: *root, bin: *bin, only: *only, list: *list, from: *from, idle: *idle,
		opt: load.Options{Rounds: 3, Warmup: time.Second, Duration: time.Second}}
	if *full {
		cfg.mode = "full"
		cfg.opt = load.Options{Rounds: 5, Warmup: time.Second, Duration: 3 * time.Second}
	}
	if *rounds > 0 {
		cfg.opt.Rounds = *rounds
	}
	if *duration > 0 {
		cfg.opt.Duration = *duration
	}
	if *warmup != 0 {
		cfg.opt.Warmup = *warmup
	}
	cfg.opt.BaselineEvery = 4
	if *every > 0 {
		cfg.opt.BaselineEvery = *every
	}
	return cfg, nil
}

func run(args []string, stderr io.Writer) error {
	cfg, err := parse(args, stderr)
	if err != nil {
		return err
	}
	if cfg.from != "" {
		return rerender(cfg, stderr)
	}
	scs, err := selectScenarios(scenarios(cfg.mode == "quick"), cfg.only)
	if err != nil {
		return err
	}
	if cfg.list {
		return list(stderr, scs, cfg)
	}
	if _, err := exec.LookPath("wrk"); err != nil {
		return load.ErrWrkMissing
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	tmp, err := os.MkdirTemp("", "signet-load-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin := cfg.bin
	if bin == "" {
		bin = filepath.Join(tmp, "bin")
		if err := build(cfg.root, bin, stderr); err != nil {
			return err
		}
	}
	env := &load.Env{Bin: bin, Tmp: tmp, Quick: cfg.mode == "quick", Log: stderr, ServerCPUs: "0", WrkCPUs: "1"}
	if runtime.NumCPU() < 2 {
		fmt.Fprintln(stderr, "load: one CPU: servers and wrk share it (no taskset); the figures are not the lab's")
		env.ServerCPUs, env.WrkCPUs = "-", "-"
	}
	opt := cfg.opt
	opt.Env, opt.Progress = env, stderr
	if err := prepare(scs, stderr); err != nil {
		return err
	}
	if cfg.idle == "poll" {
		release, err := load.PollIdle()
		if err != nil {
			cfg.idle = "halt (" + err.Error() + ")"
			fmt.Fprintf(stderr, "load: %v; idle CPUs halt, and a slow handler's CPU per request includes waking wrk's CPU\n", err)
		} else {
			defer release()
		}
	}
	steps, _ := load.Plan(scs, opt)
	fmt.Fprintf(stderr, "load: %s run: %d scenarios, %d runs (%d rounds, %v warm-up + %v measured per run); servers on CPU %s with GOMAXPROCS=1, wrk on CPU %s; idle CPUs %s\n",
		cfg.mode, len(scs), len(steps), opt.Rounds, opt.Warmup, opt.Duration, env.ServerCPUs, env.WrkCPUs, cfg.idle)
	started := time.Now()
	ms, runErr := load.Run(ctx, scs, opt)
	if runErr != nil && ms == nil {
		return runErr
	}
	if err := os.MkdirAll(cfg.out, 0o755); err != nil {
		return err
	}
	rep := newReport(cfg, ms, started)
	if cfg.only == "" && runErr == nil {
		n := 100000
		if cfg.mode == "full" {
			n = 1000000
		}
		fmt.Fprintf(stderr, "load: one Redis's capacity (redis-benchmark, %d requests per command)…\n", n)
		c := measureRedis(ctx, env, n)
		rep.redis = &c
		fmt.Fprintf(stderr, "load: the Redis commands per request of signet serve (INFO commandstats, %d requests per endpoint)…\n", n/500)
		ops := measureServeOps(ctx, env, n/500)
		rep.serveOps = &ops
	}
	if err := rep.write(cfg.out); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "load: wrote %s and %s (%d scenarios) in %v\n", filepath.Join(cfg.out, "HTTP.md"), filepath.Join(cfg.out, "results.json"), len(ms), time.Since(started).Round(time.Second))
	if runErr != nil {
		return fmt.Errorf("interrupted (the report has what was measured): %w", runErr)
	}
	return nil
}

// list prints the scenarios and the runs' order.
func list(w io.Writer, scs []load.Scenario, cfg config) error {
	steps, err := load.Plan(scs, cfg.opt)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%-12s %-40s %s\n", "group", "scenario", "baseline")
	for _, s := range scs {
		fmt.Fprintf(w, "%-12s %-40s %s\n", s.Group, s.Name, s.Baseline)
	}
	est, err := load.Estimate(scs, cfg.opt)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%d runs in the %s run (about %v, and the driver's builds and measurements of primitives and Redis):", len(steps), cfg.mode, est.Round(time.Second))
	for i, s := range steps {
		if i%6 == 0 {
			fmt.Fprint(w, "\n ")
		}
		fmt.Fprint(w, " ", s)
	}
	fmt.Fprintln(w)
	return nil
}

// rerender writes HTTP.md and the charts into --out from the records of
// --from (results.json is left alone).
func rerender(cfg config, stderr io.Writer) error {
	rep, err := readRecords(cfg.from, &cfg)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(cfg.out, 0o755); err != nil {
		return err
	}
	if err := rep.writeMarkdown(cfg.out); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "load: wrote %s from %s (%d scenarios)\n", filepath.Join(cfg.out, "HTTP.md"), cfg.from, len(rep.ms))
	return nil
}
