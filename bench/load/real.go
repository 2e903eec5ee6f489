package load

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
)

// Sizes of the real scenarios' token sets.
const (
	// realCycledTokens is how many distinct tokens wrk cycles through
	// where every request must pay a verification (guard without cache,
	// the middleware): more than a run's connections, so consecutive
	// requests carry different tokens.
	realCycledTokens = 1000
	// realIntrospectTokens is how many tokens signet serve issues before
	// an introspection run (introspection caches nothing: a few hundred
	// distinct ones are as good as thousands).
	realIntrospectTokens = 200
)

// RealScenarios are the rows of the real service under load (issue 17,
// item 2, second bullet): signet serve's token endpoint (client
// credentials, client_secret_basic) and introspection, signet guard in
// front of /hello with a remote JWKS (verified-token cache off and on)
// beside a plain reverse proxy, and package bearer's middleware
// in-process. quick keeps ES256 only; the full list adds the token
// endpoint for HS256 and EdDSA and the middleware for HS256.
//
// Where each process runs, and what counts:
//
//   - signet serve, signet guard, the proxy and loadsrv run on
//     Env.ServerCPUs with GOMAXPROCS=1; their CPU and RSS are the
//     Target's Servers, and nothing else is.
//   - The guard's and the proxy's upstream (loadsrv's /hello) runs on
//     Env.WrkCPUs, beside wrk, so that the server core holds the proxy
//     alone and its requests/s is 1 / its CPU per request, which the
//     bound 1 / (proxy CPU per request + ES256 verify) assumes. Its CPU
//     per request is reported apart, in Measurement.Extra
//     ("upstream_cpu_ns_per_req").
//   - The guard's JWK Set is served from the driver's own process
//     (fetched once at the guard's start).
//
// Bounds: the rows with a primitive carry the label "primitive" ("ES256
// issue small", "ES256 check small", …), which MeasureBounds turns into
// BoundNS, the same floors as the study's rows. The baselines are
// StudyHello (/hello POSTed a body, for the POSTs to signet serve) and
// Hello() (GET /hello, for the middleware's GETs), which are not in this
// list (StudyScenarios has the first, the driver adds the second), and
// "proxy" (in it).
func RealScenarios(quick bool) []Scenario {
	algs := []signet.Algorithm{signet.ES256}
	mwAlgs := []signet.Algorithm{signet.ES256}
	if !quick {
		algs = append(algs, signet.HS256, signet.EdDSA)
		mwAlgs = append(mwAlgs, signet.HS256)
	}
	var s []Scenario
	for _, a := range algs {
		s = append(s, realTokenScenario(a))
	}
	s = append(s,
		realIntrospectScenario(signet.ES256),
		realProxyScenario(),
		realGuardScenario(signet.ES256, false),
		realGuardScenario(signet.ES256, true),
	)
	for _, a := range mwAlgs {
		s = append(s, realMiddlewareScenario(a))
	}
	return s
}

// realLabels are a real row's results.json fields.
func realLabels(op, alg, lib, primitive string) map[string]string {
	l := map[string]string{"format": "JWT", "op": op, "alg": alg, "lib": lib, "gomaxprocs": "1"}
	if alg == "" {
		l["format"] = "HTTP"
		delete(l, "alg")
	}
	if primitive != "" {
		l["primitive"] = primitive
	}
	return l
}

// realTokenScenario: POST /oauth2/token of signet serve, grant
// client_credentials, client_secret_basic; baseline /hello POSTed a body
// (StudyHello, as the study's issue rows), bound the signature.
func realTokenScenario(alg signet.Algorithm) Scenario {
	a := string(alg)
	return Scenario{
		Group:    "serve",
		Name:     "token/" + a + "/signet-serve",
		Baseline: StudyHello,
		Labels:   realLabels("token", a, "signet-serve", a+" issue small"),
		Setup: func(ctx context.Context, env *Env) (*Target, error) {
			sv, err := startRealServe(ctx, env, alg)
			if err != nil {
				return nil, err
			}
			if _, err := fetchServeTokens(ctx, sv.base, sv.client, 1); err != nil {
				sv.close()
				return nil, err
			}
			return &Target{
				Wrk: WrkSpec{URL: sv.base + "/oauth2/token", Script: "request.lua", Args: []string{
					"method=POST",
					"body=grant_type=client_credentials",
					"header=Content-Type: application/x-www-form-urlencoded",
					"header=Authorization: " + sv.client.Basic(),
				}},
				Servers: []*Server{sv.srv},
				Close:   sv.close,
			}, nil
		},
	}
}

