package jsonx_test

import (
	"fmt"

	"github.com/signet-go/signet/internal/jsonx"
)

func ExampleMembers() {
	s := `{"sub":"u1","exp":1800000000,"aud":["a","b"]}`
	m := jsonx.NewMembers(s)
	for m.Next(s) {
		switch m.Name(s) {
		case "sub":
			v, _ := m.String(s)
			fmt.Println("sub", v)
		case "exp":
			v, _ := m.Int(s)
			fmt.Println("exp", v)
		default:
			fmt.Println(m.Name(s), m.Value(s))
		}
	}
	fmt.Println(m.Err())

	// A repeated member, even spelled with an escape, is refused.
	fmt.Println(jsonx.Valid(`{"alg":"HS256","al\u0067":"none"}`))
	// Output:
	// sub u1
	// exp 1800000000
	// aud ["a","b"]
	// <nil>
	// duplicate member name
}
