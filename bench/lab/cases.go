package lab

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// A Case is one benchmark: a library, or the floor, doing one operation.
type Case struct {
	Format   string // "JWT", "PASETO", "HTTPSig", "JWE"
	Alg      string // "HS256", "v4.local", "hmac-sha256"
	Op       string // Sign, Verify, RoundTrip, Forged; PASETO local and JWE: Encrypt, Decrypt
	Lib      string // "signet", a peer's short name, or "floor"
	Size     string // a payload size class (the Size benchmarks); "" otherwise
	Parallel bool   // b.RunParallel
	Run      func(b *testing.B)
}

// Bench is the top-level benchmark: "BenchmarkJWT" or "BenchmarkJWTSize".
func (c Case) Bench() string {
	if c.Size != "" {
		return "Benchmark" + c.Format + "Size"
	}
	return "Benchmark" + c.Format
}

// Sub is the sub-benchmark path under Bench (docs/design.md, "Names"):
// "HS256/Sign/golang-jwt", "HS256/large/Sign/signet",
// "HS256/Sign/Parallel/signet".
func (c Case) Sub() string {
	parts := []string{c.Alg}
	if c.Size != "" {
		parts = append(parts, c.Size)
	}
	parts = append(parts, c.Op)
	if c.Parallel {
		parts = append(parts, "Parallel")
	}
	return strings.Join(append(parts, c.Lib), "/")
}

// Name is the full benchmark name, as go test prints it (without the
// -cpu suffix).
func (c Case) Name() string { return c.Bench() + "/" + c.Sub() }

// Options select the cases.
type Options struct {
	Formats  []string // "JWT", "PASETO", "HTTPSig", "JWE"; all when empty
	Quick    bool     // a few algorithms per format (the report's quick run)
	Sizes    bool     // the payload-size matrix
	Parallel bool     // the b.RunParallel variants
	// Peers are the libraries measured; DefaultPeers when nil.
	Peers *Peers
}

// peers returns the libraries o selects.
func (o Options) peers() Peers {
	if o.Peers == nil {
		return DefaultPeers()
	}
	return *o.Peers
}

func (o Options) has(format string) bool {
	return len(o.Formats) == 0 || slices.Contains(o.Formats, format)
}

// quickAlgs are the algorithms of a quick run.
var quickAlgs = map[string]bool{
	"HS256": true, "RS256": true, "ES256": true, "EdDSA": true,
	"v4.local": true, "v4.public": true,
	"hmac-sha256": true, "ecdsa-p256-sha256": true, "rsa-pss-sha512": true, "ed25519": true,
}

// JWSAlgs are the JWS algorithms of the lab, in report order.
var JWSAlgs = []string{"HS256", "HS384", "HS512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"}

// Purposes are the PASETO versions and purposes of the lab.
var Purposes = []string{"v4.local", "v4.public", "v3.local", "v3.public", "v2.local", "v2.public"}

// HTTPSigAlgs are the RFC 9421 algorithms of the lab.
var HTTPSigAlgs = []string{"hmac-sha256", "ed25519", "ecdsa-p256-sha256", "ecdsa-p384-sha384", "rsa-pss-sha512", "rsa-v1_5-sha256"}

