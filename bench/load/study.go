package load

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/signet-go/signet/bench/load/study"
)

// The study's request (its "unified request pattern"): every scenario of
// the study's shape POSTs this JSON body, the baseline included, so that
// /issue and /check differ from /hello only by the token work (and, for
// /check, the Authorization header).
const (
	StudyBody        = `{"page":1,"size":20}`
	studyContentType = "Content-Type: application/json"
	// studyTokens is how many tokens the server writes for /check; the
	// script cycles through them.
	studyTokens = 64
	// studyMemLimit is GOMEMLIMIT of the GOGC=off variant: the heap grows
	// to it between collections.
	studyMemLimit = "256MiB"
)

// studyRuntime is a runtime configuration of the server.
type studyRuntime struct {
	suffix   string // "" for the default, "/gomaxprocs2", "/gogc200", "/gogc-off"
	procs    int
	gogc     string
	memlimit string
	note     string
}

var (
	studyDefault  = studyRuntime{procs: 1, gogc: "100"}
	studyRuntimes = []studyRuntime{
		{suffix: "/gomaxprocs2", procs: 2, gogc: "100",
			note: "server on CPUs 0,1 with GOMAXPROCS=2: wrk (CPU 1) shares the server's second core, so this measures two busy cores, not two free ones; no primitive bound (it is per core)"},
		{suffix: "/gogc200", procs: 1, gogc: "200"},
		{suffix: "/gogc-off", procs: 1, gogc: "off", memlimit: studyMemLimit,
			note: "GOGC=off GOMEMLIMIT=" + studyMemLimit + ": the collector runs only when the heap reaches the limit"},
	}
)

func (r studyRuntime) env() []string {
	e := []string{"GOMAXPROCS=" + strconv.Itoa(r.procs), "GOGC=" + r.gogc}
	if r.memlimit != "" {
		e = append(e, "GOMEMLIMIT="+r.memlimit)
	}
	return e
}

// cpus is the server's taskset list: Env.ServerCPUs, plus wrk's CPU for
// GOMAXPROCS=2 (the machine has two).
func (r studyRuntime) cpus(env *Env) string {
	if r.procs > 1 {
		return env.ServerCPUs + "," + env.WrkCPUs
	}
	return env.ServerCPUs
}

func (r studyRuntime) labels(l map[string]string) map[string]string {
	l["gomaxprocs"] = strconv.Itoa(r.procs)
	l["gogc"] = r.gogc
	if r.memlimit != "" {
		l["gomemlimit"] = r.memlimit
	}
	if r.note != "" {
		l["note"] = r.note
	}
	return l
}

// StudyHello is the name of the study's baseline: /hello under the
// study's POST (StudyBody), in the default runtime; the runtime variants
// have their own ("hello/post/gogc200"…).
const StudyHello = "hello/post"

// StudyScenarios returns the scenarios of the study's shape (package
// study, served by bench/cmd/loadsrv), each with the baseline measured in
// the same round:
//
//   - group "study": issue and check per library and algorithm (golang-jwt
//     and signet for HS256, RS256, PS256, ES256, EdDSA; go-paseto and
//     signet for v4.public and v4.local), the study's small claims,
//     GOMAXPROCS=1, GOGC=100; named "issue/ES256/signet"; beside them the
//     floor (study.LibFloor: the raw primitive per request in the same
//     handler, no library) for the JWS algorithms and v4.public,
//     "issue/ES256/floor": the in-server bound;
//   - group "payload": HS256 and ES256, golang-jwt and signet, the medium
//     and large claims ("check/HS256/signet/large");
//   - group "runtime": the same pairs with GOMAXPROCS=2 (server on the
//     server's and wrk's CPUs), GOGC=200 and GOGC=off with
//     GOMEMLIMIT=256MiB ("issue/ES256/golang-jwt/gogc-off"), each beside
//     /hello in the same runtime.
//
// The issue rows' baseline is StudyHello; the check rows' is /hello sent
// the same Bearer tokens (studyBearerHello: "hello/bearer/ES256", one per
// algorithm, payload and runtime).
//
// quick keeps the study group's HS256, ES256, EdDSA and v4.public and
// their baselines: 29 scenarios. Every scenario is labelled (format, alg, op,
// lib, payload, gomaxprocs, gogc, and "primitive" where a bound applies);
// MeasureBounds fills BoundNS from the "primitive" label.
func StudyScenarios(quick bool) []Scenario {
	algs := slices.Concat(study.JWTAlgs, study.PASETOAlgs)
	if quick {
		algs = []string{"HS256", "ES256", "EdDSA", "v4.public"}
	}
	out := []Scenario{studyHelloScenario(studyDefault)}
	for _, alg := range algs {
		out = append(out, studyBearerHello(alg, "small", studyDefault))
		out = append(out, studyPairs("study", alg, "small", studyDefault)...)
	}
	if quick {
		return out
	}
	for _, alg := range []string{"HS256", "ES256"} {
		for _, size := range study.Sizes[1:] {
			out = append(out, studyBearerHello(alg, size, studyDefault))
			out = append(out, studyPairs("payload", alg, size, studyDefault)...)
		}
	}
	for _, rt := range studyRuntimes {
		out = append(out, studyHelloScenario(rt))
		for _, alg := range []string{"HS256", "ES256"} {
			out = append(out, studyBearerHello(alg, "small", rt))
			out = append(out, studyPairs("runtime", alg, "small", rt)...)
		}
	}
	return out
}

