package signet_test

import (
	"errors"
	"fmt"

	"github.com/signet-go/signet"
)

func Example() {
	// A key is bound to one algorithm when it is made.
	key, err := signet.GenerateKeyWithID(signet.EdDSA, "2026-11")
	if err != nil {
		panic(err)
	}
	sig, err := key.Sign(nil, []byte("message"))
	if err != nil {
		panic(err)
	}
	// Verifiers get the public half.
	pub, err := key.Public()
	if err != nil {
		panic(err)
	}
	fmt.Println(pub.Algorithm(), pub.KeyID(), pub.Verify([]byte("message"), sig) == nil)

	// Weak keys are refused.
	_, err = signet.NewKey(signet.HS256, []byte("short secret"))
	fmt.Println(errors.Is(err, signet.ErrWeakKey))
	// Output:
	// EdDSA 2026-11 true
	// true
}

func ExampleNewKeySet() {
	a, _ := signet.GenerateKeyWithID(signet.ES256, "a")
	b, _ := signet.GenerateKeyWithID(signet.ES256, "b")
	set, err := signet.NewKeySet(a, b)
	if err != nil {
		panic(err)
	}
	keys, err := set.Select("b", signet.ES256)
	fmt.Println(keys.Len(), keys.At(0).KeyID(), err)
	_, err = set.Select("c", signet.ES256)
	fmt.Println(errors.Is(err, signet.ErrKeyNotFound))
	// Output:
	// 1 b <nil>
	// true
}
