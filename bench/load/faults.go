package load

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// The faults under load, by name (FaultResult.Fault). Each runs against
// the real signet binary on loopback, bounded in time, with wrk for the
// load and a Go probe beside it that checks answers one by one (what wrk
// cannot: a token verifies, a revoked token is not reported active, a
// request in flight completes). wrk connects to one host, so where two
// instances or two endpoints take load, two wrk processes run at once,
// half the connections each; faultlua/fault.lua adds what the statuses
// do not say (answers saying active, socket errors by kind). Timing comes
// from FaultTiming: the short version (TestFaultsShort, make test), the
// quick and the full ones (make load, make load-full, through
// FaultScenarios).
const (
	FaultRotation     = "rotation"      // signet serve --rotate 2s under load
	FaultTwoInstances = "two-instances" // two signet serve on one Redis, load on both
	FaultRedisOutage  = "redis-outage"  // Redis stopped for 5 s and restarted
	FaultSIGTERM      = "sigterm"       // SIGTERM to signet serve under load, then a restart
	FaultGuardJWKS    = "guard-jwks"    // the JWKS server of signet guard failing
)

// FaultResult is what clients saw during one fault: wrk's statuses and
// socket errors, and what the Go probe running beside wrk checked one
// answer at a time (verifications, introspections, in-flight requests).
type FaultResult struct {
	Fault    string        `json:"fault"` // one of the Fault* names
	What     string        `json:"-"`     // what was done, in one line (the record's first note)
	Duration time.Duration `json:"-"`     // how long the load ran (the record's load_s)

	// Every answer, wrk's and the probe's: 2xx, 503, other 5xx, anything
	// else (4xx the probe asked for, such as 401 for a token of an
	// unpublished key, are counted under Other and named in the checks).
	Requests     int64 `json:"seen_requests"`
	Status2xx    int64 `json:"status_2xx"`
	Status503    int64 `json:"status_503"`
	Other5xx     int64 `json:"other_5xx"`
	Other        int64 `json:"other_status"`
	SocketErrors int64 `json:"seen_socket_errors"` // wrk's connect+read+write+timeout, and probe transport errors
	// Verified counts tokens the probe verified as a resource server
	// does; FailedVerifications those that did not verify.
	Verified            int64 `json:"verified"`
	FailedVerifications int64 `json:"failed_verifications"`
	// RevokedActive counts introspections that reported a revoked token
	// active (the target is 0).
	RevokedActive int64 `json:"revoked_active"`
	// RecoveryMS is how long the service took to answer 200 again once
	// the fault ended (Redis, or the guard's key server, answering
	// again); -1 when the fault has no recovery to measure.
	RecoveryMS float64 `json:"recovery_ms"`

	Checks []FaultCheck `json:"checks"` // each target, with what was seen
	Notes  []string     `json:"notes"`  // figures that explain the counts
	Pass   bool         `json:"pass"`   // every check passed
}

// FaultCheck is one target of a fault and whether it was met.
type FaultCheck struct {
	Target string `json:"target"` // e.g. "0 failed verifications"
	Pass   bool   `json:"pass"`
	Got    string `json:"got"` // what was seen
}

// check records a target; the result passes only if every check does.
func (r *FaultResult) check(target string, pass bool, format string, args ...any) {
	r.Checks = append(r.Checks, FaultCheck{Target: target, Pass: pass, Got: fmt.Sprintf(format, args...)})
}

// note adds a figure to the result's notes.
func (r *FaultResult) note(format string, args ...any) {
	r.Notes = append(r.Notes, fmt.Sprintf(format, args...))
}

// finish computes Pass from the checks.
func (r *FaultResult) finish() {
	r.Pass = len(r.Checks) > 0
	for _, c := range r.Checks {
		r.Pass = r.Pass && c.Pass
	}
}

