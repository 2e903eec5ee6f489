package paseto_test

import (
	"errors"
	"fmt"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/paseto"
)

type MyClaims struct {
	paseto.Claims
	Role string `json:"role"`
}

func Example() {
	key, err := signet.GenerateKey(signet.V4Local)
	if err != nil {
		panic(err)
	}
	// exp defaults to an hour from now, iat to now.
	tok, err := paseto.Encrypt(key, MyClaims{Claims: paseto.Claims{Subject: "u1", Audience: "api"}, Role: "admin"},
		paseto.Options{Implicit: []byte("tenant-42")})
	if err != nil {
		panic(err)
	}
	c, err := paseto.Decrypt[MyClaims](key, tok, paseto.Policy{Audience: []string{"api"}, Implicit: []byte("tenant-42")})
	fmt.Println(c.Subject, c.Role, err)

	// Another tenant's assertion does not authenticate.
	_, err = paseto.Decrypt[MyClaims](key, tok, paseto.Policy{Implicit: []byte("tenant-7")})
	fmt.Println(errors.Is(err, signet.ErrSignatureInvalid))
	// Output:
	// u1 admin <nil>
	// true
}

func ExampleSign() {
	sk, _ := signet.GenerateKey(signet.V4Public)
	tok, _ := paseto.Sign(sk, paseto.Claims{Issuer: "https://id.example"}, paseto.Options{Footer: []byte(`{"kid":"2026-11"}`)})
	pk, _ := sk.Public()
	c, err := paseto.Verify[paseto.Claims](pk, tok, paseto.Policy{Issuer: "https://id.example"})
	fmt.Println(c.Issuer, err)
	// A public key cannot open local tokens, nor a v3 key v4 tokens.
	v3, _ := signet.GenerateKey(signet.V3Public)
	v3pub, _ := v3.Public()
	_, err = paseto.Verify[paseto.Claims](v3pub, tok, paseto.Policy{})
	fmt.Println(errors.Is(err, signet.ErrAlgorithmMismatch))
	// Output:
	// https://id.example <nil>
	// true
}
