package sf_test

import (
	"fmt"

	"github.com/signet-go/signet/internal/sf"
)

// Parsing an RFC 9421 Signature-Input field and building one.
func Example() {
	d, err := sf.ParseDictionary(`sig1=("@method" "@path" "content-digest");created=1618884473;keyid="test-key"`)
	if err != nil {
		fmt.Println(err)
		return
	}
	m, _ := d.Get("sig1")
	in := m.(sf.InnerList)
	for _, it := range in.Items {
		fmt.Println("component:", it.Value)
	}
	created, _ := in.Params.Get("created")
	fmt.Println("created:", created)

	var out sf.Dictionary
	out.Set("sha-256", sf.Item{Value: []byte("digest bytes")})
	out.Set("q", sf.Item{Value: sf.Decimal(500), Params: sf.Params{{Key: "alg", Value: sf.Token("ed25519")}}})
	fmt.Println(out)
	// Output:
	// component: @method
	// component: @path
	// component: content-digest
	// created: 1618884473
	// sha-256=:ZGlnZXN0IGJ5dGVz:, q=0.5;alg=ed25519
}
