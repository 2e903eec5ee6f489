package paserk_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/paserk"
)

// A signer stores its private key as k4.secret, gives verifiers the
// k4.public, and names the key in token footers by its k4.pid.
func Example() {
	key, err := signet.GenerateKey(signet.V4Public)
	if err != nil {
		panic(err)
	}
	secret, err := paserk.Encode(key) // store it like a password
	if err != nil {
		panic(err)
	}
	pub, _ := key.Public()
	public, _ := paserk.Encode(pub) // give it to verifiers
	kid, _ := paserk.ID(pub)        // put it in footers

	// Later, or elsewhere: the PASERK says which algorithm the key is for.
	again, err := paserk.Decode(secret)
	if err != nil {
		panic(err)
	}
	verifier, _ := paserk.Decode(public)
	fmt.Println(again.Algorithm(), again.CanSign(), again.Equal(key))
	fmt.Println(verifier.Algorithm(), verifier.CanSign())
	fmt.Println(strings.SplitAfterN(kid, ".", 3)[:2], len(kid))
	// Output:
	// v4.public true true
	// v4.public false
	// [k4. pid.] 51
}

func ExampleDecode() {
	key, err := paserk.Decode("k4.local.cHFyc3R1dnd4eXp7fH1-f4CBgoOEhYaHiImKi4yNjo8")
	if err != nil {
		panic(err)
	}
	id, _ := paserk.ID(key)
	fmt.Println(key.Algorithm(), id)

	// A key ID is not a key; a wrapped key needs its wrapping key.
	_, err = paserk.Decode(id)
	fmt.Println(errors.Is(err, signet.ErrUnsupported))
	// Output:
	// v4.local k4.lid.iVtYQDjr5gEijCSjJC3fQaJm7nCeQSeaty0Jixy8dbsk
	// true
}

// A service keeps its signing key wrapped with a key-encryption key.
func ExampleWrap() {
	kek, _ := signet.GenerateKey(signet.V4Local)
	key, _ := signet.GenerateKey(signet.V4Public)

	wrapped, err := paserk.Wrap(key, kek) // k4.secret-wrap.pie.…
	if err != nil {
		panic(err)
	}
	again, err := paserk.Unwrap(wrapped, kek)
	if err != nil {
		panic(err)
	}
	fmt.Println(wrapped[:19], again.Equal(key))

	// A v3 key cannot unwrap it.
	kek3, _ := signet.GenerateKey(signet.V3Local)
	_, err = paserk.Unwrap(wrapped, kek3)
	fmt.Println(errors.Is(err, signet.ErrAlgorithmMismatch))
	// Output:
	// k4.secret-wrap.pie. true
	// true
}

// A sender seals a content key to a recipient's Ed25519 public key.
func ExampleSeal() {
	recipient, _ := signet.GenerateKey(signet.V4Public) // the recipient's private key
	recipientPublic, _ := recipient.Public()            // what the sender has

	contentKey, _ := signet.GenerateKey(signet.V4Local)
	sealed, err := paserk.Seal(contentKey, recipientPublic)
	if err != nil {
		panic(err)
	}
	opened, err := paserk.Unseal(sealed, recipient)
	if err != nil {
		panic(err)
	}
	fmt.Println(sealed[:8], opened.Equal(contentKey))
	// Output: k4.seal. true
}

// A person keeps a key protected by a password. The zero PasswordParams
// take the defaults (Argon2id 64 MiB, 2 passes for k4); this example uses
// small costs to run fast.
func ExampleWrapPassword() {
	key, _ := signet.GenerateKey(signet.V4Local)
	password := []byte("correct horse battery staple")

	stored, err := paserk.WrapPassword(key, password, paserk.PasswordParams{Memory: 1024, Time: 1})
	if err != nil {
		panic(err)
	}
	again, err := paserk.UnwrapPassword(stored, password)
	if err != nil {
		panic(err)
	}
	fmt.Println(stored[:12], again.Equal(key))

	_, err = paserk.UnwrapPassword(stored, []byte("Tr0ub4dor&3"))
	fmt.Println(errors.Is(err, signet.ErrSignatureInvalid))
	// Output:
	// k4.local-pw. true
	// true
}
