package jwt

import (
	"slices"
	"testing"
	"time"

	"github.com/signet-go/signet"
)

// BenchmarkRatio runs signet and its floor in alternating slices of the
// same benchmark loop and reports their time ratio (x-floor): on a shared,
// noisy machine, interleaving makes the ratio far steadier than dividing
// two separate benchmark results.
//
//	go test -run '^$' -bench Ratio -benchtime 2s ./jwt
func BenchmarkRatio(b *testing.B) {
	claims := benchClaims()
	p := Policy{Issuer: "https://issuer.example", Audience: "api", Now: benchNow}
	for _, alg := range signet.JWSAlgorithms() {
		b.Run(string(alg)+"/Sign", func(b *testing.B) {
			c := newBenchCase(b, alg)
			fs := floorSign(b, c)
			ratio(b, func() { fs() }, func() {
				if _, err := Sign(c.key, claims); err != nil {
					b.Fatal(err)
				}
			})
		})
		b.Run(string(alg)+"/Verify", func(b *testing.B) {
			c := newBenchCase(b, alg)
			fv := floorVerify(b, c, c.sig)
			ratio(b, func() { fv() }, func() {
				if _, err := Verify[Claims](c.pub, c.token, p); err != nil {
					b.Fatal(err)
				}
			})
		})
		b.Run(string(alg)+"/Forged", func(b *testing.B) {
			c := newBenchCase(b, alg)
			bad := forge(c.token)
			ff := floorVerify(b, c, sigOf(bad))
			ratio(b, func() { ff() }, func() {
				if _, err := Verify[Claims](c.pub, bad, p); err == nil {
					b.Fatal("forgery accepted")
				}
			})
		})
	}
}

// ratio alternates slices of floor and op over b.N iterations each. It
// reports the median over slices of op/floor (x-floor), which shrugs off
// the interruptions of a shared machine, and the ratio of the total times
// (x-floor-total), which also carries op's share of garbage collection.
func ratio(b *testing.B, floor, op func()) {
	const slice = 128
	var tf, to time.Duration
	var ratios []float64
	b.ReportAllocs()
	for n := 0; n < b.N; n += slice {
		k := min(slice, b.N-n)
		t0 := time.Now()
		for i := 0; i < k; i++ {
			floor()
		}
		t1 := time.Now()
		for i := 0; i < k; i++ {
			op()
		}
		t2 := time.Now()
		tf += t1.Sub(t0)
		to += t2.Sub(t1)
		if k == slice {
			ratios = append(ratios, float64(t2.Sub(t1))/float64(t1.Sub(t0)))
		}
	}
	if len(ratios) > 0 {
		slices.Sort(ratios)
		b.ReportMetric(ratios[len(ratios)/2], "x-floor")
	}
	b.ReportMetric(float64(tf.Nanoseconds())/float64(b.N), "floor-ns/op")
	b.ReportMetric(float64(to)/float64(tf), "x-floor-total")
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
