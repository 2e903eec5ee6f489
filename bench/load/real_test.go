package load

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// buildRealBinaries builds the signet CLI (../../cmd/signet) and the
// scenario server (../cmd/loadsrv) into a temporary directory, once per
// test: the binaries the real scenarios drive.
func buildRealBinaries(t *testing.T) string {
	t.Helper()
	bin := t.TempDir()
	for _, b := range []struct{ out, dir, pkg string }{
		{"signet", "../../cmd/signet", "."},
		{"loadsrv", "..", "./cmd/loadsrv"},
	} {
		cmd := exec.Command("go", "build", "-o", filepath.Join(bin, b.out), b.pkg)
		cmd.Dir = b.dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s in %s: %v\n%s", b.pkg, b.dir, err, out)
		}
	}
	return bin
}

// realWithBaselines is scs after the baselines the driver adds: GET
// /hello and the study's POSTed /hello.
func realWithBaselines(scs []Scenario) []Scenario {
	return append([]Scenario{Hello(), studyHelloScenario(studyDefault)}, scs...)
}

// The list: unique names, every baseline in the list (hello is the
// driver's), the quick list a subset of the full one, labels for
// results.json, a bound label on the rows the targets bound.
func TestRealScenariosList(t *testing.T) {
	full := RealScenarios(false)
	quick := RealScenarios(true)
	names := map[string]bool{}
	for _, s := range full {
		names[s.Name] = true
	}
	for _, s := range quick {
		if !names[s.Name] {
			t.Errorf("quick scenario %s is not in the full list", s.Name)
		}
	}
	for _, want := range []string{"token/ES256/signet-serve", "token/HS256/signet-serve", "token/EdDSA/signet-serve",
		"introspect/ES256/signet-serve", "proxy", "guard-nocache/ES256/signet-guard", "guard-cache/ES256/signet-guard",
		"middleware/ES256/signet", "middleware/HS256/signet"} {
		if !names[want] {
			t.Errorf("full list lacks %s", want)
		}
	}
	if len(names) != len(full) {
		t.Errorf("%d scenarios, %d names: a name repeats", len(full), len(names))
	}
	bound := map[string]string{
		"token/ES256/signet-serve": "ES256 issue small", "token/HS256/signet-serve": "HS256 issue small",
		"token/EdDSA/signet-serve": "EdDSA issue small", "guard-nocache/ES256/signet-guard": "ES256 check small",
		"middleware/ES256/signet": "ES256 check small", "middleware/HS256/signet": "HS256 check small",
	}
	for _, s := range full {
		if s.Labels["op"] == "" || s.Labels["lib"] == "" {
			t.Errorf("%s: labels %v lack op or lib", s.Name, s.Labels)
		}
		if got := s.Labels["primitive"]; got != bound[s.Name] {
			t.Errorf("%s: primitive label %q, want %q", s.Name, got, bound[s.Name])
		}
		switch {
		case strings.HasPrefix(s.Name, "guard"):
			if s.Baseline != "proxy" {
				t.Errorf("%s: baseline %q, want proxy", s.Name, s.Baseline)
			}
		case s.Name == "proxy":
			if s.Baseline != "" {
				t.Errorf("proxy has baseline %q", s.Baseline)
			}
		case strings.HasSuffix(s.Name, "/signet-serve"):
			if s.Baseline != StudyHello {
				t.Errorf("%s: baseline %q, want %s", s.Name, s.Baseline, StudyHello)
			}
		case s.Baseline != "hello":
			t.Errorf("%s: baseline %q, want hello", s.Name, s.Baseline)
		}
	}
	if _, err := Plan(realWithBaselines(full), Options{}); err != nil {
		t.Error(err)
	}
}

// Every real scenario (the full list) and its baselines through the
// harness with real wrk for 1 s: signet serve, signet guard, the proxy
// and loadsrv started, pinned and stopped; only 2xx answers, no socket
// errors, CPU per request measured; the guard's rows report their
// upstream's CPU apart.
func TestRealScenariosSmoke(t *testing.T) {
	needWrk(t)
	bin := buildRealBinaries(t)
	env := &Env{Bin: bin, Tmp: t.TempDir(), ServerCPUs: "0", WrkCPUs: wrkCPUs()}
	scs := realWithBaselines(RealScenarios(false))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	ms, err := Run(ctx, scs, Options{Env: env, Rounds: 1, Warmup: -1, Duration: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		t.Logf("%-30s %8.0f req/s  %7.0f ns CPU/req  P99 %.2f ms  (baseline %s: %.0f req/s, %.0f ns/req) %v",
			m.Scenario, m.RPS, m.CPUPerReqNS, m.P99, m.Baseline, m.BaselineRPS, m.BaselineCPUPerReqNS, m.Extra)
		if m.Error != "" || m.Rounds < 1 { // hello runs before every 4 of its scenarios
			t.Errorf("%s: %d rounds, error %s", m.Scenario, m.Rounds, m.Error)
			continue
		}
		var ok int64
		for code, n := range m.Statuses {
			if code >= 200 && code < 300 {
				ok += n
			}
		}
		if m.Requests <= 0 || ok != m.Requests || m.Non2xx != 0 || m.Errors != 0 {
			t.Errorf("%s: %d requests, statuses %v, non-2xx %d, socket errors %d", m.Scenario, m.Requests, m.Statuses, m.Non2xx, m.Errors)
		}
		if m.CPUPerReqNS <= 0 || m.PeakRSS <= 0 {
			t.Errorf("%s: CPU per request %.0f ns, peak RSS %d", m.Scenario, m.CPUPerReqNS, m.PeakRSS)
		}
		if m.Baseline != "" && m.BaselineRPS <= 0 {
			t.Errorf("%s: no baseline figures", m.Scenario)
		}
		if m.Group == "guard" {
			if ns, _ := m.Extra["upstream_cpu_ns_per_req"].(float64); ns <= 0 {
				t.Errorf("%s: upstream CPU per request %v", m.Scenario, m.Extra)
			}
		}
	}
}
