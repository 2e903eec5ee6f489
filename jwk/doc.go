// Package jwk reads and writes signet keys as JSON Web Keys (RFC 7517,
// RFC 7518 §6, RFC 8037) and JWK Sets, and computes RFC 7638 thumbprints.
//
// A JWK is an encoding of a signet.Key, not a key type of its own: what
// comes out of this package is a *signet.Key or a *signet.KeySet, bound to
// one algorithm like every signet key.
//
// # Reading keys
//
// A JWK says its algorithm in "alg"; ParseKey binds the key to it:
//
//	key, err := jwk.ParseKey(data) // {"kty":"EC","crv":"P-256","alg":"ES256",...}
//
// A JWK without "alg" does not say how it is to be used, and an RSA key fits
// six algorithms. ParseKey refuses it; the caller states the algorithm with
// ParseKeyFor, where it is visible in review:
//
//	key, err := jwk.ParseKeyFor(data, signet.PS256)
//
// ParseKeyFor also pins keys that do have "alg": a JWK naming another
// algorithm fails with signet.ErrAlgorithmMismatch.
//
// An Ed25519 JWK ("kty":"OKP","crv":"Ed25519") may say "alg":"EdDSA" (RFC
// 8037) or "alg":"Ed25519", the fully-specified name RFC 9864 gives the
// same algorithm (and which jose 6 and openid-client 6 use): both read as
// a signet.EdDSA key, and ParseKeyFor(data, signet.EdDSA) accepts both.
// The lowercase "ed25519" is the RFC 9421 algorithm, signet.Ed25519.
//
// # Verifying with a published key set
//
// ParseSet reads {"keys":[...]} into a *signet.KeySet, which selects the key
// by the token's "kid" and checks the token's "alg" against the key's:
//
//	keys, err := jwk.ParseSet(body) // e.g. fetched from an issuer's jwks_uri
//
// Encryption keys, key types signet does not sign with and keys without
// "alg" are skipped, so a mixed set reads fine; a broken signing key fails
// the whole set. A set reads public halves only: the private members of a
// key ("d", "p", "q", …) are neither decoded nor checked, and the set's
// keys cannot sign. A token without "kid" is checked against at most
// signet.MaxAnonymousCandidates keys (see signet.KeySet.Select): publish
// keys with IDs. Fetching is the caller's job: this package never touches
// the network, and a token cannot make it (package jwks fetches and keeps
// a set fresh from an issuer's URL).
//
// ParseSet is strict, for a set the caller controls. A set published by
// someone else is read with ReadSet, which says which algorithms tokens may
// use, skips (and reports) every key it cannot use instead of failing the
// set, and binds a key without "alg" to the one allowed algorithm its key
// type fits, if exactly one does:
//
//	keys, report, err := jwk.ReadSet(body, []signet.Algorithm{signet.RS256})
//	for _, s := range report.Skipped {
//		log.Printf("key %d (%q) skipped: %v", s.Index, s.KeyID, s.Err)
//	}
//
// # Writing keys
//
//	priv, _ := signet.GenerateKeyWithID(signet.EdDSA, "2025-01")
//	secret, err := jwk.Marshal(priv)      // private JWK: store it like a password
//	public, err := jwk.MarshalPublic(priv) // public JWK: safe to share
//	set, err := jwk.MarshalSet(priv, old)  // public JWK Set, for /.well-known/jwks.json
//
// Output always carries "kty", "use":"sig", "alg" and "kid" (when the key
// has one), so that ParseKey and ParseSet, here or elsewhere, read it back
// bound to the same algorithm. Member order is fixed: equal keys encode to
// equal bytes. An EdDSA key is written with "alg":"EdDSA", the name every
// JOSE implementation reads, RFC 9864's "Ed25519" being newer.
//
// Thumbprint gives a key a stable identifier derived from its public
// members alone, handy as a key ID:
//
//	tp, err := jwk.Thumbprint(priv)
//	priv = priv.WithKeyID(tp)
//
// # Encryption keys (JWE)
//
// A JWE key is bound to a key-management algorithm and a content
// encryption; a JWK names only the first, so the reader states the second:
//
//	key, err := jwk.ParseEncryptionKey(data, signet.A256GCM) // {"kty":"OKP","crv":"X25519","alg":"ECDH-ES+A256KW",...}
//	key, err := jwk.ParseEncryptionKeyFor(data, signet.RSAOAEP256, signet.A256GCM)
//
// "oct" keys serve dir, A*KW, A*GCMKW and PBES2 ("k" is the password),
// "RSA" keys RSA-OAEP and RSA-OAEP-256, "EC" (P-256, P-384) and "OKP"
// (X25519) keys the ECDH-ES algorithms. Marshal and MarshalPublic write
// them with "use":"enc", and Thumbprint covers them (an X25519 key's
// members are "crv", "kty", "x"). ParseSet, ReadSet and the verifiers
// skip encryption keys: a set is read for signature checking.
//
// # Strictness
//
// Input is untrusted and read strictly: at most MaxKeySize bytes per key and
// MaxSetSize bytes and MaxSetKeys keys per set; valid UTF-8 JSON with no
// member name repeated (encoding/json would silently keep the last); base64url
// without padding or line breaks; EC coordinates and private scalars of
// exactly the curve's size; points on their curve; RSA private keys whose
// parameters agree; "use" only "sig" and "key_ops" only "sign"/"verify"
// (an empty "key_ops" allows nothing, as in WebCrypto).
// Weak keys are refused as by signet.NewKey, small-order Ed25519 points
// among them. Every failure wraps one of signet's sentinel errors
// (ErrTooLarge, ErrMalformed, ErrUnsupported, ErrAlgorithmMismatch,
// ErrKeyUsage, ErrWeakKey); match it with errors.Is. A nil or zero key
// given to Marshal, MarshalPublic, MarshalSet or Thumbprint is refused with
// ErrKeyUsage.
package jwk
