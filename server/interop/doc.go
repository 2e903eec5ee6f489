// Package interop tests the token service against OAuth and JWT clients
// that no one on this project wrote. It has no code of its own, only tests:
// each starts a real service in-process on 127.0.0.1 (package oauth over a
// keys.Manager signing with ES256, EdDSA, RS256 or PS256, or issuing
// PASETO v4.public tokens, and storage.Memory), with registered clients
// for each client authentication method, and
// lets the peers talk to it over HTTP as any deployment's clients would:
//
//   - Go: golang.org/x/oauth2/clientcredentials fetches tokens with
//     AuthStyleInHeader (client_secret_basic), AuthStyleInParams
//     (client_secret_post), its default AuthStyleAutoDetect, and with a
//     private_key_jwt assertion passed as EndpointParams; its errors are
//     read as *oauth2.RetrieveError; its http.Client calls a resource
//     server that verifies the bearer token from the published JWKS.
//   - Python: Authlib's requests OAuth2Session fetches tokens with
//     client_secret_basic, client_secret_post and private_key_jwt
//     (Authlib's PrivateKeyJWT, signing with the client's ES256 and EdDSA
//     keys, which the test writes as PKCS #8 PEM files), introspects and
//     revokes them; PyJWT's PyJWKClient verifies every token from the JWKS
//     found by RFC 8414 discovery (python/oauth_peer.py). Every token the
//     Python side got is verified again by signet from the JWKS.
//   - Node.js: openid-client 6 (over oauth4webapi) discovers the service by
//     RFC 8414 (its "oauth2" discovery algorithm, with
//     allowInsecureRequests for the test's plain HTTP on 127.0.0.1),
//     fetches tokens by clientCredentialsGrant with ClientSecretBasic,
//     ClientSecretPost and PrivateKeyJwt (ES256 and EdDSA client keys),
//     calls tokenIntrospection and tokenRevocation; jose's
//     createRemoteJWKSet and jwtVerify verify every token from the
//     discovered JWKS (typ at+jwt, iss, aud), with the service signing by
//     ES256, EdDSA, RS256 and PS256; with FormatPASETO, openid-client
//     alone (jose has no PASETO) (node/oauth-peer.mjs). Every JWT the Node
//     side got is verified again by signet from the JWKS.
//
// # What the clients do differently
//
// Each test logs what a peer does that the RFCs do not say, or say
// otherwise; the service takes none of it as a reason to relax a check:
//
//   - Authlib 1.9.6's client_secret_basic does not form-urlencode the
//     credentials (RFC 6749 §2.3.1): a secret with + is read with a space
//     and refused (invalid_client). Its PrivateKeyJWT signs assertions
//     valid for an hour, beyond MaxAssertionLifetime (five minutes): set
//     exp through its claims parameter.
//   - openid-client 6.9.0 (oauth4webapi 3.8.8) signs a private_key_jwt
//     assertion with an Ed25519 key under the fully-specified alg
//     "Ed25519" (RFC 9864) rather than RFC 8037's "EdDSA". The service's
//     EdDSA client keys take either name (the peer checks that its
//     assertions went out as "Ed25519", and a probe sends "EdDSA" through
//     openid-client's modifyAssertion hook), and discovery lists both.
//     ES256 and the secrets need nothing: the credentials are
//     form-urlencoded, the assertion's aud is the issuer and it lives 60 s.
//   - openid-client reports a 401 by its WWW-Authenticate challenge (a
//     WWWAuthenticateChallengeError, the challenge Basic) rather than as
//     the invalid_client of the body, which stays readable from the
//     error's response; the token_type it returns is lowercased
//     ("bearer").
//
// # Running
//
// The Go peer is a module dependency. The Python peers live in a
// virtualenv made from pins with hashes; the Node.js peers in
// node/node_modules, installed by npm ci from node/package-lock.json
// (exact versions with integrity hashes):
//
//	bash server/interop/setup.sh                  # from the repository root
//	cd server && SIGNET_INTEROP=1 go test ./interop/
//
// (`bash server/interop/setup.sh node` or `... python` installs one.)
// Without SIGNET_INTEROP=1 a missing virtualenv, node or npm package skips
// its test; with it (as `make test` runs), the test fails instead.
//
// To move the Python pins, edit python/requirements.in and compile it
// (pip-tools):
//
//	cd server/interop/python
//	pip-compile --generate-hashes --no-emit-find-links --strip-extras -o requirements.txt requirements.in
//
// and commit both files; setup.sh rebuilds the virtualenv on its next run.
// To move the Node.js pins, edit the exact versions in node/package.json
// (`npm view openid-client versions` lists what the registry serves) and
// rewrite the lock:
//
//	cd server/interop/node
//	npm install --package-lock-only --no-audit --no-fund
//
// and commit both files; setup.sh reinstalls node_modules on its next run.
package interop
