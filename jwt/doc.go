// Package jwt signs and verifies JSON Web Tokens (RFC 7519) in the JWS
// compact serialization (RFC 7515), with every JOSE signature algorithm:
// HS256/384/512, RS256/384/512, PS256/384/512, ES256/384/512 and EdDSA.
//
// # Signing
//
// Claims are the registered claims; embed them in a struct of your own for
// private claims:
//
//	type MyClaims struct {
//		jwt.Claims
//		Role string `json:"role"`
//	}
//	tok, err := jwt.Sign(key, MyClaims{
//		Claims: jwt.Claims{Subject: "u1", Audience: jwt.Audience{"api"}},
//		Role:   "admin",
//	})
//
// The header is {"alg":…,"kid":…,"typ":"JWT"}, the algorithm and key ID
// being the key's. Sign writes Claims itself without reflection, and so
// do Sign and Verify a struct of your own that embeds Claims: its other
// fields (strings, bools, numbers, slices, pointers, nested and embedded
// structs, map[string]string, map[string]any, interface values; tags
// naming them, "-" and omitempty) are coded from a plan made once per
// type, with the same bytes and values as encoding/json. A field whose
// type has codecs of its own (time.Time, json.RawMessage, a
// json.Unmarshaler), an array or another map goes to encoding/json, that
// value alone; a struct with the ",string" or "omitzero" option, or that
// embeds one through a pointer, goes to encoding/json whole. Verify reads
// such a payload in one pass: each member the plan takes is decoded as it
// is validated (the same rules as every payload: grammar, UTF-8, depth,
// no repeated or case-folded duplicate names at any depth).
//
// Sign issues as package paseto does: claims without iat get iat = now,
// claims without exp get exp = now + DefaultLifetime (one hour). An
// Options changes that:
//
//	tok, err := jwt.Sign(key, claims, jwt.Options{Lifetime: 5 * time.Minute})
//	tok, err := jwt.Sign(key, claims, jwt.Options{NoExpiry: true}) // Verify then needs Policy.NoExpiry
//
// Sign refuses (signet.ErrMalformed) what Verify would not read back:
// dates outside [0, 2^53] seconds, registered claims of the wrong type, a
// member named like a registered claim in other case ("AUD").
//
// # Verifying
//
//	c, err := jwt.Verify[MyClaims](keys, tok, jwt.Policy{Issuer: "https://id.example", Audience: []string{"api"}})
//	if errors.Is(err, signet.ErrExpired) { … }
//
// keys is a *signet.Key or a *signet.KeySet: the key decides the
// algorithm, and a header naming another is refused. An EdDSA key (signet's
// EdDSA is Ed25519 only) accepts the header alg "EdDSA" (RFC 8037) and
// "Ed25519", the fully-specified name RFC 9864 registers for the same
// algorithm (openid-client 6 and jose 6 write it); Sign writes "EdDSA",
// which every JOSE implementation reads. "Ed448" is not supported. The zero Policy is the
// safe default: exp is required (opt out with NoExpiry) and a token is
// expired at exp, no clock leeway (at most MaxLeeway), typ absent or
// "JWT", tokens up to DefaultMaxSize.
//
// Audience (RFC 7519 §4.1.3): a verifier names the audiences it answers to
// in Policy.Audience, and a token is accepted when its aud holds one of
// them; a token without aud is then refused. A token that has aud is
// refused by a Policy that names none (signet.ErrAudience), unless
// Policy.IgnoreAudience says its audience is checked elsewhere.
//
// The registered claims are checked by the same code as package paseto's:
// the same exp boundary, leeway, clock (Policy.Now) and audience rule.
// Verify returns the claims only when every check passed; any error wraps
// one of signet's sentinel errors.
//
// What Verify refuses, and in which order: tokens over the size limit,
// before anything else; anything but three base64url segments (strict:
// no padding, no line breaks, canonical trailing bits); headers that are
// not a JSON object, repeat a member, lack alg, name "none" or another
// algorithm than the key's, carry crit (no extension is understood), b64,
// zip or enc, or nest a JWT; kids not in the set; bad signatures (ECDSA r
// or s outside [1, n-1] among them). Only then are the claims read: the
// payload must be a JSON object without repeated members at any depth,
// with registered claims of the right types, and without a member whose
// name differs from a registered claim's only in case ("AUD", "Exp", or
// "ſub" with U+017F), whatever the type decoded into: encoding/json
// matches names case-insensitively and would hand such a member to the
// caller's field for the claim, unchecked. exp, nbf, iat, iss, aud, sub
// and jti are then checked against the Policy. A date with a fraction
// (RFC 7519 §2: 1800000000.5) is checked with it, to the nanosecond, as
// paseto checks RFC 3339 fractions; the Claims returned hold whole
// seconds, exp rounded down, nbf and iat up (see NumericDate).
//
// Header members that name keys or URLs (jwk, jku, x5u, x5c) are ignored:
// nothing is ever fetched, and the caller's keys alone decide.
//
// # Other payloads
//
// SignBytes and VerifyBytes sign and verify a JWS over any payload (the
// RFC 7520 examples use text), with the same header rules.
// VerifyPayload is Verify that also returns the verified claims set as
// JSON text, for members the caller reads without T (package bearer reads
// scope and client_id from it).
//
// AppendClaims and ParseClaims are the claims halves of Sign and Verify
// alone, for formats that carry a claims set otherwise than in a JWS:
// package jwe encrypts what AppendClaims writes and checks what it
// decrypts with ParseClaims (which checks no signature: it is only for
// payloads another layer has authenticated).
//
// # Performance
//
// Verification checks the signature before it decodes the claims: a
// token with a forged HMAC signature costs little more than one MAC and
// allocates nothing (a public-key signature costs what its primitive
// allocates). Sign makes one allocation, the token. See the benchmarks in this package, each
// beside its floor, the raw primitive on the same input, and the figures
// measured in README.md.
package jwt
