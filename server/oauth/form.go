package oauth

import (
	"encoding/base64"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// Limits on what a request to the token, introspection or revocation
// endpoint may carry. Anything larger is refused before it is read
// further.
const (
	// MaxBodySize bounds a request body, in bytes (413 beyond it).
	MaxBodySize = 64 << 10
	// MaxParams bounds the number of form parameters.
	MaxParams = 32
	// MaxAuthorizationSize bounds the Authorization header, in bytes.
	MaxAuthorizationSize = 4 << 10
)

// form is a request's parameters in the order given. Each name appears
// once, except resource (RFC 8707 §2 allows it repeated). It holds
// MaxParams in place: a handler keeps it on its stack.
type form struct {
	n      int
	params [MaxParams][2]string
}

// get returns the value of name and whether it was present.
func (f *form) get(name string) (string, bool) {
	for _, p := range f.params[:f.n] {
		if p[0] == name {
			return p[1], true
		}
	}
	return "", false
}

// all returns every value of name, in order.
func (f *form) all(name string) []string {
	var vs []string
	for _, p := range f.params[:f.n] {
		if p[0] == name {
			vs = append(vs, p[1])
		}
	}
	return vs
}

// readForm reads r's body as application/x-www-form-urlencoded, strictly:
// POST only, no parameters in the URL (RFC 6749 §2.3.1, §3.2), the media
// type and nothing else (a charset other than UTF-8 is refused), at most
// MaxBodySize bytes and MaxParams parameters, valid percent-encoding and
// UTF-8, no parameter repeated (RFC 6749 §3.2) but resource.
func readForm(w http.ResponseWriter, r *http.Request, f *form) *oauthError {
	if r.URL.RawQuery != "" {
		return errRequest("parameters must be sent in the request body, not the URL")
	}
	ct := r.Header["Content-Type"] // Header.Values of the canonical key, without canonicalizing it again
	if len(ct) != 1 {
		return errRequest("the request must have one Content-Type: application/x-www-form-urlencoded")
	}
	if !strings.EqualFold(ct[0], "application/x-www-form-urlencoded") {
		mt, params, err := mime.ParseMediaType(ct[0])
		if err != nil || mt != "application/x-www-form-urlencoded" {
			return errRequest("the request must have Content-Type application/x-www-form-urlencoded")
		}
		for k, v := range params {
			if k != "charset" || !strings.EqualFold(v, "utf-8") {
				return errRequest("unsupported Content-Type parameter")
			}
		}
	}
	if r.ContentLength > MaxBodySize {
		return errTooLarge()
	}
	var body []byte
	if n := r.ContentLength; n > 0 {
		// The common case: the length is known, read exactly that.
		body = make([]byte, n)
		if _, err := io.ReadFull(r.Body, body); err != nil {
			return errRequest("the request body could not be read")
		}
	} else {
		var err error
		body, err = io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodySize))
		if err != nil {
			if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
				return errTooLarge()
			}
			return errRequest("the request body could not be read")
		}
	}
	return parseForm(f, unsafe.String(unsafe.SliceData(body), len(body))) // body is not written again
}

// errTooLarge: the body is larger than MaxBodySize.
func errTooLarge() *oauthError {
	return &oauthError{status: http.StatusRequestEntityTooLarge, code: ErrInvalidRequest, desc: "request body too large"}
}

// parseForm parses an application/x-www-form-urlencoded body into f (see
// readForm).
func parseForm(f *form, body string) *oauthError {
	f.n = 0
	for body != "" {
		var kv string
		kv, body, _ = strings.Cut(body, "&")
		if kv == "" {
			continue
		}
		if f.n == MaxParams {
			return errRequest("too many parameters")
		}
		k, v, _ := strings.Cut(kv, "=")
		k, err1 := unescape(k)
		v, err2 := unescape(v)
		if err1 != nil || err2 != nil {
			return errRequest("malformed form encoding")
		}
		if k == "" {
			return errRequest("a parameter without a name")
		}
		if k != "resource" {
			if _, dup := f.get(k); dup {
				return errRequest("a parameter is repeated")
			}
		}
		f.params[f.n] = [2]string{k, v}
		f.n++
	}
	return nil
}

// errEncoding is unescape's error.
var errEncoding = errors.New("malformed form encoding")

// unescape decodes one form-urlencoded component ('+' is a space, %XX a
// byte; a '%' without two hex digits is an error, as url.QueryUnescape
// has it) and requires valid UTF-8 without control characters. Without
// escapes it returns s itself: the result may point into s.
func unescape(s string) (string, error) {
	if strings.ContainsAny(s, "%+") {
		b := make([]byte, 0, len(s))
		for i := 0; i < len(s); i++ {
			switch c := s[i]; c {
			case '+':
				b = append(b, ' ')
			case '%':
				if i+2 >= len(s) {
					return "", errEncoding
				}
				hi, ok1 := unhex(s[i+1])
				lo, ok2 := unhex(s[i+2])
				if !ok1 || !ok2 {
					return "", errEncoding
				}
				b = append(b, hi<<4|lo)
				i += 2
			default:
				b = append(b, c)
			}
		}
		s = unsafe.String(unsafe.SliceData(b), len(b)) // b is not written again
	}
	if !utf8.ValidString(s) {
		return "", errEncoding
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return "", errEncoding
		}
	}
	return s, nil
}

// unhex is the value of a hex digit.
func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// basicAuth reads the Authorization header: ok false when there is none;
// an error when there is more than one, it is too long, or it is not
// well-formed Basic credentials whose id and secret are form-urlencoded
// (RFC 6749 §2.3.1) and not empty. The credentials are decoded into buf
// when they fit (id and secret may point into it).
func basicAuth(r *http.Request, buf *[256]byte) (id, secret string, ok bool, e *oauthError) {
	hs := r.Header["Authorization"] // as Header.Values("Authorization")
	switch len(hs) {
	case 0:
		return "", "", false, nil
	case 1:
	default:
		return "", "", false, errRequest("more than one Authorization header")
	}
	h := hs[0]
	if len(h) > MaxAuthorizationSize {
		return "", "", false, errRequest("Authorization header too large")
	}
	scheme, cred, _ := strings.Cut(h, " ")
	if !strings.EqualFold(scheme, "Basic") {
		return "", "", false, errClient("unsupported authentication scheme: use Basic")
	}
	cred = strings.TrimLeft(cred, " ")
	raw := buf[:0]
	if n := base64.StdEncoding.DecodedLen(len(cred)); n > len(buf) {
		raw = make([]byte, n)
	}
	n, err := base64.StdEncoding.Decode(raw[:cap(raw)], unsafe.Slice(unsafe.StringData(cred), len(cred))) // only read
	if err != nil {
		return "", "", false, errRequest("malformed Basic credentials")
	}
	i, s, found := strings.Cut(unsafe.String(unsafe.SliceData(raw), n), ":") // raw is not written again
	if !found {
		return "", "", false, errRequest("malformed Basic credentials")
	}
	i, err1 := unescape(i)
	s, err2 := unescape(s)
	if err1 != nil || err2 != nil || i == "" || s == "" {
		return "", "", false, errRequest("malformed Basic credentials")
	}
	return i, s, true, nil
}
