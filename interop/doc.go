// Package interop holds signet's interoperability tests against
// independent implementations run as separate processes. It has no code of
// its own: the tests live in package interop_test.
//
// The first peer is the npm package jose (panva), pinned to an exact version
// in node/package-lock.json and driven by node/jose-peer.mjs, which takes
// one JSON batch of cases on stdin and answers on stdout. jose_test.go signs
// with signet and verifies with jose, signs with jose and verifies with
// signet, for every algorithm in signet.JWSAlgorithms(), and checks that
// forgeries are refused across the boundary.
//
// Install the peer with `bash interop/setup.sh`, then run
// `SIGNET_INTEROP=1 go test ./interop/`. Without SIGNET_INTEROP=1 the tests
// skip when node or the installed peer is missing; with it, they fail.
package interop
