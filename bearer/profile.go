package bearer

import (
	"fmt"
	"strings"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/jsonx"
)

// AccessTokenType is the typ of an RFC 9068 JWT access token.
const AccessTokenType = "at+jwt"

// members are the claims a Middleware reads itself from a verified
// payload, whatever T is: for Options.Scopes and the RFC 9068 profile.
type members struct {
	scope, clientID   string
	hasScope, hasCID  bool
	sub, jti, iat     bool // present (jwt.Verify has checked their types)
	scopeOK, clientOK bool // of the right type when present
}

// read fills m from payload, a claims set jwt.Verify accepted: a JSON
// object with no repeated member. The common plain shape is read in one
// pass; other shapes by the general reader.
func (m *members) read(payload string) error {
	f := jsonx.NewFlat(payload)
	for f.Next(payload) {
		s, ok := f.String(payload)
		m.set(f.Name(payload), s, ok)
	}
	if f.Plain() {
		return nil
	}
	*m = members{}
	g := jsonx.NewMembers(payload)
	for g.Next(payload) {
		s, ok := g.String(payload)
		m.set(g.Name(payload), s, ok)
	}
	if err := g.Err(); err != nil { // not reached: jwt.Verify read it
		return fmt.Errorf("%w: claims: %v", signet.ErrMalformed, err)
	}
	return nil
}

// set records one member; s is its value when a string (isString).
func (m *members) set(name, s string, isString bool) {
	switch name {
	case "scope":
		m.scope, m.hasScope, m.scopeOK = s, true, isString
	case "client_id":
		m.clientID, m.hasCID, m.clientOK = s, true, isString
	case "sub":
		m.sub = isString && s != ""
	case "jti":
		m.jti = isString && s != ""
	case "iat":
		m.iat = true
	}
}

// accessToken checks the claims RFC 9068 §2.2 requires beyond those the
// Policy checks (iss, aud, exp, typ): sub, client_id, iat and jti.
func (m *members) accessToken() error {
	missing := ""
	switch {
	case !m.sub:
		missing = "sub"
	case !m.hasCID:
		missing = "client_id"
	case !m.clientOK:
		return fmt.Errorf("%w: claim client_id must be a string", signet.ErrMalformed)
	case m.clientID == "":
		missing = "client_id"
	case !m.iat:
		missing = "iat"
	case !m.jti:
		missing = "jti"
	default:
		return nil
	}
	return fmt.Errorf("%w: %s (RFC 9068 access token)", signet.ErrMissingClaim, missing)
}

// checkScopes checks that the scope claim holds every scope of want.
func (m *members) checkScopes(want []string) error {
	if m.hasScope && !m.scopeOK {
		return fmt.Errorf("%w: claim scope must be a space-separated string", signet.ErrMalformed)
	}
	for _, s := range want {
		if !hasScope(m.scope, s) {
			return fmt.Errorf("%w: scope %q required", ErrInsufficientScope, s)
		}
	}
	return nil
}

// hasScope reports whether the space-separated list scope holds s.
func hasScope(scope, s string) bool {
	for scope != "" {
		i := strings.IndexByte(scope, ' ')
		if i < 0 {
			return scope == s
		}
		if scope[:i] == s {
			return true
		}
		scope = scope[i+1:]
	}
	return false
}

// validScope reports whether s is an RFC 6749 §3.3 scope-token:
// 1*( %x21 / %x23-5B / %x5D-7E ).
func validScope(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}