// Cases returns the benchmark cases o selects, each group with its floor
// first. A library that cannot make a case (an algorithm it lacks) is left
// out of that group; one that fails its self-check (its own token does not
// verify) is an error.
func Cases(k *Keys, o Options) ([]Case, error) {
	var out []Case
	peers := o.peers()
	add := func(cs []Case, err error) error {
		out = append(out, cs...)
		return err
	}
	if o.has("JWT") {
		for _, alg := range JWSAlgs {
			if o.Quick && !quickAlgs[alg] {
				continue
			}
			if err := add(jwtCases(peers.JWT, k, alg, "small", o.Parallel && alg == "HS256")); err != nil {
				return nil, err
			}
		}
		if o.Sizes {
			for _, size := range Sizes {
				if err := add(jwtSizeCases(peers.JWT, k, "HS256", size)); err != nil {
					return nil, err
				}
			}
		}
	}
	if o.has("PASETO") {
		for _, purpose := range Purposes {
			if o.Quick && !quickAlgs[purpose] {
				continue
			}
			if err := add(pasetoCases(peers.PASETO, k, purpose, "small", o.Parallel && purpose == "v4.local")); err != nil {
				return nil, err
			}
		}
		if o.Sizes {
			for _, size := range Sizes {
				if err := add(pasetoSizeCases(peers.PASETO, k, "v4.local", size)); err != nil {
					return nil, err
				}
			}
		}
	}
	if o.has("JWE") {
		// Every JWE row runs in the quick run too: six rows of two
		// operations, a few seconds.
		for _, name := range JWEAlgs {
			if err := add(jweCases(peers.JWE, k, name, "small")); err != nil {
				return nil, err
			}
		}
		if o.Sizes {
			for _, size := range Sizes {
				if err := add(jweSizeCases(peers.JWE, k, "dir+A256GCM", size)); err != nil {
					return nil, err
				}
			}
		}
	}
	if o.has("HTTPSig") {
		for _, alg := range HTTPSigAlgs {
			if o.Quick && !quickAlgs[alg] {
				continue
			}
			if err := add(httpsigCases(peers.HTTPSig, k, alg, o.Parallel && alg == "hmac-sha256")); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// now is the lab's clock for payloads: fixed per process, so that every
// library signs the same claims; tokens stay valid for an hour.
var now = time.Now()

// jwtCases: sign, verify, round trip and forged-token rejection for one
// JWS algorithm and payload, per library, beside the floor.
func jwtCases(libs []JWTLib, k *Keys, alg, size string, parallel bool) ([]Case, error) {
	spec, err := k.Spec(alg)
	if err != nil {
		return nil, err
	}
	p := NewPayload(size, now)
	spec.Registered = p.Data == nil
	sz := ""
	var out []Case
	floor, err := newJWTFloor(spec, p)
	if err != nil {
		return nil, err
	}
	out = append(out,
		Case{Format: "JWT", Alg: alg, Op: "Sign", Lib: "floor", Size: sz, Run: loop(floor.sign)},
		Case{Format: "JWT", Alg: alg, Op: "Verify", Lib: "floor", Size: sz, Run: loop(floor.verify)},
		Case{Format: "JWT", Alg: alg, Op: "RoundTrip", Lib: "floor", Size: sz, Run: loop(func() { floor.sign(); floor.verify() })},
		Case{Format: "JWT", Alg: alg, Op: "Forged", Lib: "floor", Size: sz, Run: loop(floor.forged)},
	)
	if size == "small" {
		c, err := keyInitFloor(k, alg)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	for _, lib := range libs {
		if !slices.Contains(lib.Algs(), alg) {
			continue
		}
		j, err := lib.New(spec)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", lib.Name(), alg, err)
		}
		tok, err := j.Sign(p)
		if err != nil {
			return nil, fmt.Errorf("%s %s: sign: %w", lib.Name(), alg, err)
		}
		var back Payload
		if err := j.Verify(tok, &back); err != nil {
			return nil, fmt.Errorf("%s %s: its own token does not verify: %w", lib.Name(), alg, err)
		}
		bad := forge(tok)
		if j.Verify(bad, &back) == nil {
			return nil, fmt.Errorf("%s %s: accepts a token with a flipped signature", lib.Name(), alg)
		}
		name := lib.Name()
		sign := func() {
			if _, err := j.Sign(p); err != nil {
				panic(fmt.Sprintf("%s %s sign: %v", name, alg, err))
			}
		}
		verify := func() {
			var back Payload
			if err := j.Verify(tok, &back); err != nil {
				panic(fmt.Sprintf("%s %s verify: %v", name, alg, err))
			}
		}
		out = append(out,
			Case{Format: "JWT", Alg: alg, Op: "Sign", Lib: name, Size: sz, Run: loop(sign)},
			Case{Format: "JWT", Alg: alg, Op: "Verify", Lib: name, Size: sz, Run: loop(verify)},
			Case{Format: "JWT", Alg: alg, Op: "RoundTrip", Lib: name, Size: sz, Run: loop(func() {
				t, err := j.Sign(p)
				if err != nil {
					panic(err)
				}
				var back Payload
				if err := j.Verify(t, &back); err != nil {
					panic(err)
				}
			})},
			Case{Format: "JWT", Alg: alg, Op: "Forged", Lib: name, Size: sz, Run: loop(func() {
				var back Payload
				if j.Verify(bad, &back) == nil {
					panic(name + ": forged token accepted")
				}
			})},
		)
		if size == "small" {
			// Initialisation: a library made ready to sign and verify from
			// the key as a service stores it, at start or on rotation: the
			// secret's bytes, or the private key's PKCS #8 PEM read by the
			// library's own loader (the standard library's for those that
			// have none).
			pemSpec, err := k.PEMSpec(alg)
			if err != nil {
				return nil, err
			}
			if _, err := lib.New(pemSpec); err != nil {
				return nil, fmt.Errorf("%s: %s key from PEM: %w", name, alg, err)
			}
			out = append(out, Case{Format: "JWT", Alg: alg, Op: "KeyInit", Lib: name, Run: loop(func() {
				if _, err := lib.New(pemSpec); err != nil {
					panic(err)
				}
			})})
		}
		if parallel {
			out = append(out,
				Case{Format: "JWT", Alg: alg, Op: "Sign", Lib: name, Parallel: true, Run: parallelLoop(shared(sign))},
				Case{Format: "JWT", Alg: alg, Op: "Verify", Lib: name, Parallel: true, Run: parallelLoop(shared(verify))},
			)
		}
	}
	if size == "small" {
		out = append(out, keyGenCases(alg)...)
	}
	if parallel {
		fresh := func(pick func(*jwtFloor) func()) func() func() {
			return func() func() {
				f, err := newJWTFloor(spec, p)
				if err != nil {
					panic(err)
				}
				return pick(f)
			}
		}
		out = append(out,
			Case{Format: "JWT", Alg: alg, Op: "Sign", Lib: "floor", Parallel: true, Run: parallelLoop(fresh(func(f *jwtFloor) func() { return f.sign }))},
			Case{Format: "JWT", Alg: alg, Op: "Verify", Lib: "floor", Parallel: true, Run: parallelLoop(fresh(func(f *jwtFloor) func() { return f.verify }))},
		)
	}
	return out, nil
}

// jwtSizeCases: sign and verify of one payload size class.
func jwtSizeCases(libs []JWTLib, k *Keys, alg, size string) ([]Case, error) {
	cs, err := jwtCases(libs, k, alg, size, false)
	var out []Case
	for _, c := range cs {
		if c.Op == "Sign" || c.Op == "Verify" {
			c.Size = size
			out = append(out, c)
		}
	}
	return out, err
}

// forge flips a bit in the middle of a token's signature, where every
// algorithm's signature is plain data (the top bits of an Ed25519 S, near
// its end, would be refused as non-canonical before any arithmetic).
func forge(tok string) string {
	b := []byte(tok)
	dot := strings.LastIndexByte(tok, '.')
	i := dot + 1 + (len(b)-dot-1)/2
	if b[i] == 'A' {
		b[i] = 'B'
	} else {
		b[i] = 'A'
	}
	return string(b)
}

// loop is a benchmark body running f b.N times.
func loop(f func()) func(b *testing.B) {
	return func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			f()
		}
	}
}

// parallelLoop runs on GOMAXPROCS goroutines the function each gets from
// make (state that is not goroutine-safe, a floor's hash, is per
// goroutine). A panic in one of them is raised again in the benchmark's
// own goroutine once they are done, where the caller can recover it (a
// panic left in a worker goroutine would end the process).
func parallelLoop(make func() func()) func(b *testing.B) {
	return func(b *testing.B) {
		b.ReportAllocs()
		var once sync.Once
		var panicked any
		b.RunParallel(func(pb *testing.PB) {
			defer func() {
				if e := recover(); e != nil {
					once.Do(func() { panicked = e })
					for pb.Next() { // RunParallel fails a body that leaves work undone
					}
				}
			}()
			f := make()
			for pb.Next() {
				f()
			}
		})
		if panicked != nil {
			panic(panicked)
		}
	}
}

// shared is a parallelLoop maker for a goroutine-safe f.
func shared(f func()) func() func() { return func() func() { return f } }

// httpsigRequest is the reference request (docs/design.md): a JSON POST.
func httpsigRequest() *http.Request {
	r, _ := http.NewRequest(http.MethodPost, "https://example.com/api/resource?param=value",
		strings.NewReader(`{"id":42,"name":"widget","tags":["a","b"],"ok":true}`))
	r.Header.Set("Content-Type", "application/json")
	return r
}