// Failed returns the checks that did not pass, one line each.
func (r FaultResult) Failed() []string {
	var out []string
	for _, c := range r.Checks {
		if !c.Pass {
			out = append(out, fmt.Sprintf("%s: %s: got %s", r.Fault, c.Target, c.Got))
		}
	}
	return out
}

// addWrk counts a wrk run's answers into r.
func (r *FaultResult) addWrk(w WrkResult) {
	r.Requests += w.Requests
	r.SocketErrors += w.SocketErrors
	r.addStatuses(w.Statuses)
}

// addStatuses counts answers by status code into r.
func (r *FaultResult) addStatuses(m map[int]int64) {
	for code, n := range m {
		switch {
		case code >= 200 && code < 300:
			r.Status2xx += n
		case code == http.StatusServiceUnavailable:
			r.Status503 += n
		case code >= 500:
			r.Other5xx += n
		default:
			r.Other += n
		}
	}
}

// FaultTiming sets the length of each fault's phases: the short version
// (make test), the quick one (make load) and the full one differ only
// here.
type FaultTiming struct {
	Load    time.Duration // the load of rotation, two-instances and guard-jwks
	Outage  time.Duration // how long Redis stays stopped (the 5 s)
	Before  time.Duration // load before a fault starts
	After   time.Duration // load after the service recovered
	Rotate  time.Duration // signet serve --rotate
	Connect int           // wrk connections (split between two wrk processes where there are two)
}

// ShortFaultTiming is the version run by `make test` (TestFaultsShort:
// about 25 s of faults on 2 cores, 30 s with building signet).
func ShortFaultTiming() FaultTiming {
	return FaultTiming{Load: 4 * time.Second, Outage: 5 * time.Second, Before: time.Second,
		After: time.Second, Rotate: 2 * time.Second, Connect: 10}
}

// FaultTimingFor is the timing of `make load` (quick: about 35 s for the
// five faults) or `make load-full` (about 90 s).
func FaultTimingFor(quick bool) FaultTiming {
	if quick {
		t := ShortFaultTiming()
		t.Load = 6 * time.Second
		t.After = 2 * time.Second
		return t
	}
	return FaultTiming{Load: 20 * time.Second, Outage: 5 * time.Second, Before: 3 * time.Second,
		After: 5 * time.Second, Rotate: 2 * time.Second, Connect: 10}
}

// A Fault is one fault under load. Its prepare starts what the fault
// needs (Redis, signet serve or guard, a key server, under env.Tmp) and
// returns the run: the wrk load, what happens while it runs (a probe, a
// second wrk, the fault itself) and the verdict after it. An error means
// the fault could not be run (a missing program, a server that did not
// start); a missed target is a FaultResult that does not pass.
type Fault struct {
	Name    string
	Labels  map[string]string // the results.json record's format, alg, op, lib
	prepare func(ctx context.Context, env *Env, t FaultTiming) (*faultRun, error)
}

// faultRun is one fault, prepared.
type faultRun struct {
	wrk WrkSpec // the load, measured as a scenario's
	// during runs while wrk does; done is closed when wrk has finished.
	// It returns once the fault's own sequence has ended.
	during func(done <-chan struct{}) error
	// check reads the outcome once wrk and during have ended.
	check   func(res WrkResult) (FaultResult, error)
	closers []func()
}

// cleanup adds a cleanup, run in reverse order by close.
func (f *faultRun) cleanup(fn func()) { f.closers = append(f.closers, fn) }

// closeOnError closes f when *err is set (a prepare that failed halfway).
func (f *faultRun) closeOnError(err *error) {
	if *err != nil {
		f.close()
	}
}

func (f *faultRun) close() {
	for i := len(f.closers) - 1; i >= 0; i-- {
		f.closers[i]()
	}
	f.closers = nil
}

