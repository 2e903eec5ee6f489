package bearer

import (
	"fmt"
	"net/http"

	"github.com/signet-go/signet"
)

// DefaultMaxSize is the longest token accepted when Options.Policy.MaxSize
// is zero, and the limit Token applies: 8 KiB, far above any access
// token an identity provider issues, far below what a header may carry.
const DefaultMaxSize = 8 << 10

// Token returns the bearer token of r, as RFC 6750 §2.1 sends it: exactly
// one Authorization header, the scheme "Bearer" in any case, one or more
// spaces, then a token68 (letters, digits, "-._~+/", then "=" padding) and
// nothing else. Tokens in the query string or a form body are never read.
//
// The errors say what to answer (Error maps them, the middleware does):
// ErrNoToken when r has no Authorization header, an empty one or one of
// another scheme (401 without an error code); ErrInvalidRequest for two
// Authorization headers, a Bearer credential without a token or with
// characters outside token68 (400 invalid_request); signet.ErrTooLarge
// when what follows "Bearer " (the spaces and the token) is over
// DefaultMaxSize bytes, refused before its characters are read (401
// invalid_token).
func Token(r *http.Request) (string, error) {
	tok, err := token(r.Header, DefaultMaxSize)
	if err == nil {
		err = syntax(tok)
	}
	if err != nil {
		return "", err
	}
	return tok, nil
}

// token is Token with the size limit max, without the token68 check
// (syntax), which the middleware makes only on a token jwt refused: one
// jwt accepts is base64url segments and dots, a token68 (verify.go).
func token(h http.Header, max int) (string, error) {
	vs := h["Authorization"]
	switch len(vs) {
	case 0:
		return "", ErrNoToken
	case 1:
	default:
		return "", fmt.Errorf("%w: %d Authorization headers", ErrInvalidRequest, len(vs))
	}
	v := vs[0]
	const scheme = "Bearer"
	if len(v) < len(scheme) || !isBearer(v[:len(scheme)]) {
		return "", ErrNoToken // no credentials, or another scheme's
	}
	rest := v[len(scheme):]
	switch {
	case rest == "":
		return "", fmt.Errorf("%w: Bearer without a token", ErrInvalidRequest)
	case rest[0] != ' ':
		if tchar[rest[0]] {
			return "", ErrNoToken // a scheme that only starts like Bearer
		}
		return "", fmt.Errorf("%w: Bearer not followed by a space", ErrInvalidRequest)
	case len(rest)-1 > max:
		// Before any character of the token is read (the spaces after
		// the first included). Not max+1, which overflows for a MaxSize
		// of math.MaxInt.
		return "", fmt.Errorf("%w: bearer token over %d bytes", signet.ErrTooLarge, max)
	}
	i := 1
	for i < len(rest) && rest[i] == ' ' {
		i++
	}
	tok := rest[i:]
	if tok == "" {
		return "", fmt.Errorf("%w: Bearer without a token", ErrInvalidRequest)
	}
	return tok, nil
}

// syntax refuses a token that is not a token68.
func syntax(tok string) error {
	if !isToken68(tok) {
		return fmt.Errorf("%w: bearer token is not token68", ErrInvalidRequest)
	}
	return nil
}

// isBearer reports whether s, six bytes, is "Bearer" in any case.
func isBearer(s string) bool {
	if s == "Bearer" {
		return true
	}
	const want = "bearer"
	for i := 0; i < len(want); i++ {
		if s[i]|0x20 != want[i] {
			return false
		}
	}
	return true
}

// isToken68 reports whether s is a token68 (RFC 9110 §11.2, RFC 6750's
// b64token): 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=".
func isToken68(s string) bool {
	i := 0
	for i < len(s) && token68[s[i]] {
		i++
	}
	if i == 0 {
		return false
	}
	for i < len(s) && s[i] == '=' {
		i++
	}
	return i == len(s)
}

// Character classes, by byte.
var (
	token68 = class("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/")
	tchar   = class("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$%&'*+-.^_`|~")
)

func class(chars string) (t [256]bool) {
	for i := 0; i < len(chars); i++ {
		t[chars[i]] = true
	}
	return t
}
