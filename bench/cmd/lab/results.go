package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/signet-go/signet/bench/lab"
	"github.com/signet-go/signet/bench/xlang"
)

// report holds a run's measurements and what the report says about them.
type report struct {
	cfg     config
	ms      []*measurement
	sec     *security
	started time.Time
	env     envInfo
	floors  map[string]*measurement // group key → the group's floor
	xlang   []xlang.Record          // the cross-language run's, when present
	remote  *remoteKeys             // the remote key sets section's, when run
	http    []httpRecord            // the HTTP lab's records (make load), when the out directory has them
}

// envInfo describes the machine and the software measured.
type envInfo struct {
	CPU    string
	Cores  int
	MemGiB float64
	Go     string
	OS     string
	Deps   [][2]string // module, version: signet's and the peers'
}

func newReport(cfg config, ms []*measurement, sec *security, started time.Time) *report {
	if len(cfg.peers.JWT)+len(cfg.peers.PASETO)+len(cfg.peers.HTTPSig)+len(cfg.peers.JWE) == 0 {
		cfg.peers = lab.DefaultPeers() // a config made without runPeers
	}
	r := &report{cfg: cfg, ms: ms, sec: sec, started: started, env: environment(), floors: map[string]*measurement{}}
	for _, m := range ms {
		if m.isFloor() {
			r.floors[groupKey(m.c, m.procs)] = m
		}
	}
	return r
}

// floorRatio is a measurement's median over its group's floor (0 when
// there is no floor).
func (r *report) floorRatio(m *measurement) float64 {
	f := r.floorOf(m)
	if f == nil || f.median() == 0 || m.failure != "" {
		return 0
	}
	return m.median() / f.median()
}

// record is one line of results.json (docs/design.md, "The lab's output"); size and threads
// say which payload class and GOMAXPROCS a record is for.
type record struct {
	Suite       string    `json:"suite"`
	Format      string    `json:"format"`
	Alg         string    `json:"alg"`
	Op          string    `json:"op"`
	Lib         string    `json:"lib"`
	Lang        string    `json:"lang"`
	Size        string    `json:"size,omitempty"`
	Threads     int       `json:"threads,omitempty"`
	NsPerOp     float64   `json:"ns_per_op,omitempty"`
	BytesPerOp  *int64    `json:"bytes_per_op,omitempty"`
	AllocsPerOp *int64    `json:"allocs_per_op,omitempty"`
	OpsPerS     float64   `json:"ops_per_s,omitempty"`
	Runs        int       `json:"runs,omitempty"`
	FloorRatio  float64   `json:"floor_ratio,omitempty"`
	RoundsNs    []float64 `json:"ns_per_op_rounds,omitempty"`  // each round's ns/op, in round order
	ConfirmNs   []float64 `json:"ns_per_op_confirm,omitempty"` // the confirmation pass's rounds, when the group had one
	Error       string    `json:"error,omitempty"`
	ConfirmErr  string    `json:"confirm_error,omitempty"` // a failure in the confirmation pass
}

func (r *report) records() []record {
	var out []record
	for _, m := range r.ms {
		rec := record{Suite: "lab", Format: m.c.Format, Alg: m.c.Alg, Op: m.c.Op, Lib: m.c.Lib, Lang: "go", Size: m.c.Size, Runs: len(m.ns)}
		if m.c.Parallel {
			rec.Threads = m.procs
		}
		if m.failure != "" {
			rec.Error = m.failure
			out = append(out, rec)
			continue
		}
		ns := m.median()
		b, a := m.bytes, m.allocs
		rec.NsPerOp, rec.BytesPerOp, rec.AllocsPerOp = round(ns, 1), &b, &a
		if ns > 0 {
			rec.OpsPerS = round(1e9/ns, 0)
		}
		if m.c.Lib != "floor" {
			rec.FloorRatio = round(r.floorRatio(m), 3)
		}
		for _, ns := range m.ns {
			rec.RoundsNs = append(rec.RoundsNs, round(ns, 1))
		}
		rec.ConfirmErr = m.confirmFailure
		for _, ns := range m.confirm {
			rec.ConfirmNs = append(rec.ConfirmNs, round(ns, 1))
		}
		out = append(out, rec)
	}
	return out
}

func round(v float64, digits int) float64 {
	f, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', digits, 64), 64)
	return f
}

func (r *report) writeResults(path string) error {
	all := []any{}
	for _, rec := range r.records() {
		all = append(all, rec)
	}
	for _, rec := range skippedRecords(r.cfg.skipped) {
		all = append(all, rec)
	}
	for _, rec := range r.xlang {
		all = append(all, rec)
	}
	for _, rec := range r.remote.records() {
		all = append(all, rec)
	}
	// The HTTP lab's records (cmd/load, make load) are kept.
	kept, err := keptSuites(path, "http", "http-faults", "http-scale")
	if err != nil {
		return err
	}
	all = append(all, kept...)
	data, err := json.MarshalIndent(all, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// environment reads the machine's description and the build's modules.
func environment() envInfo {
	e := envInfo{Cores: runtime.NumCPU(), Go: runtime.Version(), OS: runtime.GOOS + "/" + runtime.GOARCH}
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				e.CPU = strings.TrimSpace(v)
				break
			}
		}
		f.Close()
	}
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		for line := range strings.SplitSeq(string(data), "\n") {
			if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
				e.MemGiB = round(kb/(1<<20), 1)
			}
		}
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			for _, want := range []string{"signet-go/signet", "golang-jwt", "lestrrat-go/jwx", "go-jose", "cristalhq/jwt", "kataras/jwt", "go-paseto", "o1egl/paseto", "yaronf/httpsign", "remitly-oss", "common-fate/httpsig", "MicahParks/keyfunc", "MicahParks/jwkset", "coreos/go-oidc", "lestrrat-go/httprc/v3", "forcebit/http-message-signatures-rfc9421-go", "mateothegreat/go-jwt-paseto"} {
				if strings.Contains(d.Path, want) && !strings.HasSuffix(d.Path, "/bench") {
					v := d.Version
					if d.Replace != nil {
						v = "this checkout"
					}
					e.Deps = append(e.Deps, [2]string{d.Path, v})
				}
			}
		}
	}
	slices.SortFunc(e.Deps, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
	return e
}

// keptSuites returns the records of the named suites in the results.json
// at path (none when the file does not exist): other runs' records this
// run keeps.
func keptSuites(path string, suites ...string) ([]any, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var old []json.RawMessage
	if err := json.Unmarshal(data, &old); err != nil {
		return nil, fmt.Errorf("%s: not a JSON array of records (%v): move it away or fix it", path, err)
	}
	var out []any
	for _, raw := range old {
		var head struct{ Suite string }
		if json.Unmarshal(raw, &head) == nil && slices.Contains(suites, head.Suite) {
			out = append(out, raw)
		}
	}
	return out, nil
}
