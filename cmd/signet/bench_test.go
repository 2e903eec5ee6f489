package main

import (
	"os"
	"path/filepath"
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
