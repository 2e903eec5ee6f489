package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/bench/load"
)

func named(group, name, baseline string) load.Scenario {
	return load.Scenario{Group: group, Name: name, Baseline: baseline,
		Setup: func(context.Context, *load.Env) (*load.Target, error) { return nil, errors.New("not run") }}
}

func names(scs []load.Scenario) []string {
	var out []string
	for _, s := range scs {
		out = append(out, s.Name)
	}
	return out
}

func TestSelectScenarios(t *testing.T) {
	all := []load.Scenario{
		named("baseline", "hello", ""),
		named("study", "issue/HS256/signet", "hello"),
		named("study", "issue/HS256/golang-jwt", "hello"),
		named("study", "check/ES256/signet", "hello"),
		named("guard", "proxy", ""),
		named("guard", "guard-cache/ES256/signet-guard", "proxy"),
	}
	for only, want := range map[string][]string{
		"":                   names(all),
		"study":              {"hello", "issue/HS256/signet", "issue/HS256/golang-jwt", "check/ES256/signet"},
		"issue":              {"hello", "issue/HS256/signet", "issue/HS256/golang-jwt"},
		"issue/*/signet":     {"hello", "issue/HS256/signet"},
		"guard-cache":        {"proxy", "guard-cache/ES256/signet-guard"},
		"check/ES256/signet": {"hello", "check/ES256/signet"},
		"hello":              {"hello"},
	} {
		got, err := selectScenarios(all, only)
		if err != nil || !slices.Equal(names(got), want) {
			t.Errorf("--only %q: %v, %v; want %v", only, names(got), err, want)
		}
	}
	if _, err := selectScenarios(all, "nothing"); err == nil || !strings.Contains(err.Error(), "groups: baseline, study, guard") {
		t.Errorf("no match: %v", err)
	}
}

// The composed lists form a plan load.Run accepts (unique names, baselines present).
func TestScenariosPlan(t *testing.T) {
	for _, quick := range []bool{true, false} {
		scs := scenarios(quick)
		if scs[0].Name != "hello" {
			t.Errorf("quick=%v: the list does not start with hello", quick)
		}
		if _, err := load.Plan(scs, load.Options{}); err != nil {
			t.Errorf("quick=%v: %v", quick, err)
		}
	}
}

