package bearer

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwt"
)

// Options configure a Middleware. Policy is what jwt.Verify checks; the
// rest is about requests.
type Options struct {
	// Policy is the jwt.Policy tokens must satisfy: name Issuer and
	// Audience. Its zero values are jwt's safe defaults (exp required, no
	// leeway); MaxSize defaults here to DefaultMaxSize, 8 KiB, and is
	// applied to the Authorization header before the token is read.
	Policy jwt.Policy
	// AccessToken requires the JWT access-token profile of RFC 9068:
	// typ at+jwt (Policy.Type, set to it when empty), iss, aud and exp
	// checked (so Policy must name Issuer and Audience and must not set
	// NoExpiry: New refuses it otherwise), and sub, client_id, iat and
	// jti present.
	AccessToken bool
	// Scopes are the scopes a token must all hold in its scope claim (a
	// space-separated string, RFC 9068 §2.2.3, RFC 8693 §4.2); a valid
	// token without one of them gets 403 insufficient_scope. The claim is
	// read by the middleware, whatever T is.
	Scopes []string
	// Optional lets a request without a bearer token (no Authorization
	// header, or one of another scheme) through to the next handler,
	// without claims (ClaimsFrom reports false). A request with a bearer
	// token that fails is refused all the same.
	Optional bool
	// Realm is the realm of the WWW-Authenticate challenge; empty, the
	// challenge has none.
	Realm string
	// OnError answers a refused request; nil means err.WriteTo(w, Realm),
	// the RFC 6750 response. A hook may log err.Err, change the body, or
	// call WriteTo itself. A hook that writes nothing (no WriteHeader,
	// Write or Flush: one that only logs, say) leaves the answer to
	// err.WriteTo(w, Realm), written once it returns: a refused request
	// never gets the empty 200 of a handler that wrote nothing. Either
	// way the next handler never runs.
	OnError func(w http.ResponseWriter, r *http.Request, err *Error)
}

// Middleware verifies the bearer token of each request and hands its
// claims, a T, to the next handler in the request's context. Make it with
// New; it is safe for concurrent use.
type Middleware[T any] struct {
	keys     signet.Keys
	policy   jwt.Policy
	max      int
	profile  bool
	scopes   []string
	scope    string // scopes, space-separated, for the 403 challenge
	optional bool
	realm    string
	onError  func(http.ResponseWriter, *http.Request, *Error)
}

// errConfig: Options that cannot work (ErrUnsupported, for errors.Is).
var errConfig = fmt.Errorf("%w: bearer options", signet.ErrUnsupported)

// New returns a Middleware that verifies tokens with keys (a *signet.Key,
// a *signet.KeySet, or a remote set such as jwks.New's) against opts.
// The claims are decoded into T as jwt.Verify[T] does: jwt.Claims, a
// struct embedding it, jwt.Map, or any type encoding/json can fill.
//
// New refuses (signet.ErrUnsupported) nil keys, a Policy jwt.Verify would
// refuse, a scope that is not an RFC 6749 scope-token, a Realm with
// control characters, and AccessToken without Policy.Issuer and
// Policy.Audience, with NoExpiry or IgnoreAudience, or with another
// Policy.Type.
func New[T any](keys signet.Keys, opts Options) (*Middleware[T], error) {
	if keys == nil {
		return nil, fmt.Errorf("%w: nil keys", errConfig)
	}
	p := opts.Policy
	switch {
	case p.MaxSize < 0:
		return nil, fmt.Errorf("%w: negative Policy.MaxSize", errConfig)
	case p.MaxSize == 0:
		p.MaxSize = DefaultMaxSize
	}
	if opts.AccessToken {
		switch {
		case p.Type == "":
			p.Type = AccessTokenType
		case !sameType(p.Type, AccessTokenType):
			return nil, fmt.Errorf("%w: AccessToken with Policy.Type %q", errConfig, p.Type)
		}
		switch {
		case p.Issuer == "":
			return nil, fmt.Errorf("%w: AccessToken needs Policy.Issuer (RFC 9068 §4)", errConfig)
		case len(p.Audience) == 0 || p.IgnoreAudience:
			return nil, fmt.Errorf("%w: AccessToken needs Policy.Audience (RFC 9068 §4)", errConfig)
		case p.NoExpiry:
			return nil, fmt.Errorf("%w: AccessToken with Policy.NoExpiry (RFC 9068 requires exp)", errConfig)
		}
	}
	// The policy's own checks run first on any token: an empty one meets
	// them alone.
	if _, _, err := jwt.VerifyBytes(keys, "", p); errors.Is(err, signet.ErrUnsupported) {
		return nil, fmt.Errorf("%w: %v", errConfig, err)
	}
	for _, s := range opts.Scopes {
		if !validScope(s) {
			return nil, fmt.Errorf("%w: scope %q is not a scope-token", errConfig, s)
		}
	}
	for i := 0; i < len(opts.Realm); i++ {
		if c := opts.Realm[i]; c < 0x20 && c != '\t' || c == 0x7f {
			return nil, fmt.Errorf("%w: control character in Realm", errConfig)
		}
	}
	m := &Middleware[T]{
		keys:     keys,
		policy:   p,
		max:      p.MaxSize,
		profile:  opts.AccessToken,
		scopes:   append([]string(nil), opts.Scopes...),
		scope:    strings.Join(opts.Scopes, " "),
		optional: opts.Optional,
		realm:    opts.Realm,
		onError:  opts.OnError,
	}
	return m, nil
}

