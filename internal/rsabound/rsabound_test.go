package rsabound_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/signet-go/signet/internal/rsabound"
)

func TestPrimesOK(t *testing.T) {
	n := bytes.Repeat([]byte{0xff}, 256) // a 2048-bit modulus
	for _, c := range []struct {
		p, q, d int
		ok      bool
	}{
		{128, 128, 256, true},  // balanced
		{136, 120, 256, true},  // RFC 9421 test-key-rsa: 1088 and 960 bits
		{193, 64, 256, true},   // at the bound
		{194, 63, 256, false},  // a prime over three quarters of n
		{128, 128, 257, false}, // d longer than n
		{4096, 1, 256, false},  // the costly kind
	} {
		got := rsabound.PrimesOK(n, make([]byte, c.d), make([]byte, c.p), make([]byte, c.q))
		if got != c.ok {
			t.Errorf("p %d, q %d, d %d bytes: %v", c.p, c.q, c.d, got)
		}
	}
}

func ExamplePrimesOK() {
	n := make([]byte, 256)
	fmt.Println(rsabound.PrimesOK(n, make([]byte, 256), make([]byte, 128), make([]byte, 128)))
	fmt.Println(rsabound.PrimesOK(n, make([]byte, 256), make([]byte, 2048), make([]byte, 8)))
	// Output:
	// true
	// false
}
