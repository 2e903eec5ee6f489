package load

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/signet-go/signet"
)

// Options are a Run's settings.
type Options struct {
	Env      *Env
	Rounds   int           // 3 when 0
	Warmup   time.Duration // per run, before the measurement; 1 s when 0, none when < 0 (wrk runs whole seconds)
	Duration time.Duration // the measured wrk run; 2 s when 0 (whole seconds: wrk's unit)
	// BaselineEvery is how many scenarios one baseline run serves: in a
	// round the baseline runs again before every BaselineEvery of the
	// scenarios that name it. 1 pairs every run with its own (the
	// tightest, twice the time); 4 when 0.
	BaselineEvery int
	Progress      io.Writer // "[12/40] issue/ES256/signet round 2/3 … ETA 2m10s"; nil = none

	runWrk func(ctx context.Context, s WrkSpec) (WrkResult, error) // RunWrk when nil (tests fake it)
	clock  func() time.Time                                        // time.Now when nil
}

// ErrPlan is returned by Run for a scenario list it cannot run: duplicate
// names, a missing Setup, a baseline not in the list.
var ErrPlan = fmt.Errorf("%w: load plan", signet.ErrMalformed)

// step is one run of a round: a scenario, and for a scenario with a
// baseline, the step of that baseline's run it is paired with.
type step struct {
	sc    int // index in scenarios
	round int
	base  int // index in steps of the paired baseline run, -1 when none
}

// runResult is one run's figures.
type runResult struct {
	ok    bool
	err   string
	res   WrkResult
	cpuNS float64 // server CPU per request
	rss   int64
	extra map[string]any
	ran   bool
}

// Plan returns the order Run would run scenarios in: "name@round" per run
// (round from 1), for --list and tests.
func Plan(scenarios []Scenario, opt Options) ([]string, error) {
	steps, err := plan(scenarios, opt.withDefaults())
	if err != nil {
		return nil, err
	}
	out := make([]string, len(steps))
	for i, s := range steps {
		out[i] = fmt.Sprintf("%s@%d", scenarios[s.sc].Name, s.round+1)
	}
	return out, nil
}

func (o Options) withDefaults() Options {
	if o.Rounds <= 0 {
		o.Rounds = 3
	}
	if o.Warmup == 0 {
		o.Warmup = time.Second
	}
	if o.Duration <= 0 {
		o.Duration = 2 * time.Second
	}
	if o.BaselineEvery <= 0 {
		o.BaselineEvery = 4
	}
	if o.Env == nil {
		o.Env = defaultEnv()
	}
	if o.Env.Log == nil {
		o.Env.Log = io.Discard
	}
	if o.Env.ServerCPUs == "" {
		o.Env.ServerCPUs = "0"
	}
	if o.Env.WrkCPUs == "" {
		o.Env.WrkCPUs = "1"
	}
	if o.runWrk == nil {
		o.runWrk = RunWrk
	}
	if o.clock == nil {
		o.clock = time.Now
	}
	return o
}

func (o Options) roundsOf(s Scenario) int {
	if s.Rounds > 0 {
		return s.Rounds
	}
	return o.Rounds
}

func (o Options) durationOf(s Scenario) time.Duration {
	if s.Duration > 0 {
		return s.Duration
	}
	return o.Duration
}

// plan orders the runs: round by round; in a round, each baseline is
// followed by up to BaselineEvery of the scenarios naming it (then runs
// again for the next ones), and scenarios without a baseline run alone, in
// the order of the list.
func plan(scenarios []Scenario, o Options) ([]step, error) {
	idx := map[string]int{}
	for i, s := range scenarios {
		if s.Name == "" || s.Setup == nil {
			return nil, fmt.Errorf("%w: scenario %d (%q) has no name or no Setup", ErrPlan, i, s.Name)
		}
		if _, dup := idx[s.Name]; dup {
			return nil, fmt.Errorf("%w: two scenarios named %q", ErrPlan, s.Name)
		}
		idx[s.Name] = i
	}
	isBase := map[int]bool{}
	for _, s := range scenarios {
		if s.Baseline == "" {
			continue
		}
		b, ok := idx[s.Baseline]
		if !ok {
			return nil, fmt.Errorf("%w: %s's baseline %q is not in the list", ErrPlan, s.Name, s.Baseline)
		}
		if scenarios[b].Baseline != "" {
			return nil, fmt.Errorf("%w: %s's baseline %q has a baseline itself", ErrPlan, s.Name, s.Baseline)
		}
		if b == idx[s.Name] {
			return nil, fmt.Errorf("%w: %s is its own baseline", ErrPlan, s.Name)
		}
		isBase[b] = true
	}
	maxRounds := 0
	for _, s := range scenarios {
		maxRounds = max(maxRounds, o.roundsOf(s))
	}
	var steps []step
	for r := range maxRounds {
		done := map[int]bool{}
		group := func(b int) {
			done[b] = true
			var deps []int
			for j, d := range scenarios {
				if d.Baseline == scenarios[b].Name && r < o.roundsOf(d) {
					deps = append(deps, j)
				}
			}
			for k := 0; k < len(deps); k += o.BaselineEvery {
				bs := len(steps)
				steps = append(steps, step{sc: b, round: r, base: -1})
				for _, j := range deps[k:min(k+o.BaselineEvery, len(deps))] {
					steps = append(steps, step{sc: j, round: r, base: bs})
					done[j] = true
				}
			}
		}
		for i, s := range scenarios {
			switch {
			case done[i]:
			case isBase[i]:
				group(i)
			case s.Baseline != "":
				if b := idx[s.Baseline]; !done[b] {
					group(b)
				}
			default:
				if r < o.roundsOf(s) {
					steps = append(steps, step{sc: i, round: r, base: -1})
				}
				done[i] = true
			}
		}
	}
	return steps, nil
}

