package load

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
)

// TestStudyScenarios: the lists have the documented size, unique names,
// baselines in the list and measured in the same runtime, the labels the
// records need, and a plan Run accepts.
func TestStudyScenarios(t *testing.T) {
	for _, c := range []struct {
		quick bool
		n     int
	}{
		{true, 1 + 4*7}, // hello + (HS256, ES256, EdDSA, v4.public) × (the bearer baseline + issue/check × 2 libs and the floor)
		{false, 1 + 7*5 + 6*2 + 2*2*5 + 3*(1+2*5)}, // + the floor of 6 algs + payload (2 algs × 2 sizes) + runtime (3 × (hello + 2 algs)), each (alg, size, runtime) with its bearer baseline
	} {
		scs := StudyScenarios(c.quick)
		if len(scs) != c.n {
			t.Errorf("quick=%v: %d scenarios, want %d", c.quick, len(scs), c.n)
		}
		names := map[string]Scenario{}
		for _, s := range scs {
			if _, dup := names[s.Name]; dup {
				t.Errorf("two scenarios named %s", s.Name)
			}
			names[s.Name] = s
		}
		for _, s := range scs {
			l := s.Labels
			if s.Group == "baseline" {
				if !strings.HasPrefix(s.Name, StudyHello) && !strings.HasPrefix(s.Name, StudyBearerHello+"/") || s.Baseline != "" || l["op"] != "hello" {
					t.Errorf("baseline %s: %+v", s.Name, s)
				}
				continue
			}
			b, ok := names[s.Baseline]
			if !ok {
				t.Errorf("%s: baseline %q not in the list", s.Name, s.Baseline)
				continue
			}
			if b.Labels["gomaxprocs"] != l["gomaxprocs"] || b.Labels["gogc"] != l["gogc"] || b.Labels["gomemlimit"] != l["gomemlimit"] {
				t.Errorf("%s: runtime %v, its baseline's %v", s.Name, l, b.Labels)
			}
			// A check row's baseline gets the same request: its tokens in the header.
			bearer := b.Labels["auth"] == "bearer" && b.Labels["alg"] == l["alg"] && b.Labels["payload"] == l["payload"]
			if (l["op"] == "check") != bearer {
				t.Errorf("%s: baseline %s (labels %v)", s.Name, b.Name, b.Labels)
			}
			want := l["op"] + "/" + l["alg"] + "/" + l["lib"]
			if !strings.HasPrefix(s.Name, want) || l["format"] == "" || l["payload"] == "" || l["gogc"] == "" {
				t.Errorf("%s: labels %v", s.Name, l)
			}
			switch {
			case l["gomaxprocs"] == "2":
				if l["primitive"] != "" || !strings.Contains(l["note"], "shares") {
					t.Errorf("%s: GOMAXPROCS=2 labels %v", s.Name, l)
				}
			case l["primitive"] != l["alg"]+" "+l["op"]+" "+l["payload"]:
				t.Errorf("%s: primitive %q", s.Name, l["primitive"])
			}
		}
		if _, err := Plan(scs, Options{}); err != nil {
			t.Errorf("quick=%v: %v", c.quick, err)
		}
	}
	// The quick list is a subset of the full one.
	full := StudyScenarios(false)
	for _, s := range StudyScenarios(true) {
		if !slices.ContainsFunc(full, func(f Scenario) bool { return f.Name == s.Name }) {
			t.Errorf("quick %s not in the full list", s.Name)
		}
	}
}

// TestStudyRuntime: GOMAXPROCS=2 puts the server on its CPU and wrk's;
// the others on the server's alone, with their GOGC and GOMEMLIMIT.
func TestStudyRuntime(t *testing.T) {
	env := &Env{ServerCPUs: "0", WrkCPUs: "1"}
	if got := studyRuntimes[0].cpus(env); got != "0,1" {
		t.Errorf("gomaxprocs2 on %q", got)
	}
	if got := studyDefault.cpus(env); got != "0" {
		t.Errorf("default on %q", got)
	}
	if got := strings.Join(studyRuntimes[2].env(), " "); got != "GOMAXPROCS=1 GOGC=off GOMEMLIMIT="+studyMemLimit {
		t.Errorf("gogc-off env %q", got)
	}
	if got := strings.Join(studyDefault.env(), " "); got != "GOMAXPROCS=1 GOGC=100" {
		t.Errorf("default env %q", got)
	}
}