// studyHelloScenario is /hello, POSTed the study's body, in runtime rt.
func studyHelloScenario(rt studyRuntime) Scenario {
	name := StudyHello + rt.suffix
	return Scenario{
		Group:  "baseline",
		Name:   name,
		Labels: rt.labels(map[string]string{"format": "HTTP", "op": "hello", "lib": "net/http", "method": "POST"}),
		Setup: func(ctx context.Context, env *Env) (*Target, error) {
			return studyTarget(ctx, env, name, rt, nil, "/hello", "")
		},
	}
}

// StudyBearerHello is the prefix of the check rows' baselines:
// "hello/bearer/ES256" (and "/medium", "/gogc200"… as the rows they serve).
const StudyBearerHello = "hello/bearer"

// studyBearerName is the baseline of the check rows of alg, size and rt.
func studyBearerName(alg, size string, rt studyRuntime) string {
	name := StudyBearerHello + "/" + alg
	if size != "small" {
		name += "/" + size
	}
	return name + rt.suffix
}

// studyBearerHello is the check rows' baseline: /hello sent the very
// request /check gets (the study's POST and body, and the Authorization
// header cycling through the same pre-made tokens of alg and size, from
// signet's server) so that a check row and its baseline differ by the
// handler alone: reading the header and checking the token. /hello reads
// neither; the header's bytes are parsed by net/http in both.
func studyBearerHello(alg, size string, rt studyRuntime) Scenario {
	name := studyBearerName(alg, size, rt)
	args := []string{"-lib", study.LibSignet, "-alg", alg, "-payload", size}
	return Scenario{
		Group: "baseline",
		Name:  name,
		Labels: rt.labels(map[string]string{"format": "HTTP", "op": "hello", "lib": "net/http", "method": "POST",
			"alg": alg, "payload": size, "auth": "bearer"}),
		Setup: func(ctx context.Context, env *Env) (*Target, error) {
			return studyTarget(ctx, env, name, rt, args, "/hello", "check")
		},
	}
}

// studyPairs is issue then check of alg for each library, in runtime rt.
func studyPairs(group, alg, size string, rt studyRuntime) []Scenario {
	format := "JWT"
	if slices.Contains(study.PASETOAlgs, alg) {
		format = "PASETO"
	}
	var out []Scenario
	libs := study.Libs(alg)
	if group == "study" && slices.Contains(study.FloorAlgs, alg) {
		libs = append(libs, study.LibFloor)
	}
	for _, op := range []string{"issue", "check"} {
		for _, lib := range libs {
			name := op + "/" + alg + "/" + lib
			if size != "small" {
				name += "/" + size
			}
			name += rt.suffix
			l := map[string]string{"format": format, "alg": alg, "op": op, "lib": lib, "payload": size, "method": "POST"}
			if rt.procs == 1 {
				l["primitive"] = primitiveLabel(alg, op, size)
			}
			args := []string{"-lib", lib, "-alg", alg, "-payload", size}
			baseline := StudyHello + rt.suffix
			if op == "check" {
				baseline = studyBearerName(alg, size, rt)
			}
			out = append(out, Scenario{
				Group:    group,
				Name:     name,
				Baseline: baseline,
				Labels:   rt.labels(l),
				Setup: func(ctx context.Context, env *Env) (*Target, error) {
					return studyTarget(ctx, env, name, rt, args, "/"+op, op)
				},
			})
		}
	}
	return out
}

