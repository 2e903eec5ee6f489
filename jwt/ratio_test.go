package jwt

import (
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/ratio"
)

// BenchmarkRatio runs signet and its floor in alternating slices of the
// same benchmark loop and reports their time ratio (x-floor): on a shared,
// noisy machine, interleaving makes the ratio far steadier than dividing
// two separate benchmark results.
//
//	go test -run '^$' -bench Ratio -benchtime 2s ./jwt
func BenchmarkRatio(b *testing.B) {
	claims := benchClaims()
	p := Policy{Issuer: "https://issuer.example", Audience: []string{"api"}, Now: fixed(benchNow)}
	for _, alg := range signet.JWSAlgorithms() {
		b.Run(string(alg)+"/Sign", func(b *testing.B) {
			c := newBenchCase(b, alg)
			fs := floorSign(b, c)
			ratio.Run(b, func() { fs() }, func() {
				if _, err := Sign(c.key, claims); err != nil {
					b.Fatal(err)
				}
			})
		})
		b.Run(string(alg)+"/Verify", func(b *testing.B) {
			c := newBenchCase(b, alg)
			fv := floorVerify(b, c, c.sig)
			ratio.Run(b, func() { fv() }, func() {
				if _, err := Verify[Claims](c.pub, c.token, p); err != nil {
					b.Fatal(err)
				}
			})
		})
		b.Run(string(alg)+"/Forged", func(b *testing.B) {
			c := newBenchCase(b, alg)
			bad := forge(c.token)
			ff := floorVerify(b, c, sigOf(bad))
			ratio.Run(b, func() { ff() }, func() {
				if _, err := Verify[Claims](c.pub, bad, p); err == nil {
					b.Fatal("forgery accepted")
				}
			})
		})
	}
}

func sigOf(tok string) []byte {
	for i := len(tok) - 1; i >= 0; i-- {
		if tok[i] == '.' {
			s, _ := b64Decode(tok[i+1:])
			return s
		}
	}
	return nil
}
