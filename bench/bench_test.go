package bench

import (
	"testing"

	"github.com/signet-go/signet/bench/lab"
)

// The lab's benchmarks, named as docs/design.md says:
//
//	go test -run '^$' -bench . -benchmem ./...            (from bench/)
//	go test -run '^$' -bench 'JWT/HS256' -cpu 1,2 .
//
// LAB_QUICK=1 keeps to the quick run's algorithms.

var keys = mustKeys()

func mustKeys() *lab.Keys {
	k, err := lab.NewKeys()
	if err != nil {
		panic(err)
	}
	return k
}

func run(b *testing.B, format string, sizes bool) {
	cases, err := lab.Cases(keys, lab.Options{Formats: []string{format}, Sizes: sizes, Parallel: !sizes, Quick: quick()})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range cases {
		if (c.Size != "") != sizes {
			continue
		}
		b.Run(c.Sub(), c.Run)
	}
}

func BenchmarkJWT(b *testing.B)        { run(b, "JWT", false) }
func BenchmarkJWTSize(b *testing.B)    { run(b, "JWT", true) }
func BenchmarkPASETO(b *testing.B)     { run(b, "PASETO", false) }
func BenchmarkPASETOSize(b *testing.B) { run(b, "PASETO", true) }
func BenchmarkHTTPSig(b *testing.B)    { run(b, "HTTPSig", false) }
func BenchmarkJWE(b *testing.B)        { run(b, "JWE", false) }
func BenchmarkJWESize(b *testing.B)    { run(b, "JWE", true) }
