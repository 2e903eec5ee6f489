// Package jwe encrypts and decrypts JSON Web Encryption tokens (RFC 7516)
// in the compact serialization: confidential JWTs, on the same key model
// as package jwt.
//
// # Keys
//
// A JWE key is made for one key-management algorithm and one content
// encryption, and keeps both for life, as a JWS key keeps its algorithm:
//
//	key, err := signet.GenerateEncryptionKey(signet.Dir, signet.A256GCM)       // a shared 32-byte key
//	key, err := signet.GenerateEncryptionKey(signet.ECDHESA256KW, signet.A256GCM) // a P-256 key pair
//	key, err := signet.NewEncryptionKey(signet.ECDHES, signet.A256GCM, x25519PrivateKey)
//	pub, err := key.Public()                                                    // for the senders
//
// Which to choose: when the issuer and the reader share a secret, Dir with
// A256GCM is the fastest and simplest (no key wrapping at all; PASETO's
// v4.local is the same idea). When many issue to one reader, give them the
// reader's public key: ECDH-ES+A256KW (P-256, P-384 or X25519) or
// RSA-OAEP-256. A128KW/A256KW and A*GCMKW wrap a random key per token under
// a shared key; PBES2 derives the wrapping key from a password, and is only
// as strong as the password.
//
// Encryption says who can read a token, not who wrote it. With the
// public-key algorithms (ECDH-ES*, RSA-OAEP*) anyone who holds the public
// key, and it is public, can make a token that Decrypt accepts, with any
// claims: a subject, a role, an issuer. When the claims must come from a
// known issuer, sign them as well: EncryptNested with the issuer's JWS
// key, DecryptNested with its public key (below). The shared-key
// algorithms (dir, A*KW, A*GCMKW, PBES2) authenticate a token to whoever
// holds the key, and to no one more precisely than that.
//
// The key, never the token, decides: a header whose alg or enc is not the
// key's is refused with signet.ErrAlgorithmMismatch before any
// cryptography. Keys are found by kid in a *signet.KeySet as for jwt.
//
// # Encrypting and decrypting claims
//
// Encrypt and Decrypt take the claims jwt.Sign and jwt.Verify take, and
// check them with the same Policy (Policy is jwt.Policy: exp required
// unless NoExpiry, audience, issuer, leeway, clock):
//
//	tok, err := jwe.Encrypt(pub, MyClaims{Claims: jwt.Claims{Subject: "u1"}, Role: "admin"})
//	c, err := jwe.Decrypt[MyClaims](key, tok, jwe.Policy{Audience: []string{"api"}})
//	if errors.Is(err, signet.ErrExpired) { … }
//
// The header is {"alg":…,"enc":…,"kid":…} with the key-management members
// the algorithm needs (epk, iv and tag, p2s and p2c).
//
// Nested JWTs (RFC 7519 §5.2: signed, then encrypted, cty "JWT") take one
// call each way: EncryptNested signs with a JWS key and encrypts;
// DecryptNested decrypts and verifies with jwt.Verify's rules. Decrypt
// refuses a nested JWT (signet.ErrUnsupported) rather than return claims
// whose signature nobody checked.
//
// EncryptBytes and DecryptBytes carry any plaintext, with a cty of the
// caller's choice.
//
// # What is refused, and why
//
//   - alg RSA1_5 (signet.ErrUnsupported): RSAES-PKCS1-v1_5 decryption is a
//     padding oracle (Bleichenbacher); even with the RFC 7516 §11.5
//     countermeasure, implementations keep leaking it through timing.
//   - alg RSA-OAEP (SHA-1) keys decrypt only: they read what others send,
//     and encrypting with one is refused (signet.ErrKeyUsage). Use
//     RSA-OAEP-256.
//   - the zip header (signet.ErrUnsupported): inflating attacker-chosen
//     data is a decompression bomb, and compressing before encrypting lets
//     the ciphertext's length reveal the plaintext (CRIME). No DEFLATE
//     support exists, not even behind an option.
//   - crit (signet.ErrUnsupported, or signet.ErrMalformed for an empty or
//     non-string list): signet understands no header extension.
//   - a p2c above MaxPBES2Count (signet.ErrTooLarge) or below
//     MinPBES2Count (signet.ErrWeakKey), refused when the header is read,
//     before a key is chosen and before any PBKDF2 work: the count is the
//     token writer's choice, and a count of 10⁹ would cost minutes of CPU.
//     A PBES2 token that names no key (kid), or whose kid several keys
//     share, is refused (signet.ErrKeyNotFound) when more than one
//     password could open it, before any PBKDF2 work: each try costs p2c
//     iterations, and one forged token must not cost several. A count
//     within the bounds is still the writer's: any PBES2 token, forged or
//     not, costs its reader up to MaxPBES2Count PBKDF2 iterations (a
//     fraction of a second of CPU) before anything authenticates. Take
//     PBES2 tokens only from senders you can rate-limit, and prefer A256KW
//     with a random key where both sides can share one.
//   - an epk off its curve, of small order, or on another curve than the
//     key's (signet.ErrWeakKey): points off the curve are the
//     invalid-curve attack, which leaks the private key one small subgroup
//     at a time. crypto/ecdh checks every point; coordinates must have
//     their curve's exact size.
//   - header members that name keys or URLs (jku, x5u, jwk, x5c) are
//     ignored: nothing is ever fetched, and the caller's keys decide.
//   - anything but five strict base64url segments, ivs and tags of other
//     than their exact sizes (GCM: 12 and 16 bytes; CBC: 16 and half the
//     key), an encrypted key where the algorithm has none or of the wrong
//     size, tokens over Policy.MaxSize (DefaultMaxSize): signet.ErrMalformed
//     or signet.ErrTooLarge, before any cryptography.
//
// A ciphertext, tag or encrypted key that does not authenticate gives
// signet.ErrSignatureInvalid, the same answer whichever part failed. For
// AES-CBC-HMAC the tag is checked, in constant time, before the padding is
// looked at (RFC 7518 §5.2.2.2), so no padding oracle exists; a failed
// RSA-OAEP decryption goes on with a random key (RFC 7516 §11.5) and fails
// at the tag. Every error wraps one of signet's sentinel errors.
//
// # Performance
//
// A dir key's AES-GCM cipher and encoded header are made once per key and
// kept with it. Encrypt builds the token in one allocation: the plaintext
// is copied into the token's own buffer, sealed there in place after a
// 96-bit iv drawn from crypto/rand for every token (never a counter, never
// buffered), and its ciphertext encoded forward into its segment. Decrypt,
// given a dir key and a token carrying that key's own header, reads the
// segments at known offsets without parsing the header, decodes iv,
// ciphertext and tag into one buffer and opens it in place: one allocation
// to encrypt, two to decrypt into jwt.Claims. What stays above the AES-GCM
// floor is the allocation, the random iv, the base64url coding and the
// claims' JSON (BenchmarkParts costs each); the benchmarks stand beside
// their floors (the raw primitives on the same bytes), and README.md has
// the figures.
package jwe
