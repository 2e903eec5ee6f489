package lab

import (
	"context"
	"errors"
	"time"
)

// The remote key sets section: each library's cache of a remote JWK Set
// (a JWKS URL), driven against a hostile JWKS server on 127.0.0.1 that
// counts its fetches (remote_server.go), in the scenarios of
// remote_scenarios.go, judged by signet's defaults (docs/design.md, 7b).

// RemoteLib is one library's remote JWKS cache under test.
type RemoteLib interface {
	// Name is the library's short name: "signet", "jwx", "keyfunc",
	// "go-oidc".
	Name() string
	// Defaults describes, in one line, the defaults the adapter runs with
	// (refresh interval, kid-miss policy, fetch timeout, body cap).
	Defaults() string
	// StaleBound reports whether the library can bound how long it serves
	// a stale set during an outage (RemoteConfig.MaxStale).
	StaleBound() bool
	// Open starts the library's cache of the JWK Set at url, as an
	// application would: its documented constructor and defaults, tokens
	// verified for cfg.Alg, cfg.Issuer and cfg.Audience with exp required.
	Open(ctx context.Context, url string, cfg RemoteConfig) (RemoteSet, error)
}

// RemoteConfig is what an application tells its verifier.
type RemoteConfig struct {
	Alg      string // the JWS algorithm tokens are signed with: "ES256"
	Issuer   string // the iss every token must carry
	Audience string // the aud every token must carry
	// MaxStale, when not 0, bounds how long a stale set serves during an
	// outage (only for a library whose StaleBound is true).
	MaxStale time.Duration
}

// RemoteSet verifies tokens with the keys of a remote JWK Set.
type RemoteSet interface {
	// Verify checks token's signature with the set's key named by its kid,
	// its algorithm, iss, aud and exp.
	Verify(ctx context.Context, token string) error
	// Refresh fetches the set now, where the library lets a caller ask;
	// ErrNoRefresh where it does not.
	Refresh(ctx context.Context) error
	// Close stops the library's background work.
	Close() error
}

// remoteSkipped is implemented by a set that counts the keys it skipped.
type remoteSkipped interface {
	SkippedKeys() uint64
}

// remoteUnavailable is implemented by a set that can tell a key source
// that cannot answer (an outage past its bound) from an invalid token.
type remoteUnavailable interface {
	Unavailable(err error) bool
}

// ErrNoRefresh is Refresh's answer for a library without a public refresh.
var ErrNoRefresh = errors.New("lab: the library has no refresh a caller can ask for")

// RemoteLibs returns the remote JWKS caches of the lab, signet first.
func RemoteLibs() []RemoteLib {
	return []RemoteLib{signetRemote{}, jwxRemote{}, keyfuncRemote{}, oidcRemote{}}
}
