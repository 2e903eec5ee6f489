package load

import (
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// The faults, by name (FaultResult.Fault).
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
	Fault    string        // one of the Fault* names
	What     string        // what was done, in one line
	Duration time.Duration // how long the load ran

	// Every answer, wrk's and the probe's: 2xx, 503, other 5xx, anything
	// else (4xx the probe asked for, such as 401 for a token of an
	// unpublished key, are counted under Other and named in Notes).
	Requests                       int64
	Status2xx, Status503, Other5xx int64
	Other                          int64
	SocketErrors                   int64 // wrk's connect+read+write+timeout, and probe transport errors
	// Verified counts tokens the probe verified as a resource server
	// does; FailedVerifications those that did not verify.
	Verified, FailedVerifications int64
	// RevokedActive counts introspections that reported a revoked token
	// active (the target is 0).
	RevokedActive int64
	// RecoveryMS is how long the service took to answer 200 again once
	// the fault ended (Redis answering again); -1 when the fault has no
	// recovery to measure.
	RecoveryMS float64

	Checks []FaultCheck // each target, with what was seen
	Notes  []string     // figures that explain the counts
	Pass   bool         // every check passed
}

// FaultCheck is one target of a fault and whether it was met.
type FaultCheck struct {
	Target string // e.g. "0 failed verifications"
	Pass   bool
	Got    string // what was seen
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

// ShortFaultTiming is the version run by `make test` (about 35 s for the
// five faults on 2 cores).
func ShortFaultTiming() FaultTiming {
	return FaultTiming{Load: 4 * time.Second, Outage: 5 * time.Second, Before: time.Second,
		After: time.Second, Rotate: 2 * time.Second, Connect: 10}
}

// FaultTimingFor is the timing of `make load` (quick) or `make
// load-full`.
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

// A Fault is one fault under load: Run starts what it needs under
// env.Tmp, runs the load, injects the fault, stops everything and
// reports what clients saw. An error means the fault could not be run
// (a missing program, a server that did not start); a target that was
// missed is a FaultResult that does not pass.
type Fault struct {
	Name string
	Run  func(ctx context.Context, env *Env, t FaultTiming) (FaultResult, error)
}

// FaultScenarios returns the five faults of the HTTP lab, in the order
// they run: key rotation, two instances on one Redis, the Redis outage,
// SIGTERM, the guard's JWKS server failing.
func FaultScenarios() []Fault {
	return []Fault{
		{Name: FaultRotation, Run: runRotationFault},
		{Name: FaultTwoInstances, Run: runTwoInstancesFault},
		{Name: FaultRedisOutage, Run: runRedisOutageFault},
		{Name: FaultSIGTERM, Run: runSIGTERMFault},
		{Name: FaultGuardJWKS, Run: runGuardJWKSFault},
	}
}

// RunFaults runs every fault with the timing of quick (make load) or full
// (make load-full) and returns their results, progress on env.Log. It
// stops at the first fault that could not be run; faults that missed a
// target are results with Pass false (see FaultResult.Failed).
func RunFaults(ctx context.Context, env *Env, quick bool) ([]FaultResult, error) {
	return runFaults(ctx, env, FaultTimingFor(quick), FaultScenarios())
}

func runFaults(ctx context.Context, env *Env, t FaultTiming, faults []Fault) ([]FaultResult, error) {
	var out []FaultResult
	for i, f := range faults {
		logf(env, "fault %d/%d: %s …", i+1, len(faults), f.Name)
		start := time.Now()
		r, err := f.Run(ctx, env, t)
		if err != nil {
			return out, fmt.Errorf("fault %s: %w", f.Name, err)
		}
		r.Fault = f.Name
		r.finish()
		verdict := "pass"
		if !r.Pass {
			verdict = "FAIL: " + strings.Join(r.Failed(), "; ")
		}
		logf(env, "fault %d/%d: %s: %s (%v)", i+1, len(faults), f.Name, verdict, time.Since(start).Round(100*time.Millisecond))
		out = append(out, r)
	}
	return out, nil
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

var _ io.Writer = (*lockedBuffer)(nil)