// FaultList returns the five faults of the HTTP lab, in the order they
// run: key rotation, two instances on one Redis, the Redis outage,
// SIGTERM, the guard's JWKS server failing.
func FaultList() []Fault {
	serve := func(op string) map[string]string {
		return map[string]string{"format": "JWT", "alg": "ES256", "op": op, "lib": "signet-serve"}
	}
	return []Fault{
		{Name: FaultRotation, Labels: serve("fault-rotation"), prepare: prepareRotation},
		{Name: FaultTwoInstances, Labels: serve("fault-two-instances"), prepare: prepareTwoInstances},
		{Name: FaultRedisOutage, Labels: serve("fault-redis-outage"), prepare: prepareRedisOutage},
		{Name: FaultSIGTERM, Labels: serve("fault-sigterm"), prepare: prepareSIGTERM},
		{Name: FaultGuardJWKS, Labels: map[string]string{"format": "JWT", "alg": "ES256", "op": "fault-guard-jwks", "lib": "signet-guard"}, prepare: prepareGuardJWKS},
	}
}

// FaultScenarios returns the faults as scenarios of the lab's run
// (group "faults", suite "http-faults", one round, no warm-up), named
// "fault/<name>": the measured wrk run is the fault's load, the fault
// happens during it (Target.During), and Target.Check returns the
// FaultResult as the record's fields (FaultRecord). A missed target is
// not an error of the run: the record says pass false and which check
// failed; FaultResults reads the results back for the report.
func FaultScenarios(quick bool) []Scenario {
	t := FaultTimingFor(quick)
	var out []Scenario
	for _, f := range FaultList() {
		f := f
		out = append(out, Scenario{
			Group: "faults", Name: "fault/" + f.Name, Suite: "http-faults", Labels: f.Labels,
			Rounds: 1, NoWarmup: true, Duration: faultLoadDuration(f.Name, t),
			Setup: func(ctx context.Context, env *Env) (*Target, error) {
				fr, err := f.prepare(ctx, env, t)
				if err != nil {
					return nil, err
				}
				return &Target{
					Wrk:    fr.wrk,
					During: func(dctx context.Context) error { return fr.during(dctx.Done()) },
					Check: func(res WrkResult) (map[string]any, error) {
						r, err := fr.check(res)
						if err != nil {
							return nil, err
						}
						r.Fault = f.Name
						r.finish()
						logf(env, "fault %s: %s", f.Name, r.verdict())
						return FaultRecord(r), nil
					},
					Close: func() error { fr.close(); return nil },
				}, nil
			},
		})
	}
	return out
}

// RunFaults runs every fault, one after the other, with the timing of
// quick (make load) or full (make load-full) and returns their results,
// progress on env.Log. It stops at the first fault that could not be run;
// faults that missed a target are results with Pass false (see
// FaultResult.Failed). The lab's driver runs the same faults through Run
// (FaultScenarios); RunFaults is for a caller that wants them alone.
func RunFaults(ctx context.Context, env *Env, quick bool) ([]FaultResult, error) {
	return runFaults(ctx, env, FaultTimingFor(quick), FaultList())
}

func runFaults(ctx context.Context, env *Env, t FaultTiming, faults []Fault) ([]FaultResult, error) {
	var out []FaultResult
	for i, f := range faults {
		logf(env, "fault %d/%d: %s …", i+1, len(faults), f.Name)
		start := time.Now()
		r, err := runFault(ctx, env, t, f)
		if err != nil {
			return out, fmt.Errorf("fault %s: %w", f.Name, err)
		}
		logf(env, "fault %d/%d: %s: %s (%v)", i+1, len(faults), f.Name, r.verdict(), time.Since(start).Round(100*time.Millisecond))
		out = append(out, r)
	}
	return out, nil
}

