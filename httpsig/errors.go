package httpsig

import "github.com/signet-go/signet"

// Errors particular to HTTP message signatures. Each wraps the signet
// sentinel of its class, so that errors.Is(err, signet.ErrXxx) holds for
// every error of this package, as for jwt and paseto; match the finer
// httpsig sentinel when the difference matters (Middleware's problem
// details do). Every other failure wraps one of signet's sentinels
// directly: ErrMalformed (a field that is not strict Structured Fields),
// ErrTooLarge, ErrSignatureInvalid, ErrAlgorithmMismatch, ErrKeyNotFound,
// ErrKeyUsage (a nil or zero key), ErrExpired (expires has passed) and
// ErrNotYetValid (created in the future).
var (
	// ErrNoSignature: the message has no signature the policy selects (no
	// Signature-Input, or none with the wanted label or tag). It wraps
	// signet.ErrSignatureInvalid: the message is not validly signed.
	ErrNoSignature error = &sentinel{"httpsig: no matching signature", signet.ErrSignatureInvalid}
	// ErrComponent: a component is unknown, badly parameterised, or absent
	// from the message (a missing header, query parameter or dictionary
	// key), so that no signature base can be built. It wraps
	// signet.ErrMalformed.
	ErrComponent error = &sentinel{"httpsig: component cannot be built", signet.ErrMalformed}
	// ErrNotCovered: the signature does not cover a component or carry a
	// parameter the policy requires (by default @method, @authority and
	// @path for a request, @status for a response, and created). It wraps
	// signet.ErrMissingClaim, the same class as a JWT without a required
	// claim.
	ErrNotCovered error = &sentinel{"httpsig: required component not covered", signet.ErrMissingClaim}
	// ErrTooOld: created is older than the policy's maximum age. It wraps
	// signet.ErrExpired.
	ErrTooOld error = &sentinel{"httpsig: signature too old", signet.ErrExpired}
	// ErrReplay: the signature's nonce was seen before, or cannot be
	// remembered (the store is full for its key). It wraps
	// signet.ErrTokenID: the nonce is the signature's identifier, as jti is
	// a JWT's.
	ErrReplay error = &sentinel{"httpsig: nonce replayed", signet.ErrTokenID}
	// ErrDigest: Content-Digest does not match the body, names no
	// algorithm accepted here, or is required and absent, or the body
	// could not be read to check it. It wraps signet.ErrSignatureInvalid:
	// the body is not the one signed.
	ErrDigest error = &sentinel{"httpsig: content digest mismatch", signet.ErrSignatureInvalid}
)

// sentinel is an error of this package that belongs to the class of a
// signet sentinel: errors.Is matches both, its text is its own.
type sentinel struct {
	msg   string
	class error
}

func (e *sentinel) Error() string { return e.msg }
func (e *sentinel) Unwrap() error { return e.class }
