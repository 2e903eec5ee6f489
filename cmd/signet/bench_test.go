package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestFindLab(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	got, err := findLab(wd) // cmd/signet of this checkout: ../../bench
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := filepath.Abs("../../bench"); got != want {
		t.Fatalf("found %s, want %s", got, want)
	}
	if _, err := findLab(t.TempDir()); err == nil {
		t.Fatal("found a lab in an empty directory")
	}
}

func TestBenchUsage(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "--quick", "--full"},
		{"bench", "extra"},
		{"bench", "--nope"},
	} {
		if r := runAt(t, testNow, "", args...); r.code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, r.code, exitUsage)
		}
	}
	if r := runAt(t, testNow, "", "bench", "--lab", t.TempDir()); r.code != exitRejected {
		t.Errorf("--lab at an empty directory: exit %d, want %d", r.code, exitRejected)
	}
}

func TestBenchArgv(t *testing.T) {
	lab := filepath.Join("/src", "signet", "bench")
	got := benchArgv(lab, "--quick", "/out", true)
	want := []string{"go", "run", "./cmd/load", "--quick", "--out", "/out", "--root", filepath.Join("/src", "signet")}
	if !slices.Equal(got, want) {
		t.Errorf("--http: %v, want %v", got, want)
	}
	got = benchArgv(lab, "--full", "/out", false)
	want = []string{"go", "run", "./cmd/lab", "--full", "--out", "/out", "--attacks", "/src/signet/attacks", "--vectors", "/src/signet/testdata"}
	if !slices.Equal(got, want) {
		t.Errorf("the lab: %v, want %v", got, want)
	}
	// A checkout with scripts/lab.sh: the lab through it, as make report.
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "scripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(root, "scripts", "lab.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	got = benchArgv(filepath.Join(root, "bench"), "--quick", "/out", false)
	want = []string{"bash", script, "--quick", "--out", "/out", "--attacks", filepath.Join(root, "attacks"), "--vectors", filepath.Join(root, "testdata")}
	if !slices.Equal(got, want) {
		t.Errorf("with scripts/lab.sh: %v, want %v", got, want)
	}
}
