// Package server is the home of signet's services: the OAuth 2.0 token
// service that `signet serve` runs and the verifying proxy of `signet
// guard`. It is a Go module of its own (github.com/signet-go/signet/server),
// so that its dependencies (an embedded database, a Redis client, the
// Prometheus client) never enter the library's go.mod: users of the
// library never download them.
//
// The packages:
//
//   - storage: the one interface the service keeps its state behind (keys,
//     revocations, used client-assertion ids), an in-memory implementation,
//     and the conformance suite (storage/conformance) every implementation
//     passes; storage/boltstore (embedded, --data) and storage/redisstore
//     (shared, --redis) implement it.
//   - oauth: the HTTP endpoints (token, introspection, revocation,
//     discovery, health) over a storage.Store and a KeySource, and the
//     clients file.
//   - keys: the signing keys' rotation (next → active → retired) and the
//     JWKS.
//   - guard: the verifying reverse proxy (Bearer JWT against a remote JWKS
//     or local keys, iss/aud/scope, a bounded cache of verified tokens,
//     the claims forwarded in a header) and its metrics.
//   - metrics: the Prometheus metrics (client_golang) on a registry of
//     their own, fed by the Observer hooks of oauth and keys, which
//     themselves depend on no metrics library.
//
// Its tests (make server-test) need Debian's redis-server, which
// scripts/install-redis.sh (make server-deps) installs; each Redis test
// starts its own on a free loopback port and fails, rather than skips,
// when it cannot.
package server
