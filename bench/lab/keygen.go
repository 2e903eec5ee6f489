package lab

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"

	"github.com/signet-go/signet"
)

// keyGenCases: key generation (the study's "key generation"), signet's
// GenerateKey beside the standard library's generator for the same key
// (the floor). The peers take keys made by the standard library; they
// have no generator of their own to compare.
func keyGenCases(alg string) []Case {
	var floor func()
	switch alg[:2] {
	case "HS":
		n := map[string]int{"HS256": 32, "HS384": 48, "HS512": 64}[alg]
		buf := make([]byte, n)
		floor = func() { _, _ = rand.Read(buf) }
	case "ES":
		curve := map[string]elliptic.Curve{"ES256": elliptic.P256(), "ES384": elliptic.P384(), "ES512": elliptic.P521()}[alg]
		floor = func() { _, _ = ecdsa.GenerateKey(curve, rand.Reader) }
	case "Ed":
		floor = func() { _, _, _ = ed25519.GenerateKey(rand.Reader) }
	default: // RSA: seconds per key; not a per-request cost
		return nil
	}
	a := signet.Algorithm(alg)
	return []Case{
		{Format: "JWT", Alg: alg, Op: "KeyGen", Lib: "floor", Run: loop(floor)},
		{Format: "JWT", Alg: alg, Op: "KeyGen", Lib: "signet", Run: loop(func() {
			if _, err := signet.GenerateKey(a); err != nil {
				panic(err)
			}
		})},
	}
}
