// Package jwks keeps an issuer's JWK Set fresh from its URL and serves the
// keys to signet's verifiers: a *Remote is a signet.Keys, for jwt.Verify
// like a *signet.KeySet.
//
// # Use
//
// Make one Remote per issuer when the service starts, share it, and close
// it on shutdown:
//
//	keys, err := jwks.New(ctx, "https://issuer.example/.well-known/jwks.json", jwks.Options{
//		Algorithms: []signet.Algorithm{signet.RS256},
//	})
//	if err != nil {
//		return err // a bad configuration; never the key server's state
//	}
//	defer keys.Close()
//
//	claims, err := jwt.Verify[jwt.Claims](keys, token, jwt.Policy{Issuer: "https://issuer.example"})
//	switch {
//	case errors.Is(err, signet.ErrUnavailable):
//		// 503: the keys cannot be had now; the token was not judged.
//	case err != nil:
//		// 401: the token is invalid (signet.ErrKeyNotFound for an unknown kid).
//	}
//
// Algorithms is the one required option: the algorithms the issuer's
// tokens may use. Keys are bound to them (a key whose "alg" is not among
// them is not used), and a JWK without "alg" is bound to the one of them
// its key type fits: an issuer such as Microsoft Entra that publishes RSA
// keys without "alg" works with Algorithms RS256, and its keys are left
// out if both RS256 and PS256 are allowed, since the token would then pick
// how the key is used. HMAC algorithms are refused: a shared secret never
// comes from a published set.
//
// New waits for the first fetch for at most Options.StartTimeout (10 s)
// and never fails because the key server is down: Ready reports whether
// keys are held (use it for a readiness probe), and the Remote keeps
// retrying in the background, 1 s doubling to 60 s, ±20 %. Any failed
// fetch is retried so, the fetch of an unknown kid and Refresh included.
//
// # Fetching
//
// The Remote fetches only the URL it was given, never one named by a
// token. It requires https, except to a loopback host (http://127.0.0.1,
// http://localhost) or with Options.AllowHTTP. It never follows a redirect,
// even with a caller's http.Client (a copy is used), and accepts only 200,
// or 304 to a request that sent the last ETag in If-None-Match. Each fetch
// is bounded by Options.FetchTimeout (5 s), body included, and the body by
// Options.MaxSize (1 MiB, after any decompression); a larger one fails the
// fetch. Requests send Accept: application/jwk-set+json, application/json
// and a signet User-Agent; fetches caused by an unknown kid or by Refresh
// send Cache-Control: no-cache, so a cache on the way does not answer with
// the set the Remote already has.
//
// The set is read by jwk.ReadSet: a key the Remote cannot use (an unknown
// "kty" or "crv", "use" other than "sig", an encryption or "oct" key, a
// weak or malformed key, a key without "alg" that fits no or several
// allowed algorithms, a repeated "kid") is skipped and counted in
// Stats.SkippedKeys, and the others serve. A set with no usable key, or a
// document that is not a JWK Set, fails the fetch.
//
// # Freshness
//
// The set is refetched in the background before it expires: the interval
// is the response's Cache-Control max-age (less its Age), else Expires,
// clamped to [Options.MinRefresh, Options.MaxRefresh] (5 min, 24 h), and
// Options.DefaultRefresh (15 min) when the response gives none or says
// no-cache or no-store. Up to 10 % is taken off at random, so that a fleet
// of services does not fetch in step, and the fetch comes at 80 % of what
// is left.
//
// # Unknown key IDs
//
// An issuer may start signing with a new key before the set held shows it,
// so a token naming an unknown kid may cause a refetch — but a token cannot
// choose how often: an attacker spraying made-up kids would otherwise turn
// every service into a load generator against the issuer. The rules:
//
//   - only a lookup with a kid of at most Options.MaxKeyID bytes (256) and
//     an alg among Options.Algorithms may trigger a fetch;
//   - at most one such fetch starts per Options.Cooldown (30 s);
//   - the first miss after the cooldown starts it and waits for it (at
//     most FetchTimeout), and misses arriving while it runs share it
//     rather than start their own; then the set is searched again, so a
//     freshly rotated key is found on its first use;
//   - every other miss, in particular every miss while the cooldown runs,
//     gets signet.ErrKeyNotFound at once: no request ever queues behind a
//     rate limiter;
//   - lookups of keys held never wait for anything: a hit is one atomic
//     load and a signet.KeySet lookup, without allocating.
//
// Under a flood of random kids the key server thus sees at most one fetch
// per cooldown, plus the routine refreshes. The cooldown cannot tell a
// forged token from a genuine one (Select sees only kid and alg; the
// claims are checked after the signature), which is why it is a rate and
// not a judgement.
//
// # Outages
//
// When fetches fail, the set held keeps serving for Options.MaxStale (24 h)
// from the first failure; after that, Select and Ready return errors
// wrapping signet.ErrUnavailable until a fetch succeeds, so that a service
// answers 503 rather than trusting keys that may have been withdrawn, and
// rather than 401 for tokens it cannot judge. A negative MaxStale serves
// the last set for ever. Select also returns ErrUnavailable before the
// first successful fetch.
//
// # Metrics and shutdown
//
// Stats returns counters to export (fetches, failures, 304s, kid misses
// and what became of them, skipped keys) and the current state (keys held,
// last success, readiness). Close stops the background refresh, cancels a
// fetch in flight and returns when no goroutine of the Remote is left; the
// set held still serves afterwards, without refetching.
//
// # Testing
//
// Options.Now injects the clock that refresh times, the cooldown and
// MaxStale are computed with (waiting itself uses real timers), MinRefresh
// may be lowered, and a key server under httptest on 127.0.0.1 needs no
// AllowHTTP.
package jwks
