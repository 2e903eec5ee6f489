package load

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"time"
)

// A Scenario is one measured row. Setup starts what the row needs
// (servers, Redis, upstreams) and returns the wrk spec plus the processes
// whose CPU time and RSS count; Run calls Setup for every run (warm-up and
// measurement, each round) and the Target's Close after it.
type Scenario struct {
	Group string // "baseline", "study", "payload", "runtime", "serve", "guard", "middleware", "faults"
	Name  string // e.g. "issue/HS256/signet", "check/ES256/golang-jwt", "token/ES256/signet-serve"
	// Baseline names the scenario measured right before this one in every
	// round (e.g. "hello", "proxy"); "" for none.
	Baseline string
	// BoundNS is the primitive's cost per request (ns), for the bound
	// 1 / (baseline's CPU per request + BoundNS); 0 when none.
	BoundNS float64
	// Labels are the record's fields (results.json): format, alg, op, lib,
	// payload, gomaxprocs, gogc… (see Measurement.Labels).
	Labels map[string]string
	// Suite of the results.json record: "http" when "", "http-faults".
	Suite string
	// Rounds and Duration override Options' for this scenario (a fault
	// scenario that needs 15 s, once); 0 = Options'.
	Rounds   int
	Duration time.Duration
	// NoWarmup skips the warm-up run (faults: the run is the event).
	NoWarmup bool
	Setup    func(ctx context.Context, env *Env) (*Target, error)
}

// Target is what a scenario's Setup started.
type Target struct {
	Wrk     WrkSpec
	Servers []*Server // whose CPU time and peak RSS count (summed)
	// During, when set, runs while the measured wrk run does (rotate keys,
	// stop Redis, send SIGTERM…); its context ends when wrk has finished.
	// An error fails the run.
	During func(ctx context.Context) error
	// Check, when set, is called after the measured run with wrk's result;
	// the values it returns go into Measurement.Extra (the last round's) and
	// the results.json record; an error fails the run.
	Check func(res WrkResult) (map[string]any, error)
	Close func() error // stops what Setup started (may be nil)
}

// Env is what scenarios get from the driver.
type Env struct {
	Bin   string    // directory of the built binaries: signet, loadsrv
	Tmp   string    // a scratch directory for keys, token files, configs
	Quick bool      // the quick run (smaller lists)
	Log   io.Writer // progress and diagnostics (never nil after Run starts)
	// ServerCPUs and WrkCPUs are the taskset lists for servers and wrk
	// ("0" and "1" on the lab's two cores).
	ServerCPUs, WrkCPUs string
}

// LoadSrv returns the path of the scenario server binary
// (bench/cmd/loadsrv, built by the driver into Bin).
func (e *Env) LoadSrv() string { return filepath.Join(e.Bin, "loadsrv") }

// Signet returns the path of the signet CLI binary (cmd/signet).
func (e *Env) Signet() string { return filepath.Join(e.Bin, "signet") }

func (e *Env) log() io.Writer {
	if e == nil || e.Log == nil {
		return io.Discard
	}
	return e.Log
}

// defaultEnv is used when Options.Env is nil (tests).
func defaultEnv() *Env {
	return &Env{Tmp: os.TempDir(), Log: io.Discard, ServerCPUs: "0", WrkCPUs: "1"}
}

// Measurement is one scenario's result: medians over its rounds, beside
// its baseline measured in the same rounds. Latencies are in ms.
type Measurement struct {
	Scenario, Group, Baseline, Suite string
	Labels                           map[string]string
	Rounds                           int // rounds that succeeded
	RPS, P50, P90, P99, P999         float64
	CPUPerReqNS                      float64 // server CPU (utime+stime of Target.Servers) per request
	PeakRSS                          int64   // bytes: the largest sum of the servers' VmHWM over the rounds
	Requests                         int64   // summed over the rounds
	Errors, Non2xx                   int64   // summed over the rounds: socket errors; non-2xx/3xx responses
	Statuses                         map[int]int64
	// The baseline's medians over the runs that preceded this scenario's.
	BaselineRPS, BaselineP99, BaselineCPUPerReqNS float64
	// RatioRPS and RatioP99 are the medians of the per-round ratios
	// (this/baseline), paired run by run.
	RatioRPS, RatioP99 float64
	BoundNS            float64
	// RoundsRPS is each round's requests/s, in round order.
	RoundsRPS []float64
	Extra     map[string]any // Target.Check's values (the last round's)
	Error     string         // why the scenario failed ("" when it did not)
}

// Hello is the baseline scenario: loadsrv's /hello, the handler that
// writes "hello" and nothing else (the study's baseline).
func Hello() Scenario {
	return Scenario{
		Group:  "baseline",
		Name:   "hello",
		Labels: map[string]string{"format": "HTTP", "op": "hello", "lib": "net/http"},
		Setup: func(ctx context.Context, env *Env) (*Target, error) {
			return LoadSrvTarget(ctx, env, "hello", nil, nil, "/hello", WrkSpec{})
		},
	}
}

// LoadSrvTarget starts the scenario server (Env.LoadSrv) on a free
// 127.0.0.1 port with args and extra env (GOMAXPROCS=1 unless given),
// waits for /hello, and returns a target whose wrk spec is w with the URL
// set to path on that server.
func LoadSrvTarget(ctx context.Context, env *Env, name string, args, extraEnv []string, path string, w WrkSpec) (*Target, error) {
	addr, err := FreeAddr()
	if err != nil {
		return nil, err
	}
	argv := append([]string{env.LoadSrv(), "-addr", addr}, args...)
	srv, err := StartServer(ctx, ServerSpec{Name: name, Argv: argv, Env: extraEnv, CPUs: env.ServerCPUs, Ready: "http://" + addr + "/hello"})
	if err != nil {
		return nil, err
	}
	w.URL = "http://" + addr + path
	return &Target{Wrk: w, Servers: []*Server{srv}, Close: srv.Stop}, nil
}
