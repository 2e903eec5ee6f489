package bearer

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/jsonx"
)

// Errors particular to bearer requests. Each wraps the signet sentinel of
// its class, so that errors.Is(err, signet.ErrXxx) holds for every error
// of this package, as for jwt; a token that fails verification keeps the
// error jwt.Verify gave (signet.ErrExpired, signet.ErrSignatureInvalid,
// ...), and a key source in an outage signet.ErrUnavailable.
var (
	// ErrNoToken: the request carries no bearer token (no Authorization
	// header, an empty one, or one of another scheme). It wraps
	// signet.ErrMissingClaim: the credential the resource requires is
	// absent. RFC 6750 §3.1: 401, with no error code.
	ErrNoToken error = &sentinel{"bearer: no bearer token", signet.ErrMissingClaim}
	// ErrInvalidRequest: the Authorization header is not a well-formed
	// Bearer credential (repeated, no token, not token68). It wraps
	// signet.ErrMalformed. RFC 6750 §3.1: 400 invalid_request.
	ErrInvalidRequest error = &sentinel{"bearer: malformed bearer request", signet.ErrMalformed}
	// ErrInsufficientScope: the token is valid but its scope claim lacks a
	// scope the resource requires (Options.Scopes). It wraps
	// signet.ErrMissingClaim. RFC 6750 §3.1: 403 insufficient_scope.
	ErrInsufficientScope error = &sentinel{"bearer: insufficient scope", signet.ErrMissingClaim}
)

// sentinel is an error of this package that belongs to the class of a
// signet sentinel: errors.Is matches both, its text is its own.
type sentinel struct {
	msg   string
	class error
}

func (e *sentinel) Error() string { return e.msg }
func (e *sentinel) Unwrap() error { return e.class }

// The error codes of RFC 6750 §3.1.
const (
	CodeInvalidRequest    = "invalid_request"
	CodeInvalidToken      = "invalid_token"
	CodeInsufficientScope = "insufficient_scope"
)

// RetryAfter is the Retry-After, in seconds, of a 503 answered because
// the key source is unavailable (WriteTo sets it unless the header is
// already set): a remote key set retries its fetches within this time.
const RetryAfter = 30

// Error is a refused request: the status and RFC 6750 error to answer
// with, and the cause. Status and Code are what the client learns;
// Description is short and generic (it never quotes the token, nor says
// which check failed beyond expiry, size and scope); Err is the cause in
// full, for logs, and matches signet's sentinels with errors.Is.
type Error struct {
	// Status is the HTTP status: 400, 401, 403 or 503.
	Status int
	// Code is the RFC 6750 error code: "" (no credentials, or 503),
	// CodeInvalidRequest, CodeInvalidToken or CodeInsufficientScope.
	Code string
	// Description is the error_description sent to the client.
	Description string
	// Scope lists, space-separated, the scopes the resource requires; set
	// with CodeInsufficientScope and sent as the challenge's scope.
	Scope string
	// Err is the cause.
	Err error
}

