package xlang

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// interopRequired reports whether the cross-language interop must run:
// SIGNET_INTEROP set (make test sets it to 1). Unset, TestInterop skips
// as a whole; set, every language must build and pass.
func interopRequired() bool { return os.Getenv("SIGNET_INTEROP") != "" }

// requireBuilt fails t when a language did not build, a missing
// toolchain included: TestInterop runs only when the interop is
// required, and a language it cannot run is a failure, never a skip.
func requireBuilt(t testing.TB, err error, log string) {
	t.Helper()
	switch {
	case errors.Is(err, ErrMissingToolchain):
		t.Fatalf("SIGNET_INTEROP is set and %v: install the toolchain (bench/xlang/README.md), or unset SIGNET_INTEROP to leave the interop out", err)
	case err != nil:
		t.Fatalf("%v\n%s", err, tail(log, 4000))
	}
}

// fakeTB records what requireBuilt says, in place of a test that would
// stop.
type fakeTB struct {
	testing.TB
	fatal string
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.fatal = fmt.Sprintf(format, args...)
}

// fakeLanguage makes a language directory whose build.sh exits with
// code after printing msg on stderr, as a real one does without its
// toolchain (code 3).
func fakeLanguage(t *testing.T, root, name string, code int, msg string) Language {
	t.Helper()
	dir := filepath.Join(root, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf("#!/usr/bin/env bash\necho %q >&2\nexit %d\n", msg, code)
	for file, content := range map[string]string{"build.sh": script, "run.sh": "exit 0\n", "libs.txt": "fakelib\n"} {
		if err := os.WriteFile(filepath.Join(dir, file), []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return Language{Name: name, Dir: dir, Libs: []string{"fakelib"}}
}

// A missing toolchain fails the interop test: Build reports it as
// ErrMissingToolchain, and requireBuilt fails on it (as on any other build
// failure) instead of skipping.
func TestMissingToolchainFails(t *testing.T) {
	root := t.TempDir()
	missing := fakeLanguage(t, root, "fakelang", 3, "missing toolchain: fakec 1.0")
	broken := fakeLanguage(t, root, "brokenlang", 1, "compile error")
	ok := fakeLanguage(t, root, "oklang", 0, "")

	err := missing.Build(context.Background(), new(bytes.Buffer))
	if !errors.Is(err, ErrMissingToolchain) || !strings.Contains(err.Error(), "fakec 1.0") {
		t.Fatalf("Build with a missing toolchain: %v", err)
	}
	f := &fakeTB{}
	requireBuilt(f, err, "")
	if !strings.Contains(f.fatal, "SIGNET_INTEROP is set") || !strings.Contains(f.fatal, "fakec 1.0") {
		t.Errorf("a missing toolchain did not fail the test: %q", f.fatal)
	}

	err = broken.Build(context.Background(), new(bytes.Buffer))
	f = &fakeTB{}
	requireBuilt(f, err, "the log")
	if err == nil || errors.Is(err, ErrMissingToolchain) || f.fatal == "" {
		t.Errorf("a failed build: %v, test verdict %q", err, f.fatal)
	}

	f = &fakeTB{}
	requireBuilt(f, ok.Build(context.Background(), new(bytes.Buffer)), "")
	if f.fatal != "" {
		t.Errorf("a built language failed the test: %q", f.fatal)
	}
}

// build-all.sh reports a missing toolchain and goes on, unless the
// interop is required (SIGNET_INTEROP set), when a missing toolchain is an
// error as TestInterop would find it. Run on fake languages: nothing is
// built.
func TestBuildAllMissingToolchain(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatalf("bash: %v", err) // build-all.sh is a bash script; make test needs bash
	}
	root := t.TempDir()
	fakeLanguage(t, root, "fakelang", 3, "missing toolchain: fakec 1.0")
	fakeLanguage(t, root, "oklang", 0, "")
	run := func(interop string) (int, string) {
		cmd := exec.Command("bash", "build-all.sh", root)
		cmd.Env = append(os.Environ(), "SIGNET_INTEROP="+interop)
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		switch {
		case err == nil:
			return 0, string(out)
		case errors.As(err, &exit):
			return exit.ExitCode(), string(out)
		}
		t.Fatalf("build-all.sh: %v", err)
		return -1, ""
	}
	if code, out := run(""); code != 0 || !strings.Contains(out, "fakelang SKIPPED") || !strings.Contains(out, "built oklang") {
		t.Errorf("without SIGNET_INTEROP: exit %d\n%s", code, out)
	}
	if code, out := run("1"); code == 0 || !strings.Contains(out, "fakelang: missing toolchain") || !strings.Contains(out, "built oklang") {
		t.Errorf("with SIGNET_INTEROP=1: exit %d\n%s", code, out)
	}
}
