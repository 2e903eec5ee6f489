package jwe_test

import (
	"crypto/ecdh"
	"crypto/rand"
	"crypto/rsa"
	"sync"
	"testing"
	"time"

	"github.com/signet-go/signet"
)

var now = time.Unix(1_800_000_000, 0)

func fixed(t time.Time) func() time.Time { return func() time.Time { return t } }

// rsaKey is one RSA-2048 key for all the tests (generating is slow).
var rsaKey = sync.OnceValue(func() *rsa.PrivateKey {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	return k
})

// keyCase is a key-management algorithm with the material for its keys.
type keyCase struct {
	name string
	alg  signet.Algorithm
	mat  func(enc signet.Encryption) any
}

func secretOf(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + 1)
	}
	return b
}

func ecdhKey(c ecdh.Curve) func(signet.Encryption) any {
	k, err := c.GenerateKey(rand.Reader)
	if err != nil {
		panic(err)
	}
	return func(signet.Encryption) any { return k }
}

// keyCases covers every key-management algorithm that encrypts, with each
// curve for ECDH-ES.
func keyCases() []keyCase {
	cs := []keyCase{
		{"dir", signet.Dir, func(e signet.Encryption) any { return secretOf(e.KeySize()) }},
		{"A128KW", signet.A128KW, func(signet.Encryption) any { return secretOf(16) }},
		{"A256KW", signet.A256KW, func(signet.Encryption) any { return secretOf(32) }},
		{"A128GCMKW", signet.A128GCMKW, func(signet.Encryption) any { return secretOf(16) }},
		{"A256GCMKW", signet.A256GCMKW, func(signet.Encryption) any { return secretOf(32) }},
		{"RSA-OAEP-256", signet.RSAOAEP256, func(signet.Encryption) any { return rsaKey() }},
		{"PBES2-HS256+A128KW", signet.PBES2HS256A128KW, func(signet.Encryption) any { return []byte("correct horse battery staple") }},
		{"PBES2-HS512+A256KW", signet.PBES2HS512A256KW, func(signet.Encryption) any { return []byte("correct horse battery staple") }},
	}
	for _, c := range []struct {
		name  string
		curve ecdh.Curve
	}{{"P-256", ecdh.P256()}, {"P-384", ecdh.P384()}, {"X25519", ecdh.X25519()}} {
		for _, alg := range []signet.Algorithm{signet.ECDHES, signet.ECDHESA128KW, signet.ECDHESA256KW} {
			cs = append(cs, keyCase{string(alg) + "/" + c.name, alg, ecdhKey(c.curve)})
		}
	}
	return cs
}

func mustEncKey(t testing.TB, alg signet.Algorithm, enc signet.Encryption, material any) *signet.Key {
	t.Helper()
	k, err := signet.NewEncryptionKey(alg, enc, material)
	if err != nil {
		t.Fatalf("NewEncryptionKey(%s, %s): %v", alg, enc, err)
	}
	return k
}
