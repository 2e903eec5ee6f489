package study

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// The response bodies. Every handler writes through writeJSON, /hello
// included, so that the baseline pays the same response writing as
// /issue and /check and the difference between them is the token work.
type (
	helloResponse struct {
		Message string `json:"message"`
	}
	tokenResponse struct {
		Token string `json:"token"`
	}
	errorResponse struct {
		Error string `json:"error"`
	}
)

// Hello is the baseline: the minimal handler, answering {"message":"hello"}.
func Hello(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, helloResponse{Message: "hello"})
}

// Issue returns the handler that issues one token per request with t, at
// the wall clock, for the study's user, and answers {"token":…}; 500 when
// the library fails.
func Issue(t Tokens) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		tok, err := t.Issue(time.Now(), UserID)
		if err != nil {
			writeJSON(w, http.StatusInternalServerError, errorResponse{Error: "cannot issue"})
			return
		}
		writeJSON(w, http.StatusOK, tokenResponse{Token: tok})
	}
}

// Check returns the handler that checks the request's Bearer token with t
// and answers the identity it carries, {"user_id":…,"username":…}; 401
// with a WWW-Authenticate challenge (RFC 6750) when the header is missing
// or the token refused.
func Check(t Tokens) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		tok, ok := bearer(r)
		if !ok {
			unauthorized(w)
			return
		}
		id, err := t.Check(tok)
		if err != nil {
			unauthorized(w)
			return
		}
		writeJSON(w, http.StatusOK, id)
	}
}

// Handler serves /hello, /issue and /check for t (t nil: /hello alone).
// Any method is accepted: the lab's scripts POST the study's JSON body,
// which the handlers do not read (the server discards it).
func Handler(t Tokens) *http.ServeMux {
	mux := http.NewServeMux()
	Register(mux, t)
	return mux
}

// Register adds the study's routes to mux: /hello always, /issue and
// /check when t is not nil.
func Register(mux *http.ServeMux, t Tokens) {
	mux.HandleFunc("/hello", Hello)
	if t != nil {
		mux.Handle("/issue", Issue(t))
		mux.Handle("/check", Check(t))
	}
}

// bearer returns the token of an "Authorization: Bearer …" header (the
// scheme case-insensitive, RFC 6750 §2.1).
func bearer(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	if len(h) < 7 || !strings.EqualFold(h[:7], "Bearer ") {
		return "", false
	}
	tok := strings.TrimSpace(h[7:])
	return tok, tok != ""
}

func unauthorized(w http.ResponseWriter) {
	w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
	writeJSON(w, http.StatusUnauthorized, errorResponse{Error: "invalid token"})
}

// writeJSON is every handler's response: v as JSON with its status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, "cannot encode", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
}
