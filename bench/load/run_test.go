package load

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// fakeScenario is a scenario whose wrk URL is its name; its Setup counts calls.
func fakeScenario(name, baseline string, setups map[string]int) Scenario {
	return Scenario{Name: name, Baseline: baseline, Group: "g", Setup: func(ctx context.Context, env *Env) (*Target, error) {
		setups[name]++
		if strings.HasPrefix(name, "broken") {
			return nil, errors.New("cannot start")
		}
		return &Target{Wrk: WrkSpec{URL: name}}, nil
	}}
}

// fakeRunner answers each measured run with figures from a table: per
// scenario, one RPS per round (in call order); P99 = 1e6/RPS µs. Warm-up
// runs (the short duration) are counted apart.
type fakeRunner struct {
	rps     map[string][]float64
	calls   []string
	warmups int
	n       map[string]int
}

func (f *fakeRunner) run(ctx context.Context, s WrkSpec) (WrkResult, error) {
	if s.Duration == 50*time.Millisecond {
		f.warmups++
		return WrkResult{Requests: 1, Elapsed: s.Duration, RPS: 1}, nil
	}
	if s.CPUs != "1" {
		return WrkResult{}, fmt.Errorf("wrk CPUs %q, want the env's 1", s.CPUs)
	}
	f.calls = append(f.calls, s.URL)
	i := f.n[s.URL]
	f.n[s.URL]++
	v := f.rps[s.URL]
	if i >= len(v) {
		return WrkResult{}, fmt.Errorf("%s: unplanned run %d", s.URL, i+1)
	}
	if v[i] == 0 {
		return WrkResult{}, errors.New("wrk failed")
	}
	return WrkResult{Requests: int64(v[i]), Elapsed: time.Second, RPS: v[i], P50: time.Duration(5e8 / v[i]), P99: time.Duration(1e9 / v[i]), Non2xx: 1,
		Statuses: map[int]int64{200: int64(v[i]) - 1, 503: 1}}, nil
}

func TestRunInterleavesAndTakesMedians(t *testing.T) {
	setups := map[string]int{}
	scs := []Scenario{
		fakeScenario("hello", "", setups),
		fakeScenario("a", "hello", setups),
		fakeScenario("solo", "", setups),
		fakeScenario("b", "hello", setups),
		fakeScenario("c", "hello", setups),
		fakeScenario("proxy", "", setups),
		fakeScenario("p1", "proxy", setups),
	}
	f := &fakeRunner{n: map[string]int{}, rps: map[string][]float64{
		// hello runs twice a round (BaselineEvery 2: a b | c).
		"hello": {1000, 1100, 900, 1000, 1000, 1200},
		"a":     {500, 600, 400},
		"b":     {800, 700, 900},
		"c":     {100, 0, 300}, // round 2 fails
		"solo":  {10, 30, 20},
		"proxy": {2000, 2000, 2000},
		"p1":    {1000, 1500, 500},
	}}
	var progress strings.Builder
	opt := Options{Rounds: 3, Warmup: 50 * time.Millisecond, Duration: time.Second, BaselineEvery: 2, Progress: &progress, runWrk: f.run}
	ms, err := Run(context.Background(), scs, opt)
	if err != nil {
		t.Fatal(err)
	}
	round := []string{"hello", "a", "b", "hello", "c", "solo", "proxy", "p1"}
	want := slices.Concat(round, round, round)
	if !slices.Equal(f.calls, want) {
		t.Fatalf("order\n%v\nwant\n%v", f.calls, want)
	}
	if f.warmups != len(want) {
		t.Errorf("%d warm-ups for %d runs", f.warmups, len(want))
	}
	if setups["hello"] != 6 || setups["a"] != 3 {
		t.Errorf("setups %v: one per run", setups)
	}
	plan, err := Plan(scs, opt)
	if err != nil || len(plan) != len(want) || plan[0] != "hello@1" || plan[len(plan)-1] != "p1@3" {
		t.Errorf("Plan = %v, %v", plan, err)
	}
	by := map[string]Measurement{}
	for _, m := range ms {
		by[m.Scenario] = m
	}
	if len(ms) != len(scs) || ms[0].Scenario != "hello" || ms[6].Scenario != "p1" {
		t.Fatalf("measurements not in list order: %v", ms)
	}
	a := by["a"]
	if a.Rounds != 3 || a.RPS != 500 || a.Baseline != "hello" || a.Suite != "http" {
		t.Errorf("a: %+v", a)
	}
	// a is paired with hello's first run of each round: 1000, 900, 1000.
	if a.BaselineRPS != 1000 || a.RatioRPS != 0.5 {
		t.Errorf("a's baseline %v ratio %v, want 1000, 0.5 (ratios 0.5, 0.667, 0.4)", a.BaselineRPS, a.RatioRPS)
	}
	if a.RatioP99 != 2 {
		t.Errorf("a's P99 ratio %v, want 2", a.RatioP99)
	}
	// c: paired with hello's second runs (1100, 1000, 1200); round 2 failed.
	c := by["c"]
	if c.Rounds != 2 || c.RPS != 200 || c.BaselineRPS != 1150 || !strings.Contains(c.Error, "round 2") {
		t.Errorf("c: rounds %d rps %v baseline %v error %q", c.Rounds, c.RPS, c.BaselineRPS, c.Error)
	}
	if h := by["hello"]; h.Rounds != 6 || h.RPS != 1000 || h.BaselineRPS != 0 {
		t.Errorf("hello: %+v", h)
	}
	if s := by["solo"]; s.RPS != 20 || s.RatioRPS != 0 || s.Requests != 60 || s.Non2xx != 3 || s.Statuses[503] != 3 || s.Statuses[200] != 57 {
		t.Errorf("solo: %+v", s)
	}
	if p := by["p1"]; p.RPS != 1000 || p.RatioRPS != 0.5 || p.P50 != 0.5 || p.P99 != 1 {
		t.Errorf("p1: %+v", p)
	}
	lines := strings.Split(strings.TrimSpace(progress.String()), "\n")
	if !strings.HasPrefix(lines[0], "[1/24] hello round 1/3 … ETA ") || !strings.Contains(progress.String(), "[24/24] p1 round 3/3") {
		t.Errorf("progress:\n%s", progress.String())
	}
}

