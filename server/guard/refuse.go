package guard

import (
	"log/slog"
	"net/http"

	"github.com/signet-go/signet/bearer"
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

// refuse answers a request the guard does not forward, with the
// response of bearer.ErrorOf, counts it and logs it.
func (g *Guard) refuse(w http.ResponseWriter, r *http.Request, id string, err error) {
	e := bearer.ErrorOf(err)
	if e.Code == bearer.CodeInsufficientScope {
		e.Scope = g.scope
	}
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
