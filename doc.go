// Package signet is the key model shared by signet's formats: JWT/JWS
// (package jwt, keys also as JWK in package jwk), JWE (package jwe),
// PASETO v3 and v4
// (package paseto, keys also as PASERK in package paserk) and HTTP Message
// Signatures, RFC 9421 (package httpsig). One Key type serves them all.
//
// # Keys are bound to one algorithm
//
// A Key is made for exactly one Algorithm and keeps it for life:
//
//	key, err := signet.GenerateKey(signet.EdDSA)     // new random key
//	key, err := signet.NewKey(signet.HS256, secret)   // existing material
//	key, err := signet.ParsePEM(pemBytes, signet.RS256)
//	key, err := jwk.ParseKey(jwkBytes)                // package jwk
//
// Verification takes the algorithm from the key, never from the token: a
// token whose header names another algorithm is refused with
// ErrAlgorithmMismatch before any cryptography, so "alg":"none" and the
// RS256→HS256 key-confusion attack have nothing to work with. Each format
// has its own algorithms (HS256 and EdDSA for JWS, V4Public and V4Local
// for PASETO, HMACSHA256 and Ed25519 for RFC 9421, …): an HS256 key never
// checks an RFC 9421 hmac-sha256 signature, nor a PASETO key a JWT.
//
// Weak keys are refused when made, with ErrWeakKey: HMAC secrets shorter
// than the hash (32 bytes for HS256, 48 for HS384, 64 for HS512), RSA
// moduli under 2048 bits (or over 16384), EC points off their curve,
// inconsistent private keys, and Ed25519 public keys that are points of
// small order or not canonically encoded. Under a small-order Ed25519 key
// signatures prove nothing (crypto/ed25519 does not check the key: under
// the identity point, one fixed signature verifies every message), so such
// a key is refused from every encoding: NewKey, PEM, JWK and PASERK.
// GenerateKey makes keys of the recommended size: secrets of the hash
// size, RSA-2048, the algorithm's curve.
//
// A Key's material is its own. NewKey copies what it is given; Secret,
// Material and PublicMaterial return copies: nothing a caller holds can
// change what a key signs or verifies. A nil *Key, a zero Key and a nil
// Keys are not keys: every method is safe to call on them, and every
// operation, here and in the format packages, refuses them with an error
// wrapping ErrKeyUsage.
//
// # Encryption keys (JWE)
//
// A key for package jwe is bound to a key-management algorithm and a
// content encryption (an Encryption) together, and made with
// NewEncryptionKey or GenerateEncryptionKey:
//
//	key, err := signet.GenerateEncryptionKey(signet.ECDHESA256KW, signet.A256GCM)
//	key, err := signet.NewEncryptionKey(signet.Dir, signet.A256GCM, cek32)
//
// Key.Encryption returns it. NewKey and GenerateKey refuse the JWE
// algorithms (ErrUnsupported). The material is checked as for signing
// keys: RSA of at least 2048 bits, ECDH keys on P-256, P-384 or X25519
// (X25519 points of small order refused), a dir key of exactly its
// encryption's key size, PBES2 passwords of at least MinPBES2Password
// bytes. RSA1_5 is no algorithm here. Encryption keys never sign or verify.
//
// # Choosing an algorithm
//
// EdDSA (Ed25519) is the default choice for new systems: small keys and
// signatures, fast, deterministic, no parameters to get wrong. Use ES256
// where a peer needs NIST curves, RS256 or PS256 where it needs RSA, and
// HS256 only when the issuer and every verifier may share one secret
// (anyone who can verify can also issue).
//
// # Key sets and rotation
//
// A KeySet holds the keys a verifier trusts, looked up by key ID (the JWT
// "kid"). Give every key an ID (GenerateKeyWithID, Key.WithKeyID) and
// publish the public halves (Key.Public, jwk.MarshalSet): rotation is then
// a matter of adding the new key to the set before signing with it, and
// removing the old one once its tokens have expired.
//
// Input that names no key ID costs at most MaxAnonymousCandidates (4)
// signature checks, however large the set: it is tried against the set's
// keys without an ID for its algorithm (at most that many), or against the
// set's only key for the algorithm; a set with more is ambiguous for such
// input, which is refused with ErrKeyNotFound. Keys with IDs are never
// tried one after another: a forged token without "kid" against a
// thousand-key JWK Set costs nothing. The verifiers of package jwt and
// package paseto also refuse more than MaxAnonymousCandidates candidates
// from any other implementation of Keys.
//
// # Errors
//
// Every failure wraps one of the sentinel errors of this package, matched
// with errors.Is, and never carries key material. A non-nil error always
// means the input was rejected.
//
// # Performance
//
// Per-key state is prepared once: the keyed HMAC state is pooled per key,
// RSA keys are precomputed, public keys parsed and validated. Key.Sign
// appends to a caller's buffer; an HMAC key signs into a buffer with room
// and verifies, a forged MAC included, without allocating.
package signet
