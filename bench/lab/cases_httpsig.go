package lab

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// httpsigCases: sign and verify of the reference request with one RFC 9421
// algorithm, per library, beside the floor. The sign loop strips
// Signature and Signature-Input and signs one request again, as a client
// re-sending it does; the verify loop checks one request that the library
// signed, as the client built it (the same for every library), made when
// the benchmark starts so that its created is fresh.
func httpsigCases(libs []HTTPSigLib, k *Keys, alg string, parallel bool) ([]Case, error) {
	spec, err := k.Spec(alg)
	if err != nil {
		return nil, err
	}
	floor, err := newHTTPSigFloor(spec)
	if err != nil {
		return nil, err
	}
	out := []Case{
		{Format: "HTTPSig", Alg: alg, Op: "Sign", Lib: "floor", Run: loop(floor.sign)},
		{Format: "HTTPSig", Alg: alg, Op: "Verify", Lib: "floor", Run: loop(floor.verify)},
	}
	for _, lib := range libs {
		if !slices.Contains(lib.Algs(), alg) {
			continue
		}
		name := lib.Name()
		h, err := httpsigSelfCheck(lib, spec)
		if err != nil {
			if name == "signet" {
				return nil, err
			}
			// A peer that fails its own round trip is left out of this
			// group, and said so, rather than stopping the lab.
			log.Printf("lab: HTTPSig %s: leaving out %s: %v", alg, name, err)
			continue
		}
		sign := func(r *http.Request) {
			httpsigStrip(r)
			if err := h.Sign(r); err != nil {
				panic(fmt.Sprintf("%s %s sign: %v", name, alg, err))
			}
		}
		verify := func(r *http.Request) {
			if err := h.Verify(r); err != nil {
				panic(fmt.Sprintf("%s %s verify: %v", name, alg, err))
			}
		}
		// signed is a request h signed just now.
		signed := func() *http.Request {
			r := httpsigRequest()
			if err := h.Sign(r); err != nil {
				panic(fmt.Sprintf("%s %s sign: %v", name, alg, err))
			}
			return r
		}
		out = append(out,
			Case{Format: "HTTPSig", Alg: alg, Op: "Sign", Lib: name, Run: func(b *testing.B) {
				r := httpsigRequest()
				b.ReportAllocs()
				for b.Loop() {
					sign(r)
				}
			}},
			Case{Format: "HTTPSig", Alg: alg, Op: "Verify", Lib: name, Run: func(b *testing.B) {
				r := signed()
				b.ReportAllocs()
				for b.Loop() {
					verify(r)
				}
			}},
		)
		if parallel {
			// The libraries' signers and verifiers are shared; requests
			// are per goroutine (signing and some verifiers write to them).
			out = append(out,
				Case{Format: "HTTPSig", Alg: alg, Op: "Sign", Lib: name, Parallel: true, Run: parallelLoop(func() func() {
					r := httpsigRequest()
					return func() { sign(r) }
				})},
				Case{Format: "HTTPSig", Alg: alg, Op: "Verify", Lib: name, Parallel: true, Run: func(b *testing.B) {
					r := signed()
					parallelLoop(func() func() {
						c := httpsigClone(r)
						return func() { verify(c) }
					})(b)
				}},
			)
		}
	}
	if parallel {
		fresh := func(pick func(*httpsigFloor) func()) func() func() {
			return func() func() {
				f, err := newHTTPSigFloor(spec)
				if err != nil {
					panic(err)
				}
				return pick(f)
			}
		}
		out = append(out,
			Case{Format: "HTTPSig", Alg: alg, Op: "Sign", Lib: "floor", Parallel: true, Run: parallelLoop(fresh(func(f *httpsigFloor) func() { return f.sign }))},
			Case{Format: "HTTPSig", Alg: alg, Op: "Verify", Lib: "floor", Parallel: true, Run: parallelLoop(fresh(func(f *httpsigFloor) func() { return f.verify }))},
		)
	}
	return out, nil
}

// httpsigSelfCheck binds lib to spec and checks it: a request it signed
// verifies, and the same request with one signature byte flipped does not.
func httpsigSelfCheck(lib HTTPSigLib, spec KeySpec) (HTTPSig, error) {
	name := lib.Name()
	h, err := lib.New(spec)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", name, spec.Alg, err)
	}
	r := httpsigRequest()
	if err := h.Sign(r); err != nil {
		return nil, fmt.Errorf("%s %s: sign: %w", name, spec.Alg, err)
	}
	bad := httpsigForge(r)
	if err := h.Verify(r); err != nil {
		return nil, fmt.Errorf("%s %s: its own signature does not verify: %w", name, spec.Alg, err)
	}
	if h.Verify(bad) == nil {
		return nil, fmt.Errorf("%s %s: accepts a request with a flipped signature", name, spec.Alg)
	}
	return h, nil
}

// httpsigStrip removes a request's signatures.
func httpsigStrip(r *http.Request) {
	delete(r.Header, "Signature-Input")
	delete(r.Header, "Signature")
}

// httpsigClone copies a request, its header and body included.
func httpsigClone(r *http.Request) *http.Request {
	c := r.Clone(context.Background())
	if r.GetBody != nil {
		c.Body, _ = r.GetBody()
	}
	return c
}

// httpsigForge returns a copy of r with one bit of its signature flipped:
// a base64 character in the middle of the byte sequence (sig1=:…:), which
// carries whole bits, changed.
func httpsigForge(r *http.Request) *http.Request {
	c := httpsigClone(r)
	v := c.Header.Get("Signature")
	i, j := strings.IndexByte(v, ':'), strings.LastIndexByte(v, ':')
	if i < 0 || j <= i+1 {
		return c
	}
	b := []byte(v)
	m := (i + j) / 2
	if b[m] == 'A' {
		b[m] = 'B'
	} else {
		b[m] = 'A'
	}
	c.Header.Set("Signature", string(b))
	return c
}
