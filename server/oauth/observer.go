package oauth

// Observer is told what the endpoints did, for metrics (the metrics
// package implements it on Prometheus; this package depends on no metrics
// library). Every string it receives is a constant of this package or a
// registered client's id, never a token, an assertion or a secret, so a
// label made of it is bounded. Its methods are called on the request's
// goroutine, once per request at most (StoreError aside): they must be
// safe for concurrent use and quick.
type Observer interface {
	// TokenIssued: the token endpoint issued a token signed with alg (a
	// signet algorithm name: ES256, EdDSA, v4.public, …) to the
	// registered client clientID.
	TokenIssued(alg, clientID string)
	// TokenFailed: the token endpoint refused a request; reason is an
	// RFC 6749 §5.2 error code (ErrInvalidRequest, ErrInvalidClient,
	// ErrUnsupportedGrantType, ErrInvalidScope, ErrInvalidTarget) or
	// ReasonRateLimited, ReasonUnavailable or ReasonServerError.
	TokenFailed(reason string)
	// Introspected: the introspection endpoint answered; result is
	// ResultActive, ResultInactive, ReasonUnavailable, or the error code
	// of a refused request (ErrInvalidRequest, ErrInvalidClient,
	// ReasonRateLimited, ReasonServerError).
	Introspected(result string)
	// Revoked: the revocation endpoint answered; result is ResultRevoked,
	// ResultIgnored (not a valid token of this service: nothing done),
	// ErrInvalidGrant (another client's token), ReasonUnavailable, or the
	// error code of a refused request (ErrInvalidRequest,
	// ErrInvalidClient, ReasonRateLimited).
	Revoked(result string)
	// StoreError: a call to the store failed; op is StoreOpUseOnce,
	// StoreOpRevoked, StoreOpRevoke or StoreOpPing.
	StoreError(op string)
}

// Outcomes an Observer receives besides the RFC 6749 error codes.
const (
	// ReasonRateLimited: the failed authentications of the client from
	// the request's source exceeded their limit (see FailureBurst);
	// answered invalid_client.
	ReasonRateLimited = "rate_limited"
	// ReasonUnavailable: answered 503 temporarily_unavailable (the store
	// could not be reached, or no key was loaded).
	ReasonUnavailable = "unavailable"
	// ReasonServerError: the service failed (a token could not be
	// signed, a response not encoded).
	ReasonServerError = "server_error"

	// ResultActive and ResultInactive: introspection's answers.
	ResultActive   = "active"
	ResultInactive = "inactive"
	// ResultRevoked: the token's id was recorded as revoked.
	ResultRevoked = "revoked"
	// ResultIgnored: a revocation request for a token that is not a
	// valid one of this service, answered 200 with nothing done (RFC
	// 7009 §2.2).
	ResultIgnored = "ignored"
)

// The store operations StoreError names.
const (
	StoreOpUseOnce = "use_once"
	StoreOpRevoked = "revoked"
	StoreOpRevoke  = "revoke"
	StoreOpPing    = "ping"
)

// endpoint is which Observer method a request's outcome goes to.
type endpoint uint8

const (
	epToken endpoint = iota
	epIntrospect
	epRevoke
)

// nopObserver is the Observer of a Config without one.
type nopObserver struct{}

func (nopObserver) TokenIssued(string, string) {}
func (nopObserver) TokenFailed(string)         {}
func (nopObserver) Introspected(string)        {}
func (nopObserver) Revoked(string)             {}
func (nopObserver) StoreError(string)          {}

// observe tells the Observer the outcome of a request to ep.
func (s *Server) observe(ep endpoint, result string) {
	switch ep {
	case epToken:
		s.obs.TokenFailed(result)
	case epIntrospect:
		s.obs.Introspected(result)
	case epRevoke:
		s.obs.Revoked(result)
	}
}

// metricReason marks an oauthError whose Observer reason is not its code.
type metricReason uint8

const (
	byCode metricReason = iota
	rateLimited
	serverError
)

// failReason is the Observer's name for e.
func failReason(e *oauthError) string {
	switch {
	case e.metric == rateLimited:
		return ReasonRateLimited
	case e.metric == serverError:
		return ReasonServerError
	case e.code == ErrTemporarilyUnavailable:
		return ReasonUnavailable
	}
	return e.code
}
