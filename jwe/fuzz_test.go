package jwe_test

import (
	"crypto/ecdh"
	"errors"
	"strings"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwe"
	"github.com/signet-go/signet/jwt"
)

var sentinels = []error{signet.ErrMalformed, signet.ErrTooLarge, signet.ErrSignatureInvalid, signet.ErrAlgorithmMismatch,
	signet.ErrKeyNotFound, signet.ErrUnsupported, signet.ErrWeakKey, signet.ErrKeyUsage, signet.ErrExpired,
	signet.ErrNotYetValid, signet.ErrIssuedInFuture, signet.ErrMissingClaim, signet.ErrType, signet.ErrAudience}

func isSentinel(err error) bool {
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// FuzzDecrypt feeds arbitrary tokens to Decrypt and DecryptBytes with keys
// of several kinds: never a panic, every error one of the sentinels, and
// nothing decrypts that the keys did not encrypt (the seeds' plaintexts
// are the only ones that can come out).
func FuzzDecrypt(f *testing.F) {
	fixedX, _ := ecdh.X25519().NewPrivateKey(secretOf(32))
	keys := []*signet.Key{
		mustEncKey(f, signet.Dir, signet.A256GCM, secretOf(32)),
		mustEncKey(f, signet.Dir, signet.A128CBCHS256, secretOf(32)),
		mustEncKey(f, signet.A128KW, signet.A128GCM, secretOf(16)),
		mustEncKey(f, signet.A256GCMKW, signet.A192GCM, secretOf(32)),
		mustEncKey(f, signet.ECDHESA128KW, signet.A256GCM, fixedX),
		mustEncKey(f, signet.PBES2HS256A128KW, signet.A128GCM, []byte("correct horse battery staple")),
	}
	set, err := signet.NewKeySet(keys...)
	if err != nil {
		f.Fatal(err)
	}
	opts := jwe.Options{Now: fixed(now), PBES2Count: jwe.MinPBES2Count}
	for _, k := range keys {
		tok, err := jwe.Encrypt(k, jwt.Claims{Subject: "fuzz"}, opts)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(tok)
		f.Add(tok[:len(tok)/2])
		b, _ := jwe.EncryptBytes(k, []byte("fuzz"), "text/plain", opts)
		f.Add(b)
	}
	f.Add("....")
	f.Add("eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0....")
	f.Add(forge(`{"alg":"PBES2-HS256+A128KW","enc":"A128GCM","p2s":"AAAAAAAAAAA","p2c":1000000000}`, make([]byte, 24), 12, 5, 16))
	f.Add(forge(`{"alg":"ECDH-ES+A128KW","enc":"A256GCM","epk":{"kty":"OKP","crv":"X25519","x":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}}`, make([]byte, 40), 12, 5, 16))
	f.Add(forge(`{"alg":"dir","enc":"A256GCM","zip":"DEF","crit":["x"]}`, nil, 12, 5, 16))
	p := jwe.Policy{Now: fixed(now)}
	f.Fuzz(func(t *testing.T, tok string) {
		if c, err := jwe.Decrypt[jwt.Claims](set, tok, p); err != nil {
			if !isSentinel(err) {
				t.Fatalf("error wraps no sentinel: %v", err)
			}
		} else if c.Subject != "fuzz" {
			t.Fatalf("decrypted claims no key encrypted: %+v", c)
		}
		pt, _, err := jwe.DecryptBytes(set, tok, jwe.Policy{MaxSize: 4096})
		if err != nil {
			if !isSentinel(err) {
				t.Fatalf("error wraps no sentinel: %v", err)
			}
			return
		}
		if s := string(pt); s != "fuzz" && !strings.Contains(s, `"sub":"fuzz"`) {
			t.Fatalf("decrypted a plaintext no key encrypted: %q", pt)
		}
	})
}

// FuzzNewEncryptionKey: arbitrary secrets for every algorithm and
// encryption: a key or a sentinel error, never a panic.
func FuzzNewEncryptionKey(f *testing.F) {
	f.Add(uint8(0), uint8(0), secretOf(16))
	f.Add(uint8(3), uint8(5), secretOf(32))
	f.Add(uint8(10), uint8(2), []byte("a password of some length"))
	algs, encs := signet.JWEAlgorithms(), signet.Encryptions()
	f.Fuzz(func(t *testing.T, a, e uint8, secret []byte) {
		alg, enc := algs[int(a)%len(algs)], encs[int(e)%len(encs)]
		k, err := signet.NewEncryptionKey(alg, enc, secret)
		if err != nil {
			if !isSentinel(err) {
				t.Fatalf("%v", err)
			}
			return
		}
		tok, err := jwe.EncryptBytes(k, []byte("x"), "", jwe.Options{PBES2Count: jwe.MinPBES2Count})
		if err != nil {
			t.Fatal(err)
		}
		if pt, _, err := jwe.DecryptBytes(k, tok, jwe.Policy{}); err != nil || string(pt) != "x" {
			t.Fatalf("%q %v", pt, err)
		}
	})
}
