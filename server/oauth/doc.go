// Package oauth is the HTTP layer of signet's token service: an OAuth 2.0
// authorization server for machine-to-machine access tokens, speaking only
// the standards every OAuth client library already speaks, so that no
// client needs signet's code. It is a thin set of net/http handlers over
// two dependencies it is given: a storage.Store (revocations and used
// client-assertion ids) and a KeySource (the signing key and the keys that
// verify); key rotation, storage back ends, metrics and the command line
// live elsewhere.
//
// # Running it
//
//	clients, err := oauth.LoadClients("clients.json")
//	srv, err := oauth.New(oauth.Config{
//		Issuer:  "https://auth.example.com",
//		Clients: clients,
//		Store:   storage.NewMemory(nil),
//		Keys:    keyManager,  // a KeySource: Signer and Verifier
//		JWKS:    jwksHandler, // the key manager's, served at /.well-known/jwks.json
//		Logger:  slog.New(slog.NewJSONHandler(os.Stderr, nil)),
//	})
//	http.ListenAndServe("127.0.0.1:8080", srv.Handler())
//
// and a client gets a token with
//
//	curl -u svc-a:$SECRET -d grant_type=client_credentials https://auth.example.com/oauth2/token
//
// Replace the clients at run time (on SIGHUP, say) with Server.SetClients.
//
// # Endpoints
//
//	POST /oauth2/token                           RFC 6749 §4.4 client credentials
//	POST /oauth2/introspect                      RFC 7662
//	POST /oauth2/revoke                          RFC 7009
//	GET  /.well-known/oauth-authorization-server RFC 8414 metadata
//	GET  /.well-known/jwks.json                  Config.JWKS, when set
//	GET  /healthz, /readyz                       200 while up; 200 when a key signs and the store answers
//
// The three POST endpoints take application/x-www-form-urlencoded bodies
// only, of at most MaxBodySize bytes (413 beyond), with no parameter
// repeated (RFC 6749 §3.2; resource, which RFC 8707 allows repeated,
// excepted) and none in the URL. Their errors are RFC 6749 §5.2 JSON,
// {"error":…,"error_description":…}: 400 but invalid_client, which is 401
// with a WWW-Authenticate: Basic challenge (RFC 9110 requires one on every
// 401), and temporarily_unavailable, which is 503 with Retry-After when
// the store cannot be reached. Every response to them carries
// Cache-Control: no-store and Pragma: no-cache.
//
// # Clients and their authentication
//
// Clients are registered in a JSON file (see ParseClients): secrets only
// as SHA-256 hashes (the secret must be high-entropy, ≥ 128 bits, since
// the hash is unsalted), compared in constant time; private_key_jwt
// clients as public JWKs (a key without "alg" is bound to the one
// algorithm its type fits: ES256/ES384/ES512 by curve, EdDSA for
// Ed25519; an RSA key must name its alg). A request authenticates with exactly one
// method, the one its client is registered for:
//
//   - client_secret_basic: Authorization: Basic base64(urlencode(id) ":"
//     urlencode(secret)) (RFC 6749 §2.3.1 form-urlencodes both first);
//   - client_secret_post: client_id and client_secret in the body;
//   - private_key_jwt (RFC 7523 §2.2, §3): client_assertion_type
//     urn:ietf:params:oauth:client-assertion-type:jwt-bearer and a
//     client_assertion signed by a key of the client's JWKS (an Ed25519
//     key, registered with "alg" "EdDSA" or "Ed25519", takes assertions
//     whose header names either: openid-client 6 writes RFC 9864's
//     "Ed25519"), with iss = sub = client_id, aud the issuer or the token
//     endpoint URL, exp required and at most MaxAssertionLifetime (an
//     hour, the lifetime client libraries such as Authlib sign by default)
//     ahead, and a jti that is accepted once: it is recorded in the store
//     until exp (store.UseOnce), so a replay is refused by every instance
//     sharing the store for as long as the assertion is valid. With the
//     store down, such a request is 503.
//
// Two methods in one request are invalid_request; anything else that
// fails is invalid_client. Failures are counted per client and source
// (an IPv4 address, an IPv6 /56): each source may fail FailureBurst
// times as a client, then once per FailureRefill; beyond that its
// requests as that client are refused without their credential being
// checked, so a secret cannot be guessed faster from one source. A source
// that has not failed is not refused: whoever knows a client id can no
// longer lock the client out, only its own address (short of a
// distributed attack that fills the limiter's bounded table). Behind a
// load balancer every request comes from the balancer's address, and the
// limit is per client again unless Config.SourceAddr reads the client's
// address as the balancer reports it. The threat model is written out
// beside FailureBurst.
//
// # Access tokens
//
// A token request may name scope (a subset of the client's; default, all
// of them; else invalid_scope) and resource (RFC 8707: each one of the
// client's audiences, else invalid_target; default, the client's first
// audience). The token is an RFC 9068 JWT: header alg, kid (the signer's
// key ID) and typ "at+jwt"; claims iss, exp, aud, sub (= client_id),
// client_id, iat, jti (128 random bits, base64url) and scope, exp = iat +
// the client's access_token_ttl. Resource servers verify it with the
// published JWKS and a policy like
//
//	jwt.Policy{Type: "at+jwt", Issuer: "https://auth.example.com", Audience: []string{"https://api.example.com"}}
//
// With Config.Format FormatPASETO it is a PASETO v4.public token instead,
// with the same claims (exp and iat as RFC 3339 times, aud one string, so
// one resource at most) and the signer's key ID (a PASERK pid) in the
// footer as {"kid":…}; the verifying keys are then published as PASERK
// by the key manager, and discovery advertises no jwks_uri.
//
// # Introspection and revocation
//
// Both need an authenticated client, as the token endpoint does.
// Introspection answers {"active":true, scope, client_id, sub, aud, iss,
// exp, iat, jti, token_type:"Bearer"} for a token of this issuer whose
// signature, typ, iss and exp verify, whose jti is not revoked and whose
// client_id is a client registered now, with every scope and audience of
// the token among those it is registered for now, and {"active":false}
// for anything else: removing a client (SetClients, SIGHUP) ends its
// tokens at introspection at once, and taking a scope or an audience from
// it ends its tokens that carry them. Any registered client may
// introspect any token: the audience is not checked, because the claims
// an active answer reveals are those of the token the caller already
// holds (a JWT's claims are readable by whoever holds it); what
// introspection adds is the signature and revocation check. When the
// store cannot say whether the token is revoked, the answer is 503, never
// active:true; and a token the store says is not revoked is active only
// if it verifies with the keys served once the store answered (a store
// back from an outage without its data has lost the revocations, and the
// key manager then refuses, or serves the store's new ring, until which
// the answer is 503).
//
// Revocation records the jti of a valid token issued to the calling
// client until the token's exp (store.Revoke); introspection then reports
// it inactive, on every instance sharing the store. An invalid, expired
// or foreign-issuer token is answered 200 with nothing done (RFC 7009
// §2.2); a valid token issued to another client is refused with
// invalid_grant (RFC 7009 §2.1: the server verifies that the token was
// issued to the requesting client and refuses the request otherwise; RFC
// 6749 §5.2 names invalid_grant for a grant "issued to another client").
// Revocation acts on introspection: resource servers that verify tokens
// locally from the JWKS see a revoked token valid until its exp, which is
// why access tokens are short-lived.
//
// # Metrics
//
// With Config.Observer set (the metrics package's Metrics, say), each
// request to the token, introspection and revocation endpoints reports
// its outcome once: a token issued (by algorithm and client), a failure by
// RFC 6749 error code (or ReasonRateLimited, ReasonUnavailable,
// ReasonServerError), an introspection or revocation result; and every
// failed store call is reported by operation. The strings are constants
// or a registered client's id, never a token or secret; this package
// imports no metrics library.
//
// # Logs
//
// With Config.Logger set, each request gets one record: request_id (also
// sent as X-Request-Id), method, path, status, duration, the client_id
// when known, and the error code and a reason when it failed. Tokens,
// assertions, secrets, headers, bodies and query strings are never logged.
package oauth