// Run measures scenarios: every run sets its scenario up, warms it up
// (Options.Warmup of wrk, not measured), runs wrk for the duration while
// reading the servers' CPU time before and after, and closes it. Runs go
// in rounds (see plan); a failed run is recorded and the others go on.
// The result has one Measurement per scenario, in list order. Run returns
// an error only for a list it cannot run or a cancelled context (with the
// measurements so far).
func Run(ctx context.Context, scenarios []Scenario, opt Options) ([]Measurement, error) {
	o := opt.withDefaults()
	steps, err := plan(scenarios, o)
	if err != nil {
		return nil, err
	}
	results := make([]runResult, len(steps))
	planned := make([]time.Duration, len(steps))
	var total time.Duration
	for i, st := range steps {
		s := scenarios[st.sc]
		planned[i] = o.durationOf(s) + 300*time.Millisecond
		if !s.NoWarmup && o.Warmup > 0 {
			planned[i] += o.Warmup
		}
		total += planned[i]
	}
	start := o.clock()
	var donePlanned time.Duration
	var runErr error
	for i, st := range steps {
		if err := ctx.Err(); err != nil {
			runErr = err
			break
		}
		s := scenarios[st.sc]
		if o.Progress != nil {
			eta := total - donePlanned
			if donePlanned > 0 {
				eta = time.Duration(float64(eta) * float64(o.clock().Sub(start)) / float64(donePlanned))
			}
			fmt.Fprintf(o.Progress, "[%d/%d] %s round %d/%d … ETA %s\n", i+1, len(steps), s.Name, st.round+1, o.roundsOf(s), eta.Round(time.Second))
		}
		results[i] = runOnce(ctx, s, o)
		if results[i].err != "" && o.Progress != nil {
			fmt.Fprintf(o.Progress, "    %s round %d failed: %s\n", s.Name, st.round+1, results[i].err)
		}
		donePlanned += planned[i]
	}
	return measure(scenarios, steps, results, o), runErr
}

// runOnce sets s up, warms it up, measures it and closes it.
func runOnce(ctx context.Context, s Scenario, o Options) (rr runResult) {
	rr.ran = true
	fail := func(err error) runResult { return runResult{ran: true, err: err.Error()} }
	t, err := s.Setup(ctx, o.Env)
	if err != nil {
		return fail(fmt.Errorf("setup: %w", err))
	}
	if t == nil {
		return fail(errors.New("setup returned no target"))
	}
	defer func() {
		if t.Close != nil {
			if err := t.Close(); err != nil && rr.err == "" {
				rr = fail(fmt.Errorf("close: %w", err))
			}
		}
	}()
	spec := t.Wrk
	if spec.CPUs == "" {
		spec.CPUs = o.Env.WrkCPUs
	}
	if !s.NoWarmup && o.Warmup > 0 {
		w := spec
		w.Duration = o.Warmup
		if _, err := o.runWrk(ctx, w); err != nil {
			return fail(fmt.Errorf("warm-up: %w", err))
		}
	}
	spec.Duration = o.durationOf(s)
	cpu0, err := cpuOf(t.Servers)
	if err != nil {
		return fail(err)
	}
	duringErr := make(chan error, 1)
	dctx, stop := context.WithCancel(ctx)
	if t.During != nil {
		go func() { duringErr <- t.During(dctx) }()
	} else {
		duringErr <- nil
	}
	res, err := o.runWrk(ctx, spec)
	stop()
	derr := <-duringErr
	if err != nil {
		return fail(err)
	}
	if derr != nil && !errors.Is(derr, context.Canceled) {
		return fail(fmt.Errorf("during the run: %w", derr))
	}
	cpu1, err := cpuOf(t.Servers)
	if err != nil {
		return fail(err)
	}
	rss, err := rssOf(t.Servers)
	if err != nil {
		return fail(err)
	}
	rr = runResult{ran: true, ok: true, res: res, rss: rss}
	if res.Requests > 0 {
		rr.cpuNS = float64(cpu1-cpu0) / float64(res.Requests)
	}
	if t.Check != nil {
		extra, err := t.Check(res)
		if err != nil {
			return fail(fmt.Errorf("check: %w", err))
		}
		rr.extra = extra
	}
	if res.Requests == 0 {
		rr.ok, rr.err = false, "wrk completed no request"
	}
	return rr
}

