// Package rsabound bounds the integers of an RSA private key before
// crypto/rsa validates it. Validation computes q⁻¹ mod p by exponentiation
// before it checks that p·q = n, so a key with a 2048-bit n and a p of a few
// kilobytes costs seconds, and tens of kilobytes minutes.
package rsabound

// PrimesOK reports whether the big-endian magnitudes (no leading zeros) of
// the private exponent d and the primes p and q fit a modulus n: d no longer
// than n, and each prime at most three quarters of n. Balanced keys have
// primes of half the modulus; the bound leaves room for unbalanced ones in
// use (RFC 9421's test-key-rsa has a 1088-bit and a 960-bit prime) while
// keeping validation as cheap as for a balanced key.
func PrimesOK(n, d, p, q []byte) bool {
	maxPrime := len(n)*3/4 + 1
	return len(p) <= maxPrime && len(q) <= maxPrime && len(d) <= len(n)
}
