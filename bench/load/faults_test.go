package load

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// faultsShortBound bounds the short version of the faults as a whole
// (each fault runs a few seconds; building signet comes on top).
const faultsShortBound = 3 * time.Minute

// TestFaultsShort runs each fault under wrk in its short form (a few
// seconds each, ShortFaultTiming) against the real signet binary, and
// asserts the fault targets: 0 failed verifications across
// rotation and across instances, 0 revoked tokens reported active, 503
// (and never another 5xx, never 200 for what could not be checked) while
// Redis is away and a recovery once it is back, requests in flight at
// SIGTERM completed with exit 0 and nothing lost, and the guard serving
// from its held keys while its key server fails (never 200 for a token it
// cannot verify). It fails, never skips, when wrk or redis-server is
// missing.
func TestFaultsShort(t *testing.T) {
	for _, prog := range []string{"wrk", "redis-server"} {
		if _, err := exec.LookPath(prog); err != nil {
			t.Fatalf("%s is not installed (scripts/install-wrk.sh, scripts/install-redis.sh): %v", prog, err)
		}
	}
	env := faultTestEnv(t)
	ctx, cancel := context.WithTimeout(context.Background(), faultsShortBound)
	defer cancel()
	timing := ShortFaultTiming()
	var results []FaultResult
	for _, f := range FaultList() {
		t.Run(f.Name, func(t *testing.T) {
			start := time.Now()
			r, err := runFault(ctx, env, timing, f)
			if err != nil {
				t.Fatalf("the fault could not run: %v", err)
			}
			results = append(results, r)
			for _, c := range r.Checks {
				t.Logf("%v %s: %s", c.Pass, c.Target, c.Got)
			}
			for _, n := range r.Notes {
				t.Logf("note: %s", n)
			}
			t.Logf("%s in %v: %d requests, 2xx %d, 503 %d, other 5xx %d, failed verifications %d, revoked active %d, recovery %.0f ms",
				f.Name, time.Since(start).Round(100*time.Millisecond), r.Requests, r.Status2xx, r.Status503, r.Other5xx,
				r.FailedVerifications, r.RevokedActive, r.RecoveryMS)
			if !r.Pass {
				t.Errorf("targets missed:\n%s", strings.Join(r.Failed(), "\n"))
			}
			if r.Other5xx != 0 {
				t.Errorf("%d 5xx answers other than 503", r.Other5xx)
			}
			if r.FailedVerifications != 0 || r.RevokedActive != 0 {
				t.Errorf("%d failed verifications, %d revoked tokens reported active", r.FailedVerifications, r.RevokedActive)
			}
		})
	}
	if md := FaultsMarkdown(results); !strings.Contains(md, "| fault |") {
		t.Errorf("markdown without its table:\n%s", md)
	}
}

// faultTestEnv builds the signet CLI (cmd/signet, its own module) into a
// temporary directory and returns the environment of the faults: servers
// on CPU 0, wrk on CPU 1 (no pinning on one CPU).
func faultTestEnv(t *testing.T) *Env {
	t.Helper()
	bin := t.TempDir()
	cmd := exec.Command("go", "build", "-o", filepath.Join(bin, "signet"), ".")
	cmd.Dir = filepath.Join("..", "..", "cmd", "signet")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build cmd/signet: %v\n%s", err, out)
	}
	env := &Env{Bin: bin, Tmp: t.TempDir(), Log: testWriter{t}, ServerCPUs: "0", WrkCPUs: "1"}
	if runtime.NumCPU() < 2 {
		env.ServerCPUs, env.WrkCPUs = "-", "-"
	}
	return env
}