// realIntrospectScenario: POST /oauth2/introspect of tokens signet serve
// issued before the run, cycled; baseline /hello POSTed a body
// (StudyHello). No bound: the request
// is a verification, a store read (the revocation list) and JSON.
func realIntrospectScenario(alg signet.Algorithm) Scenario {
	a := string(alg)
	return Scenario{
		Group:    "serve",
		Name:     "introspect/" + a + "/signet-serve",
		Baseline: StudyHello,
		Labels:   realLabels("introspect", a, "signet-serve", ""),
		Setup: func(ctx context.Context, env *Env) (t *Target, err error) {
			sv, err := startRealServe(ctx, env, alg)
			if err != nil {
				return nil, err
			}
			defer func() {
				if err != nil {
					sv.close()
				}
			}()
			toks, err := fetchServeTokens(ctx, sv.base, sv.client, realIntrospectTokens)
			if err != nil {
				return nil, err
			}
			if err := checkIntrospection(ctx, sv.base, sv.client, toks); err != nil {
				return nil, err
			}
			tokFile := filepath.Join(sv.dir, "tokens.txt")
			if err := writeLines(tokFile, toks); err != nil {
				return nil, err
			}
			script, err := writeRealScript(sv.dir, "form_tokens.lua", formTokensLua)
			if err != nil {
				return nil, err
			}
			return &Target{
				Wrk: WrkSpec{URL: sv.base + "/oauth2/introspect", Script: script, Args: []string{
					"method=POST",
					"header=Content-Type: application/x-www-form-urlencoded",
					"header=Authorization: " + sv.client.Basic(),
					"tokens=" + tokFile,
					"token_field=token",
				}},
				Servers: []*Server{sv.srv},
				Close:   sv.close,
			}, nil
		},
	}
}

// realServe is a running signet serve with its one client.
type realServe struct {
	srv    *Server
	base   string
	client realClient
	dir    string
}

func (s *realServe) close() error {
	err := s.srv.Stop()
	return errors.Join(err, os.RemoveAll(s.dir))
}

// startRealServe starts signet serve on the server cores: a fresh data
// directory (bolt store, key-encryption key) and clients file, signing
// with alg, JWT access tokens; ready when /readyz answers 200 (the key
// ring is loaded).
func startRealServe(ctx context.Context, env *Env, alg signet.Algorithm) (*realServe, error) {
	dir, err := os.MkdirTemp(env.Tmp, "serve-")
	if err != nil {
		return nil, err
	}
	c, err := newRealClient()
	if err == nil {
		err = writeClientsFile(filepath.Join(dir, "clients.json"), c)
	}
	addr := ""
	if err == nil {
		addr, err = FreeAddr()
	}
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	base := "http://" + addr
	srv, err := StartServer(ctx, ServerSpec{
		Name: "signet-serve",
		Argv: []string{env.Signet(), "serve", "--clients", filepath.Join(dir, "clients.json"),
			"--data", filepath.Join(dir, "data"), "--alg", string(alg), "--addr", addr},
		CPUs:  env.ServerCPUs,
		Ready: base + "/readyz",
	})
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return &realServe{srv: srv, base: base, client: c, dir: dir}, nil
}

// realProxyScenario is the guard's baseline: loadsrv -proxy, a plain
// httputil.ReverseProxy, in front of the same upstream /hello, sent the
// guard's requests (ES256 Bearer tokens of the same claims, cycled), so
// that the two differ by what the guard does with the token.
func realProxyScenario() Scenario {
	return Scenario{
		Group:  "guard",
		Name:   "proxy",
		Labels: realLabels("proxy", "", "net/http/httputil", ""),
		Setup: func(ctx context.Context, env *Env) (t *Target, err error) {
			// The guard's request: an ES256 Bearer token of the same
			// claims, realCycledTokens of them cycled (the proxy reads
			// none and forwards the header, as a plain proxy does).
			dir, err := os.MkdirTemp(env.Tmp, "proxy-")
			if err != nil {
				return nil, err
			}
			stops := closers{func() error { return os.RemoveAll(dir) }}
			defer func() {
				if err != nil {
					stops.close()
				}
			}()
			key, err := signet.GenerateKeyWithID(signet.ES256, "load-1")
			if err != nil {
				return nil, err
			}
			toks, err := mintTokens(key, realCycledTokens)
			if err != nil {
				return nil, err
			}
			tokFile := filepath.Join(dir, "tokens.txt")
			if err := writeLines(tokFile, toks); err != nil {
				return nil, err
			}
			up, err := startRealUpstream(ctx, env)
			if err != nil {
				return nil, err
			}
			stops.add(up.Stop)
			addr, err := FreeAddr()
			if err != nil {
				return nil, err
			}
			srv, err := StartServer(ctx, ServerSpec{
				Name:  "proxy",
				Argv:  []string{env.LoadSrv(), "-addr", addr, "-proxy", up.url},
				CPUs:  env.ServerCPUs,
				Ready: "http://" + addr + "/hello",
			})
			if err != nil {
				return nil, err
			}
			stops.add(srv.Stop)
			t = &Target{
				Wrk:     WrkSpec{URL: "http://" + addr + "/hello", Script: "tokens.lua", Args: []string{"tokens=" + tokFile}},
				Servers: []*Server{srv},
				Close:   stops.close,
			}
			up.account(t)
			return t, nil
		},
	}
}

