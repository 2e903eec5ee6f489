package load

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// helperEnv makes the test binary a /hello server (TestMain), so that
// StartServer has a real process to pin, measure and stop.
const helperEnv = "SIGNET_LOAD_TEST_SERVER"

func TestMain(m *testing.M) {
	if addr := os.Getenv(helperEnv); addr != "" {
		mux := http.NewServeMux()
		mux.HandleFunc("/hello", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "hello") })
		mux.HandleFunc("/gomaxprocs", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, runtime.GOMAXPROCS(0)) })
		fmt.Fprintln(os.Stderr, http.ListenAndServe(addr, mux))
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// needWrk fails (never skips) when wrk is missing: the lab's tests need it.
func needWrk(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("wrk"); err != nil {
		t.Fatal(ErrWrkMissing)
	}
}

// wrkCPUs pins wrk to CPU 1 when there is one.
func wrkCPUs() string {
	if runtime.NumCPU() < 2 {
		return "-"
	}
	return "1"
}

// A real wrk run (1 s) against an in-process server: requests counted,
// statuses counted by the reporter, POST body and headers and the cycled
// tokens of tokens.lua delivered.
func TestRunWrkTokens(t *testing.T) {
	needWrk(t)
	var mu sync.Mutex
	seen := map[string]int{}
	bad := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		if r.Method != http.MethodPost || string(body) != "grant_type=client_credentials" || r.Header.Get("X-Lab") != "yes" {
			bad++
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		seen[tok]++
		if tok == "t3" {
			w.WriteHeader(http.StatusUnauthorized)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	toks := filepath.Join(dir, "tokens.txt")
	body := filepath.Join(dir, "body.txt")
	if err := os.WriteFile(toks, []byte("t1\nt2\r\n\nt3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(body, []byte("grant_type=client_credentials"), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := RunWrk(context.Background(), WrkSpec{
		URL: srv.URL + "/token", Script: "tokens.lua", Duration: time.Second, CPUs: wrkCPUs(), Connections: 4, Threads: 2,
		Args: []string{"tokens=" + toks, "method=POST", "body=@" + body, "header=X-Lab: yes"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests <= 0 || res.RPS <= 0 || res.P50 <= 0 || res.P999 < res.P99 {
		t.Fatalf("result %+v", res)
	}
	mu.Lock()
	defer mu.Unlock()
	if bad != 0 || len(seen) != 3 || seen["t1"] == 0 || seen["t3"] == 0 {
		t.Errorf("server saw %v tokens and %d malformed requests", seen, bad)
	}
	// wrk may stop with requests in flight: the server can have seen a few
	// more than wrk counted, never fewer.
	if got := res.Statuses[200] + res.Statuses[401]; got != res.Requests || res.Statuses[401] == 0 || res.Non2xx != res.Statuses[401] {
		t.Errorf("statuses %v, non-2xx %d for %d requests", res.Statuses, res.Non2xx, res.Requests)
	}
	if total := seen["t1"] + seen["t2"] + seen["t3"]; int64(total) < res.Requests {
		t.Errorf("server saw %d requests, wrk counted %d", total, res.Requests)
	}
}

// Run with a real server process (this test binary, pinned with taskset)
// and real wrk: one round of 1 s after a short warm-up.
func TestRunRealServer(t *testing.T) {
	needWrk(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	sc := Scenario{Group: "baseline", Name: "hello", Setup: func(ctx context.Context, env *Env) (*Target, error) {
		addr, err := FreeAddr()
		if err != nil {
			return nil, err
		}
		srv, err := StartServer(ctx, ServerSpec{Name: "hello", Argv: []string{exe}, Env: []string{helperEnv + "=" + addr}, CPUs: "0", Ready: "http://" + addr + "/hello"})
		if err != nil {
			return nil, err
		}
		resp, err := http.Get("http://" + addr + "/gomaxprocs")
		if err != nil {
			srv.Stop()
			return nil, err
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(b) != "1" {
			srv.Stop()
			return nil, fmt.Errorf("server's GOMAXPROCS %s, want 1", b)
		}
		return &Target{Wrk: WrkSpec{URL: "http://" + addr + "/hello"}, Servers: []*Server{srv}, Close: srv.Stop}, nil
	}}
	env := &Env{Tmp: t.TempDir(), ServerCPUs: "0", WrkCPUs: wrkCPUs()}
	ms, err := Run(context.Background(), []Scenario{sc}, Options{Env: env, Rounds: 1, Warmup: time.Second, Duration: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	m := ms[0]
	if m.Error != "" || m.Rounds != 1 {
		t.Fatalf("run failed: %+v", m)
	}
	if m.Requests <= 0 || m.Statuses[200] != m.Requests || m.Non2xx != 0 || m.Errors != 0 {
		t.Errorf("requests %d, statuses %v, non-2xx %d, errors %d", m.Requests, m.Statuses, m.Non2xx, m.Errors)
	}
	if m.CPUPerReqNS <= 0 || m.PeakRSS <= 0 || m.P99 <= 0 {
		t.Errorf("cpu/req %v ns, peak RSS %d, P99 %v ms", m.CPUPerReqNS, m.PeakRSS, m.P99)
	}
}

func TestStartServerFailures(t *testing.T) {
	ctx := context.Background()
	if _, err := StartServer(ctx, ServerSpec{Name: "none"}); err == nil {
		t.Error("no argv: no error")
	}
	// A program that exits at once: the error says so, with its output.
	_, err := StartServer(ctx, ServerSpec{Name: "quits", Argv: []string{"sh", "-c", "echo bye; exit 3"}, Ready: "http://127.0.0.1:1/hello", ReadyTimeout: 5 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "exited before") || !strings.Contains(err.Error(), "bye") {
		t.Errorf("quitting server: %v", err)
	}
	// A program that never answers: bounded wait, then stopped.
	start := time.Now()
	_, err = StartServer(ctx, ServerSpec{Name: "mute", Argv: []string{"sleep", "30"}, Ready: "http://127.0.0.1:1/hello", ReadyTimeout: 300 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "did not answer") || time.Since(start) > 10*time.Second {
		t.Errorf("mute server: %v after %v", err, time.Since(start))
	}
	// Stop ends a running server; its CPU time and RSS are readable before.
	s, err := StartServer(ctx, ServerSpec{Name: "sleeper", Argv: []string{"sleep", "30"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CPUTime(); err != nil {
		t.Error(err)
	}
	if err := s.Stop(); err != nil {
		t.Error(err)
	}
	if ok, _ := s.Exited(); !ok {
		t.Error("still running after Stop")
	}
	if _, err := s.CPUTime(); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("cpu time of a stopped server: %v", err)
	}
}
