package jwe_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwe"
	"github.com/signet-go/signet/jwt"
)

type myClaims struct {
	jwt.Claims
	Role string `json:"role"`
}

// Every key-management algorithm with every content encryption: claims,
// raw bytes and a nested JWT round-trip; the public half encrypts where
// there is one; the header names the key's alg and enc.
func TestRoundTripEveryPair(t *testing.T) {
	opts := jwe.Options{Now: fixed(now), PBES2Count: jwe.MinPBES2Count}
	p := jwe.Policy{Now: fixed(now), Audience: []string{"api"}}
	signKey, err := signet.GenerateKey(signet.EdDSA)
	if err != nil {
		t.Fatal(err)
	}
	for _, kc := range keyCases() {
		for _, enc := range signet.Encryptions() {
			t.Run(kc.name+"/"+string(enc), func(t *testing.T) {
				k := mustEncKey(t, kc.alg, enc, kc.mat(enc)).WithKeyID("k1")
				if k.Algorithm() != kc.alg || k.Encryption() != enc {
					t.Fatalf("key is %s/%s", k.Algorithm(), k.Encryption())
				}
				encKey := k
				if !k.Symmetric() {
					if encKey, err = k.Public(); err != nil {
						t.Fatal(err)
					}
					if encKey.Encryption() != enc || encKey.CanSign() {
						t.Fatalf("public half: enc %s, CanSign %v", encKey.Encryption(), encKey.CanSign())
					}
				}
				c := myClaims{Claims: jwt.Claims{Subject: "u1", Audience: jwt.Audience{"api"}}, Role: "admin"}
				tok, err := jwe.Encrypt(encKey, c, opts)
				if err != nil {
					t.Fatal(err)
				}
				if n := strings.Count(tok, "."); n != 4 {
					t.Fatalf("%d dots", n)
				}
				got, err := jwe.Decrypt[myClaims](k, tok, p)
				if err != nil {
					t.Fatal(err)
				}
				if got.Subject != "u1" || got.Role != "admin" || got.ExpiresAt != jwt.At(now.Add(jwt.DefaultLifetime)) {
					t.Fatalf("claims %+v", got)
				}
				// A public key cannot decrypt.
				if !k.Symmetric() {
					if _, err := jwe.Decrypt[myClaims](encKey, tok, p); !errors.Is(err, signet.ErrKeyUsage) {
						t.Fatalf("public key decrypts: %v", err)
					}
				}
				// Raw bytes, with cty, and the header reported.
				msg := []byte("The true sign of intelligence is not knowledge but imagination.")
				tok, err = jwe.EncryptBytes(encKey, msg, "text/plain", opts)
				if err != nil {
					t.Fatal(err)
				}
				pt, h, err := jwe.DecryptBytes(k, tok, jwe.Policy{})
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(pt, msg) || h != (jwe.Header{Algorithm: kc.alg, Encryption: enc, KeyID: "k1", ContentType: "text/plain"}) {
					t.Fatalf("got %q, header %+v", pt, h)
				}
				// Empty plaintext.
				tok, err = jwe.EncryptBytes(encKey, nil, "", opts)
				if err != nil {
					t.Fatal(err)
				}
				if pt, _, err = jwe.DecryptBytes(k, tok, jwe.Policy{}); err != nil || len(pt) != 0 {
					t.Fatalf("empty plaintext: %q, %v", pt, err)
				}
				// Nested: signed, then encrypted.
				tok, err = jwe.EncryptNested(encKey, signKey, c, opts)
				if err != nil {
					t.Fatal(err)
				}
				pub, _ := signKey.Public()
				got, err = jwe.DecryptNested[myClaims](k, pub, tok, p)
				if err != nil || got.Role != "admin" {
					t.Fatalf("nested: %+v, %v", got, err)
				}
				if _, err := jwe.Decrypt[myClaims](k, tok, p); !errors.Is(err, signet.ErrUnsupported) {
					t.Fatalf("Decrypt of a nested JWT: %v, want ErrUnsupported", err)
				}
			})
		}
	}
}

// The claims are checked as jwt.Verify checks them.
func TestDecryptPolicy(t *testing.T) {
	k, err := signet.GenerateEncryptionKey(signet.Dir, signet.A256GCM)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := jwe.Encrypt(k, jwt.Claims{Subject: "u1", Audience: jwt.Audience{"api"}}, jwe.Options{Now: fixed(now), Lifetime: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		p    jwe.Policy
		want error
	}{
		{jwe.Policy{Now: fixed(now.Add(2 * time.Minute)), Audience: []string{"api"}}, signet.ErrExpired},
		{jwe.Policy{Now: fixed(now)}, signet.ErrAudience},
		{jwe.Policy{Now: fixed(now), Audience: []string{"other"}}, signet.ErrAudience},
		{jwe.Policy{Now: fixed(now), Audience: []string{"api"}, Issuer: "x"}, signet.ErrIssuer},
		{jwe.Policy{Now: fixed(now), Audience: []string{"api"}, Type: "at+jwt"}, signet.ErrType},
		{jwe.Policy{Now: fixed(now), Audience: []string{"api"}, MaxSize: 10}, signet.ErrTooLarge},
		{jwe.Policy{Now: fixed(now), Audience: []string{"api"}}, nil},
	} {
		_, err := jwe.Decrypt[jwt.Claims](k, tok, c.p)
		if !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
			t.Errorf("%+v: %v, want %v", c.p, err, c.want)
		}
	}
	// No exp: refused unless the policy says so.
	tok, _ = jwe.Encrypt(k, jwt.Claims{Subject: "u1"}, jwe.Options{Now: fixed(now), NoExpiry: true})
	if _, err := jwe.Decrypt[jwt.Claims](k, tok, jwe.Policy{Now: fixed(now)}); !errors.Is(err, signet.ErrMissingClaim) {
		t.Fatalf("no exp: %v", err)
	}
	if _, err := jwe.Decrypt[jwt.Claims](k, tok, jwe.Policy{Now: fixed(now), NoExpiry: true}); err != nil {
		t.Fatal(err)
	}
}
