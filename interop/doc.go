// Package interop holds signet's interoperability tests against
// independent implementations run as separate processes. It has no code of
// its own: the tests live in package interop_test.
//
// The first peer is the npm package jose (panva), pinned to an exact version
// in node/package-lock.json and driven by node/jose-peer.mjs, which takes
// one JSON batch of cases on stdin and answers on stdout. jose_test.go signs
// with signet and verifies with jose, signs with jose and verifies with
// signet, for every algorithm in signet.JWSAlgorithms(), and checks that
// forgeries are refused across the boundary. node/jwe-peer.mjs and
// jwe_test.go do the same for JWE: every key-management algorithm (ECDH-ES
// on P-256, P-384 and X25519) with every content encryption, both ways, and
// nested JWTs.
//
// The second peer is the PyPI package pyseto, pinned with its dependencies
// (exact versions and hashes) in python/requirements.txt, installed into the
// virtualenv python/.venv and driven the same way by python/pyseto_peer.py.
// pyseto_test.go exchanges PASETO tokens (v4 and v3, local and public, with
// footers and implicit assertions) and PASERK strings (IDs, plain keys, pie
// wrapping, sealing, password wrapping) in both directions, and checks that
// forgeries are refused on both sides.
//
// The third peer is the npm package http-message-signatures, pinned beside
// jose and driven by node/httpsig-peer.mjs. httpsig_test.go signs requests
// and responses with signet and verifies them with the peer, and the
// reverse, for the six RFC 9421 algorithms, checks that both sides build the
// same signature base, and that tampering is refused across the boundary.
//
// The fourth peer is OpenSSL, through Node's built-in crypto module and
// node/pss-peer.mjs: pss_test.go checks that signet and OpenSSL read the
// same id-RSASSA-PSS key files (testdata/pss) alike, binding each key to
// exactly the PSS algorithms its RFC 4055 parameters allow, and verify each
// other's signatures.
//
// Install the peers with `bash interop/setup.sh`, then run
// `SIGNET_INTEROP=1 go test ./interop/`. Without SIGNET_INTEROP=1 the tests
// skip when a peer is missing; with it, they fail.
package interop
