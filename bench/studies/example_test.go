//go:build studies

package studies_test

import (
	"fmt"

	"github.com/signet-go/signet/bench/lab"
	"github.com/signet-go/signet/bench/studies"
)

// The studies' libraries join the lab's own peers, each after its
// format's.
func ExamplePeers() {
	peers := lab.DefaultPeers().Add(studies.Peers())
	fmt.Println(peers.Names("JWT"))
	fmt.Println(peers.Names("PASETO"))
	fmt.Println(peers.Names("HTTPSig"))
	// Output:
	// [signet golang-jwt jwx go-jose cristalhq kataras mateothegreat]
	// [signet go-paseto o1egl mateothegreat]
	// [signet yaronf remitly common-fate forcebit]
}
