package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// labModule is the module path of the lab (bench/ in a signet checkout).
const labModule = "module github.com/signet-go/signet/bench"

// bench: signet bench [--http] [--quick|--full] [--out DIR] [--lab DIR].
// The lab is a module of its own (it pins the peer libraries), so bench
// runs it from a signet checkout with the go command: the same as `make
// report` (quick) or `make report-full`; with --http the HTTP lab, the
// same as `make load` or `make load-full` (it needs wrk:
// scripts/install-wrk.sh). Progress goes to stderr; the report to --out.
func (c *cli) bench(args []string) error {
	cmd := newCommand("bench", "bench [--http] [--quick|--full] [--out DIR] [--lab DIR]")
	httpLab := cmd.fs.Bool("http", false, "run the HTTP lab (signet serve, signet guard and the study's handlers under wrk; HTTP.md) instead of the library benchmarks")
	quick := cmd.fs.Bool("quick", false, "the quick run (the default): a few algorithms per format, a few minutes")
	full := cmd.fs.Bool("full", false, "every algorithm and payload size, five rounds (about an hour)")
	out := cmd.fs.String("out", "out/report", "`directory` for REPORT.md, charts and results.json")
	labDir := cmd.fs.String("lab", "", "the lab's `directory` (bench/ of a signet checkout; found from the working directory when empty)")
	pos, _, err := c.parse(cmd, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return cmd.usageErr("unexpected argument %q", pos[0])
	}
	if *quick && *full {
		return cmd.usageErr("--quick and --full together")
	}
	dir := *labDir
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return err
		}
		if dir, err = findLab(wd); err != nil {
			return err
		}
	} else if !isLab(dir) {
		return fmt.Errorf("%s is not the lab (no go.mod with %q)", dir, labModule)
	}
	outAbs, err := filepath.Abs(*out)
	if err != nil {
		return err
	}
	mode := "--quick"
	if *full {
		mode = "--full"
	}
	argv := benchArgv(dir, mode, outAbs, *httpLab)
	run := exec.Command(argv[0], argv[1:]...)
	run.Dir = dir
	run.Stdout, run.Stderr = c.stderr, c.stderr
	if err := run.Run(); err != nil {
		return fmt.Errorf("bench: the lab failed: %w", err)
	}
	return nil
}

// benchArgv is the command bench runs in the lab's directory dir: the
// lab, through the checkout's scripts/lab.sh when there is one (as make
// report does: with the studies' own libraries where their module proxy
// is, ../shared/goproxy), else cmd/lab itself; or with httpLab the HTTP
// lab (cmd/load).
func benchArgv(dir, mode, outAbs string, httpLab bool) []string {
	root := filepath.Dir(dir)
	if httpLab {
		return []string{"go", "run", "./cmd/load", mode, "--out", outAbs, "--root", root}
	}
	args := []string{mode, "--out", outAbs, "--attacks", filepath.Join(root, "attacks"), "--vectors", filepath.Join(root, "testdata")}
	if script := filepath.Join(root, "scripts", "lab.sh"); fileExists(script) {
		return append([]string{"bash", script}, args...)
	}
	return append([]string{"go", "run", "./cmd/lab"}, args...)
}

// fileExists reports whether path names a regular file.
func fileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

// findLab looks for the lab from dir upwards: dir itself, or a bench/
// directory beside it or above it.
func findLab(dir string) (string, error) {
	for d := dir; ; {
		for _, cand := range []string{d, filepath.Join(d, "bench")} {
			if isLab(cand) {
				return cand, nil
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("bench: the lab (bench/ of a signet checkout) is not in %s or above it: run signet bench from a clone of the repository, or name it with --lab", dir)
		}
		d = parent
	}
}

func isLab(dir string) bool {
	data, err := readFile(filepath.Join(dir, "go.mod"), "go.mod")
	return err == nil && bytes.Contains(data, []byte(labModule))
}
