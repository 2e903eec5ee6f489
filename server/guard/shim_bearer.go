package guard

// TEMPORARY: replaced by package bearer (bearer.Token, bearer.Error) once
// branch h16-bearer is merged.

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/signet-go/signet"
)

var (
	errNoToken        = errors.New("no bearer token")
	errInvalidRequest = fmt.Errorf("%w: invalid request", signet.ErrMalformed)
)

type bearerError struct {
	Status      int
	Code        string
	Description string
	Err         error
}

func (e *bearerError) WriteTo(w http.ResponseWriter, realm string) {
	var b strings.Builder
	b.WriteString("Bearer")
	sep := " "
	if realm != "" {
		b.WriteString(sep + "realm=" + strconv.Quote(realm))
		sep = ", "
	}
	if e.Code != "" {
		b.WriteString(sep + `error="` + e.Code + `", error_description="` + e.Description + `"`)
	}
	if e.Status != http.StatusServiceUnavailable {
		w.Header().Set("WWW-Authenticate", b.String())
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(e.Status)
}

func tokenError(err error) *bearerError {
	switch {
	case errors.Is(err, errNoToken):
		return &bearerError{Status: http.StatusUnauthorized, Err: err}
	case errors.Is(err, signet.ErrTooLarge):
		return &bearerError{Status: http.StatusUnauthorized, Code: "invalid_token", Description: "the token is too large", Err: err}
	}
	return &bearerError{Status: http.StatusBadRequest, Code: "invalid_request", Description: "malformed Authorization header", Err: err}
}

func bearerToken(r *http.Request) (string, error) {
	vs := r.Header["Authorization"]
	if len(vs) == 0 {
		return "", errNoToken
	}
	if len(vs) > 1 {
		return "", errInvalidRequest
	}
	v := vs[0]
	if len(v) < 7 || !strings.EqualFold(v[:7], "Bearer ") {
		return "", errNoToken
	}
	t := strings.TrimLeft(v[7:], " ")
	if t == "" {
		return "", errInvalidRequest
	}
	return t, nil
}
