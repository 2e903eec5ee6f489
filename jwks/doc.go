// Package jwks keeps a remote JWK Set fresh and serves its keys to the
// verifiers of signet (jwt.Verify, paseto, httpsig): a *Remote is a
// signet.Keys.
//
//	keys, err := jwks.New(ctx, "https://issuer.example/.well-known/jwks.json", jwks.Options{
//		Algorithms: []signet.Algorithm{signet.RS256, signet.ES256},
//	})
//	if err != nil {
//		return err // a bad configuration, never the key server's state
//	}
//	defer keys.Close()
//	claims, err := jwt.Verify[jwt.Claims](keys, token, jwt.Policy{Issuer: "https://issuer.example"})
//
// The package is written against the failures users of other caches
// report: it fetches only the configured URL, never follows a redirect,
// bounds every fetch in time and size, never blocks a request behind a
// rate limiter, skips keys it cannot use instead of refusing the set, keeps
// serving through an outage for a bounded time and then says so with
// signet.ErrUnavailable (503, not 401), starts without hanging, and leaves
// no goroutine behind after Close.
package jwks
