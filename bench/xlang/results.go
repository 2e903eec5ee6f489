package xlang

import (
	"encoding/json"
	"os"
	"slices"
	"time"
)

// Record is one line of out/xlang/results.json: a library at a worker
// count over the rounds of a run, in the fields of docs/design.md ("The lab's output") (suite "xlang",
// format JWT, alg HS256, op "sign+verify") and the scenario's own.
type Record struct {
	Suite      string    `json:"suite"`
	Format     string    `json:"format"`
	Alg        string    `json:"alg"`
	Op         string    `json:"op"`
	Lib        string    `json:"lib"`
	Lang       string    `json:"lang"`
	Threads    int       `json:"threads"`
	NsPerOp    float64   `json:"ns_per_op,omitempty"` // 1e9 / ops_per_s: wall time per JWT with all workers busy
	OpsPerS    float64   `json:"ops_per_s,omitempty"` // median over the rounds
	MinOpsPerS float64   `json:"ops_per_s_min,omitempty"`
	MaxOpsPerS float64   `json:"ops_per_s_max,omitempty"`
	Rounds     []float64 `json:"ops_per_s_rounds,omitempty"` // each round's rate, in round order (rounds are interleaved: index i of two records ran in the same round)
	Runs       int       `json:"runs,omitempty"`
	N          int       `json:"n,omitempty"`      // iterations per run
	Scaled     bool      `json:"scaled,omitempty"` // ran a fraction of the scenario's N; ops_per_s is a rate either way
	WallS      float64   `json:"wall_s,omitempty"` // median, the whole process: start-up, reading the list, warm-up, loop
	CPUS       float64   `json:"cpu_s,omitempty"`  // median, user + system
	PeakRSSMiB float64   `json:"peak_rss_mib,omitempty"`
	LibVersion string    `json:"lib_version,omitempty"`
	Runtime    string    `json:"runtime,omitempty"`
	Threading  string    `json:"threading,omitempty"` // Java: virtual or platform threads
	Error      string    `json:"error,omitempty"`     // the run failed
	Skipped    string    `json:"skipped,omitempty"`   // not run, and why (a missing toolchain)
	Run        string    `json:"run,omitempty"`       // when and from which commit the run was made
}

// Run is one measured run of a library.
type Run struct {
	Out   Output
	Usage Usage
}

// Summarize makes a library's record from its runs: medians, and the
// range of the rate.
func Summarize(lang, lib string, threads, n int, scaled bool, runs []Run) Record {
	rec := Record{Suite: "xlang", Format: "JWT", Alg: "HS256", Op: "sign+verify", Lib: lib, Lang: lang,
		Threads: threads, N: n, Scaled: scaled, Runs: len(runs)}
	if len(runs) == 0 {
		return rec
	}
	var rates, walls, cpus, rss []float64
	for _, r := range runs {
		rates = append(rates, float64(r.Out.N)/time.Duration(r.Out.ElapsedNs).Seconds())
		walls = append(walls, r.Usage.Wall.Seconds())
		cpus = append(cpus, r.Usage.CPU.Seconds())
		rss = append(rss, float64(r.Usage.PeakRSSK)/1024)
	}
	for _, r := range rates {
		rec.Rounds = append(rec.Rounds, round(r, 0))
	}
	rec.OpsPerS = round(median(rates), 0)
	rec.MinOpsPerS, rec.MaxOpsPerS = round(slices.Min(rates), 0), round(slices.Max(rates), 0)
	rec.NsPerOp = round(1e9/rec.OpsPerS, 1)
	rec.WallS, rec.CPUS, rec.PeakRSSMiB = round(median(walls), 3), round(median(cpus), 3), round(median(rss), 1)
	last := runs[len(runs)-1].Out
	rec.LibVersion, rec.Runtime, rec.Threading = last.LibVersion, last.Runtime, last.Threading
	return rec
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func round(v float64, digits int) float64 {
	p := 1.0
	for range digits {
		p *= 10
	}
	if v >= 0 {
		return float64(int64(v*p+0.5)) / p
	}
	return float64(int64(v*p-0.5)) / p
}

// WriteResults writes records to path as results.json.
func WriteResults(path string, recs []Record) error {
	data, err := json.MarshalIndent(recs, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// ReadResults reads a results.json written by WriteResults.
func ReadResults(path string) ([]Record, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var recs []Record
	if err := json.Unmarshal(data, &recs); err != nil {
		return nil, err
	}
	return recs, nil
}