// TestMeasureBounds: scenarios sharing a primitive get the same cost,
// measured once; a scenario without the label, or with a BoundNS, is
// left alone; a malformed label is an ErrPlan.
func TestMeasureBounds(t *testing.T) {
	scs := []Scenario{
		{Name: "a", Labels: map[string]string{"primitive": "EdDSA check small"}},
		{Name: "b", Labels: map[string]string{"primitive": "EdDSA check small"}},
		{Name: "c", Labels: map[string]string{}},
		{Name: "d", Labels: map[string]string{"primitive": "EdDSA check small"}, BoundNS: 7},
	}
	var log strings.Builder
	if err := MeasureBounds(scs, &log); err != nil {
		t.Fatal(err)
	}
	if scs[0].BoundNS <= 0 || scs[1].BoundNS != scs[0].BoundNS || scs[2].BoundNS != 0 || scs[3].BoundNS != 7 {
		t.Errorf("bounds %v %v %v %v", scs[0].BoundNS, scs[1].BoundNS, scs[2].BoundNS, scs[3].BoundNS)
	}
	if strings.Count(log.String(), "primitive EdDSA check small") != 1 {
		t.Errorf("log %q: want one measurement", log.String())
	}
	for _, bad := range []string{"EdDSA", "EdDSA hello small", "RS512 check small", "EdDSA check huge"} {
		err := MeasureBounds([]Scenario{{Name: "x", Labels: map[string]string{"primitive": bad}}}, nil)
		if err == nil {
			t.Errorf("%q: measured", bad)
		}
		if bad == "EdDSA" && !errors.Is(err, signet.ErrMalformed) {
			t.Errorf("%q: %v, want ErrPlan", bad, err)
		}
	}
}

// buildLoadSrv builds bench/cmd/loadsrv into dir.
func buildLoadSrv(t *testing.T, dir string) {
	t.Helper()
	out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "loadsrv"), "github.com/signet-go/signet/bench/cmd/loadsrv").CombinedOutput()
	if err != nil {
		t.Fatalf("go build loadsrv: %v\n%s", err, out)
	}
}

// TestStudySmoke runs three of the study's scenarios (the baseline, an
// issue and a check) through the harness with wrk, one round of 1 s each:
// every request answered 200, server CPU and RSS measured. It fails when
// wrk is missing.
func TestStudySmoke(t *testing.T) {
	if _, err := exec.LookPath("wrk"); err != nil {
		t.Fatal(ErrWrkMissing)
	}
	var scs []Scenario
	for _, s := range StudyScenarios(true) {
		if s.Name == StudyHello || s.Name == "issue/HS256/golang-jwt" || s.Name == "hello/bearer/v4.public" || s.Name == "check/v4.public/signet" {
			scs = append(scs, s)
		}
	}
	if len(scs) != 4 {
		t.Fatalf("%d scenarios", len(scs))
	}
	env := &Env{Bin: t.TempDir(), Tmp: t.TempDir(), ServerCPUs: "0", WrkCPUs: "1"}
	buildLoadSrv(t, env.Bin)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ms, err := Run(ctx, scs, Options{Env: env, Rounds: 1, Warmup: -1, Duration: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.Error != "" {
			t.Errorf("%s: %s", m.Scenario, m.Error)
			continue
		}
		if m.Requests <= 0 || m.RPS <= 0 || m.Errors != 0 || m.Non2xx != 0 || m.Statuses[200] != m.Requests {
			t.Errorf("%s: %d requests, %.0f/s, %d errors, %d non-2xx, statuses %v", m.Scenario, m.Requests, m.RPS, m.Errors, m.Non2xx, m.Statuses)
		}
		if m.CPUPerReqNS <= 0 || m.PeakRSS <= 0 {
			t.Errorf("%s: CPU %v ns/req, peak RSS %d", m.Scenario, m.CPUPerReqNS, m.PeakRSS)
		}
		if m.Group != "baseline" && m.BaselineRPS <= 0 {
			t.Errorf("%s: no baseline figures", m.Scenario)
		}
		t.Logf("%s: %.0f req/s, P99 %.2f ms, %.0f ns CPU/req (baseline %.0f req/s)", m.Scenario, m.RPS, m.P99, m.CPUPerReqNS, m.BaselineRPS)
	}
}