func cpuOf(servers []*Server) (time.Duration, error) {
	var sum time.Duration
	for _, s := range servers {
		d, err := s.CPUTime()
		if err != nil {
			return 0, fmt.Errorf("server %s: cpu time: %w", s.Name, err)
		}
		sum += d
	}
	return sum, nil
}

func rssOf(servers []*Server) (int64, error) {
	var sum int64
	for _, s := range servers {
		n, err := s.PeakRSS()
		if err != nil {
			return 0, fmt.Errorf("server %s: peak rss: %w", s.Name, err)
		}
		sum += n
	}
	return sum, nil
}

// measure reduces the runs to one Measurement per scenario.
func measure(scenarios []Scenario, steps []step, results []runResult, o Options) []Measurement {
	out := make([]Measurement, len(scenarios))
	for i, s := range scenarios {
		m := Measurement{Scenario: s.Name, Group: s.Group, Baseline: s.Baseline, Suite: s.Suite, Labels: s.Labels, BoundNS: s.BoundNS}
		if m.Suite == "" {
			m.Suite = "http"
		}
		var rps, p50, p90, p99, p999, cpu, bRPS, bP99, bCPU, rRPS, rP99 []float64
		var errs []string
		for k, st := range steps {
			if st.sc != i || !results[k].ran {
				continue
			}
			r := results[k]
			if !r.ok {
				errs = append(errs, fmt.Sprintf("round %d: %s", st.round+1, r.err))
				continue
			}
			m.Rounds++
			rps = append(rps, r.res.RPS)
			p50 = append(p50, ms(r.res.P50))
			p90 = append(p90, ms(r.res.P90))
			p99 = append(p99, ms(r.res.P99))
			p999 = append(p999, ms(r.res.P999))
			cpu = append(cpu, r.cpuNS)
			m.PeakRSS = max(m.PeakRSS, r.rss)
			m.Requests += r.res.Requests
			m.Errors += r.res.SocketErrors
			m.Non2xx += r.res.Non2xx
			for code, n := range r.res.Statuses {
				if m.Statuses == nil {
					m.Statuses = map[int]int64{}
				}
				m.Statuses[code] += n
			}
			if r.extra != nil {
				m.Extra = r.extra
			}
			m.RoundsRPS = append(m.RoundsRPS, r.res.RPS)
			if st.base >= 0 && results[st.base].ok {
				b := results[st.base]
				bRPS = append(bRPS, b.res.RPS)
				bP99 = append(bP99, ms(b.res.P99))
				bCPU = append(bCPU, b.cpuNS)
				if b.res.RPS > 0 {
					rRPS = append(rRPS, r.res.RPS/b.res.RPS)
				}
				if b.res.P99 > 0 {
					rP99 = append(rP99, float64(r.res.P99)/float64(b.res.P99))
				}
			}
		}
		m.RPS, m.P50, m.P90, m.P99, m.P999, m.CPUPerReqNS = Median(rps), Median(p50), Median(p90), Median(p99), Median(p999), Median(cpu)
		m.BaselineRPS, m.BaselineP99, m.BaselineCPUPerReqNS = Median(bRPS), Median(bP99), Median(bCPU)
		m.RatioRPS, m.RatioP99 = Median(rRPS), Median(rP99)
		if len(errs) > 0 {
			m.Error = strings.Join(errs, "; ")
		}
		out[i] = m
	}
	return out
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

// Median returns the median of v (the mean of the middle two for an even
// count), 0 for none.
func Median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// Bound returns the requests/s a server can reach on one core when each
// request costs the baseline's CPU plus the primitive's (ns): 1e9 /
// (baselineCPU + primitive); 0 when either is unknown.
func Bound(baselineCPUPerReqNS, primitiveNS float64) float64 {
	if baselineCPUPerReqNS <= 0 || primitiveNS <= 0 {
		return 0
	}
	return 1e9 / (baselineCPUPerReqNS + primitiveNS)
}
