package httpsig

import "errors"

// Errors particular to HTTP message signatures. Every other failure wraps
// one of signet's sentinels: ErrMalformed (a field that is not strict
// Structured Fields, a component that cannot be built from the message),
// ErrTooLarge, ErrSignatureInvalid, ErrAlgorithmMismatch, ErrKeyNotFound,
// ErrKeyUsage, ErrExpired (expires has passed) and ErrNotYetValid (created
// in the future). Match them with errors.Is.
var (
	// ErrNoSignature: the message has no signature the policy selects (no
	// Signature-Input, or none with the wanted label or tag).
	ErrNoSignature = errors.New("httpsig: no matching signature")
	// ErrComponent: a component is unknown, badly parameterised, or absent
	// from the message (a missing header, query parameter or dictionary
	// key), so that no signature base can be built.
	ErrComponent = errors.New("httpsig: component cannot be built")
	// ErrNotCovered: the signature does not cover a component or carry a
	// parameter the policy requires.
	ErrNotCovered = errors.New("httpsig: required component not covered")
	// ErrTooOld: created is older than the policy's maximum age.
	ErrTooOld = errors.New("httpsig: signature too old")
	// ErrReplay: the signature's nonce was seen before.
	ErrReplay = errors.New("httpsig: nonce replayed")
	// ErrDigest: Content-Digest does not match the body, names no
	// algorithm accepted here, or is required and absent.
	ErrDigest = errors.New("httpsig: content digest mismatch")
)
