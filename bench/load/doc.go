// Package load is the HTTP lab's harness: it runs servers pinned to one
// core and wrk pinned to another, measures each scenario in interleaved
// rounds beside its baseline, and reduces the rounds to medians.
//
// A Scenario is one measured row. Its Setup starts what the row needs (the
// scenario server, signet serve, Redis, an upstream) and returns a Target:
// the wrk spec to run and the server processes whose CPU time and peak RSS
// count. Run warms each scenario up, measures it for a fixed duration, and
// does so in rounds: in every round a scenario's baseline (the /hello
// handler, or the plain reverse proxy) runs right before it, so that a
// ratio compares two runs seconds apart.
//
//	scs := []load.Scenario{load.Hello(), myScenario}
//	ms, err := load.Run(ctx, scs, load.Options{Env: env, Rounds: 3, Duration: 2 * time.Second})
//
// wrk runs with --latency and a Lua reporter (lua/report.lua) appended to
// the scenario's script: it counts statuses in response() and prints one
// JSON line in done() with the requests, errors and the latency
// percentiles P50, P90, P99 and P99.9 in microseconds. RunWrk parses both
// that line and wrk's own text (ParseWrkOutput), so a plain GET and a
// scripted POST are read alike. Two scripts come with the package, named
// by their file name in WrkSpec.Script: "request.lua" (a fixed method,
// body and headers from the script arguments) and "tokens.lua" (the same,
// plus one token per request cycled from a file) — see lua/*.lua.
//
// Servers: StartServer runs a program under `taskset -c` with GOMAXPROCS=1
// unless the spec sets it, polls its Ready URL, and reads its CPU time
// (utime+stime, /proc/PID/stat) and peak RSS (VmHWM, /proc/PID/status).
//
// Scenario lists are functions (Hello here; StudyScenarios,
// RealScenarios and FaultScenarios in their own files), composed by the
// driver bench/cmd/load (`make load`) in its file scenarios.go. A list
// never includes "hello": the driver adds Hello once.
//
// # Names the report reads
//
// Names are "op/alg/lib" (the record's op, alg and lib when Labels do not
// say otherwise; a v4.*/v3.* alg makes the format PASETO, another alg
// JWT). HTTP.md judges the targets on these rows:
//
//	issue/HS256/signet, check/HS256/signet       vs hello, and vs …/golang-jwt (same op)
//	{issue,check}/{ES256,EdDSA,RS256,PS256}/signet   BoundNS = the primitive's cost
//	{issue,check}/<alg>/floor                    the raw primitive served: the in-server bound beside it
//	token/ES256/signet-serve                     BoundNS = ES256 sign (+ what the bound counts)
//	introspect/ES256/signet-serve                the scale model's Redis row
//	proxy                                        the plain reverse proxy (a baseline)
//	guard-nocache/ES256/signet-guard             Baseline "proxy", BoundNS = ES256 verify
//	guard-cache/ES256/signet-guard               Baseline "proxy"
//	middleware/ES256/signet                      the bearer middleware in-process
//
// Fault scenarios set Suite "http-faults" (usually Rounds 1, NoWarmup),
// do their fault in Target.During and return from Target.Check the
// figures the targets read, as numbers: failed_verifications,
// revoked_active, unexpected_5xx (each must be 0), plus any others
// (recovery_ms, inflight_completed, …), all shown in HTTP.md's fault table
// and stored in the record.
package load
