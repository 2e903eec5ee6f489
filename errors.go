package signet

import "errors"

// Sentinel errors shared by every format (jwt, paseto, httpsig). Each failure is
// returned wrapped with context; match it with errors.Is. A non-nil error always
// means the input was rejected: no claims or payload come with it.
var (
	// ErrMalformed: the input is not well-formed (bad base64url, bad JSON, wrong
	// number of segments, wrongly typed claim, duplicate member name, ...).
	ErrMalformed = errors.New("signet: malformed input")
	// ErrTooLarge: the input exceeds the configured size limit; nothing else was done.
	ErrTooLarge = errors.New("signet: input too large")
	// ErrSignatureInvalid: the signature does not verify with the selected key,
	// or an encrypted token (PASETO local, JWE) does not authenticate: its
	// tag, ciphertext or encrypted key was altered, or the key is another.
	ErrSignatureInvalid = errors.New("signet: signature invalid")
	// ErrAlgorithmMismatch: the input names an algorithm other than the key's.
	ErrAlgorithmMismatch = errors.New("signet: algorithm does not match the key")
	// ErrKeyNotFound: no key in the set matches the key ID (or algorithm).
	ErrKeyNotFound = errors.New("signet: key not found")
	// ErrWeakKey: the key is below the minimum strength for its algorithm,
	// or is otherwise invalid (a point off its curve, a bad RSA modulus).
	ErrWeakKey = errors.New("signet: weak or invalid key")
	// ErrUnsupported: the input asks for a feature signet does not implement
	// (an unknown algorithm, a critical header extension, nested tokens).
	ErrUnsupported = errors.New("signet: unsupported")
	// ErrKeyUsage: the operation needs a kind of key this one is not (signing
	// with a public key, exporting a private part that is not there).
	ErrKeyUsage = errors.New("signet: wrong kind of key for this operation")
	// ErrUnavailable: the key source cannot answer now (a remote key set
	// whose fetches have failed for longer than it may serve its last good
	// keys, or one that has never fetched). It is no verdict on the token:
	// an HTTP service answers 503, not 401, and the caller may retry later.
	ErrUnavailable = errors.New("signet: key source unavailable")

	// ErrExpired: the token's expiry time has passed.
	ErrExpired = errors.New("signet: token expired")
	// ErrNotYetValid: the token's not-before time has not come yet.
	ErrNotYetValid = errors.New("signet: token not yet valid")
	// ErrIssuedInFuture: the token's issued-at time is in the future.
	ErrIssuedInFuture = errors.New("signet: token issued in the future")
	// ErrMissingClaim: a required claim (exp by default) is absent.
	ErrMissingClaim = errors.New("signet: required claim missing")
	// ErrAudience: the token is not meant for the expected audience.
	ErrAudience = errors.New("signet: audience mismatch")
	// ErrIssuer: the token comes from another issuer than expected.
	ErrIssuer = errors.New("signet: issuer mismatch")
	// ErrSubject: the token's subject is not the expected one.
	ErrSubject = errors.New("signet: subject mismatch")
	// ErrTokenID: the token's ID (jti) is not the expected one.
	ErrTokenID = errors.New("signet: token ID mismatch")
	// ErrType: the token's declared type (JWT typ) is not the expected one.
	ErrType = errors.New("signet: token type mismatch")
	// ErrFooter: the token's footer (PASETO) is not the expected one, or a
	// JSON footer exceeds its size, depth or member limits.
	ErrFooter = errors.New("signet: footer mismatch")
)
