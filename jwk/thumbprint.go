package jwk

import (
	"crypto/sha256"
	"strconv"

	"github.com/signet-go/signet"
)

// Thumbprint returns the RFC 7638 JWK thumbprint of k: the unpadded
// base64url SHA-256 digest of k's required public members, in
// lexicographic order and without whitespace ("e", "kty", "n" for RSA;
// "crv", "kty", "x", "y" for EC; "crv", "kty", "x" for OKP; "k", "kty" for
// HMAC). Key ID, algorithm and private members do not enter it, so a
// private key and its public half have the same thumbprint.
//
// It makes a stable, collision-resistant key ID: k.WithKeyID(tp). An HMAC
// key's thumbprint is a hash of its secret; do not publish it for a short
// or guessable secret.
func Thumbprint(k *signet.Key) (string, error) {
	jk, err := toJSON(k, k != nil && k.Symmetric())
	if err != nil {
		return "", err
	}
	// The values are base64url or fixed names: nothing needs escaping, so
	// the canonical JSON is written directly.
	b := make([]byte, 0, 64+len(jk.N)+len(jk.K)+len(jk.X)+len(jk.Y))
	member := func(name, value string, last bool) {
		b = strconv.AppendQuote(append(strconv.AppendQuote(b, name), ':'), value)
		if !last {
			b = append(b, ',')
		}
	}
	b = append(b, '{')
	switch jk.Kty {
	case "oct":
		member("k", jk.K, false)
		member("kty", jk.Kty, true)
	case "RSA":
		member("e", jk.E, false)
		member("kty", jk.Kty, false)
		member("n", jk.N, true)
	case "EC":
		member("crv", jk.Crv, false)
		member("kty", jk.Kty, false)
		member("x", jk.X, false)
		member("y", jk.Y, true)
	default: // OKP
		member("crv", jk.Crv, false)
		member("kty", jk.Kty, false)
		member("x", jk.X, true)
	}
	b = append(b, '}')
	sum := sha256.Sum256(b)
	return encodeB64(sum[:]), nil
}
