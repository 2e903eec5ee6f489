package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet/bench/lab"
)

// TestRemoteSection writes the remote key sets section from fixed results
// (the scenarios themselves run in bench/lab's TestRemoteScenarios): the
// records of results.json, the table with a column per library and a row
// per scenario, the flood's fetch counts and the Targets rows.
func TestRemoteSection(t *testing.T) {
	k := &remoteKeys{opts: remoteOptions("quick", nil), results: []lab.RemoteResult{
		{Case: "kid-flood-fetches", Lib: "signet", Outcome: lab.RemotePass, Detail: "1 fetch", Tokens: 10000, Seconds: 5, Fetches: 1, Bound: 2},
		{Case: "kid-flood-latency", Lib: "signet", Outcome: lab.RemotePass, Detail: "fast", Tokens: 10000, P50Ms: 0.01, P99Ms: 0.02, MaxMs: 50.9, Held: 1, ValidP50Ms: 0.08, ValidP99Ms: 0.15, BaseP50Ms: 0.06, BaseP99Ms: 0.12},
		{Case: "kid-flood-fetches", Lib: "go-oidc", Outcome: lab.RemoteFail, Detail: "90 fetches", Tokens: 2880, Seconds: 5.6, Fetches: 90, Bound: 2},
		{Case: "outage-bound", Lib: "go-oidc", Outcome: lab.RemoteNA, Detail: "no setting"},
	}}
	if k.opts.Tokens != 10000 || k.opts.Duration != 5*time.Second {
		t.Errorf("quick: %d tokens in %v, want 10000 in 5s", k.opts.Tokens, k.opts.Duration)
	}
	if o := remoteOptions("full", nil); o.Tokens != 10000 || o.Duration != 10*time.Second {
		t.Errorf("full: %d tokens in %v, want the Target's 10000 in 10s", o.Tokens, o.Duration)
	}
	var b strings.Builder
	k.write(&b)
	md := b.String()
	for _, want := range []string{
		"## Remote key sets (JWKS caches)",
		"| case | signet | go-oidc |",
		"| kid flood: fetches | pass: 1 fetch / 10000 tokens | **fail**: 90 fetches / 2880 tokens |",
		"| outage: bounded staleness | — | n/a |",
		"signet 1 for 10000 tokens in 5.0 s; go-oidc 90 for 2880 tokens in 5.6 s",
		"- **go-oidc**: no expiry",
		"- outage: bounded staleness (n/a): no setting.",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("section without %q:\n%s", want, md)
		}
	}
	var rows []string
	k.targetRow(func(target, got string, ok bool) { rows = append(rows, target+" → "+got+" "+mark(ok)) })
	if len(rows) != 2 || !strings.Contains(rows[0], "≤ ⌈T / 30 s⌉ + 1 = 2 fetches → 1 fetch (10000 tokens sent) ✅") || !strings.Contains(rows[1], "p50/p99 0.08/0.15 ms (before 0.06/0.12) ✅") {
		t.Errorf("targets rows: %q", rows)
	}

	rep := newReport(config{mode: "quick"}, nil, nil, time.Now())
	rep.remote = k
	dir := t.TempDir()
	if err := rep.writeResults(filepath.Join(dir, "results.json")); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "results.json"))
	var recs []map[string]any
	if err := json.Unmarshal(data, &recs); err != nil || len(recs) != 4 {
		t.Fatalf("%d records: %v", len(recs), err)
	}
	r := recs[1]
	for k, want := range map[string]any{"suite": "remote-keys", "format": "JWT", "alg": "ES256", "op": "kid-flood-latency", "lib": "signet", "lang": "go", "outcome": "pass", "p50_ms": 0.01, "p99_ms": 0.02, "max_ms": 50.9, "valid_p99_ms": 0.15} {
		if r[k] != want {
			t.Errorf("record's %s = %v, want %v (%v)", k, r[k], want, r)
		}
	}
	if _, ok := r["case"]; ok {
		t.Errorf("record repeats op as case: %v", r)
	}
	if recs[0]["fetches"] != 1.0 || recs[0]["bound"] != 2.0 || recs[0]["tokens"] != 10000.0 {
		t.Errorf("flood record: %v", recs[0])
	}
}

// TestSectionFlag: --section takes remote-keys only.
func TestSectionFlag(t *testing.T) {
	err := run([]string{"--section", "charts", "--out", t.TempDir()}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "remote-keys") {
		t.Errorf("--section charts: %v", err)
	}
}