// realGuardScenario: signet guard (ES256 tokens, keys from a remote JWKS)
// in front of the upstream /hello. Without cache every request carries
// one of realCycledTokens tokens and pays a verification (bound: the
// proxy's CPU per request + the verification); with the guard's default
// cache the clients reuse their tokens: as many tokens as connections,
// cycled, each verified once and then answered from the cache (target:
// 0.8× the proxy).
func realGuardScenario(alg signet.Algorithm, cache bool) Scenario {
	a := string(alg)
	op, prim, n := "guard-nocache", a+" check small", realCycledTokens
	if cache {
		op, prim, n = "guard-cache", "", 0 // n: one token per connection
	}
	return Scenario{
		Group:    "guard",
		Name:     op + "/" + a + "/signet-guard",
		Baseline: "proxy",
		Labels:   realLabels(op, a, "signet-guard", prim),
		Setup: func(ctx context.Context, env *Env) (t *Target, err error) {
			dir, err := os.MkdirTemp(env.Tmp, "guard-")
			if err != nil {
				return nil, err
			}
			stops := closers{func() error { return os.RemoveAll(dir) }}
			defer func() {
				if err != nil {
					stops.close()
				}
			}()
			key, err := signet.GenerateKeyWithID(alg, "load-1")
			if err != nil {
				return nil, err
			}
			w := WrkSpec{}
			if n == 0 {
				n = w.withDefaults().Connections
			}
			toks, err := mintTokens(key, n)
			if err != nil {
				return nil, err
			}
			tokFile := filepath.Join(dir, "tokens.txt")
			if err := writeLines(tokFile, toks); err != nil {
				return nil, err
			}
			js, err := startJWKSServer(key)
			if err != nil {
				return nil, err
			}
			stops.add(js.Close)
			up, err := startRealUpstream(ctx, env)
			if err != nil {
				return nil, err
			}
			stops.add(up.Stop)
			addr, err := FreeAddr()
			if err != nil {
				return nil, err
			}
			admin, err := FreeAddr()
			if err != nil {
				return nil, err
			}
			argv := []string{env.Signet(), "guard", "--upstream", up.url, "--jwks-url", js.URL,
				"--alg", a, "--iss", realIssuer, "--aud", realAudience,
				"--addr", addr, "--admin-addr", admin}
			if !cache {
				argv = append(argv, "--cache", "0")
			}
			srv, err := StartServer(ctx, ServerSpec{Name: "signet-guard", Argv: argv, CPUs: env.ServerCPUs,
				Ready: "http://" + admin + "/readyz"})
			if err != nil {
				return nil, err
			}
			stops.add(srv.Stop)
			w.URL = "http://" + addr + "/hello"
			if err := firstRequest(ctx, w.URL, "Bearer "+toks[0]); err != nil {
				return nil, err
			}
			w.Script = "tokens.lua"
			w.Args = []string{"tokens=" + tokFile}
			t = &Target{Wrk: w, Servers: []*Server{srv}, Close: stops.close}
			up.account(t)
			return t, nil
		},
	}
}

