package jwe_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwe"
	"github.com/signet-go/signet/jwt"
)

type AppClaims struct {
	jwt.Claims
	Role string `json:"role"`
}

// The reader makes a key pair and gives its public half to the issuers;
// they encrypt claims only the reader can read.
func Example() {
	key, err := signet.GenerateEncryptionKeyWithID(signet.ECDHESA256KW, signet.A256GCM, "reader-1")
	if err != nil {
		panic(err)
	}
	pub, _ := key.Public()

	// Issuer side: claims as for jwt.Sign.
	tok, err := jwe.Encrypt(pub, AppClaims{
		Claims: jwt.Claims{Issuer: "https://id.example", Subject: "u1", Audience: jwt.Audience{"api"}},
		Role:   "admin",
	}, jwe.Options{Lifetime: 15 * time.Minute})
	if err != nil {
		panic(err)
	}

	// Reader side: the same Policy as jwt.Verify.
	c, err := jwe.Decrypt[AppClaims](key, tok, jwe.Policy{Issuer: "https://id.example", Audience: []string{"api"}})
	fmt.Println(c.Subject, c.Role, err)

	// The public key encrypts but cannot decrypt.
	_, err = jwe.Decrypt[AppClaims](pub, tok, jwe.Policy{Audience: []string{"api"}})
	fmt.Println(errors.Is(err, signet.ErrKeyUsage))
	// Output:
	// u1 admin <nil>
	// true
}

// A nested JWT: signed by the issuer's key, then encrypted to the reader.
func ExampleEncryptNested() {
	signKey, _ := signet.GenerateKey(signet.EdDSA)
	encKey, _ := signet.GenerateEncryptionKey(signet.Dir, signet.A256GCM) // shared by issuer and reader

	tok, err := jwe.EncryptNested(encKey, signKey, jwt.Claims{Subject: "u1"})
	if err != nil {
		panic(err)
	}
	verifyKey, _ := signKey.Public()
	c, err := jwe.DecryptNested[jwt.Claims](encKey, verifyKey, tok, jwe.Policy{})
	fmt.Println(c.Subject, err)
	// Output: u1 <nil>
}
