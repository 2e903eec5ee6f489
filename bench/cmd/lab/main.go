// Command lab runs signet's lab: the benchmarks of signet against the Go
// libraries people use, interleaved, and the attack corpus and published
// vectors against every library; it writes out/report/REPORT.md, charts
// (SVG and PNG) and results.json (docs/design.md, "The lab's output").
//
//	go run ./cmd/lab --quick --out ../out/report     (make report)
//	go run ./cmd/lab --full --out ../out/report
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet/bench/lab"
)

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "lab:", err)
		os.Exit(1)
	}
}

// config is a run's settings.
type config struct {
	mode    string // "quick" or "full"
	out     string
	attacks string
	vectors string
	rounds  int
	// targetRounds is the rounds of the rows the targets are judged on.
	targetRounds int
	benchtime    time.Duration
	formats      []string
	xlang        string // results.json of the cross-language run, included when present
	// section, when not "", runs one section only: "remote-keys".
	section string
	// peers are the libraries run; skipped, those left out and why
	// (cmd/lab/peers.go).
	peers   lab.Peers
	skipped []skippedPeer
}

// isTerminal reports whether w is a character device (a terminal), where
// the progress bar redraws one line.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func run(args []string, stderr io.Writer) error {
	testing.Init()
	fs := flag.NewFlagSet("lab", flag.ContinueOnError)
	fs.SetOutput(stderr)
	quick := fs.Bool("quick", false, "the quick run: a few algorithms per format, 4 rounds of 70 ms per case, 7 for the targets' rows (the default)")
	full := fs.Bool("full", false, "every algorithm, 5 rounds of 250 ms per case, 9 for the targets' rows")
	out := fs.String("out", "out/report", "`directory` for REPORT.md, charts and results.json")
	attacks := fs.String("attacks", "../attacks", "`directory` of the attack corpus")
	vectors := fs.String("vectors", "../testdata", "`directory` of the published vectors")
	only := fs.String("format", "", "run these `formats` only (comma-separated): JWT, PASETO, JWE, HTTPSig")
	xl := fs.String("xlang", "../out/xlang/results.json", "`file` of the cross-language run (make xlang), included when present")
	section := fs.String("section", "", "run one `section` only: remote-keys (the remote JWKS caches; about 40 s in --quick)")
	skipped := fs.String("skipped", "", "the studies' peers left out, and why: \"`names: reason`\" (scripts/lab.sh, in a build without them)")
	err := fs.Parse(args)
	if err != nil {
		return err
	}
	if *quick && *full {
		return fmt.Errorf("--quick and --full together")
	}
	cfg := config{mode: "quick", out: *out, attacks: *attacks, vectors: *vectors, rounds: 4, targetRounds: 7, benchtime: 70 * time.Millisecond, xlang: *xl}
	if *full {
		cfg.mode, cfg.rounds, cfg.targetRounds, cfg.benchtime = "full", 5, 9, 250*time.Millisecond
	}
	if *only != "" {
		cfg.formats = strings.Split(*only, ",")
	}
	switch *section {
	case "", "remote-keys":
		cfg.section = *section
	default:
		return fmt.Errorf("--section %q: the one section that runs alone is remote-keys", *section)
	}
	if cfg.peers, cfg.skipped, err = runPeers(*skipped); err != nil {
		return err
	}
	if err := flag.Set("test.benchtime", cfg.benchtime.String()); err != nil {
		return err
	}
	if err := os.MkdirAll(cfg.out, 0o755); err != nil {
		return err
	}
	started := time.Now()
	fmt.Fprintf(stderr, "lab: %s run, %d rounds of %v per case (%d for the targets' rows), interleaved\n", cfg.mode, cfg.rounds, cfg.benchtime, cfg.targetRounds)
	if len(cfg.skipped) > 0 {
		fmt.Fprintf(stderr, "lab: peers skipped: %s\n", skippedText(cfg.skipped))
	} else {
		fmt.Fprintf(stderr, "lab: with the studies' libraries: %s\n", libsText(studiesLibs()))
	}

	var (
		ms  []*measurement
		sec *security
	)
	if cfg.section == "" {
		fmt.Fprintln(stderr, "lab: making keys and checking every library (its own tokens verify, forgeries do not)…")
		keys, err := lab.NewKeys()
		if err != nil {
			return err
		}
		cases, err := lab.Cases(keys, lab.Options{Formats: cfg.formats, Quick: cfg.mode == "quick", Sizes: true, Parallel: true, Peers: &cfg.peers})
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "lab: %d benchmark cases\n", len(cases))
		r := &runner{rounds: cfg.rounds, targetRounds: cfg.targetRounds, progress: stderr, tty: isTerminal(stderr)}
		ms = r.run(cases)

		fmt.Fprintln(stderr, "lab: security: the attack corpus and the published vectors against every library…")
		if sec, err = runSecurity(cfg); err != nil {
			return err
		}
	}
	o := remoteOptions(cfg.mode, nil)
	fmt.Fprintf(stderr, "lab: remote key sets: each library's JWKS cache against a hostile server (a flood of %d tokens in %v per library)…\n", o.Tokens, o.Duration)
	remote, err := runRemote(cfg, stderr)
	if err != nil {
		return err
	}

	rep := newReport(cfg, ms, sec, started)
	rep.remote = remote
	if err := rep.readXlang(stderr); err != nil {
		return err
	}
	if err := rep.readHTTP(filepath.Join(cfg.out, "results.json")); err != nil {
		return err
	}
	if err := rep.writeResults(filepath.Join(cfg.out, "results.json")); err != nil {
		return err
	}
	if err := rep.writeSecurityJSON(cfg.out); err != nil {
		return err
	}
	charts, err := rep.writeCharts(cfg.out)
	if err != nil {
		return err
	}
	if err := rep.writeMarkdown(filepath.Join(cfg.out, "REPORT.md"), charts); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "lab: wrote %s (%d measurements, %d charts) in %v\n", filepath.Join(cfg.out, "REPORT.md"), len(ms), len(charts), time.Since(started).Round(time.Second))
	return nil
}