// realMiddlewareScenario: package bearer's middleware in loadsrv, in front
// of the /hello handler (GET /bearer/hello), tokens cycled; baseline
// /hello, bound the verification.
func realMiddlewareScenario(alg signet.Algorithm) Scenario {
	a := string(alg)
	return Scenario{
		Group:    "middleware",
		Name:     "middleware/" + a + "/signet",
		Baseline: "hello",
		Labels:   realLabels("middleware", a, "signet-bearer", a+" check small"),
		Setup: func(ctx context.Context, env *Env) (t *Target, err error) {
			dir, err := os.MkdirTemp(env.Tmp, "bearer-")
			if err != nil {
				return nil, err
			}
			defer func() {
				if err != nil {
					os.RemoveAll(dir)
				}
			}()
			key, err := signet.GenerateKeyWithID(alg, "load-1")
			if err != nil {
				return nil, err
			}
			toks, err := mintTokens(key, realCycledTokens)
			if err != nil {
				return nil, err
			}
			tokFile := filepath.Join(dir, "tokens.txt")
			if err := writeLines(tokFile, toks); err != nil {
				return nil, err
			}
			// The key as the server loads it: for HS256 the secret, for
			// the others the private JWK (the server keeps the public half).
			j, err := jwk.Marshal(key)
			if err != nil {
				return nil, err
			}
			keyFile := filepath.Join(dir, "key.jwk")
			if err := os.WriteFile(keyFile, j, 0o600); err != nil {
				return nil, err
			}
			t, err = LoadSrvTarget(ctx, env, "loadsrv-bearer",
				[]string{"-bearer-key", keyFile, "-bearer-iss", realIssuer, "-bearer-aud", realAudience},
				nil, "/bearer/hello", WrkSpec{Script: "tokens.lua", Args: []string{"tokens=" + tokFile}})
			if err != nil {
				return nil, err
			}
			stop := t.Close
			t.Close = func() error { return errors.Join(stop(), os.RemoveAll(dir)) }
			if err := firstRequest(ctx, t.Wrk.URL, "Bearer "+toks[0]); err != nil {
				t.Close()
				return nil, err
			}
			return t, nil
		},
	}
}

// realUpstream is the /hello the guard and the proxy forward to.
type realUpstream struct {
	*Server
	url  string
	cpus string // its taskset list
}

// startRealUpstream starts loadsrv on Env.WrkCPUs (not the measured core;
// see RealScenarios).
func startRealUpstream(ctx context.Context, env *Env) (*realUpstream, error) {
	addr, err := FreeAddr()
	if err != nil {
		return nil, err
	}
	srv, err := StartServer(ctx, ServerSpec{Name: "upstream", Argv: []string{env.LoadSrv(), "-addr", addr},
		CPUs: env.WrkCPUs, Ready: "http://" + addr + "/hello"})
	if err != nil {
		return nil, err
	}
	return &realUpstream{Server: srv, url: "http://" + addr, cpus: env.WrkCPUs}, nil
}

// account makes t report the upstream's CPU per request of the measured
// run apart from the Servers' figures, in Measurement.Extra:
// "upstream_cpu_ns_per_req" and "upstream_cpus" (where it ran). During
// reads its CPU time as the run starts, Check after it.
func (u *realUpstream) account(t *Target) {
	var start time.Duration
	var startErr error
	t.During = func(ctx context.Context) error {
		start, startErr = u.CPUTime()
		<-ctx.Done()
		return nil
	}
	t.Check = func(res WrkResult) (map[string]any, error) {
		if startErr != nil {
			return nil, fmt.Errorf("upstream cpu time: %w", startErr)
		}
		end, err := u.CPUTime()
		if err != nil {
			return nil, fmt.Errorf("upstream cpu time: %w", err)
		}
		extra := map[string]any{"upstream_cpus": u.cpus}
		if res.Requests > 0 {
			extra["upstream_cpu_ns_per_req"] = float64(end-start) / float64(res.Requests)
		}
		return extra, nil
	}
}

// writeRealScript writes one of this file's Lua scripts into dir (wrk
// takes a script path; the harness composes it with lib.lua and the
// reporter).
func writeRealScript(dir, name, body string) (string, error) {
	p := filepath.Join(dir, name)
	return p, os.WriteFile(p, []byte(body), 0o600)
}

// formTokensLua is tokens.lua's form-body sibling: the request of
// request.lua (method, headers) whose body is the form field token_field
// ("token") set to the next token of tokens=FILE, cycled. The requests
// are formatted once, in init (tokens are base64url and dots: no
// form-encoding needed).
const formTokensLua = `-- form_tokens.lua (bench/load/real.go): a POST form carrying a token per request
local reqs, n, i = {}, 0, 0

function init(args)
  local o = signet.options(args)
  signet.apply(o)
  if not o.tokens then error("form_tokens.lua: tokens=FILE missing") end
  local field = o.token_field or "token"
  for _, t in ipairs(signet.lines(o.tokens)) do
    reqs[#reqs + 1] = wrk.format(nil, nil, nil, field .. "=" .. t)
  end
  n = #reqs
  if n == 0 then error("form_tokens.lua: no tokens in " .. o.tokens) end
end

function request()
  i = i % n + 1
  return reqs[i]
end
`

// closers are a Setup's clean-ups, run in reverse order by close.
type closers []func() error

func (c *closers) add(f func() error) { *c = append(*c, f) }

// close runs every clean-up, the last added first, and joins their errors.
func (c closers) close() error {
	var errs []error
	for i := len(c) - 1; i >= 0; i-- {
		errs = append(errs, c[i]())
	}
	return errors.Join(errs...)
}
