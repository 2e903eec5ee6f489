package xlang

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ErrMissingToolchain is wrapped by Build when a language's toolchain is
// not on the machine (build.sh exited with status 3).
var ErrMissingToolchain = errors.New("missing toolchain")

// Language is one directory of bench/xlang.
type Language struct {
	Name string   // the directory's name: go, rust, java, node, python
	Dir  string   // its path
	Libs []string // the libraries it offers (libs.txt)
}

// Languages lists the language directories under root (those with a
// build.sh, a run.sh and a libs.txt), sorted by name.
func Languages(root string) ([]Language, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var out []Language
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(root, e.Name())
		libs, err := os.ReadFile(filepath.Join(dir, "libs.txt"))
		if err != nil {
			continue
		}
		if !exists(filepath.Join(dir, "build.sh")) || !exists(filepath.Join(dir, "run.sh")) {
			continue
		}
		l := Language{Name: e.Name(), Dir: dir}
		for line := range strings.SplitSeq(string(libs), "\n") {
			if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
				l.Libs = append(l.Libs, line)
			}
		}
		if len(l.Libs) > 0 {
			out = append(out, l)
		}
	}
	slices.SortFunc(out, func(a, b Language) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// Build runs the language's build.sh, its output going to log. A missing
// toolchain is an error wrapping ErrMissingToolchain with build.sh's
// reason.
func (l Language) Build(ctx context.Context, log io.Writer) error {
	var stderr bytes.Buffer
	cmd := command(ctx, filepath.Join(l.Dir, "build.sh"))
	cmd.Stdout = log
	cmd.Stderr = io.MultiWriter(log, &stderr)
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 3 {
		reason := strings.TrimSpace(stderr.String())
		if i := strings.LastIndex(reason, "missing toolchain:"); i >= 0 {
			reason = strings.TrimSpace(strings.TrimPrefix(reason[i:], "missing toolchain:"))
		}
		return fmt.Errorf("%s: %w: %s", l.Name, ErrMissingToolchain, reason)
	}
	if err != nil {
		return fmt.Errorf("%s: build.sh: %w\n%s", l.Name, err, tail(stderr.String(), 2000))
	}
	return nil
}

// command makes the command for a script of the language: in a process
// group of its own, killed whole (build tools' and Python's worker
// processes with it) when ctx ends, and not waited on past a grace period
// for pipes a leftover process holds.
func command(ctx context.Context, script string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "bash", append([]string{script}, args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// Output is a bench run's line (README.md: mode bench).
type Output struct {
	Lang       string `json:"lang"`
	Lib        string `json:"lib"`
	LibVersion string `json:"lib_version"`
	Runtime    string `json:"runtime"`
	Threading  string `json:"threading,omitempty"`
	Threads    int    `json:"threads"`
	N          int    `json:"n"`
	ElapsedNs  int64  `json:"elapsed_ns"`
	PeakRSSKiB int64  `json:"peak_rss_kib"` // the program's own reading (README.md)
}

// Usage is what was measured of a whole run: wall time from start to exit
// and CPU time (user + system), from the operating system, and the peak
// resident set the program read of itself (0: none given).
type Usage struct {
	Wall     time.Duration
	CPU      time.Duration
	PeakRSSK int64 // KiB
}

// Bench runs lib's scenario once: n iterations over threads workers, the
// addresses read from emails, the HMAC secret given in JWT_SECRET.
func (l Language) Bench(ctx context.Context, lib, emails string, n, threads int, secret string) (Output, Usage, error) {
	var stdout, stderr bytes.Buffer
	cmd := command(ctx, filepath.Join(l.Dir, "run.sh"), lib, "bench",
		"--emails", emails, "--n", strconv.Itoa(n), "--threads", strconv.Itoa(threads))
	cmd.Env = append(os.Environ(), "JWT_SECRET="+secret)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	u := Usage{Wall: time.Since(start)}
	if st := cmd.ProcessState; st != nil {
		u.CPU = st.UserTime() + st.SystemTime()
	}
	if err != nil {
		return Output{}, u, fmt.Errorf("%s/%s: %w: %s", l.Name, lib, err, tail(strings.TrimSpace(stderr.String()), 2000))
	}
	var out Output
	line := bytes.TrimSpace(stdout.Bytes())
	if err := json.Unmarshal(line, &out); err != nil {
		return Output{}, u, fmt.Errorf("%s/%s: output %q: %w", l.Name, lib, tail(string(line), 300), err)
	}
	// The program's own reading, or none: rusage's maximum would include
	// the runner's, which a vforked child starts with.
	u.PeakRSSK = out.PeakRSSKiB
	if out.Lang != l.Name || out.Lib != lib || out.N != n || out.Threads != threads || out.ElapsedNs <= 0 {
		return Output{}, u, fmt.Errorf("%s/%s: output %q does not match the run (lang %s, lib %s, n %d, threads %d)", l.Name, lib, line, l.Name, lib, n, threads)
	}
	return out, u, nil
}

// Interop sends one interop request (README.md: mode interop) to lib and
// decodes its response into resp.
func (l Language) Interop(ctx context.Context, lib string, req, resp any) error {
	body, err := json.Marshal(req)
	if err != nil {
		return err
	}
	var stdout, stderr bytes.Buffer
	cmd := command(ctx, filepath.Join(l.Dir, "run.sh"), lib, "interop")
	cmd.Stdin = bytes.NewReader(body)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s/%s interop: %w: %s", l.Name, lib, err, tail(strings.TrimSpace(stderr.String()), 2000))
	}
	if err := json.Unmarshal(stdout.Bytes(), resp); err != nil {
		return fmt.Errorf("%s/%s interop: response %q: %w", l.Name, lib, tail(stdout.String(), 300), err)
	}
	return nil
}
