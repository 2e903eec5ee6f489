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
	c       lab.Case
	procs   int       // GOMAXPROCS of the run (parallel cases run at 1 and 2)
	ns      []float64 // ns/op per round
	bytes   int64     // B/op (exact; from the last round)
	allocs  int64     // allocs/op (exact)
	failure string    // a panic in the case
}

func (m *measurement) median() float64 { return median(m.ns) }

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
type runner struct {
	rounds int
	// targetRounds, when larger, is the number of rounds of the groups a
	// target of the lab issue is judged on (targetGroup): a target's ratio
	// is the median of that many paired rounds.
	targetRounds int
	benchtime    time.Duration
	progress     io.Writer
	tty          bool // redraw one line; otherwise a line per tenth
	done         int
	total        int
	start        time.Time
	lastTenth    int
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
		for round := range r.roundsOf(g[0]) {
			// Each round starts one case further on (A B C, B C A, …), so
			// that no library always runs first after another group.
			for i := range g {
				r.one(g[(i+round)%len(g)])
			}
		}
	}
	r.tick("")
	if r.progress != nil && r.tty {
		fmt.Fprintln(r.progress)
	}
	return ms
}

// roundsOf is the number of rounds of m's group.
func (r *runner) roundsOf(m *measurement) int {
	if r.targetRounds > r.rounds && targetGroup(m.c, m.procs) {
		return r.targetRounds
	}
	return r.rounds
}

// one runs one round of a measurement with testing.Benchmark.
func (r *runner) one(m *measurement) {
	r.tick(m.c.Name())
	defer func() { r.done++ }()
	if m.failure != "" {
		return
	}
	prev := runtime.GOMAXPROCS(m.procs)
	defer runtime.GOMAXPROCS(prev)
	var res testing.BenchmarkResult
	func() {
		defer func() {
			if e := recover(); e != nil {
				m.failure = fmt.Sprint(e)
			}
		}()
		res = testing.Benchmark(m.c.Run)
	}()
	if m.failure != "" || res.N == 0 {
		if m.failure == "" {
			m.failure = "benchmark did not run"
		}
		return
	}
	m.ns = append(m.ns, float64(res.T.Nanoseconds())/float64(res.N))
	m.bytes, m.allocs = res.AllocedBytesPerOp(), res.AllocsPerOp()
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
