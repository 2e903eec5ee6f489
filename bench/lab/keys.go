package lab

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"fmt"
)

// KeySpec is the key material of one algorithm, in the form every library
// can take: a secret, or a private key and its public half.
type KeySpec struct {
	Alg     string        // the algorithm's name in its format: "HS256", "v4.local", "hmac-sha256"
	Secret  []byte        // HMAC and PASETO local keys
	Private crypto.Signer // *rsa.PrivateKey, *ecdsa.PrivateKey, ed25519.PrivateKey
	Public  crypto.PublicKey
	KeyID   string
	// Registered says the application's claims are the registered ones
	// only (the payload classes without data): an adapter may then use its
	// library's registered-claims type, as such an application would.
	Registered bool
}

// Keys holds one key per kind, made once and shared by every library.
type Keys struct {
	HMAC32, HMAC48, HMAC64 []byte
	RSA                    *rsa.PrivateKey // 2048 bits
	P256, P384, P521       *ecdsa.PrivateKey
	Ed25519                ed25519.PrivateKey
	Local32                []byte // PASETO v4/v3/v2 local
}

// NewKeys makes a fresh key set.
func NewKeys() (*Keys, error) {
	k := &Keys{HMAC32: make([]byte, 32), HMAC48: make([]byte, 48), HMAC64: make([]byte, 64), Local32: make([]byte, 32)}
	for _, b := range [][]byte{k.HMAC32, k.HMAC48, k.HMAC64, k.Local32} {
		if _, err := rand.Read(b); err != nil {
			return nil, err
		}
	}
	var err error
	if k.RSA, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
		return nil, err
	}
	for _, c := range []struct {
		dst   **ecdsa.PrivateKey
		curve elliptic.Curve
	}{{&k.P256, elliptic.P256()}, {&k.P384, elliptic.P384()}, {&k.P521, elliptic.P521()}} {
		if *c.dst, err = ecdsa.GenerateKey(c.curve, rand.Reader); err != nil {
			return nil, err
		}
	}
	if _, k.Ed25519, err = ed25519.GenerateKey(rand.Reader); err != nil {
		return nil, err
	}
	return k, nil
}

// Spec returns the key material for alg, a JWS, PASETO or RFC 9421
// algorithm name.
func (k *Keys) Spec(alg string) (KeySpec, error) {
	s := KeySpec{Alg: alg, KeyID: "lab-" + alg}
	switch alg {
	case "HS256":
		s.Secret = k.HMAC32
	case "hmac-sha256":
		// 64 bytes, as RFC 9421's test-shared-secret: yaronf/httpsign
		// refuses shorter HMAC keys.
		s.Secret = k.HMAC64
	case "HS384":
		s.Secret = k.HMAC48
	case "HS512":
		s.Secret = k.HMAC64
	case "v4.local", "v3.local", "v2.local":
		s.Secret = k.Local32
	case "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "rsa-pss-sha512", "rsa-v1_5-sha256":
		s.Private, s.Public = k.RSA, &k.RSA.PublicKey
	case "ES256", "ecdsa-p256-sha256":
		s.Private, s.Public = k.P256, &k.P256.PublicKey
	case "ES384", "ecdsa-p384-sha384", "v3.public":
		s.Private, s.Public = k.P384, &k.P384.PublicKey
	case "ES512":
		s.Private, s.Public = k.P521, &k.P521.PublicKey
	case "EdDSA", "ed25519", "v4.public", "v2.public":
		s.Private, s.Public = k.Ed25519, k.Ed25519.Public()
	default:
		return s, fmt.Errorf("lab: no key for %q", alg)
	}
	return s, nil
}
