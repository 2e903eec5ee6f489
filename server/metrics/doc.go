// Package metrics is the token service's Prometheus instrumentation, on
// github.com/prometheus/client_golang: every metric is registered on a
// registry the Metrics owns (no global registry), named in base units
// with _total and _seconds suffixes.
//
// # Mounting it
//
//	m := metrics.New()
//	km, err := keys.New(store, keys.Config{KEK: kek, Observer: m})
//	…
//	if err := m.WatchKeys(km); err != nil { … }
//	srv, err := oauth.New(oauth.Config{…, Observer: m})
//	…
//	mux := http.NewServeMux()
//	mux.Handle(metrics.Path, m.Handler())       // GET /metrics
//	mux.Handle("/", m.Instrument(srv.Handler())) // latency of every endpoint
//
// The oauth and keys packages know nothing of Prometheus: each defines an
// Observer interface (oauth.Observer, keys.Observer) that Metrics
// implements, and calls it where a token is issued or refused, a token
// introspected or revoked, the store fails or a key rotates.
//
// # The metrics
//
//	signet_tokens_issued_total{alg,client_id}      tokens issued (alg: ES256, EdDSA, v4.public, …)
//	signet_token_requests_failed_total{reason}     token requests refused: the RFC 6749 error code
//	                                               (invalid_request, invalid_client, invalid_scope,
//	                                               invalid_target, unsupported_grant_type) or
//	                                               rate_limited, unavailable, server_error
//	signet_introspections_total{result}            active, inactive, unavailable, or the error code
//	                                               of a refused request
//	signet_revocations_total{result}               revoked, ignored (not a valid token: nothing done),
//	                                               invalid_grant (another client's), unavailable, or
//	                                               the error code of a refused request
//	signet_store_errors_total{op}                  failed store calls: use_once, revoked, revoke, ping
//	                                               (oauth), keys, swap_keys (keys)
//	signet_key_rotations_total                     rotations this instance stored
//	signet_key_age_seconds{state}                  seconds the key has been in its state: the active
//	                                               key since it started signing, the next key since
//	                                               it was published, the oldest retired key since
//	                                               it retired (absent when there is none)
//	signet_keys_published                          keys in the JWKS (0 for HMAC keys, never published)
//	http_request_duration_seconds{handler,method,code}
//	                                               latency of each request Instrument wraps
//	go_*, process_*                                the Go runtime and the process
//
// Every label value is bounded: reasons, results and operations are
// constants of the oauth and keys packages, client_id only ever a
// registered client's, handler one of the service's paths (else "other"),
// method one of RFC 9110's (else "other"). No label ever holds a token, an
// assertion or a secret. The reason, result and op series are created at
// zero, so rate() sees their first event.
//
// The latency histogram's buckets (Buckets) reach down to 100 µs, since
// issuing or introspecting a token takes well under a millisecond, where
// Prometheus's default buckets start at 5 ms.
package metrics