// runFault runs one fault as Run runs its scenario: wrk with the fault
// happening during it, then the check.
func runFault(ctx context.Context, env *Env, t FaultTiming, f Fault) (FaultResult, error) {
	fr, err := f.prepare(ctx, env, t)
	if err != nil {
		return FaultResult{}, err
	}
	defer fr.close()
	spec := fr.wrk
	spec.Duration = faultLoadDuration(f.Name, t)
	if spec.CPUs == "" {
		spec.CPUs = env.WrkCPUs
	}
	done := make(chan struct{})
	duringErr := make(chan error, 1)
	go func() { duringErr <- fr.during(done) }()
	res, err := RunWrk(ctx, spec)
	close(done)
	derr := <-duringErr
	if err != nil {
		return FaultResult{}, err
	}
	if derr != nil {
		return FaultResult{}, fmt.Errorf("during the run: %w", derr)
	}
	r, err := fr.check(res)
	if err != nil {
		return FaultResult{}, err
	}
	r.Fault = f.Name
	r.finish()
	return r, nil
}

// verdict is "pass" or the failed checks.
func (r FaultResult) verdict() string {
	if r.Pass {
		return "pass"
	}
	return "FAIL: " + strings.Join(r.Failed(), "; ")
}

// whatPrefix starts the record's note that holds FaultResult.What.
const whatPrefix = "setup: "

// FaultRecord is r as the fields of its results.json record (suite
// http-faults): fault, pass, load_s, seen_requests, status_2xx,
// status_503, other_5xx, other_status, seen_socket_errors, verified,
// failed_verifications, revoked_active, recovery_ms (when the fault has
// a recovery), checks (target, pass, got) and notes (the first one
// "setup: " and what was done). The record's own requests, errors,
// non2xx and statuses are those of the fault's main wrk run.
func FaultRecord(r FaultResult) map[string]any {
	rr := r
	rr.Notes = append([]string{whatPrefix + r.What}, r.Notes...)
	b, err := json.Marshal(rr)
	if err != nil { // a struct of strings and numbers: cannot happen
		return map[string]any{"fault": r.Fault, "pass": false, "error": err.Error()}
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return map[string]any{"fault": r.Fault, "pass": false, "error": err.Error()}
	}
	m["load_s"] = math.Round(r.Duration.Seconds()*10) / 10
	if r.RecoveryMS < 0 {
		delete(m, "recovery_ms") // no recovery to measure
	}
	return m
}

// FaultResults reads the fault results back from the measurements of a
// run (the scenarios of FaultScenarios, suite http-faults), in order. A
// fault whose run failed is a result that does not pass, its error as
// its one check.
func FaultResults(ms []Measurement) []FaultResult {
	var out []FaultResult
	for _, m := range ms {
		if m.Suite != "http-faults" {
			continue
		}
		r, err := faultResultOf(m)
		if err != nil || m.Error != "" {
			why := m.Error
			if why == "" {
				why = err.Error()
			}
			r = FaultResult{Fault: strings.TrimPrefix(m.Scenario, "fault/"), RecoveryMS: -1,
				Checks: []FaultCheck{{Target: "the fault ran", Got: why}}}
		}
		out = append(out, r)
	}
	return out
}

// faultResultOf reads a FaultResult from a measurement's Extra (what
// FaultRecord made of it).
func faultResultOf(m Measurement) (FaultResult, error) {
	r := FaultResult{RecoveryMS: -1}
	if m.Extra == nil {
		return r, errors.New("no fault result recorded")
	}
	b, err := json.Marshal(m.Extra)
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return r, err
	}
	if _, ok := m.Extra["recovery_ms"]; !ok {
		r.RecoveryMS = -1
	}
	if s, ok := m.Extra["load_s"].(float64); ok {
		r.Duration = time.Duration(s * float64(time.Second))
	}
	if len(r.Notes) > 0 && strings.HasPrefix(r.Notes[0], whatPrefix) {
		r.What, r.Notes = strings.TrimPrefix(r.Notes[0], whatPrefix), r.Notes[1:]
	}
	return r, nil
}

