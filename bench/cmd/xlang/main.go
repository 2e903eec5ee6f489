// Command xlang runs the cross-language scenario (bench/xlang/README.md):
// it builds every language's programs, runs them interleaved for a few
// rounds, and writes out/xlang/results.json, XLANG.md and a chart; the
// lab's report (make report) includes them when present.
//
//	go run ./cmd/xlang --n 1000000 --out ../out/xlang      (make xlang)
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
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/signet-go/signet/bench/xlang"
)

// secret is the scenario's HMAC secret: 40 ASCII bytes, handed to every
// program in JWT_SECRET, and above every library's minimum.
const secret = "signet-xlang-scenario-secret-0123456789!"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "xlang:", err)
		os.Exit(1)
	}
}

// variant is one library at one worker count.
type variant struct {
	lang    xlang.Language
	lib     string
	threads int
	n       int
	scaled  bool
	runs    []xlang.Run
	failed  string
}

func (v *variant) String() string {
	return fmt.Sprintf("%s %s ×%d", v.lang.Name, v.lib, v.threads)
}

func run(ctx context.Context, args []string, log io.Writer) error {
	fs := flag.NewFlagSet("xlang", flag.ContinueOnError)
	fs.SetOutput(log)
	n := fs.Int("n", 1_000_000, "iterations per run")
	rounds := fs.Int("rounds", 3, "interleaved rounds")
	root := fs.String("root", "xlang", "`directory` of the language programs")
	out := fs.String("out", "../out/xlang", "`directory` for results.json, XLANG.md and the chart")
	only := fs.String("langs", "", "comma-separated `languages` to run (default: all)")
	slow := fs.Float64("slow", 0.1, "`fraction` of n that Python and Node run (the rate is what counts)")
	threadsFlag := fs.String("threads", "", "comma-separated worker `counts` (default: 1 and one per core)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *n < 1 || *rounds < 1 || *slow <= 0 || *slow > 1 {
		return errors.New("--n and --rounds must be positive, --slow in (0, 1]")
	}
	threads := []int{1}
	if c := runtime.NumCPU(); c > 1 {
		threads = append(threads, c)
	}
	if *threadsFlag != "" {
		threads = nil
		for f := range strings.SplitSeq(*threadsFlag, ",") {
			t, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || t < 1 {
				return fmt.Errorf("--threads: %q", f)
			}
			threads = append(threads, t)
		}
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	started := time.Now()

	emails := filepath.Join(*out, "emails.json")
	if err := xlang.WriteEmails(emails, 100_000); err != nil {
		return err
	}
	langs, err := xlang.Languages(*root)
	if err != nil {
		return err
	}
	if *only != "" {
		for _, name := range strings.Split(*only, ",") {
			if !slices.ContainsFunc(langs, func(l xlang.Language) bool { return l.Name == name }) {
				return fmt.Errorf("--langs: no language %q in %s", name, *root)
			}
		}
	}
	runInfo := fmt.Sprintf("%s, commit %s, %d cores, N = %d, %d rounds", started.UTC().Format("2006-01-02 15:04 MST"), commit(), runtime.NumCPU(), *n, *rounds)
	var buildFailures []string
	var recs []xlang.Record
	var vs []*variant
	for _, l := range langs {
		if *only != "" && !slices.Contains(strings.Split(*only, ","), l.Name) {
			continue
		}
		fmt.Fprintf(log, "xlang: building %s (%s)…\n", l.Name, strings.Join(l.Libs, ", "))
		buildLog, err := os.Create(filepath.Join(*out, "build-"+l.Name+".log"))
		if err != nil {
			return err
		}
		t0 := time.Now()
		err = l.Build(ctx, buildLog)
		buildLog.Close()
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			missing := errors.Is(err, xlang.ErrMissingToolchain)
			if missing {
				fmt.Fprintf(log, "xlang: %s skipped: %v\n", l.Name, err)
			} else {
				fmt.Fprintf(log, "xlang: %s build FAILED (see build-%s.log): %v\n", l.Name, l.Name, err)
				buildFailures = append(buildFailures, l.Name)
			}
			for _, lib := range l.Libs {
				rec := xlang.Record{Suite: "xlang", Format: "JWT", Alg: "HS256", Op: "sign+verify", Lang: l.Name, Lib: lib, Run: runInfo}
				if missing {
					rec.Skipped = err.Error()
				} else {
					rec.Error = "build failed (see build-" + l.Name + ".log): " + firstLine(err.Error())
				}
				recs = append(recs, rec)
			}
			continue
		}
		fmt.Fprintf(log, "xlang: built %s in %v\n", l.Name, time.Since(t0).Round(100*time.Millisecond))
		for _, lib := range l.Libs {
			for _, t := range threads {
				v := &variant{lang: l, lib: lib, threads: t, n: *n}
				if l.Name == "python" || l.Name == "node" {
					v.n, v.scaled = max(1, int(float64(*n)**slow)), *slow < 1
				}
				vs = append(vs, v)
			}
		}
	}
	if len(vs) == 0 {
		return errors.New("no language could be built")
	}
	// Each worker count in turn, signet and its target peers first
	// (xlang.Rank): the runs a target compares are adjacent in a round.
	slices.SortStableFunc(vs, func(a, b *variant) int {
		if a.threads != b.threads {
			return a.threads - b.threads
		}
		return xlang.Rank(a.lang.Name, a.lib) - xlang.Rank(b.lang.Name, b.lib)
	})

	fmt.Fprintf(log, "xlang: %d programs × %d rounds, interleaved, N = %d\n", len(vs), *rounds, *n)
	var roundTime time.Duration
	for round := 1; round <= *rounds; round++ {
		t0 := time.Now()
		for i, v := range vs {
			if v.failed != "" {
				continue
			}
			o, u, err := v.lang.Bench(ctx, v.lib, emails, v.n, v.threads, secret)
			if ctx.Err() != nil {
				return ctx.Err()
			}
			eta := ""
			if roundTime > 0 {
				eta = fmt.Sprintf(", ETA %v", max(0, time.Duration(*rounds-round+1)*roundTime-time.Since(t0)).Round(time.Second))
			}
			if err != nil {
				v.failed = firstLine(err.Error())
				fmt.Fprintf(log, "xlang: round %d/%d [%d/%d] %v: FAILED: %v\n", round, *rounds, i+1, len(vs), v, err)
				continue
			}
			v.runs = append(v.runs, xlang.Run{Out: o, Usage: u})
			rate := float64(o.N) / time.Duration(o.ElapsedNs).Seconds()
			fmt.Fprintf(log, "xlang: round %d/%d [%d/%d] %-40v %9.0f JWT/s  wall %5.2fs  cpu %5.2fs  rss %4d MiB%s\n",
				round, *rounds, i+1, len(vs), v, rate, u.Wall.Seconds(), u.CPU.Seconds(), u.PeakRSSK/1024, eta)
		}
		roundTime = time.Since(t0)
	}

	for _, v := range vs {
		rec := xlang.Summarize(v.lang.Name, v.lib, v.threads, v.n, v.scaled, v.runs)
		rec.Error, rec.Run = v.failed, runInfo
		recs = append(recs, rec)
	}
	if err := xlang.WriteResults(filepath.Join(*out, "results.json"), recs); err != nil {
		return err
	}
	png, svg := "", ""
	if ok, err := xlang.WriteChart(*out, "xlang", recs); err != nil {
		return err
	} else if ok {
		png, svg = "xlang.png", "xlang.svg"
	}
	md := "# signet cross-language run\n\n" + xlang.Markdown(recs, png, svg)
	if err := os.WriteFile(filepath.Join(*out, "XLANG.md"), []byte(md), 0o644); err != nil {
		return err
	}
	fmt.Fprint(log, xlang.TargetLines(recs))
	fmt.Fprintf(log, "xlang: wrote %s in %v\n", filepath.Join(*out, "XLANG.md"), time.Since(started).Round(time.Second))
	var failed []string
	for _, v := range vs {
		if v.failed != "" {
			failed = append(failed, fmt.Sprintf("%v: %s", v, v.failed))
		}
	}
	for _, name := range buildFailures {
		failed = append(failed, name+": the build failed")
	}
	if len(failed) > 0 {
		return fmt.Errorf("failed: %s", strings.Join(failed, "; "))
	}
	return nil
}

// commit names the checkout measured ("unknown" outside git).
func commit() string {
	out, err := exec.Command("git", "describe", "--always", "--dirty").Output()
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(out))
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
