package lab

import (
	"fmt"
	"log"
	"slices"
	"strings"
)

// pasetoCases: for one version and purpose and one payload, seal and
// open (Encrypt and Decrypt for local tokens, Sign and Verify for public
// ones), the round trip, and the rejection of a forged token (one tag or
// signature byte flipped), per library, beside the floor.
func pasetoCases(libs []PASETOLib, k *Keys, purpose, size string, parallel bool) ([]Case, error) {
	spec, err := k.Spec(purpose)
	if err != nil {
		return nil, err
	}
	p := NewPayload(size, now)
	spec.Registered = p.Data == nil
	sealOp, openOp := "Sign", "Verify"
	if strings.HasSuffix(purpose, ".local") {
		sealOp, openOp = "Encrypt", "Decrypt"
	}
	c := func(op, lib string, run func()) Case {
		return Case{Format: "PASETO", Alg: purpose, Op: op, Lib: lib, Run: loop(run)}
	}
	floor, err := newPASETOFloor(spec, p)
	if err != nil {
		return nil, err
	}
	out := []Case{
		c(sealOp, "floor", floor.seal),
		c(openOp, "floor", floor.open),
		c("RoundTrip", "floor", func() { floor.seal(); floor.open() }),
		c("Forged", "floor", floor.forged),
	}
	for _, lib := range libs {
		if !slices.Contains(lib.Purposes(), purpose) {
			continue
		}
		name := lib.Name()
		x, tok, bad, err := pasetoSelfCheck(lib, spec, p)
		if err != nil {
			if name == "signet" {
				return nil, err
			}
			// A peer that fails its own round trip is left out of this
			// group, and said so, rather than stopping the lab.
			log.Printf("lab: PASETO %s: leaving out %s: %v", purpose, name, err)
			continue
		}
		seal := func() {
			if _, err := x.Seal(p); err != nil {
				panic(fmt.Sprintf("%s %s seal: %v", name, purpose, err))
			}
		}
		open := func() {
			var back Payload
			if err := x.Open(tok, &back); err != nil {
				panic(fmt.Sprintf("%s %s open: %v", name, purpose, err))
			}
		}
		out = append(out,
			c(sealOp, name, seal),
			c(openOp, name, open),
			c("RoundTrip", name, func() {
				t, err := x.Seal(p)
				if err != nil {
					panic(err)
				}
				var back Payload
				if err := x.Open(t, &back); err != nil {
					panic(err)
				}
			}),
			c("Forged", name, func() {
				var back Payload
				if x.Open(bad, &back) == nil {
					panic(name + ": forged token accepted")
				}
			}),
		)
		if parallel {
			// Every adapter's PASETO is goroutine-safe: a token or claims
			// value per call, keys and parsers only read.
			out = append(out,
				Case{Format: "PASETO", Alg: purpose, Op: sealOp, Lib: name, Parallel: true, Run: parallelLoop(shared(seal))},
				Case{Format: "PASETO", Alg: purpose, Op: openOp, Lib: name, Parallel: true, Run: parallelLoop(shared(open))},
			)
		}
	}
	if parallel {
		// The floor's buffers are per goroutine.
		fresh := func(pick func(*pasetoFloor) func()) func() func() {
			return func() func() {
				f, err := newPASETOFloor(spec, p)
				if err != nil {
					panic(err)
				}
				return pick(f)
			}
		}
		out = append(out,
			Case{Format: "PASETO", Alg: purpose, Op: sealOp, Lib: "floor", Parallel: true, Run: parallelLoop(fresh(func(f *pasetoFloor) func() { return f.seal }))},
			Case{Format: "PASETO", Alg: purpose, Op: openOp, Lib: "floor", Parallel: true, Run: parallelLoop(fresh(func(f *pasetoFloor) func() { return f.open }))},
		)
	}
	return out, nil
}

// pasetoSelfCheck binds lib to spec and checks it on p: its own token
// opens to the same claims, and the token with a flipped tag or signature
// byte is refused. It returns the library, its token and the forged one.
func pasetoSelfCheck(lib PASETOLib, spec KeySpec, p *Payload) (x PASETO, tok, bad string, err error) {
	name := lib.Name()
	if x, err = lib.New(spec); err != nil {
		return nil, "", "", fmt.Errorf("%s %s: %w", name, spec.Alg, err)
	}
	if tok, err = x.Seal(p); err != nil {
		return nil, "", "", fmt.Errorf("%s %s: seal: %w", name, spec.Alg, err)
	}
	var back Payload
	if err = x.Open(tok, &back); err != nil {
		return nil, "", "", fmt.Errorf("%s %s: its own token does not open: %w", name, spec.Alg, err)
	}
	if back.Subject != p.Subject || back.ExpiresAt != p.ExpiresAt || back.Audience != p.Audience || (back.Data == nil) != (p.Data == nil) {
		return nil, "", "", fmt.Errorf("%s %s: its own token opens to other claims", name, spec.Alg)
	}
	bad = pasetoForge(tok, pasetoTagSize(spec.Alg))
	if x.Open(bad, &back) == nil {
		return nil, "", "", fmt.Errorf("%s %s: accepts a token with a flipped tag or signature", name, spec.Alg)
	}
	return x, tok, bad, nil
}

// pasetoSizeCases: seal and open of one payload size class.
func pasetoSizeCases(libs []PASETOLib, k *Keys, purpose, size string) ([]Case, error) {
	cs, err := pasetoCases(libs, k, purpose, size, false)
	var out []Case
	for _, c := range cs {
		switch c.Op {
		case "Encrypt", "Decrypt", "Sign", "Verify":
			c.Size = size
			out = append(out, c)
		}
	}
	return out, err
}
