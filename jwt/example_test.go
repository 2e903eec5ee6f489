package jwt_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwt"
)

type MyClaims struct {
	jwt.Claims
	Role string `json:"role"`
}

func Example() {
	key, err := signet.GenerateKeyWithID(signet.EdDSA, "k1")
	if err != nil {
		panic(err)
	}
	tok, err := jwt.Sign(key, MyClaims{
		Claims: jwt.Claims{
			Issuer:    "https://id.example",
			Subject:   "u1",
			Audience:  jwt.Audience{"api"},
			ExpiresAt: jwt.At(time.Now().Add(time.Hour)),
		},
		Role: "admin",
	})
	if err != nil {
		panic(err)
	}

	// The verifier holds the public key (or a KeySet of them).
	pub, _ := key.Public()
	c, err := jwt.Verify[MyClaims](pub, tok, jwt.Policy{Issuer: "https://id.example", Audience: []string{"api"}})
	fmt.Println(c.Subject, c.Role, err)

	// Another audience is refused, and no claims come back.
	c, err = jwt.Verify[MyClaims](pub, tok, jwt.Policy{Audience: []string{"billing"}})
	fmt.Println(c.Subject == "", errors.Is(err, signet.ErrAudience))
	// Output:
	// u1 admin <nil>
	// true true
}

func ExampleVerify_expired() {
	key, _ := signet.GenerateKey(signet.HS256)
	tok, _ := jwt.Sign(key, jwt.Claims{ExpiresAt: jwt.At(time.Now().Add(-time.Minute))})
	_, err := jwt.Verify[jwt.Claims](key, tok, jwt.Policy{})
	fmt.Println(errors.Is(err, signet.ErrExpired))
	// Output: true
}

func ExampleVerifyBytes() {
	key, _ := signet.GenerateKey(signet.ES256)
	tok, _ := jwt.SignBytes(key, []byte("any payload"), "")
	pub, _ := key.Public()
	payload, h, err := jwt.VerifyBytes(pub, tok, jwt.Policy{})
	fmt.Println(string(payload), h.Algorithm, err)
	// Output: any payload ES256 <nil>
}
