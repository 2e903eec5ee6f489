package study

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
)

// Keys holds one key per kind, made once at start and shared by every
// library, so that each signs and verifies with the same key.
type Keys struct {
	HMAC    []byte // 32 bytes, HS256
	RSA     *rsa.PrivateKey
	P256    *ecdsa.PrivateKey
	Ed25519 ed25519.PrivateKey
	Local   []byte // 32 bytes, PASETO v4.local
}

// NewKeys makes a fresh key set: RSA 2048 bits, P-256, Ed25519, and
// 32-byte secrets.
func NewKeys() (*Keys, error) {
	k := &Keys{HMAC: make([]byte, 32), Local: make([]byte, 32)}
	if _, err := rand.Read(k.HMAC); err != nil {
		return nil, err
	}
	if _, err := rand.Read(k.Local); err != nil {
		return nil, err
	}
	var err error
	if k.RSA, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
		return nil, err
	}
	if k.P256, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader); err != nil {
		return nil, err
	}
	if _, k.Ed25519, err = ed25519.GenerateKey(rand.Reader); err != nil {
		return nil, err
	}
	return k, nil
}

// KeyID is the kid every library writes in a JWT header for alg, so that
// the tokens of all libraries have the same header.
func KeyID(alg string) string { return "loadsrv-" + alg }