func TestRunFailuresAndOverrides(t *testing.T) {
	setups := map[string]int{}
	fault := fakeScenario("fault", "", setups)
	fault.Rounds, fault.NoWarmup, fault.Suite = 1, true, "http-faults"
	checked := 0
	base := fault.Setup
	fault.Setup = func(ctx context.Context, env *Env) (*Target, error) {
		t, err := base(ctx, env)
		if err != nil {
			return nil, err
		}
		ran := make(chan struct{})
		t.During = func(ctx context.Context) error { close(ran); <-ctx.Done(); return ctx.Err() }
		t.Check = func(res WrkResult) (map[string]any, error) {
			<-ran
			checked++
			return map[string]any{"failed_verifications": 0}, nil
		}
		return t, nil
	}
	scs := []Scenario{fakeScenario("hello", "", setups), fakeScenario("broken", "hello", setups), fault}
	f := &fakeRunner{n: map[string]int{}, rps: map[string][]float64{"hello": {1, 2}, "fault": {5}}}
	ms, err := Run(context.Background(), scs, Options{Rounds: 2, Warmup: 50 * time.Millisecond, runWrk: f.run})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"hello", "fault", "hello"}; !slices.Equal(f.calls, want) {
		t.Errorf("calls %v, want %v", f.calls, want)
	}
	if f.warmups != 2 {
		t.Errorf("%d warm-ups, want 2 (none for the fault)", f.warmups)
	}
	if ms[1].Rounds != 0 || !strings.Contains(ms[1].Error, "setup: cannot start") {
		t.Errorf("broken: %+v", ms[1])
	}
	if ms[2].Suite != "http-faults" || ms[2].Extra["failed_verifications"] != 0 || checked != 1 {
		t.Errorf("fault: %+v (checked %d)", ms[2], checked)
	}

	for name, bad := range map[string][]Scenario{
		"duplicate":        {fakeScenario("a", "", setups), fakeScenario("a", "", setups)},
		"missing baseline": {fakeScenario("a", "hello", setups)},
		"chained baseline": {fakeScenario("x", "", setups), fakeScenario("b", "x", setups), fakeScenario("c", "b", setups)},
		"no setup":         {{Name: "a"}},
	} {
		if _, err := Run(context.Background(), bad, Options{runWrk: f.run}); !errors.Is(err, ErrPlan) {
			t.Errorf("%s: %v, want ErrPlan", name, err)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, []Scenario{fakeScenario("hello", "", setups)}, Options{runWrk: f.run}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestMedianAndBound(t *testing.T) {
	for _, c := range []struct {
		v    []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := Median(c.v); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.v, got, c.want)
		}
	}
	if got := Bound(20000, 30000); got != 20000 {
		t.Errorf("Bound = %v, want 20000", got)
	}
	if Bound(0, 1) != 0 || Bound(1, 0) != 0 {
		t.Error("Bound with an unknown cost is not 0")
	}
}
