// Package paseto issues and checks PASETO tokens (https://paseto.io),
// versions 4 and 3, local (encrypted) and public (signed), on signet's key
// model: a key is bound to one version and purpose (signet.V4Local,
// signet.V4Public, signet.V3Local, signet.V3Public), so a local key never
// verifies a public token and a v3 key never opens a v4 token.
//
// # Local tokens: encrypted, for one party
//
//	key, _ := signet.GenerateKey(signet.V4Local)
//	tok, err := paseto.Encrypt(key, MyClaims{Claims: paseto.Claims{Subject: "u1"}, Role: "admin"}, paseto.Options{})
//	c, err := paseto.Decrypt[MyClaims](key, tok, paseto.Policy{})
//
// # Public tokens: signed, readable by anyone
//
//	sk, _ := signet.GenerateKey(signet.V4Public)
//	tok, err := paseto.Sign(sk, paseto.Claims{Audience: "api"}, paseto.Options{})
//	pk, _ := sk.Public()
//	c, err := paseto.Verify[paseto.Claims](pk, tok, paseto.Policy{Audience: []string{"api"}})
//
// Prefer v4 (XChaCha20 + BLAKE2b, Ed25519); use v3 (AES-256-CTR +
// HMAC-SHA384, ECDSA P-384) where NIST algorithms are required.
//
// # Claims and defaults
//
// Claims are the registered claims (iss, sub, aud, jti as strings; exp,
// nbf, iat as RFC 3339 times); embed them in a struct of your own for more.
// Claims, and a struct of your own embedding them (its other fields of
// any kind: strings, numbers, slices, pointers, nested structs, maps,
// interface values), are written and read without encoding/json (the
// same bytes and values, from a plan made once per type); a field whose
// type has codecs of its own goes to encoding/json alone, and the members
// are read in one pass, each validated as it is decoded, as package jwt
// says.
//
// Issuing sets iat to now and exp to now + Options.Lifetime (one hour by
// default) when the claims lack them; opt out of exp with
// Options.NoExpiry (jwt.Sign issues alike). Issuing refuses
// (signet.ErrMalformed) what the reader would refuse: a time outside the
// years 0000 to 9999, a Map time that is not strict RFC 3339.
//
// Checking requires exp unless Policy.NoExpiry, treats a token as expired
// at exp, allows a bounded Leeway (zero means none), and checks iss, sub
// and jti when the Policy names them. A token with aud must name one of
// Policy.Audience; one without aud is refused when Policy.Audience is set,
// and one with aud is refused when it is not, unless Policy.IgnoreAudience
// (for tokens whose audience is checked elsewhere). These are the checks
// of package jwt, from the same code. The payload must be a JSON object
// without repeated member names, and without a member whose name differs
// from a registered claim's only in case ("AUD", "Exp", or "ſub" with
// U+017F), whatever the type decoded into: encoding/json matches names
// case-insensitively and would hand such a member to the caller's field
// for the claim, unchecked. Encrypt and Sign refuse such claims too.
//
// # Footers and implicit assertions
//
// A footer is authenticated, not encrypted: use it for key IDs (a PASERK
// lid, pid or sid in {"kid":…}), never for keys. Policy.Footer, when set,
// must equal the token's footer (compared in constant time). A JSON footer
// read for its kid is first checked for size, depth and member count. The
// same check runs when a token is issued: Encrypt and Sign refuse a
// footer that starts with '{' and is not a JSON object within those
// limits (no repeated or case-folded names, kid a string), or whose kid
// is not the issuing key's, with the sentinel a reader would return
// (ErrFooter, ErrMalformed, ErrKeyNotFound): no token is issued that its
// readers refuse for its footer. Any other footer is opaque bytes. Keys
// never travel in a footer (PASERK's "Safe in Footer?"): a footer that is
// a key PASERK (k4.local, k4.public, k4.secret, k4.local-pw, k4.secret-pw,
// and k3's), or a JSON footer with one as the value of a top-level member
// (kid, wpk or another), is refused with ErrFooter, when issuing and when
// reading; IDs and keys wrapped or sealed under a key (local-wrap,
// secret-wrap, seal, for wpk) pass. An
// implicit assertion (Options.Implicit, Policy.Implicit) is authenticated
// but not stored: both sides must present it, to bind a token to, say, a
// tenant.
//
// # Errors
//
// Every error wraps a signet sentinel (ErrMalformed, ErrSignatureInvalid
// for a failed tag or signature, ErrAlgorithmMismatch for the wrong
// version or purpose, ErrExpired, ErrFooter, …); no claims come with one.
// Inputs are checked cheapest first: size, structure, version and purpose,
// footer, then the tag or signature; the payload is decrypted and read
// only once it authenticates.
package paseto
