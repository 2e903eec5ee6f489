package main

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet/bench/lab"
)

// A measurement is one case's result over the rounds of a run.
type measurement struct {
	c     lab.Case
	procs int       // GOMAXPROCS of the run (parallel cases run at 1 and 2)
	ns    []float64 // ns/op per round
	// confirm holds the rounds of the confirmation pass, for the groups
	// the first pass showed a peer faster than signet in (runner.run).
	confirm []float64
	// confirmFailure is a case's failure in a confirmation round; the
	// first pass's rounds stand.
	confirmFailure string
	bytes          int64  // B/op (exact; from the last round)
	allocs         int64  // allocs/op (exact)
	failure        string // the case's panic or failure
}

func (m *measurement) median() float64 { return median(m.ns) }

// isFloor reports whether m is a floor that measured: the control of its
// group, for the runner (flagged) and the report (newReport) alike.
func (m *measurement) isFloor() bool {
	return m.c.Lib == "floor" && m.failure == "" && len(m.ns) > 0
}

// confirmation returns m's confirmation rounds as a measurement of their
// own (nil when m's group was not measured again).
func (m *measurement) confirmation() *measurement {
	if m == nil || len(m.confirm) == 0 || m.confirmFailure != "" {
		return nil
	}
	c := *m
	c.ns, c.confirm = m.confirm, nil
	return &c
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// key identifies a measurement's group: the cases compared with each
// other and with their floor.
func groupKey(c lab.Case, procs int) string {
	return fmt.Sprintf("%s|%s|%s|%s|%v|%d", c.Format, c.Alg, c.Size, c.Op, c.Parallel, procs)
}

// runner runs cases interleaved: round 1 runs every case of a group once,
// round 2 again, and so on (A B C … B C A …, each round rotated by one),
// so that a slow spell of the machine falls on every library alike;
// medians over rounds are reported, and signet is compared with a peer
// round by round (pairedRatio).
//
// A group in which the rounds show a peer faster than signet (outpaces)
// is then measured again, as many fresh rounds (the confirmation pass): a
// run compares signet with its peers hundreds of times, and with five
// rounds one in 32 comparisons of equals comes out "faster in every
// round" by chance; a real difference shows again, a chance one seldom
// does. The report counts a peer faster only when both passes say
// so, and lists what the second pass did not confirm.
type runner struct {
	rounds int
	// targetRounds, when larger, is the number of rounds of the groups a
	// target of the lab issue is judged on (targetGroup): a target's ratio
	// is the median of that many paired rounds.
	targetRounds int
	// measure runs one round of a case; nil means benchmark. Tests give
	// the runner measurements of their choosing through it.
	measure   func(*measurement) sample
	progress  io.Writer
	tty       bool // redraw one line; otherwise a line per tenth
	done      int
	total     int
	start     time.Time
	lastTenth int
}

// run measures the cases; parallel ones at GOMAXPROCS 1 and 2.
func (r *runner) run(cases []lab.Case) []*measurement {
	var ms []*measurement
	var groups [][]*measurement
	index := map[string]int{}
	for _, c := range cases {
		procs := []int{1}
		if c.Parallel {
			procs = []int{1, 2}
		}
		for _, p := range procs {
			m := &measurement{c: c, procs: p}
			ms = append(ms, m)
			k := groupKey(c, p)
			i, ok := index[k]
			if !ok {
				i = len(groups)
				index[k] = i
				groups = append(groups, nil)
			}
			groups[i] = append(groups[i], m)
		}
	}
	for _, g := range groups {
		r.total += len(g) * r.roundsOf(g[0])
	}
	r.start = time.Now()
	for _, g := range groups {
		r.rotate(g, r.roundsOf(g[0]), false)
	}
	var again [][]*measurement
	for _, g := range groups {
		if flagged(g) {
			again = append(again, g)
			r.total += len(g) * r.roundsOf(g[0])
		}
	}
	if len(again) > 0 {
		r.lastTenth = 10 * r.done / r.total // the bar's tenths, of the new total
		if r.progress != nil {
			if r.tty {
				fmt.Fprintln(r.progress)
			}
			fmt.Fprintf(r.progress, "  confirmation pass: %d groups where a peer looked faster, measured again\n", len(again))
		}
	}
	for _, g := range again {
		r.rotate(g, r.roundsOf(g[0]), true)
	}
	r.tick("")
	if r.progress != nil && r.tty {
		fmt.Fprintln(r.progress)
	}
	return ms
}

// rotate runs n rounds of group g, into the confirmation rounds when
// confirm is set. Each round starts one case further on (A B C, B C A,
// …), so that no library always runs first after another.
func (r *runner) rotate(g []*measurement, n int, confirm bool) {
	for round := range n {
		for i := range g {
			r.one(g[(i+round)%len(g)], confirm)
		}
	}
}

// flagged reports whether the rounds of group g show a peer faster than
// signet (outpaces), which the confirmation pass then measures again.
func flagged(g []*measurement) bool {
	var s, floor *measurement
	for _, m := range g {
		switch m.c.Lib {
		case "signet":
			s = m
		case "floor":
			if m.isFloor() {
				floor = m
			}
		}
	}
	if s == nil || s.failure != "" || len(s.ns) == 0 {
		return false
	}
	for _, p := range g {
		if p != s && p.c.Lib != "floor" && p.failure == "" && outpaces(s, p, floor) {
			return true
		}
	}
	return false
}

// roundsOf is the number of rounds of m's group.
func (r *runner) roundsOf(m *measurement) int {
	if r.targetRounds > r.rounds && targetGroup(m.c, m.procs) {
		return r.targetRounds
	}
	return r.rounds
}

// one runs one round of a measurement, a round of the confirmation pass
// when confirm is set.
func (r *runner) one(m *measurement, confirm bool) {
	r.tick(m.c.Name())
	defer func() { r.done++ }()
	failure := &m.failure
	if confirm {
		failure = &m.confirmFailure
	}
	if m.failure != "" || *failure != "" {
		return
	}
	measure := r.measure
	if measure == nil {
		measure = benchmark
	}
	res := measure(m)
	if res.failure != "" {
		*failure = res.failure
		return
	}
	if confirm {
		m.confirm = append(m.confirm, res.ns)
		return
	}
	m.ns = append(m.ns, res.ns)
	m.bytes, m.allocs = res.bytes, res.allocs
}

// A sample is what one round of a case measured, or why it failed.
type sample struct {
	ns            float64
	bytes, allocs int64
	failure       string
}

// benchmark runs m's case once with testing.Benchmark at m.procs.
func benchmark(m *measurement) sample {
	prev := runtime.GOMAXPROCS(m.procs)
	defer runtime.GOMAXPROCS(prev)
	// testing.Benchmark runs the case in goroutines of its own: a panic is
	// recovered there (parallelLoop raises its workers' there too), and a
	// case failing through b.Fatal or b.Error is noted there.
	var failed string
	res := testing.Benchmark(func(b *testing.B) {
		defer func() {
			if e := recover(); e != nil {
				failed = fmt.Sprint(e)
				b.Error(e)
			} else if b.Failed() && failed == "" {
				failed = "the benchmark failed"
			}
		}()
		m.c.Run(b)
	})
	switch {
	case failed != "":
		return sample{failure: failed}
	case res.N == 0:
		return sample{failure: "benchmark did not run"}
	}
	return sample{ns: float64(res.T.Nanoseconds()) / float64(res.N), bytes: res.AllocedBytesPerOp(), allocs: res.AllocsPerOp()}
}

// tick draws the progress bar with an estimate of the time left.
func (r *runner) tick(name string) {
	if r.progress == nil || r.total == 0 {
		return
	}
	const width = 30
	filled := width * r.done / r.total
	eta := "…"
	if r.done > 0 {
		left := time.Duration(float64(time.Since(r.start)) / float64(r.done) * float64(r.total-r.done))
		eta = left.Round(time.Second).String()
	}
	if len(name) > 44 {
		name = "…" + name[len(name)-43:]
	}
	bar := fmt.Sprintf("  [%s%s] %4d/%d  ETA %-7s", strings.Repeat("#", filled), strings.Repeat(".", width-filled), r.done, r.total, eta)
	if r.tty {
		fmt.Fprintf(r.progress, "\r%s %-45s", bar, name)
		return
	}
	if tenth := 10 * r.done / r.total; tenth > r.lastTenth || r.done == 0 {
		r.lastTenth = tenth
		fmt.Fprintln(r.progress, bar)
	}
}
