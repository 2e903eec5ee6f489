package lab

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
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
	// PEM is the private key as PKCS #8 PEM, in place of Private and
	// Public: the library loads it with its own loader, as a service reading
	// its key file does (the KeyInit cases).
	PEM []byte
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
	JWE32                  []byte // JWE dir and A256KW
	Password               []byte // JWE PBES2 (24 printable bytes)
}

// NewKeys makes a fresh key set.
func NewKeys() (*Keys, error) {
	k := &Keys{HMAC32: make([]byte, 32), HMAC48: make([]byte, 48), HMAC64: make([]byte, 64), Local32: make([]byte, 32), JWE32: make([]byte, 32)}
	for _, b := range [][]byte{k.HMAC32, k.HMAC48, k.HMAC64, k.Local32, k.JWE32} {
		if _, err := rand.Read(b); err != nil {
			return nil, err
		}
	}
	k.Password = []byte(rand.Text()[:24])
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
// algorithm name, or a JWE row of JWEAlgs.
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
	case "dir+A256GCM", "dir+A128CBC-HS256", "A256KW+A256GCM":
		s.Secret = k.JWE32
	case "PBES2-HS256+A128KW+A128GCM":
		s.Secret = k.Password
	case "ECDH-ES+A256KW+A256GCM":
		s.Private, s.Public = k.P256, &k.P256.PublicKey
	case "RSA-OAEP-256+A256GCM":
		s.Private, s.Public = k.RSA, &k.RSA.PublicKey
	default:
		return s, fmt.Errorf("lab: no key for %q", alg)
	}
	return s, nil
}

// PEMSpec is Spec with an asymmetric key as PKCS #8 PEM only (KeySpec.PEM);
// a secret stays as it is.
func (k *Keys) PEMSpec(alg string) (KeySpec, error) {
	s, err := k.Spec(alg)
	if err != nil || s.Private == nil {
		return s, err
	}
	der, err := x509.MarshalPKCS8PrivateKey(s.Private)
	if err != nil {
		return s, err
	}
	s.PEM = pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
	s.Private, s.Public = nil, nil
	return s, nil
}

// fromPEM returns k with Private and Public loaded from k.PEM by load (the
// library's own loader); k unchanged when it has no PEM.
func fromPEM(k KeySpec, load func([]byte) (crypto.Signer, error)) (KeySpec, error) {
	if k.PEM == nil {
		return k, nil
	}
	priv, err := load(k.PEM)
	if err != nil {
		return k, err
	}
	k.Private, k.Public, k.PEM = priv, priv.Public(), nil
	return k, nil
}

// pkcs8 is the standard library's loader, for libraries without one of
// their own: pem.Decode and x509.ParsePKCS8PrivateKey.
func pkcs8(data []byte) (crypto.Signer, error) {
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, errors.New("no PEM block")
	}
	key, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, err
	}
	s, ok := key.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("%T is not a signer", key)
	}
	return s, nil
}

// jwsKeys returns what a JWS adapter signs and verifies with: the secret
// for both, or the private key (nil when k holds only the public key) and
// the public key; ok is false when k holds neither a secret nor a public
// key.
func jwsKeys(k KeySpec) (sign, verify any, ok bool) {
	switch {
	case k.Secret != nil:
		return k.Secret, k.Secret, true
	case k.Public != nil:
		if k.Private != nil {
			return k.Private, k.Public, true
		}
		return nil, k.Public, true
	}
	return nil, nil, false
}

// jweKeys returns what a JWE adapter encrypts to and decrypts with: the
// secret for both, or the public and the private key; ok is false when k
// holds neither a secret nor a private key.
func jweKeys(k KeySpec) (enc, dec any, ok bool) {
	switch {
	case k.Secret != nil:
		return k.Secret, k.Secret, true
	case k.Private != nil:
		return k.Public, k.Private, true
	}
	return nil, nil, false
}
