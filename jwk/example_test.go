package jwk_test

import (
	"errors"
	"fmt"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
)

// The Ed25519 key of RFC 8037, Appendix A.1, with an "alg".
const rfc8037Key = `{"kty":"OKP","crv":"Ed25519","alg":"EdDSA",
 "d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A",
 "x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}`

// An issuer publishes its public keys; a verifier reads them back as a key
// set bound to the published algorithms.
func Example() {
	current, _ := signet.GenerateKeyWithID(signet.ES256, "2025-06")
	previous, _ := signet.GenerateKeyWithID(signet.EdDSA, "2025-01")

	// Issuer: serve this at /.well-known/jwks.json. Only public halves.
	jwks, err := jwk.MarshalSet(current, previous)
	if err != nil {
		panic(err)
	}

	// Verifier: read the set; tokens are then checked with keys.Select
	// (through the jwt package) by "kid", against each key's algorithm.
	keys, err := jwk.ParseSet(jwks)
	if err != nil {
		panic(err)
	}
	k, _ := keys.Lookup("2025-06")
	fmt.Println(keys.Len(), k.Algorithm(), k.CanSign())
	// Output: 2 ES256 false
}

func ExampleParseKey() {
	key, err := jwk.ParseKey([]byte(rfc8037Key))
	if err != nil {
		panic(err)
	}
	fmt.Println(key.Algorithm(), key.CanSign())

	// Without "alg", the caller must say which algorithm the key is for.
	_, err = jwk.ParseKey([]byte(`{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}`))
	fmt.Println(errors.Is(err, signet.ErrUnsupported))
	// Output:
	// EdDSA true
	// true
}

func ExampleParseKeyFor() {
	// An RSA or EC JWK without "alg", as many tools write them.
	data := []byte(`{"kty":"EC","crv":"P-256",
	 "x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
	 "y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}`)
	key, err := jwk.ParseKeyFor(data, signet.ES256)
	if err != nil {
		panic(err)
	}
	fmt.Println(key.Algorithm(), key.CanSign())

	// The key's curve decides what it can be.
	_, err = jwk.ParseKeyFor(data, signet.ES384)
	fmt.Println(errors.Is(err, signet.ErrAlgorithmMismatch))
	// Output:
	// ES256 false
	// true
}

func ExampleMarshalPublic() {
	key, _ := jwk.ParseKey([]byte(rfc8037Key))
	pub, err := jwk.MarshalPublic(key.WithKeyID("ed-1"))
	if err != nil {
		panic(err)
	}
	fmt.Println(string(pub))
	// Output: {"kty":"OKP","kid":"ed-1","use":"sig","alg":"EdDSA","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}
}

func ExampleThumbprint() {
	key, _ := jwk.ParseKey([]byte(rfc8037Key))
	tp, err := jwk.Thumbprint(key) // RFC 8037, Appendix A.3
	if err != nil {
		panic(err)
	}
	key = key.WithKeyID(tp)
	fmt.Println(key.KeyID())
	// Output: kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k
}
