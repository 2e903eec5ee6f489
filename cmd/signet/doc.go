// Command signet makes keys and signs, verifies and inspects JWTs with the
// signet library, from the shell.
//
// Usage:
//
//	signet keygen ALG [--kid ID]
//	signet pub [--alg ALG] < KEY
//	signet jwt sign --key F [--claims F] [--exp DURATION] [--kid ID] [--alg ALG]
//	signet jwt verify (--key F | --jwks F) [--iss S] [--aud S] [--leeway D] [--no-exp] [--alg ALG]
//	signet jwt inspect
//	signet help
//
// # Keys
//
// keygen prints a new private key for ALG (HS256, HS384, HS512, RS256,
// RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512 or EdDSA) as a
// JWK that names its algorithm, with the key ID given by --kid. The output
// is secret: write it to a file only you can read.
//
//	signet keygen ES256 --kid 2025-01 > es256.jwk
//
// pub reads a private key on stdin and prints its public half in the same
// encoding: a public JWK for a JWK, an SPKI "PUBLIC KEY" PEM block for PEM.
// An HMAC key is a shared secret with no public half: pub refuses it.
//
//	signet pub < es256.jwk > es256.pub.jwk
//
// Wherever a command takes a key file (--key), the file is one of:
//   - a JWK, private or public. Its "alg" is the key's algorithm; --alg
//     is needed only for a JWK without "alg", and must agree otherwise.
//   - PEM: PKCS #8, SPKI, PKCS #1 or SEC 1. The algorithm of an EC or
//     Ed25519 key follows from the key; an RSA key needs --alg (RS256,
//     PS256, …), because the same key fits six algorithms.
//   - a raw HMAC secret: any other bytes, with one trailing newline
//     stripped, and --alg HS256, HS384 or HS512. The secret must be at
//     least as long as the hash (32, 48 or 64 bytes).
//
// The key decides the algorithm, never the token: a token whose header
// names another algorithm than the key's is rejected.
//
// # JWTs
//
// jwt sign reads a claims object (--claims F, or stdin) and prints the
// signed token. The claims are signed byte for byte as given; --exp 1h
// sets exp to an hour from now, re-encoding the claims. A token without
// exp is signed with a warning, since verifiers refuse it by default.
// --kid sets the key ID in the header.
//
//	echo '{"sub":"alice","aud":"api"}' | signet jwt sign --key es256.jwk --exp 1h > token
//
// jwt verify reads a token on stdin, checks it against one key (--key) or
// a JWK Set (--jwks, the key picked by the token's kid) and the policy
// given by --iss, --aud, --leeway and --no-exp, and prints the claims
// exactly as signed. exp is required unless --no-exp is given.
//
//	signet jwt verify --key es256.pub.jwk --aud api < token
//
// jwt inspect prints the header and claims of a token on stdin without
// checking anything, as {"header":…,"claims":…,"verified":false}, and
// warns on stderr that nothing was verified. Use it for debugging only.
//
// paseto, httpsig, serve and bench are not implemented in this build yet.
//
// # Exit status
//
// 0 on success, with the result on stdout. 1 when the input or a key is
// rejected (bad signature, expired, wrong audience or issuer, malformed
// input, weak key, missing file, …), with one line on stderr starting
// "signet: " and nothing on stdout. 2 for a usage error: an unknown
// command, a bad or missing flag, an unknown algorithm. Errors never
// include key material.
package main