func TestParseFlags(t *testing.T) {
	var sink strings.Builder
	cfg, err := parse(nil, &sink)
	if err != nil || cfg.mode != "quick" || cfg.opt.Rounds != 3 || cfg.opt.Duration != time.Second || cfg.opt.BaselineEvery != 4 || cfg.out != "../out/report" {
		t.Errorf("defaults: %+v, %v", cfg, err)
	}
	cfg, err = parse([]string{"--full", "--rounds", "7", "--duration", "3s", "--warmup", "-1s", "--baseline-every", "1", "--only", "study"}, &sink)
	if err != nil || cfg.mode != "full" || cfg.opt.Rounds != 7 || cfg.opt.Duration != 3*time.Second || cfg.opt.Warmup >= 0 || cfg.opt.BaselineEvery != 1 || cfg.only != "study" {
		t.Errorf("overrides: %+v, %v", cfg, err)
	}
	for _, bad := range [][]string{{"--quick", "--full"}, {"extra"}, {"--nope"}} {
		if _, err := parse(bad, &sink); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}

func TestList(t *testing.T) {
	var out strings.Builder
	if err := run([]string{"--list"}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "hello") || !strings.Contains(out.String(), "runs in the quick run") {
		t.Errorf("--list:\n%s", out.String())
	}
}

func TestParseRedisBenchmark(t *testing.T) {
	for file, want := range map[string]float64{"redis-benchmark-get.txt": 32948.93, "redis-benchmark-eval.txt": 25906.73} {
		data, err := os.ReadFile(filepath.Join("testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		if got, err := parseRedisBenchmark(data); err != nil || got != want {
			t.Errorf("%s: %v, %v; want %v", file, got, err, want)
		}
	}
	for _, bad := range []string{"", "GET: rps=12.0 (overall: 12.0)\r", "GET: fast requests per second\n"} {
		if _, err := parseRedisBenchmark([]byte(bad)); !errors.Is(err, signet.ErrMalformed) {
			t.Errorf("%q: %v, want ErrMalformed", bad, err)
		}
	}
}

// synthetic is a run's measurements with known ratios: the targets'
// verdicts, the tables, the charts and results.json follow from them.
func synthetic() []load.Measurement {
	m := func(name, group, base string, rps, p99, cpu float64) load.Measurement {
		return load.Measurement{Scenario: name, Group: group, Baseline: base, Suite: "http", Rounds: 3,
			RPS: rps, P50: p99 / 4, P90: p99 / 2, P99: p99, P999: p99 * 2, CPUPerReqNS: cpu, PeakRSS: 12 << 20,
			Requests: int64(rps) * 3, Statuses: map[int]int64{200: int64(rps) * 3}, RoundsRPS: []float64{rps, rps, rps}}
	}
	hello := m("hello", "baseline", "", 40000, 1.0, 25000)
	hs := m("issue/HS256/signet", "study", "hello", 38000, 1.1, 26000)
	hs.BaselineRPS, hs.BaselineP99, hs.BaselineCPUPerReqNS, hs.RatioRPS, hs.RatioP99 = 40000, 1.0, 25000, 0.95, 1.1
	gj := m("issue/HS256/golang-jwt", "study", "hello", 25000, 2.0, 40000)
	gj.BaselineRPS, gj.RatioRPS, gj.RatioP99 = 40000, 0.625, 2
	es := m("issue/ES256/signet", "study", "hello", 20000, 2, 50000)
	es.BaselineCPUPerReqNS, es.BoundNS, es.RatioRPS = 25000, 25000, 0.5 // bound 20,000: ratio 1
	ck := m("check/HS256/signet", "study", "hello", 30000, 1.5, 30000)
	ck.BaselineRPS, ck.RatioRPS, ck.RatioP99 = 40000, 0.75, 1.5 // fails both
	failed := load.Measurement{Scenario: "check/HS256/golang-jwt", Group: "study", Baseline: "hello", Suite: "http", Error: "round 1: setup: boom"}
	fault := load.Measurement{Scenario: "faults/revoke-during-outage", Group: "faults", Suite: "http-faults", Rounds: 1, RPS: 900, Requests: 9000,
		Statuses: map[int]int64{200: 8000, 503: 1000}, Extra: map[string]any{
			"failed_verifications": 0, "revoked_active": 1.0, "other_5xx": 0.0, "recovery_ms": 420.0, "pass": false,
			"checks": []any{map[string]any{"target": "0 revoked tokens active", "pass": false, "got": "1 active"}, map[string]any{"target": "recovers", "pass": true, "got": "420 ms"}},
			"notes":  []any{"Redis stopped 5 s"}}}
	return []load.Measurement{hello, hs, gj, es, ck, failed, fault}
}

func TestReport(t *testing.T) {
	dir := t.TempDir()
	old := `[{"suite":"lab","op":"Sign","lib":"signet"},{"suite":"http","scenario":"stale"},{"suite":"xlang","lib":"jose"}]`
	if err := os.WriteFile(filepath.Join(dir, "results.json"), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := config{mode: "quick", opt: load.Options{Rounds: 3, Duration: time.Second, Warmup: time.Second, BaselineEvery: 4}}
	rep := newReport(cfg, synthetic(), time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC))
	rep.redis = &redisCap{Ops: []redisOp{{Name: "GET", Description: "introspection's revocation check", RPS: 30000, PerCPUSec: 150000}, {Name: "EVAL revoke", RPS: 20000, PerCPUSec: 80000}}}
	if err := rep.write(dir); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "HTTP.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(md)
	for _, want := range []string{
		"| HS256 issue ≥ 0.9× /hello req/s | `issue/HS256/signet` | 0.95 | ≥ 0.90 | pass |",
		"| HS256 issue ≥ 1.3× golang-jwt's handler | `issue/HS256/signet` | 1.52 | ≥ 1.30 | pass |",
		"| HS256 issue P99 ≤ 1.2× /hello's | `issue/HS256/signet` | 1.10 | ≤ 1.20 | pass |",
		"| HS256 check ≥ 0.9× /hello req/s | `check/HS256/signet` | 0.75 | ≥ 0.90 | **FAIL** |",
		"| HS256 check ≥ 1.3× golang-jwt's handler | `check/HS256/signet` | – | ≥ 1.30 | not measured | check/HS256/golang-jwt not measured |",
		"| ES256 issue ≥ 0.95× the primitive's bound | `issue/ES256/signet` | 1.00 | ≥ 0.95 | pass |",
		"| EdDSA issue ≥ 0.95× the primitive's bound | `issue/EdDSA/signet` | – | ≥ 0.95 | not measured |",
		"| 0 failed verifications (across rotation, two instances, outages) | faults | 0 | = 0 | pass |",
		"| 0 tokens reported active that were revoked | faults | 1 | = 0 | **FAIL** | faults/revoke-during-outage: 1 |",
		"| check/HS256/golang-jwt | failed: round 1: setup: boom |",
		"| faults/revoke-during-outage | **FAIL** | 900 | 9000 | 200: 8000, 503: 1000 | 0 revoked tokens active: FAIL (1 active); recovers: ok (420 ms) | failed_verifications = 0; other_5xx = 0; recovery_ms = 420; revoked_active = 1 |",
		"- faults/revoke-during-outage: Redis stopped 5 s",
		"| 0 5xx other than the 503s while Redis is away | faults | 0 | = 0 | pass |",
		"| HS256 | 18,420 |",
		"| 38,000 |", // signet's HS256 issue beside the study
		"| introspect (a token that verifies) | 1 |",
		"| GET | introspection's revocation check",
		"| issue handler (ES256, stand-in for token) | `issue/ES256/signet` | 20,000 | 0 |",
		"charts/http-qps-by-alg.svg", "charts/http-study-beside.svg", "charts/http-latency.svg",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("HTTP.md lacks %q", want)
		}
	}
	for _, f := range []string{"http-qps-by-alg", "http-study-beside", "http-latency"} {
		for _, ext := range []string{".svg", ".png"} {
			if st, err := os.Stat(filepath.Join(dir, "charts", f+ext)); err != nil || st.Size() == 0 {
				t.Errorf("chart %s%s: %v", f, ext, err)
			}
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var recs []map[string]any
	if err := json.Unmarshal(data, &recs); err != nil {
		t.Fatal(err)
	}
	var suites []string
	byName := map[string]map[string]any{}
	for _, r := range recs {
		suites = append(suites, r["suite"].(string))
		if n, ok := r["scenario"].(string); ok {
			byName[n] = r
		}
	}
	if want := []string{"lab", "xlang", "http", "http", "http", "http", "http", "http", "http-faults"}; !slices.Equal(suites, want) {
		t.Errorf("suites %v, want %v (the stale http record replaced, the others kept)", suites, want)
	}
	hs := byName["issue/HS256/signet"]
	if hs["format"] != "JWT" || hs["alg"] != "HS256" || hs["op"] != "issue" || hs["lib"] != "signet" || hs["lang"] != "go" ||
		hs["ops_per_s"] != 38000.0 || hs["ops_ratio"] != 0.95 || hs["p99_ms"] != 1.1 || hs["runs"] != 3.0 {
		t.Errorf("issue/HS256/signet record: %v", hs)
	}
	if es := byName["issue/ES256/signet"]; es["bound_ops_per_s"] != 20000.0 || es["bound_ratio"] != 1.0 || es["primitive_ns"] != 25000.0 {
		t.Errorf("issue/ES256/signet record: %v", es)
	}
	if f := byName["faults/revoke-during-outage"]; f["revoked_active"] != 1.0 || f["recovery_ms"] != 420.0 {
		t.Errorf("fault record: %v", f)
	}
	if f := byName["check/HS256/golang-jwt"]; f["error"] != "round 1: setup: boom" || f["ops_per_s"] != nil {
		t.Errorf("failed record: %v", f)
	}

	// A run of some scenarios (--only) replaces only theirs.
	cfg.only = "hello"
	rep = newReport(cfg, synthetic()[:1], time.Now())
	if err := rep.write(dir); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(filepath.Join(dir, "results.json"))
	recs = nil
	if err := json.Unmarshal(data, &recs); err != nil || len(recs) != 9 {
		t.Errorf("after --only hello: %d records, %v; want 9", len(recs), err)
	}

	// A results.json that is not an array is not overwritten.
	if err := os.WriteFile(filepath.Join(dir, "results.json"), []byte(`{"x":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := rep.write(dir); err == nil {
		t.Error("a results.json of another shape: no error")
	}
}