// testWriter sends progress lines to t.Log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// TestFaultRecordRoundTrip: a fault result becomes the fields of its
// results.json record and reads back from the measurement (what the
// driver's report does), a failed run reads back as a failed result, and
// the Markdown names each fault's verdict and checks.
func TestFaultRecordRoundTrip(t *testing.T) {
	r := FaultResult{Fault: FaultRedisOutage, What: "Redis stopped | restarted", Duration: 9 * time.Second,
		Requests: 100, Status2xx: 80, Status503: 20, RecoveryMS: 812.6}
	r.check("503 while Redis is away", true, "%d", 20)
	r.check("0 revoked tokens reported active", false, "%d", 1)
	r.note("a note")
	r.finish()
	if r.Pass {
		t.Fatal("a result with a failed check passes")
	}
	rec := FaultRecord(r)
	for k, want := range map[string]any{"fault": FaultRedisOutage, "pass": false, "status_503": float64(20), "recovery_ms": 812.6, "load_s": 9.0} {
		if rec[k] != want {
			t.Errorf("record[%q] = %v, want %v", k, rec[k], want)
		}
	}
	ms := []Measurement{
		{Scenario: "hello", Suite: "http"},
		{Scenario: "fault/" + FaultRedisOutage, Suite: "http-faults", Rounds: 1, Extra: rec},
		{Scenario: "fault/" + FaultSIGTERM, Suite: "http-faults", Error: "setup: signet: no such file"},
	}
	back := FaultResults(ms)
	if len(back) != 2 {
		t.Fatalf("%d results, want 2", len(back))
	}
	if back[0].Fault != FaultRedisOutage || back[0].Pass || back[0].Status503 != 20 || back[0].RecoveryMS != 812.6 ||
		len(back[0].Checks) != 2 || back[0].Checks[1].Pass || back[0].Duration != 9*time.Second ||
		back[0].What != r.What || len(back[0].Notes) != 1 {
		t.Errorf("read back %+v", back[0])
	}
	if _, ok := FaultRecord(FaultResult{RecoveryMS: -1})["recovery_ms"]; ok {
		t.Error("a fault without recovery records recovery_ms")
	}
	if back[1].Fault != FaultSIGTERM || back[1].Pass || len(back[1].Checks) != 1 || !strings.Contains(back[1].Checks[0].Got, "no such file") {
		t.Errorf("failed run read back %+v", back[1])
	}
	md := FaultsMarkdown(back)
	for _, want := range []string{"| redis-outage |", "**FAIL**", "✗ 0 revoked tokens reported active", "813 ms", "| sigterm |"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}

// TestFaultScenarios: the faults as the driver's scenarios: one round, no
// warm-up, suite http-faults, unique names, and a main wrk run long
// enough for each fault's sequence.
func TestFaultScenarios(t *testing.T) {
	for _, quick := range []bool{true, false} {
		timing := FaultTimingFor(quick)
		scs := FaultScenarios(quick)
		if len(scs) != len(FaultList()) {
			t.Fatalf("%d scenarios, want %d", len(scs), len(FaultList()))
		}
		seen := map[string]bool{}
		for _, s := range scs {
			if seen[s.Name] || !strings.HasPrefix(s.Name, "fault/") || s.Suite != "http-faults" || s.Rounds != 1 || !s.NoWarmup || s.Setup == nil {
				t.Errorf("scenario %+v", s)
			}
			seen[s.Name] = true
		}
		if d := faultLoadDuration(FaultRedisOutage, timing); d < timing.Before+timing.Outage+outageRecoveryAllowance {
			t.Errorf("quick=%v: the outage's load lasts %v, shorter than its sequence", quick, d)
		}
	}
	if _, err := Plan(append([]Scenario{Hello()}, FaultScenarios(true)...), Options{}); err != nil {
		t.Fatalf("Plan: %v", err)
	}
}

// TestFaultScriptCounts: fault.lua counts the answers that say
// "active":true (and only those) and writes wrk's socket errors by kind:
// against a server that answers active to every other request, the count
// is half the 200s, give or take the requests in flight at the end.
func TestFaultScriptCounts(t *testing.T) {
	if _, err := exec.LookPath("wrk"); err != nil {
		t.Fatalf("wrk is not installed (scripts/install-wrk.sh): %v", err)
	}
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if n.Add(1)%2 == 0 {
			io.WriteString(w, `{"active":true,"sub":"x"}`)
			return
		}
		io.WriteString(w, `{"active":false}`)
	}))
	defer srv.Close()
	spec, out, err := withFaultScript(t.TempDir(), WrkSpec{URL: srv.URL, Connections: 2, Duration: time.Second, CPUs: "-",
		Args: []string{"method=POST", "body=token=x"}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := RunWrk(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	c, err := readFaultCounts(out)
	if err != nil {
		t.Fatal(err)
	}
	ok := res.Statuses[http.StatusOK]
	if ok == 0 || c.Active < ok/2-2 || c.Active > ok/2+2 {
		t.Errorf("%d answers 200, half of them active; fault.lua counted %d", ok, c.Active)
	}
	if c.Connect+c.Read+c.Write+c.Timeout != 0 {
		t.Errorf("socket errors %+v against a steady server", c)
	}
}