// studyTarget starts loadsrv with args in runtime rt on a free loopback
// port and returns wrk's spec for path: the study's POST (request.lua),
// with the server's pre-made tokens cycled in the Authorization header
// for "check" (tokens.lua). The token file lives in a directory of its
// own under env.Tmp, removed on Close.
func studyTarget(ctx context.Context, env *Env, name string, rt studyRuntime, args []string, path, op string) (*Target, error) {
	addr, err := FreeAddr()
	if err != nil {
		return nil, err
	}
	w := WrkSpec{Script: "request.lua", Args: []string{"method=POST", "body=" + StudyBody, "header=" + studyContentType}}
	dir := ""
	if op == "check" {
		if dir, err = os.MkdirTemp(env.Tmp, "study-"); err != nil {
			return nil, err
		}
		tokens := filepath.Join(dir, "tokens.txt")
		args = append(slices.Clone(args), "-tokens", tokens, "-ntokens", strconv.Itoa(studyTokens))
		w.Script = "tokens.lua"
		w.Args = append(w.Args, "tokens="+tokens)
	}
	argv := append([]string{env.LoadSrv(), "-addr", addr}, args...)
	srv, err := StartServer(ctx, ServerSpec{Name: name, Argv: argv, Env: rt.env(), CPUs: rt.cpus(env), Ready: "http://" + addr + "/hello"})
	if err != nil {
		if dir != "" {
			os.RemoveAll(dir)
		}
		return nil, err
	}
	w.URL = "http://" + addr + path
	return &Target{Wrk: w, Servers: []*Server{srv}, Close: func() error {
		err := srv.Stop()
		if dir != "" {
			err = errors.Join(err, os.RemoveAll(dir))
		}
		return err
	}}, nil
}

// boundRuns is how many times MeasureBounds measures a primitive (it
// keeps the fastest).
const boundRuns = 3

// primitiveLabel is the "primitive" label: the floor MeasureBounds
// measures, "<alg> <op> <payload>".
func primitiveLabel(alg, op, size string) string { return alg + " " + op + " " + size }

// MeasureBounds sets BoundNS of every scenario labelled "primitive" (and
// without a BoundNS yet) to the primitive's cost per request: the raw
// signature (op "issue") or verification (op "check") of the algorithm
// on the bytes of signet's token of that payload class (study.Floor),
// measured in this process with testing.Benchmark at GOMAXPROCS=1: three
// runs of one second, the fastest kept (a shared machine only adds to a
// cost), each primitive measured once for all the scenarios naming it. The bound of a scenario is
// then Bound(its baseline's CPU per request, BoundNS): what one core
// could serve if a request cost /hello plus the primitive and nothing
// else. It logs each cost to log (may be nil). Call it once the list is
// composed, before Run; it takes about three seconds per distinct
// primitive (8 in the quick list: 25 s; 22 in the full one: 70 s), with
// the machine otherwise idle.
func MeasureBounds(scenarios []Scenario, log io.Writer) error {
	if log == nil {
		log = io.Discard
	}
	var keys *study.Keys
	costs := map[string]float64{}
	for i := range scenarios {
		s := &scenarios[i]
		label := s.Labels["primitive"]
		if label == "" || s.BoundNS > 0 {
			continue
		}
		ns, ok := costs[label]
		if !ok {
			if keys == nil {
				var err error
				if keys, err = study.NewKeys(); err != nil {
					return err
				}
			}
			var err error
			if ns, err = primitiveCost(label, keys); err != nil {
				return fmt.Errorf("%s: %w", s.Name, err)
			}
			costs[label] = ns
			fmt.Fprintf(log, "primitive %s: %.0f ns\n", label, ns)
		}
		s.BoundNS = ns
	}
	return nil
}

// primitiveCost measures the floor a "primitive" label names.
func primitiveCost(label string, keys *study.Keys) (float64, error) {
	var alg, op, size string
	if n, err := fmt.Sscan(label, &alg, &op, &size); err != nil || n != 3 {
		return 0, fmt.Errorf("%w: primitive label %q is not \"<alg> <op> <payload>\"", ErrPlan, label)
	}
	f, err := study.NewFloor(alg, size, keys)
	if err != nil {
		return 0, err
	}
	fn, err := f.Op(op)
	if err != nil {
		return 0, err
	}
	return study.Cost(fn, boundRuns)
}
