package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestRunPeers: a build with the studies' libraries (-tags studies) runs
// them after the lab's own peers and skips none; one without runs the
// lab's own and names the skipped, with the build's reason or the one
// --skipped gives (scripts/lab.sh), which a build with them refuses.
func TestRunPeers(t *testing.T) {
	_, built := studiesPeers()
	peers, skipped, err := runPeers("")
	if err != nil {
		t.Fatal(err)
	}
	if built == "" {
		if len(skipped) != 0 {
			t.Errorf("a build with the studies' peers skips %v", skipped)
		}
		for format, lib := range map[string]string{"JWT": "mateothegreat", "PASETO": "mateothegreat", "HTTPSig": "forcebit"} {
			if names := peers.Names(format); names[0] != "signet" || names[len(names)-1] != lib {
				t.Errorf("%s: %v", format, names)
			}
		}
		if _, _, err := runPeers("forcebit, mateothegreat: no proxy"); err == nil {
			t.Error("--skipped accepted by a build with the studies' peers")
		}
		return
	}
	if built != "built without the studies' modules" {
		t.Errorf("reason %q", built)
	}
	if got := skippedText(skipped); got != "forcebit (HTTPSig), mateothegreat (JWT, PASETO): built without the studies' modules" {
		t.Errorf("skipped: %q", got)
	}
	for _, format := range []string{"JWT", "PASETO", "HTTPSig"} {
		names := peers.Names(format)
		if slices.Contains(names, "forcebit") || slices.Contains(names, "mateothegreat") {
			t.Errorf("%s: %v in a build without them", format, names)
		}
	}
	_, skipped, err = runPeers("forcebit, mateothegreat: no module proxy at ../shared/goproxy")
	if err != nil {
		t.Fatal(err)
	}
	if got := skippedText(skipped); !strings.HasSuffix(got, "): no module proxy at ../shared/goproxy") {
		t.Errorf("skipped with --skipped: %q", got)
	}
	if _, _, err := runPeers("no reason"); err == nil {
		t.Error("--skipped without \"names: reason\" accepted")
	}
}

// TestReportSkipped: REPORT.md says which peers were skipped and why,
// under the libraries, and results.json has a lab-skipped record for
// each.
func TestReportSkipped(t *testing.T) {
	skipped := studiesLibs()
	for i := range skipped {
		skipped[i].Reason = "no module proxy"
	}
	dir := t.TempDir()
	rep := newReport(config{mode: "quick", skipped: skipped}, nil, nil, time.Now())
	if err := rep.writeMarkdown(filepath.Join(dir, "REPORT.md"), nil); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "REPORT.md"))
	if err != nil {
		t.Fatal(err)
	}
	libs := strings.Index(string(md), "**Libraries.**")
	line := strings.Index(string(md), "**Peers skipped.** forcebit (HTTPSig), mateothegreat (JWT, PASETO): no module proxy")
	if libs < 0 || line < libs || strings.Contains(string(md)[libs:line], "##") {
		t.Errorf("REPORT.md's head does not name the skipped peers after the libraries:\n%.600s", md)
	}
	if err := rep.writeResults(filepath.Join(dir, "results.json")); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var recs []record
	if err := json.Unmarshal(data, &recs); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		if r.Suite == "lab-skipped" {
			got = append(got, r.Format+"/"+r.Lib+": "+r.Error)
		}
	}
	want := []string{"JWT/mateothegreat: no module proxy", "PASETO/mateothegreat: no module proxy", "HTTPSig/forcebit: no module proxy"}
	if !slices.Equal(got, want) {
		t.Errorf("results.json's skipped records: %q", got)
	}
}
