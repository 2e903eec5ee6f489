package lab

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"

	"github.com/signet-go/signet"
)

// keyGenCases: key generation, signet's GenerateKey beside the standard
// library's generator for the same key (the floor). The peers take keys made by the standard library; they
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

// keyInitFloor is the floor of the KeyInit cases: what every library's
// initialisation must at least do with the key as a service stores it —
// decode the PEM and parse the PKCS #8 key with crypto/x509 (which checks
// an RSA key and derives an EC or Ed25519 public half), or, for HMAC, copy
// the secret.
func keyInitFloor(k *Keys, alg string) (Case, error) {
	spec, err := k.PEMSpec(alg)
	if err != nil {
		return Case{}, err
	}
	c := Case{Format: "JWT", Alg: alg, Op: "KeyInit", Lib: "floor"}
	if spec.PEM == nil {
		var keep []byte // kept, so that the copy cannot be left out
		secret := spec.Secret
		c.Run = loop(func() { keep = bytes.Clone(secret) })
		_ = keep
		return c, nil
	}
	data := spec.PEM
	c.Run = loop(func() {
		block, _ := pem.Decode(data)
		if block == nil {
			panic("floor: no PEM block")
		}
		if _, err := x509.ParsePKCS8PrivateKey(block.Bytes); err != nil {
			panic(err)
		}
	})
	return c, nil
}
