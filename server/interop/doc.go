// Package interop tests the token service against OAuth and JWT clients
// that no one on this project wrote. It has no code of its own, only tests:
// each starts a real service in-process on 127.0.0.1 (package oauth over a
// keys.Manager signing with ES256, or EdDSA, and storage.Memory), with
// three registered clients, one per client authentication method, and
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
//
// # Running
//
// The Go peer is a module dependency. The Python peers live in a
// virtualenv made from pins with hashes:
//
//	bash server/interop/setup.sh                  # from the repository root
//	cd server && SIGNET_INTEROP=1 go test ./interop/
//
// Without SIGNET_INTEROP=1 a missing virtualenv skips the Python test;
// with it (as `make test` runs), the test fails instead.
//
// To move the Python pins, edit python/requirements.in and compile it
// (pip-tools):
//
//	cd server/interop/python
//	pip-compile --generate-hashes --no-emit-find-links --strip-extras -o requirements.txt requirements.in
//
// and commit both files; setup.sh rebuilds the virtualenv on its next run.
package interop