// faultLoadDuration is how long the main wrk run of a fault lasts.
func faultLoadDuration(name string, t FaultTiming) time.Duration {
	switch name {
	case FaultRedisOutage:
		return t.Before + t.Outage + outageRecoveryAllowance + t.After
	case FaultSIGTERM:
		return t.Before + sigtermTail
	}
	return t.Load
}

// logf writes one progress line to env.Log, if any.
func logf(env *Env, format string, args ...any) {
	if env != nil && env.Log != nil {
		fmt.Fprintf(env.Log, format+"\n", args...)
	}
}

// FaultsMarkdown is the fault section of HTTP.md: one row per fault with
// the counts and the verdict, then each fault's checks and notes.
func FaultsMarkdown(rs []FaultResult) string {
	var b strings.Builder
	b.WriteString("| fault | load | requests | 2xx | 503 | other 5xx | other | socket errors | verified | failed verifications | revoked reported active | recovery | verdict |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n")
	for _, r := range rs {
		rec := "–"
		if r.RecoveryMS >= 0 {
			rec = fmt.Sprintf("%.0f ms", r.RecoveryMS)
		}
		verdict := "pass"
		if !r.Pass {
			verdict = "**FAIL**"
		}
		fmt.Fprintf(&b, "| %s | %v | %d | %d | %d | %d | %d | %d | %d | %d | %d | %s | %s |\n",
			r.Fault, r.Duration.Round(100*time.Millisecond), r.Requests, r.Status2xx, r.Status503, r.Other5xx, r.Other,
			r.SocketErrors, r.Verified, r.FailedVerifications, r.RevokedActive, rec, verdict)
	}
	for _, r := range rs {
		fmt.Fprintf(&b, "\n**%s** — %s\n\n", r.Fault, r.What)
		for _, c := range r.Checks {
			mark := "✓"
			if !c.Pass {
				mark = "✗"
			}
			fmt.Fprintf(&b, "- %s %s: %s\n", mark, c.Target, c.Got)
		}
		for _, n := range r.Notes {
			fmt.Fprintf(&b, "- %s\n", n)
		}
	}
	return b.String()
}

// statusTally counts the probe's answers by status code, and its
// transport errors. Safe for concurrent use.
type statusTally struct {
	mu       sync.Mutex
	statuses map[int]int64
	errors   int64
	first    []string // the first transport errors, for the notes
}

func newStatusTally() *statusTally { return &statusTally{statuses: map[int]int64{}} }

// add counts one answer (or transport error).
func (t *statusTally) add(a answer, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err != nil {
		t.errors++
		if len(t.first) < 3 {
			t.first = append(t.first, err.Error())
		}
		return
	}
	t.statuses[a.status]++
}

// transportErrors is the number of requests that got no answer.
func (t *statusTally) transportErrors() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.errors
}

// into adds the tally to r.
func (t *statusTally) into(r *FaultResult) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, n := range t.statuses {
		r.Requests += n
	}
	r.Requests += t.errors
	r.SocketErrors += t.errors
	r.addStatuses(t.statuses)
}

// String is the tally as "200:12 503:3".
func (t *statusTally) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var parts []string
	for _, code := range slices.Sorted(maps.Keys(t.statuses)) {
		parts = append(parts, fmt.Sprintf("%d:%d", code, t.statuses[code]))
	}
	if t.errors > 0 {
		parts = append(parts, fmt.Sprintf("errors:%d (%s)", t.errors, strings.Join(t.first, "; ")))
	}
	return strings.Join(parts, " ")
}

// statusesString formats wrk's statuses as "200:1234 503:5".
func statusesString(m map[int]int64) string {
	var parts []string
	for _, code := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%d:%d", code, m[code]))
	}
	return strings.Join(parts, " ")
}

// only reports whether every status of m is in allowed.
func only(m map[int]int64, allowed ...int) bool {
	for code, n := range m {
		if n > 0 && !slices.Contains(allowed, code) {
			return false
		}
	}
	return true
}
