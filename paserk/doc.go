// Package paserk reads and writes PASETO keys as PASERK strings (Platform-
// Agnostic Serialized Keys, github.com/paseto-standard/paserk), versions k4
// (for v4 tokens) and k3 (for v3 tokens).
//
// A PASERK names its version and purpose, so it is an encoding of a
// signet.Key, which is bound to one algorithm for life: what this package
// returns is a *signet.Key of signet.V4Local, signet.V4Public,
// signet.V3Local or signet.V3Public, and a k4 key never opens a v3 token.
//
// # Which type to use
//
//	type               function             share it?
//	k4.local           Encode / Decode      no: the symmetric key itself
//	k4.secret          Encode / Decode      no: the private key itself
//	k4.public          Encode / Decode      yes
//	k4.lid, pid, sid   ID                   yes: the "kid" of a token footer
//	k4.local-wrap.pie  Wrap / Unwrap        yes: encrypted with a local key
//	k4.secret-wrap.pie Wrap / Unwrap        yes: encrypted with a local key
//	k4.local-pw        WrapPassword / ...   no: a password can be guessed offline
//	k4.secret-pw       WrapPassword / ...   no: a password can be guessed offline
//	k4.seal            Seal / Unseal        yes: encrypted to a public key
//
// and the same with k3. The plain local and secret encodings are the keys
// in the clear: keep them like passwords, never in a token footer. Put the
// key's ID there instead, the ID of the public half for a signing key:
//
//	key, _ := signet.GenerateKey(signet.V4Public)
//	secret, err := paserk.Encode(key)          // k4.secret.…: store it safely
//	pub, _ := key.Public()
//	public, err := paserk.Encode(pub)          // k4.public.…: give it to verifiers
//	kid, err := paserk.ID(pub)                 // k4.pid.…: name the key in footers
//	key, err = paserk.Decode(secret)           // a v4.public private key again
//
// # Protecting keys
//
// Wrap encrypts a local or private key with a local key of the same
// version (the "pie" protocol): for keys held by a service that already
// has a key-encryption key. Seal encrypts a local key to the holder of a
// v4.public (Ed25519) or v3.public (P-384) private key: for sending a
// content key to one recipient. WrapPassword encrypts with a password,
// through Argon2id (k4) or PBKDF2-SHA-384 (k3): for keys a person stores.
//
//	wrapped, err := paserk.Wrap(key, kek)         // k4.secret-wrap.pie.…
//	key, err = paserk.Unwrap(wrapped, kek)
//	sealed, err := paserk.Seal(contentKey, recipientPublic)
//	contentKey, err = paserk.Unseal(sealed, recipientPrivate)
//	stored, err := paserk.WrapPassword(key, pw, paserk.PasswordParams{})
//	key, err = paserk.UnwrapPassword(stored, pw)
//
// The key that unwraps or unseals decides the version: a k3 string is
// refused with a k4 key (signet.ErrAlgorithmMismatch), and so on.
//
// # Strictness and limits
//
// Every input is at most MaxLength bytes (signet.ErrTooLarge) and is read
// strictly: the exact header, strict unpadded base64url, the exact length
// of each type, a k4.secret whose public half matches its seed, a k3.public
// point on the curve, a k3.secret scalar in [1, n-1]. Authentication tags
// are compared in constant time before anything is decrypted. A
// password-wrapped string carries its own Argon2id or PBKDF2 costs, which
// UnwrapPassword bounds (MaxMemory, MaxTime, MaxParallelism, MaxIterations)
// before deriving anything, so a crafted string cannot make it spend
// unbounded memory or time.
//
// Every failure wraps one of signet's sentinel errors: ErrTooLarge,
// ErrMalformed, ErrUnsupported (another version than k3 and k4, another
// wrapping protocol than pie, or the wrong function for the type),
// ErrWeakKey (an invalid key), ErrSignatureInvalid (a tag that does not
// verify: wrong key, wrong password or tampered data),
// ErrAlgorithmMismatch (a version other than the key's) or ErrKeyUsage (a
// key of the wrong kind for the operation). Match them with errors.Is.
package paserk