// Wrap returns a handler that verifies each request's token before next
// runs: a verified request reaches next with its claims in its context
// (ClaimsFrom[T]); any other is answered by Options.OnError, by default
// with the RFC 6750 response (see ErrorOf and Error.WriteTo). A nil
// Middleware (New failed) answers 500 to every request: it fails closed.
func (m *Middleware[T]) Wrap(next http.Handler) http.Handler {
	return &handler[T]{m: m, next: next}
}

type handler[T any] struct {
	m    *Middleware[T]
	next http.Handler
}

func (h *handler[T]) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m := h.m
	if m == nil {
		(&Error{Status: http.StatusInternalServerError, Description: "token verification is not configured",
			Err: errConfig}).WriteTo(w, "")
		return
	}
	tok, err := token(r.Header, m.max)
	if err != nil {
		if m.optional && err == ErrNoToken {
			h.next.ServeHTTP(w, r)
			return
		}
		m.fail(w, r, err)
		return
	}
	claims, err := m.Verify(tok)
	if err != nil {
		// Checked now, the syntax is answered for as if it had been
		// first: a token jwt accepts is a token68 (base64url and dots).
		if e := syntax(tok); e != nil {
			err = e
		}
		m.fail(w, r, err)
		return
	}
	v := &verified[T]{ctx: claimsContext[T]{Context: r.Context(), claims: claims}}
	v.req = *r.WithContext(&v.ctx) // WithContext is inlined: its copy stays on the stack
	h.next.ServeHTTP(w, &v.req)
}

// Verify checks token as Wrap's handler does — Policy (its size limit
// included), the AccessToken profile and Scopes — and returns its
// claims; ErrorOf maps its error to the answer the handler would write.
// It is for a caller that takes the token from elsewhere, or remembers
// verified tokens (package server/guard calls it on a miss of its cache):
// the checks are then exactly the middleware's. A nil Middleware fails
// (signet.ErrUnsupported).
func (m *Middleware[T]) Verify(token string) (T, error) {
	if m == nil {
		var zero T
		return zero, errConfig
	}
	if !m.profile && len(m.scopes) == 0 {
		return jwt.Verify[T](m.keys, token, m.policy)
	}
	claims, payload, err := jwt.VerifyPayload[T](m.keys, token, m.policy)
	if err == nil {
		err = m.check(payload)
	}
	if err != nil {
		var zero T
		return zero, err
	}
	return claims, nil
}

// verified is the request a verified request's handler gets, with its
// context (and so its claims), in one allocation where WithContext and a
// context would take two.
type verified[T any] struct {
	req http.Request
	ctx claimsContext[T]
}

// check applies the profile and the scopes to a verified payload.
func (m *Middleware[T]) check(payload string) error {
	var c members
	if err := c.read(payload); err != nil {
		return err
	}
	if m.profile {
		if err := c.accessToken(); err != nil {
			return err
		}
	}
	return c.checkScopes(m.scopes)
}

// fail answers a refused request.
func (m *Middleware[T]) fail(w http.ResponseWriter, r *http.Request, err error) {
	e := ErrorOf(err)
	if e.Code == CodeInsufficientScope {
		e.Scope = m.scope
	}
	if m.onError != nil {
		hw := &hookWriter{ResponseWriter: w}
		m.onError(hw, r, e)
		if hw.answered {
			return
		}
	}
	e.WriteTo(w, m.realm)
}

// hookWriter is the ResponseWriter Options.OnError gets: it notes whether
// the hook answered, so that a hook that wrote nothing (one that only
// logs) leaves the default answer to be written after it, and not the
// empty 200 net/http sends for a handler that wrote nothing.
type hookWriter struct {
	http.ResponseWriter
	answered bool
}

// WriteHeader notes a final status (an informational 1xx but 101 is not
// an answer).
func (w *hookWriter) WriteHeader(code int) {
	if code >= 200 || code == http.StatusSwitchingProtocols {
		w.answered = true
	}
	w.ResponseWriter.WriteHeader(code)
}

// Write notes the answer (a Write without WriteHeader sends 200: the
// hook's choice).
func (w *hookWriter) Write(b []byte) (int, error) {
	w.answered = true
	return w.ResponseWriter.Write(b)
}

// Flush sends the status and headers written so far, 200 when none: an
// answer too.
func (w *hookWriter) Flush() {
	w.answered = true
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

// Unwrap gives http.ResponseController the ResponseWriter underneath.
func (w *hookWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// sameType compares JWT typ values as RFC 7515 §4.1.9 says:
// case-insensitively, "application/" optional.
func sameType(a, b string) bool {
	const prefix = "application/"
	if len(a) > len(prefix) && strings.EqualFold(a[:len(prefix)], prefix) {
		a = a[len(prefix):]
	}
	return strings.EqualFold(a, b)
}
