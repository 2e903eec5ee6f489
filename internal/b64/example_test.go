package b64_test

import (
	"fmt"

	"github.com/signet-go/signet/internal/b64"
)

func Example() {
	s := b64.EncodeToString([]byte(`{"alg":"EdDSA"}`))
	fmt.Println(s)
	b, err := b64.DecodeString(s)
	fmt.Println(string(b), err)
	// Padding, line breaks and non-canonical trailing bits are refused.
	for _, bad := range []string{s + "=", s[:4] + "\n" + s[4:], "AB"} {
		_, err := b64.DecodeString(bad)
		fmt.Println(err)
	}
	// Output:
	// eyJhbGciOiJFZERTQSJ9
	// {"alg":"EdDSA"} <nil>
	// not strict base64url
	// not strict base64url
	// not strict base64url
}