// Error returns the status, the code and the cause.
func (e *Error) Error() string {
	s := "bearer: " + strconv.Itoa(e.Status)
	if e.Code != "" {
		s += " " + e.Code
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// ErrorOf maps an error of Token, of jwt.Verify or of the checks of a
// Middleware to the answer RFC 6750 asks for:
//
//   - ErrNoToken: 401, no code (the challenge names only the realm);
//   - ErrInvalidRequest: 400 invalid_request;
//   - signet.ErrUnavailable: 503 (with Retry-After), never 401: the key
//     source is down, the token may well be good;
//   - ErrInsufficientScope: 403 insufficient_scope;
//   - anything else: 401 invalid_token, described as "token expired",
//     "token too large" or "invalid token".
//
// An *Error is returned as it is.
func ErrorOf(err error) *Error {
	var e *Error
	switch {
	case errors.As(err, &e):
		return e
	case errors.Is(err, ErrNoToken):
		return &Error{Status: http.StatusUnauthorized, Err: err}
	case errors.Is(err, ErrInvalidRequest):
		return &Error{Status: http.StatusBadRequest, Code: CodeInvalidRequest, Description: "malformed bearer credentials", Err: err}
	case errors.Is(err, signet.ErrUnavailable):
		return &Error{Status: http.StatusServiceUnavailable, Description: "token verification temporarily unavailable", Err: err}
	case errors.Is(err, ErrInsufficientScope):
		return &Error{Status: http.StatusForbidden, Code: CodeInsufficientScope, Description: "insufficient scope", Err: err}
	case errors.Is(err, signet.ErrExpired):
		return &Error{Status: http.StatusUnauthorized, Code: CodeInvalidToken, Description: "token expired", Err: err}
	case errors.Is(err, signet.ErrTooLarge):
		return &Error{Status: http.StatusUnauthorized, Code: CodeInvalidToken, Description: "token too large", Err: err}
	}
	return &Error{Status: http.StatusUnauthorized, Code: CodeInvalidToken, Description: "invalid token", Err: err}
}

// WriteTo writes the response RFC 6750 §3 asks for: the status; for 400,
// 401 and 403 a WWW-Authenticate challenge
//
//	Bearer realm="api", error="invalid_token", error_description="token expired"
//
// (realm omitted when empty; error and error_description when Code is;
// scope with insufficient_scope); for 503 Retry-After (RetryAfter seconds,
// unless w already has one); Cache-Control: no-store; and an RFC 9457
// problem body whose detail is Description. Values are written as
// quoted-strings: realm escaped, error_description and scope reduced to
// the characters RFC 6750 allows them. A Status outside 400..599 is
// written as 500.
func (e *Error) WriteTo(w http.ResponseWriter, realm string) {
	status := e.Status
	if status < 400 || status > 599 {
		status = http.StatusInternalServerError
	}
	h := w.Header()
	switch status {
	case http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden:
		h.Set("WWW-Authenticate", string(e.appendChallenge(nil, realm)))
	case http.StatusServiceUnavailable:
		if _, ok := h["Retry-After"]; !ok {
			h.Set("Retry-After", strconv.Itoa(RetryAfter))
		}
	}
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Type", "application/problem+json")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(e.appendBody(nil, status))
}

// appendChallenge appends the WWW-Authenticate challenge of e.
func (e *Error) appendChallenge(b []byte, realm string) []byte {
	b = append(b, "Bearer"...)
	sep := byte(' ')
	param := func(name string) {
		b = append(b, sep)
		if sep == ',' {
			b = append(b, ' ')
		}
		sep = ','
		b = append(b, name...)
		b = append(b, '=')
	}
	if realm != "" {
		param("realm")
		b = appendQuoted(b, realm)
	}
	if e.Code != "" {
		param("error")
		b = appendRestricted(b, e.Code, false)
		if e.Description != "" {
			param("error_description")
			b = appendRestricted(b, e.Description, true)
		}
		if e.Scope != "" {
			param("scope")
			b = appendRestricted(b, e.Scope, true)
		}
	}
	return b
}

// appendQuoted appends s as an RFC 9110 quoted-string: '"' and '\' are
// escaped, control characters (which no header may carry) dropped.
func appendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20 && c != '\t' || c == 0x7f:
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// appendRestricted appends s as a quoted-string of the characters RFC
// 6750 §3 allows in error, error_description and scope values:
// %x21 / %x23-5B / %x5D-7E, and %x20 when space. Others are dropped:
// they could not be sent without a quoted-pair, which RFC 6750 forbids.
func appendRestricted(b []byte, s string, space bool) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if c := s[i]; c > 0x20 && c < 0x7f && c != '"' && c != '\\' || c == ' ' && space {
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// appendBody appends e as an RFC 9457 problem (the shape package httpsig
// answers with).
func (e *Error) appendBody(b []byte, status int) []byte {
	b = append(b, `{"type":"about:blank","title":`...)
	b = jsonx.AppendString(b, http.StatusText(status))
	b = append(b, `,"status":`...)
	b = strconv.AppendInt(b, int64(status), 10)
	if e.Description != "" {
		b = append(b, `,"detail":`...)
		b = jsonx.AppendString(b, e.Description)
	}
	return append(b, "}\n"...)
}
