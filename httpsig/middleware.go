package httpsig

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"

	"github.com/signet-go/signet"
)

type resultKey struct{}

// FromContext returns the Result that Middleware stored in the context of
// a verified request.
func FromContext(ctx context.Context) (*Result, bool) {
	r, ok := ctx.Value(resultKey{}).(*Result)
	return r, ok
}

// Middleware returns net/http middleware that verifies every request with
// v before the handler runs. A verified request reaches the handler with
// its Result in the context (FromContext) and its body readable again. An
// unsigned or invalid request gets 401 and an RFC 9457 problem body whose
// detail names the class of failure, not its particulars (which could
// serve as an oracle), and an Accept-Signature that asks for the
// components the policy requires. An unsigned request is refused before
// its body is read.
//
// The policy of v requires @method, @authority and @path at least, unless
// it was built with Policy.InsecureSkipDefaultCoverage, the one explicit
// way to accept less. A nil Verifier, or one not made by NewVerifier,
// refuses every request (500): the middleware fails closed.
func Middleware(v *Verifier) func(http.Handler) http.Handler {
	accept := ""
	if v != nil && v.keys != nil {
		var comps []Component
		if !v.p.InsecureSkipDefaultCoverage {
			comps = slices.Clone(defaultRequest) // appended to below
		}
		for _, c := range v.require {
			if !slices.ContainsFunc(comps, func(d Component) bool { return d.id == c.id }) {
				comps = append(comps, c)
			}
		}
		if len(comps) > 0 {
			accept, _ = AcceptSignature(Want{Label: "sig1", Components: comps, Created: !v.p.NoCreated})
		}
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if v == nil || v.keys == nil {
				writeProblem(w, http.StatusInternalServerError, "signature verification is not configured")
				return
			}
			res, err := v.VerifyRequest(r)
			if err != nil {
				if accept != "" {
					w.Header().Set("Accept-Signature", accept)
				}
				writeProblem(w, http.StatusUnauthorized, failureClass(err))
				return
			}
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), resultKey{}, res)))
		})
	}
}

// failureClass is the coarse reason given to the client.
func failureClass(err error) string {
	switch {
	case errors.Is(err, ErrNoSignature):
		return "signature required"
	case errors.Is(err, ErrNotCovered):
		return "signature does not cover the required components"
	case errors.Is(err, signet.ErrExpired), errors.Is(err, ErrTooOld), errors.Is(err, signet.ErrNotYetValid):
		return "signature outside its validity window"
	case errors.Is(err, ErrReplay):
		return "signature replayed"
	case errors.Is(err, ErrDigest):
		return "content digest missing or wrong"
	case errors.Is(err, signet.ErrTooLarge):
		return "signature fields or body too large"
	}
	return "signature invalid"
}

func writeProblem(w http.ResponseWriter, status int, detail string) {
	body, _ := json.Marshal(struct {
		Type   string `json:"type"`
		Title  string `json:"title"`
		Status int    `json:"status"`
		Detail string `json:"detail"`
	}{"about:blank", http.StatusText(status), status, detail})
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(body)
}
