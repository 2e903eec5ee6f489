package itoa_test

import (
	"fmt"

	"github.com/signet-go/signet/internal/itoa"
)

func Example() {
	b := []byte(`{"exp":`)
	b = itoa.Append(b, 1795000000)
	b = append(b, '}')
	fmt.Println(string(b))
	fmt.Println(string(itoa.Append(nil, -42)))
	// Output:
	// {"exp":1795000000}
	// -42
}
