// Package keys owns the token service's signing keys: it generates them,
// keeps them wrapped in the store, rotates them on a schedule without
// failing a token, and publishes their public halves as a JWKS.
//
// # Usage
//
//	kek, err := keys.LoadOrCreateKEK(dataDir) // or LoadKEK(file), KEKFromEnv("SIGNET_KEK")
//	…
//	m, err := keys.New(store, keys.Config{KEK: kek}) // ES256, rotate every 7 days
//	…
//	if err := m.Refresh(ctx); err != nil { … }  // load (or create) the ring before serving
//	go m.Run(ctx)                                 // the one rotation loop
//	mux.Handle("GET /.well-known/jwks.json", m.JWKSHandler())
//
//	// per request:
//	k, err := m.Signer(ctx)    // the active private key, kid set
//	ks, err := m.Verifier(ctx) // next + active + retired, for introspection
//
// Signer and Verifier read only memory (atomic loads): the store is
// consulted by the loop alone, every Config.Reload (30 s, or MaxAge when
// shorter). They fail closed (storage.ErrUnavailable) from the first
// reload that cannot reach the store until one that can: the ring in
// memory may be stale by then (another instance rotated, or the store
// came back empty, its revocations lost with it), so nothing is signed or
// verified with it; the JWKS handler goes on serving it. The first reload
// after the outage installs the store's ring, a fresh one when the store
// lost it.
//
// For monitoring, Ring describes the keys served (id, algorithm, state,
// schedule; never key material), and Config.Observer is told of each
// rotation this instance stores and of each failed store call (the
// metrics package turns both into Prometheus metrics).
//
// # Rotation
//
// Each key goes next → active → retired → removed. The ring always holds
// exactly one active key (it signs) and one next key (published, not yet
// signing), plus the retired keys still in their grace:
//
//   - a next key is published at least 2×MaxAge + Leeway before it signs
//     (its ActivateAt), so that every JWKS a client cached (at most MaxAge
//     old) already holds it when the first token it signs arrives: one
//     MaxAge for the client's cache, one for the replicas, which publish
//     it only when they reload (up to Reload, at most MaxAge, after it was
//     written), Leeway for a replica whose clock is ahead and promotes it
//     that much early;
//   - it becomes active when its ActivateAt passes and signs for Rotate;
//     a service restarted with another Config.Algorithm replaces a next
//     key of the old one (made before it started: it never signed) with
//     one of the new, due after the publish lead, so that the switch
//     takes 2×MaxAge + Leeway, not up to two periods;
//   - the key it replaces retires and stays published for MaxTokenTTL +
//     MaxAge + Leeway, so that every token it signed has expired before
//     it goes: MaxAge covers a replica that has not reloaded yet and signs
//     with it up to Reload (at most MaxAge) after the rotation, Leeway the
//     clocks of replicas and verifiers.
//
// With the defaults (Rotate 7 d, MaxAge 15 min, MaxTokenTTL 24 h, Leeway
// 0) the JWKS holds two or three keys. A Rotate shorter than 30 min with
// MaxAge unset scales MaxAge down to Rotate/2 (whole seconds, at least
// 1 s) and Reload with it, so that a period of seconds (for tests) really
// rotates every period, each next key still published 2×MaxAge (+
// Leeway) ahead.
// A short Rotate keeps a retired key per period of MaxTokenTTL: when a
// rotated ring would publish more keys than a JWK Set may hold
// (jwk.MaxSetKeys, 1,000: with MaxTokenTTL 24 h, a Rotate under about
// 90 s) or would not fit in storage.MaxKeyRingSize (about 340 RS256
// keys: a Rotate under about 4 min), the rotation waits, the active key
// signing on, until retired keys have left room; Refresh reports it
// (signet.ErrTooLarge, storage.ErrInvalid).
//
// Instances that share a store each run the loop; every rotation is
// written by compare-and-swap on the ring's version
// (storage.Store.SwapKeys), so when several notice that a rotation is due
// exactly one writes it and the others reload and find nothing left to
// do. Reload must not exceed MaxAge, since an instance may serve (and
// sign with) the ring it loaded up to Reload ago.
//
// Key IDs are RFC 7638 JWK thumbprints (jwk.Thumbprint) for JWS
// algorithms and PASERK pids (paserk.ID of the public key, "k4.pid.…") for
// v4.public: both are computed from the key, so every instance and every
// verifier agrees on them. Signer's key carries its kid: put it in the JWS
// header (jwt.Sign does) or, for v4.public, in the PASETO footer as
// {"kid":"k4.pid.…"}.
//
// # HMAC keys
//
// With an HS256/HS384/HS512 Config.Algorithm the keys rotate alike but are
// never published (the JWKS omits them): resource servers cannot verify
// such tokens themselves and check them by introspection (RFC 7662), as
// the study's HS256 case did. Verifier includes them.
//
// # Published form
//
// The JWKS is {"keys":[…]}: each JWS key as a public JWK with kty, kid,
// use "sig" and alg; each v4.public key as {"kid":"k4.pid.…",
// "paserk":"k4.public.…"}, the PASERK of the public key, which PASETO
// libraries read (a JWK has no member for a PASETO algorithm, and
// publishing the Ed25519 key as an OKP JWK would let it verify EdDSA JWS,
// another protocol). The handler sends Cache-Control "public,
// max-age=<MaxAge>, stale-if-error=86400", a strong ETag and answers
// If-None-Match with 304.
//
// # Keys at rest
//
// The store never holds a private key in the clear. Every private key is
// wrapped under the key-encryption key (KEK), a 256-bit v4.local key:
//
//   - a v4.public key is wrapped as PASERK k4.secret-wrap.pie
//     (paserk.Wrap), the standard form for it;
//   - a JWS key (ES256, RS256, EdDSA, HS256, …) has no PASERK type, so its
//     private JWK (jwk.Marshal) is sealed in a PASETO v4.local token under
//     the KEK (XChaCha20 + BLAKE2b-MAC, the construction family of pie),
//     with the implicit assertion "signet server key", the algorithm and
//     the kid. The assertion is authenticated but not stored: a wrapped
//     key copied into another record (another kid or algorithm) no longer
//     opens.
//
// On loading, every key is unwrapped once, and its kid is recomputed from
// the key and its public form compared with the record's: a record whose
// wrapped key was swapped, whose public key or algorithm was changed, or
// that was written under another KEK, is refused (errors wrap
// signet.ErrSignatureInvalid) and the loop never writes over a ring it
// cannot open. A later load reuses a key unwrapped before only for a
// record whose algorithm, wrapped key and public key are all unchanged;
// any other record is unwrapped and checked again. Nor does an instance
// go on signing with the ring it served before: until the store holds a
// ring it opens, Signer and Verifier fail closed as in an outage (the
// JWKS handler goes on serving the last ring loaded).
//
// The KEK's one text form is its PASERK, "k4.local." followed by 43
// characters of base64url (FormatKEK, ParseKEK; a placeholder whose
// bytes are all one value, such as k4.local.AAAA…A, is refused), in a
// file (LoadKEK, the --kek-file flag) or the environment (KEKFromEnv,
// SIGNET_KEK). With the
// embedded store and neither given, LoadOrCreateKEK keeps one in the data
// directory, generated on first start with mode 0600 in a 0700 directory,
// as sshd keeps its host keys; a KEK file that group or others may read is
// refused. Keep the KEK out of the store's backups: whoever holds both
// holds the keys.
package keys
