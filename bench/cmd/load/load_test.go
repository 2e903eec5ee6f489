package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
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
	if err != nil || cfg.mode != "quick" || cfg.opt.Rounds != 3 || cfg.opt.Duration != time.Second || cfg.opt.BaselineEvery != 4 || cfg.out != "../out/report" || cfg.idle != "poll" {
		t.Errorf("defaults: %+v, %v", cfg, err)
	}
	cfg, err = parse([]string{"--full", "--rounds", "7", "--duration", "3s", "--warmup", "-1s", "--baseline-every", "1", "--only", "study"}, &sink)
	if err != nil || cfg.mode != "full" || cfg.opt.Rounds != 7 || cfg.opt.Duration != 3*time.Second || cfg.opt.Warmup >= 0 || cfg.opt.BaselineEvery != 1 || cfg.only != "study" {
		t.Errorf("overrides: %+v, %v", cfg, err)
	}
	if cfg, err = parse([]string{"--idle", "halt"}, &sink); err != nil || cfg.idle != "halt" {
		t.Errorf("--idle halt: %+v, %v", cfg, err)
	}
	for _, bad := range [][]string{{"--quick", "--full"}, {"extra"}, {"--nope"}, {"--idle", "spin"}} {
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
	if err := os.WriteFile(filepath.Join(dir, "REPORT.md"), []byte("# signet lab report\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := config{mode: "quick", idle: "poll", opt: load.Options{Rounds: 3, Duration: time.Second, Warmup: time.Second, BaselineEvery: 4}}
	rep := newReport(cfg, synthetic(), time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC))
	rep.redis = &redisCap{Ops: []redisOp{{Name: "GET", Description: "introspection's revocation check", RPS: 30000, PerCPUSec: 150000}, {Name: "EVAL revoke", RPS: 20000, PerCPUSec: 80000}}}
	rep.serveOps = &serveOps{N: 10, Phases: []serveOpsPhase{{Endpoint: "token (client_secret_basic)", Calls: map[string]float64{}}, {Endpoint: "introspect (active)", Calls: map[string]float64{"get": 1}}}}
	if err := rep.write(dir); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "HTTP.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(md)
	for _, want := range []string{
		"Idle CPUs: poll (`/dev/cpu_dma_latency` held at 0 during the run",
		"| HS256 issue ≥ 0.9× /hello req/s | `issue/HS256/signet` | 0.95 | ≥ 0.90 | pass | – |",
		"| HS256 issue ≥ 1.3× golang-jwt's handler | `issue/HS256/signet` | 1.52 | ≥ 1.30 | pass | – |",
		"| HS256 issue P99 ≤ 1.2× /hello's | `issue/HS256/signet` | 1.10 | ≤ 1.20 | pass | – |",
		"| HS256 check ≥ 0.9× /hello req/s | `check/HS256/signet` | 0.75 | ≥ 0.90 | **FAIL** | – |",
		"| HS256 check ≥ 1.3× golang-jwt's handler | `check/HS256/signet` | – | ≥ 1.30 | not measured | – | check/HS256/golang-jwt not measured |",
		"| ES256 issue ≥ 0.95× the primitive's bound | `issue/ES256/signet` | 1.00 | ≥ 0.95 | pass | – |",
		"| EdDSA issue ≥ 0.95× the primitive's bound | `issue/EdDSA/signet` | – | ≥ 0.95 | not measured | – |",
		"| 0 failed verifications (across rotation, two instances, outages) | faults | 0 | = 0 | pass | – |",
		"| 0 tokens reported active that were revoked | faults | 1 | = 0 | **FAIL** | – | faults/revoke-during-outage: 1 |",
		"| check/HS256/golang-jwt | failed: round 1: setup: boom |",
		"| faults/revoke-during-outage | **FAIL** | 900 | 9000 | 200: 8000, 503: 1000 | 0 | 1 | 0 | 420 |",
		"**faults/revoke-during-outage** (**FAIL**)\n\n- 0 revoked tokens active: FAIL (1 active)\n- recovers: ok (420 ms)\n- Redis stopped 5 s\n- figures: failed_verifications = 0; other_5xx = 0; recovery_ms = 420; revoked_active = 1\n",
		"| 0 5xx other than the 503s while Redis is away | faults | 0 | = 0 | pass | – |",
		"| HS256 | 18,420 |",
		"| 38,000 |", // signet's HS256 issue beside the study
		"| issue/ES256/signet | 20,000 | 0.50 (hello) | 0.500 | 1.000 | 2.000 | 4.000 | – | 50.0 | 100% | 12.0 | 0 | 0 | 3 |",
		"by CPU: (25.0 + 25.0) / 50.0 µs per request = 1.00, server busy 100%",
		"| introspect (a token that verifies) | 1 |",
		"| token (client_secret_basic) | none |",
		"| introspect (active) | GET 1.00 |",
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
	if want := []string{"lab", "xlang", "http-scale", "http", "http", "http", "http", "http", "http", "http-faults", "http-scale", "http-scale", "http-scale", "http-scale"}; !slices.Equal(suites, want) {
		t.Errorf("suites %v, want %v (the stale http record replaced, the others kept)", suites, want)
	}
	hs := byName["issue/HS256/signet"]
	if hs["format"] != "JWT" || hs["alg"] != "HS256" || hs["op"] != "issue" || hs["lib"] != "signet" || hs["lang"] != "go" ||
		hs["ops_per_s"] != 38000.0 || hs["ops_ratio"] != 0.95 || hs["p99_ms"] != 1.1 || hs["runs"] != 3.0 {
		t.Errorf("issue/HS256/signet record: %v", hs)
	}
	if es := byName["issue/ES256/signet"]; es["bound_ops_per_s"] != 20000.0 || es["bound_ratio"] != 1.0 || es["primitive_ns"] != 25000.0 ||
		es["cpu_bound_ratio"] != 1.0 || es["server_busy"] != 1.0 {
		t.Errorf("issue/ES256/signet record: %v", es)
	}
	if f := byName["faults/revoke-during-outage"]; f["revoked_active"] != 1.0 || f["recovery_ms"] != 420.0 {
		t.Errorf("fault record: %v", f)
	}
	if f := byName["check/HS256/golang-jwt"]; f["error"] != "round 1: setup: boom" || f["ops_per_s"] != nil {
		t.Errorf("failed record: %v", f)
	}

	// The lab's REPORT.md, written before, links HTTP.md (once).
	if err := rep.write(dir); err != nil {
		t.Fatal(err)
	}
	lab, _ := os.ReadFile(filepath.Join(dir, "REPORT.md"))
	if strings.Count(string(lab), "[HTTP.md](HTTP.md)") != 1 {
		t.Errorf("REPORT.md:\n%s", lab)
	}

	// A run of some scenarios (--only) replaces only theirs.
	cfg.only = "hello"
	rep = newReport(cfg, synthetic()[:1], time.Now())
	if err := rep.write(dir); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(filepath.Join(dir, "results.json"))
	recs = nil
	if err := json.Unmarshal(data, &recs); err != nil || len(recs) != 14 {
		t.Errorf("after --only hello: %d records, %v; want 14", len(recs), err)
	}

	// --from writes the same HTTP.md again from results.json (the scale
	// measurements and the run's settings included).
	out := t.TempDir()
	var log strings.Builder
	if err := run([]string{"--from", filepath.Join(dir, "results.json"), "--out", out}, &log); err != nil {
		t.Fatal(err)
	}
	again, err := os.ReadFile(filepath.Join(out, "HTTP.md"))
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(md) {
		t.Errorf("--from differs from the run's HTTP.md:\n%s\n----\n%s", again, md)
	}

	// A results.json that is not an array is not overwritten.
	if err := os.WriteFile(filepath.Join(dir, "results.json"), []byte(`{"x":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := rep.write(dir); err == nil {
		t.Error("a results.json of another shape: no error")
	}
}

func TestParseCommandStats(t *testing.T) {
	info := "# Commandstats\r\ncmdstat_get:calls=12,usec=34,usec_per_call=2.83,rejected_calls=0,failed_calls=0\r\ncmdstat_EVALSHA:calls=3,usec=9\r\n"
	got, err := parseCommandStats(info)
	if err != nil || got["get"] != 12 || got["evalsha"] != 3 || len(got) != 2 {
		t.Errorf("parse: %v, %v", got, err)
	}
	for _, bad := range []string{"cmdstat_get\r\n", "cmdstat_get:calls=x\r\n", "cmdstat_get:calls=-1\r\n"} {
		if _, err := parseCommandStats(bad); !errors.Is(err, signet.ErrMalformed) {
			t.Errorf("%q: %v, want ErrMalformed", bad, err)
		}
	}
	p := serveOpsPhase{Calls: map[string]float64{"get": 1, "evalsha": 1}}
	if got := p.callsText(); got != "EVALSHA 1.00, GET 1.00" {
		t.Errorf("callsText %q", got)
	}
}

// commandStats against a real redis-server (the lab needs one for the
// scale model): it counts what a client sent. Fails when redis-server is
// missing (bash scripts/install-redis.sh).
func TestCommandStatsRedis(t *testing.T) {
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Fatal("redis-server is not installed: bash scripts/install-redis.sh")
	}
	addr, err := load.FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	host, port, _ := net.SplitHostPort(addr)
	srv, err := load.StartServer(context.Background(), load.ServerSpec{Name: "redis", CPUs: "-",
		Argv: []string{"redis-server", "--bind", host, "--port", port, "--save", "", "--appendonly", "no"}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	if err := waitTCP(context.Background(), addr, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r := bufio.NewReader(c)
	for range 3 {
		if _, err := io.WriteString(c, "*2\r\n$3\r\nGET\r\n$1\r\nk\r\n"); err != nil {
			t.Fatal(err)
		}
		if _, err := r.ReadString('\n'); err != nil {
			t.Fatal(err)
		}
	}
	got, err := commandStats(addr)
	if err != nil || got["get"] != 3 {
		t.Errorf("commandstats %v, %v; want get 3", got, err)
	}
}

// TestReportFloor: with floor rows measured, a bound target keeps its
// literal ratio and verdict and its figures add the in-server bound (the
// floor row, signet / floor, golang-jwt / floor); the floor section sets
// every floor row beside the literal bound and the libraries, with the
// primitive's in-server cost. Without floor rows neither appears.
func TestReportFloor(t *testing.T) {
	m := func(name string, rps, cpu, boundNS float64) load.Measurement {
		return load.Measurement{Scenario: name, Group: "study", Baseline: "hello/post", Suite: "http", Rounds: 2,
			RPS: rps, CPUPerReqNS: cpu, RoundsRPS: []float64{rps, rps}, BaselineRPS: 100000, BaselineCPUPerReqNS: 10000, BoundNS: boundNS}
	}
	ms := []load.Measurement{
		m("issue/ES256/golang-jwt", 16000, 60000, 30000),
		m("issue/ES256/signet", 18000, 55000, 30000), // literal bound 1e9/40 µs = 25,000: 0.72, FAIL
		m("issue/ES256/floor", 20000, 50000, 30000),  // in server: 40 µs, 1.33× the loop's 30
		m("check/v4.public/go-paseto", 12000, 80000, 40000),
		m("check/v4.public/signet", 15000, 66000, 40000),
		m("check/v4.public/floor", 15000, 64000, 40000), // in server: 54 µs, 1.35×
	}
	var b bytes.Buffer
	newReport(config{}, ms, time.Time{}).targetsSection(&b)
	s := b.String()
	for _, want := range []string{
		"| ES256 issue ≥ 0.95× the primitive's bound | `issue/ES256/signet` | 0.72 | ≥ 0.95 | **FAIL** | 0.90 fail | 18,000 req/s; bound 1e9 / (hello/post 10.0 µs + primitive 30.0 µs) = 25,000;",
		"; in-server bound `issue/ES256/floor` 20,000 req/s, 50.0 µs/req; signet / floor 0.90, golang-jwt / floor 0.80 |",
		"### The bound in a server: the floor rows",
		"On this run the asymmetric primitives (every floor row but HS256's) cost 1.33 to 1.35× their tight-loop figure",
		"| `issue/ES256/floor` | 30.0 | 40.0 | 25,000 | 20,000 | 50.0 | 0.80 (0.80) | 55.0 | 0.90 (0.91) | golang-jwt | 60.0 | 0.80 (0.83) |",
		"| `check/v4.public/floor` | 40.0 | 54.0 | 20,000 | 15,000 | 64.0 | 0.75 (0.78) | 66.0 | 1.00 (0.97) | go-paseto | 80.0 | 0.80 (0.80) |",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("Targets lack %q\n%s", want, s)
		}
	}
	// A row outside the study (serve's token endpoint) gets the bound's
	// ratio with the primitive's in-server cost, from the floor row that
	// names the same primitive.
	token := m("token/ES256/signet-serve", 16000, 60000, 30000)
	token.Group, token.Labels = "serve", map[string]string{"primitive": "ES256 issue small"}
	b.Reset()
	newReport(config{}, append(ms, token), time.Time{}).targetsSection(&b)
	if want := "with the primitive's in-server cost (`issue/ES256/floor` less its baseline: 40.0 µs) the same ratio by CPU is (10.0 + 40.0) / 60.0 = 0.83 |"; !strings.Contains(b.String(), want) {
		t.Errorf("the token endpoint's target lacks %q\n%s", want, b.String())
	}
	if want := "| `token/ES256/signet-serve` | 0.64 | ≥ 0.85 | **FAIL** | 0.83 fail |"; !strings.Contains(b.String(), want) {
		t.Errorf("the token endpoint's target lacks %q\n%s", want, b.String())
	}
	b.Reset()
	newReport(config{}, ms[:2], time.Time{}).targetsSection(&b)
	if s := b.String(); strings.Contains(s, "floor") {
		t.Errorf("no floor rows, yet:\n%s", s)
	}
}
