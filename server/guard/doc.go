// Package guard is a verifying reverse proxy: it checks the Bearer token
// (RFC 6750) of every request, a JWT, and forwards the verified ones to
// one upstream service with the claims in a header. It is what `signet
// guard` runs, for services that are not written in Go (those that are
// use package bearer directly).
//
//	keys, err := jwks.New(ctx, "https://issuer.example/.well-known/jwks.json", jwks.Options{
//		Algorithms: []signet.Algorithm{signet.ES256},
//	})
//	…
//	defer keys.Close()
//	g, err := guard.New(guard.Config{
//		Upstream: upstreamURL,          // http://127.0.0.1:9000
//		Keys:     keys,                 // or a *signet.KeySet, a *signet.Key
//		Issuer:   "https://issuer.example",
//		Audience: []string{"https://api.example"},
//		Scopes:   []string{"read"},
//		Logger:   slog.New(slog.NewJSONHandler(os.Stderr, nil)),
//	})
//	…
//	http.ListenAndServe("127.0.0.1:8081", g.Handler()) // with /healthz, /readyz, /metrics
//
// # What a request goes through
//
//  0. A request whose path has a "." or ".." segment (also as %2E, with
//     %2F, '\' or %5C for '/', or ending at ';') is refused, 400
//     invalid_request: the path is joined to the upstream's as it is,
//     and an upstream that resolved /api/../admin would serve a path
//     outside its prefix.
//  1. The token is taken from the one Authorization header (bearer.Token;
//     never from the query or the body) and refused unread above
//     MaxTokenSize (8 KiB).
//  2. It is looked up in the cache of verified tokens; on a miss it is
//     verified with jwt.Verify against Keys (the key decides the
//     algorithm), with iss, aud, exp/nbf/iat (leeway 0 by default) and,
//     with AccessToken, the RFC 9068 profile (typ at+jwt; sub, client_id,
//     iat, jti); then every scope of Scopes must be in its scope claim
//     (names separated by U+0020 only, matched exactly). These checks are
//     package bearer's (Middleware.Verify): a token the guard forwards is
//     one bearer would let through, and the reverse.
//  3. A refused request gets the answer of bearer.ErrorOf: 401 with a
//     WWW-Authenticate challenge (no error code without a token,
//     invalid_token for a bad one), 400 invalid_request for a malformed
//     header, 403 insufficient_scope, and 503 (not 401) when the key
//     source is unavailable (signet.ErrUnavailable: a jwks.Remote whose
//     fetches have failed past its MaxStale).
//  4. A verified request is forwarded by httputil.ReverseProxy with
//     Rewrite (not Director: the hop-by-hop headers, those a client names
//     in Connection included, are removed before the guard sets its own,
//     so no client can make the proxy drop them). Every incoming copy of
//     the claims header is removed (a trailer of that name too), in any
//     case and with '_' for '-'
//     (CGI, WSGI, Rack and PHP read X_Signet_Claims as X-Signet-Claims);
//     then the guard sets it once. X-Forwarded-For/-Host/-Proto and
//     X-Request-Id are set by the guard, the client's dropped in every
//     spelling too (X_Forwarded_For would reach a WSGI upstream as
//     HTTP_X_FORWARDED_FOR, joined after the guard's); Host is the
//     upstream's. 502 when the upstream fails.
//
// # The claims header
//
// X-Signet-Claims (Config.ClaimsHeader) holds the token's payload
// segment: the claims JSON exactly as the issuer signed it,
// base64url-encoded without padding. It is header-safe whatever the claims
// hold (raw JSON may carry bytes no header may), costs no re-encoding, and
// decodes with any base64url decoder:
//
//	claims = json.loads(base64.urlsafe_b64decode(h + "=" * (-len(h) % 4)))
//
// The upstream must trust this header only from the guard: bind it to a
// loopback or private address the guard alone reaches.
//
// The Authorization header is removed from forwarded requests (as
// Envoy's jwt_authn does by default): the upstream gets the claims, and
// a token it never sees cannot leak from its logs. Set ForwardToken for
// an upstream that verifies the token again.
//
// # The cache of verified tokens
//
// A token that passed every check is remembered under its SHA-256 (the
// token itself is never kept), so a client reusing its token pays for the
// signature once: a hit costs a hash and a map lookup (about 0.3 µs, no
// allocation) where an ES256 verification costs about 60 µs. An entry is
// used only from the token's nbf and iat and before its exp (rounded
// toward the stricter side, without leeway), and never longer than
// CacheMaxAge (5 min) after the verification; a clock stepping back
// before nbf or iat sends the token to full verification again. An entry
// never outlives what verifying the token again would say of the key
// source: with a jwks.Remote (a signet.CachedKeys) it is bound to the
// key set it was verified against and serves only while the Remote
// serves that same set, so a key withdrawn at a fetch stops vouching at
// once (a 304 keeps the set, and the entries), and once the Remote is
// unavailable a cached token gets 503 like any other; with another key
// source that has a Ready method, no entry serves while Ready fails
// (and a withdrawn key stops vouching within CacheMaxAge). Refused
// tokens are never cached. The cache holds at most CacheSize entries
// (4096), in 16 shards with their own locks, evicting the least recently
// used.
//
// # Metrics
//
// Metrics are on a registry of their own (Guard.Metrics().Registry()),
// served at /metrics:
//
//	signet_guard_requests_total{result}           forwarded, no_token, invalid_request, invalid_token,
//	                                              insufficient_scope, unavailable, upstream_error, canceled
//	signet_guard_verify_duration_seconds{cache}   time to check a token: cache hit or miss (buckets from 5 µs)
//	signet_guard_upstream_duration_seconds        time the upstream took to answer a forwarded request
//	signet_guard_cache_hits_total, _misses_total, _evictions_total, signet_guard_cache_entries
//	signet_jwks_fetches_total, _fetch_errors_total, _not_modified_total, _kid_misses_total,
//	  _miss_fetches_total, _miss_cooldown_total, _skipped_keys_total, signet_jwks_keys,
//	  signet_jwks_last_success_timestamp_seconds, signet_jwks_ready
//	                                              the key source's Stats (when Keys is a jwks.Remote)
//	go_*, process_*                               the Go runtime and the process
//
// No label holds a token, a claim or anything a client chose.
//
// # Health
//
// /healthz answers 200 while the process runs; /readyz 200 when the key
// source can verify tokens (its Ready method, when it has one), else 503.
// Handler serves them and /metrics beside the proxied paths (which they
// then shadow); AdminHandler serves them alone, for an admin listener.
//
// # Logs
//
// One line per refused or failed request (info; warn for 503 and 502),
// and per forwarded request at debug level, each with the request id
// (X-Request-Id: the client's when short and plain, else the guard's,
// sent to the upstream and back to the client). No line holds a token.
package guard
