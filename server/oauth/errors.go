package oauth

import (
	"net/http"
	"strconv"
)

// The error codes of RFC 6749 §5.2 and its extensions that the endpoints
// answer with, in the "error" member of a JSON error response.
const (
	// ErrInvalidRequest: a parameter is missing, repeated, malformed or
	// unsupported, more than one client authentication method was used,
	// or the request is otherwise malformed.
	ErrInvalidRequest = "invalid_request"
	// ErrInvalidClient: client authentication failed (unknown client, no
	// or wrong credentials, a method the client is not registered for, a
	// refused client assertion, too many failed attempts). Always 401.
	ErrInvalidClient = "invalid_client"
	// ErrInvalidGrant: at the revocation endpoint, the token was issued
	// to another client (RFC 7009 §2.1; RFC 6749 §5.2 names this case
	// for invalid_grant).
	ErrInvalidGrant = "invalid_grant"
	// ErrUnsupportedGrantType: grant_type is not client_credentials.
	ErrUnsupportedGrantType = "unsupported_grant_type"
	// ErrInvalidScope: a requested scope is malformed or not the client's.
	ErrInvalidScope = "invalid_scope"
	// ErrInvalidTarget: a resource (RFC 8707 §2) is malformed or not one
	// of the client's audiences.
	ErrInvalidTarget = "invalid_target"
	// ErrTemporarilyUnavailable: the store could not be reached; the
	// request was refused (fail closed) and may be retried (503).
	ErrTemporarilyUnavailable = "temporarily_unavailable"
)

// oauthError is an RFC 6749 §5.2 error response.
type oauthError struct {
	status int
	code   string
	desc   string // static text: %x20-21 / %x23-5B / %x5D-7E only
	// The Observer's reason when not code: a byte, so that an oauthError
	// stays in its 48-byte size class.
	metric metricReason
}

func errRequest(desc string) *oauthError {
	return &oauthError{status: http.StatusBadRequest, code: ErrInvalidRequest, desc: desc}
}

func errClient(desc string) *oauthError {
	return &oauthError{status: http.StatusUnauthorized, code: ErrInvalidClient, desc: desc}
}

func errUnavailable(desc string) *oauthError {
	return &oauthError{status: http.StatusServiceUnavailable, code: ErrTemporarilyUnavailable, desc: desc}
}

// noStore sets the headers every token, introspection and revocation
// response carries (RFC 6749 §5.1).
func noStore(h http.Header) {
	h["Cache-Control"] = hdrNoStore
	h["Pragma"] = hdrNoCache
}

// Header values set on every response, shared: net/http only reads them,
// and Header.Set and Add replace or extend a value, never write into it.
var (
	hdrNoStore = []string{"no-store"}
	hdrNoCache = []string{"no-cache"}
	hdrJSON    = []string{"application/json"}
)

// writeError writes e as RFC 6749 §5.2 JSON. A 401 carries a Basic
// challenge (RFC 6749 §5.2, RFC 9110 §15.5.2); a 503 a Retry-After.
func writeError(w http.ResponseWriter, realm string, e *oauthError) {
	h := w.Header()
	h["Content-Type"] = hdrJSON
	noStore(h)
	switch e.status {
	case http.StatusUnauthorized:
		h.Set("WWW-Authenticate", `Basic realm="`+realm+`", charset="UTF-8"`)
	case http.StatusServiceUnavailable:
		h.Set("Retry-After", "1")
	}
	b := make([]byte, 0, 64+len(e.desc))
	b = append(b, `{"error":`...)
	b = strconv.AppendQuote(b, e.code)
	if e.desc != "" {
		b = append(b, `,"error_description":`...)
		b = strconv.AppendQuote(b, e.desc)
	}
	b = append(b, "}\n"...)
	w.WriteHeader(e.status)
	w.Write(b)
}
