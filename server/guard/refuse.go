package guard

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/clip"
)

// The result label of signet_guard_requests_total: what became of a
// request.
const (
	ResultForwarded         = "forwarded"          // verified and answered by the upstream
	ResultNoToken           = "no_token"           // 401 without an error code: no Bearer credentials
	ResultInvalidRequest    = "invalid_request"    // 400: a malformed Authorization header
	ResultInvalidToken      = "invalid_token"      // 401: the token is refused
	ResultInsufficientScope = "insufficient_scope" // 403: a required scope is missing
	ResultUnavailable       = "unavailable"        // 503: the key source cannot answer now
	ResultUpstreamError     = "upstream_error"     // 502: the upstream failed
	ResultCanceled          = "canceled"           // the client went away before the upstream answered
)

// results are the result label's values, created at zero.
var results = []string{ResultForwarded, ResultNoToken, ResultInvalidRequest, ResultInvalidToken,
	ResultInsufficientScope, ResultUnavailable, ResultUpstreamError, ResultCanceled}

// refuse answers a request the guard does not forward, counts it and
// logs it. verified says err came from checking the token (not from
// reading the header).
func (g *Guard) refuse(w http.ResponseWriter, r *http.Request, id string, err error, verified bool) {
	e := answer(err, verified)
	result := e.Code
	switch {
	case e.Status == http.StatusServiceUnavailable:
		result = ResultUnavailable
	case result == "":
		result = ResultNoToken
	}
	g.metrics.request(result)
	level := slog.LevelInfo
	if result == ResultUnavailable {
		level = slog.LevelWarn
	}
	g.log.Log(r.Context(), level, "refused", "request_id", id, "method", r.Method, "path", clip.String(r.URL.Path),
		"status", e.Status, "result", result, "err", err)
	e.WriteTo(w, g.cfg.Realm)
}

// answer maps an error of the token's extraction or verification to the
// RFC 6750 answer: 503 for an unavailable key source, 403
// insufficient_scope for a missing scope, 401 invalid_token for a refused
// token, and the extraction's own answer for a missing or malformed
// header.
func answer(err error, verified bool) *bearerError {
	switch {
	case isUnavailable(err):
		return &bearerError{Status: http.StatusServiceUnavailable, Description: "the keys that verify tokens are unavailable now; retry later", Err: err}
	case errors.Is(err, errScope):
		return &bearerError{Status: http.StatusForbidden, Code: "insufficient_scope", Description: "the token lacks a required scope", Err: err}
	case !verified:
		return tokenError(err)
	}
	return &bearerError{Status: http.StatusUnauthorized, Code: "invalid_token", Description: describe(err), Err: err}
}

// describe is the error_description of a refused token: the failure
// class, never the token, nor anything the token chose (a kid, a claim).
func describe(err error) string {
	for _, d := range [...]struct {
		err  error
		desc string
	}{
		{signet.ErrExpired, "the token expired"},
		{signet.ErrNotYetValid, "the token is not valid yet"},
		{signet.ErrIssuedInFuture, "the token was issued in the future"},
		{signet.ErrAudience, "the token is not meant for this service"},
		{signet.ErrIssuer, "the token comes from another issuer"},
		{signet.ErrMissingClaim, "the token lacks a required claim"},
		{signet.ErrType, "the token is not of the expected type"},
		{signet.ErrTooLarge, "the token is too large"},
		{signet.ErrKeyNotFound, "no key for the token"},
		{signet.ErrAlgorithmMismatch, "the token's algorithm is not accepted"},
		{signet.ErrSignatureInvalid, "the signature is invalid"},
		{signet.ErrMalformed, "the token is malformed"},
		{signet.ErrUnsupported, "the token uses an unsupported feature"},
	} {
		if errors.Is(err, d.err) {
			return d.desc
		}
	}
	return "the token is invalid"
}
