package oauth

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/signet-go/signet/jwt"
	"github.com/signet-go/signet/server/storage"
)

// Client assertion rules (RFC 7523 §2.2, §3).
const (
	// AssertionType is the client_assertion_type of private_key_jwt.
	AssertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
	// MaxAssertionSize bounds a client assertion, in bytes.
	MaxAssertionSize = 8 << 10
	// MaxAssertionLifetime bounds how far ahead an assertion's exp may
	// be: a longer-lived assertion is refused. An hour is what client
	// libraries sign by default (Python Authlib's PrivateKeyJWT: exp =
	// iat + 1 h) and what Okta, for one, documents as its maximum. The
	// store keeps each jti until its assertion's exp (a second past it,
	// for a fractional exp), so a replay is refused for as long as the
	// assertion is valid, and the store holds at most an hour of ids.
	MaxAssertionLifetime = time.Hour
	// MaxAssertionIDLength bounds an assertion's jti, in bytes.
	MaxAssertionIDLength = 256
)

// assertionClaims are the claims of a client assertion.
type assertionClaims struct {
	jwt.Claims
}

// request reads the form of a request to the token, introspection or
// revocation endpoint into f and authenticates its client; on a failure
// it has answered (as a failure of ep) and ok is false.
func (s *Server) request(w http.ResponseWriter, r *http.Request, ep endpoint, f *form) (c *Client, ok bool) {
	e := readForm(w, r, f)
	if e == nil {
		c, e = s.authenticate(r, f)
	}
	if e != nil {
		s.fail(w, r, ep, e)
		return nil, false
	}
	return c, true
}

// authenticate finds and checks the client of a request to the token,
// introspection or revocation endpoint: exactly one method, the one the
// client is registered for (RFC 6749 §2.3, RFC 7523 §3). A failure is
// counted against the limit of the client and the request's source (see
// FailureBurst).
func (s *Server) authenticate(r *http.Request, f *form) (*Client, *oauthError) {
	var buf [256]byte
	bid, bsecret, basic, e := basicAuth(r, &buf)
	if e != nil {
		return nil, e
	}
	fid, hasID := f.get("client_id")
	psecret, post := f.get("client_secret")
	assertion, hasAssertion := f.get("client_assertion")
	atype, hasType := f.get("client_assertion_type")
	n := 0
	for _, b := range [...]bool{basic, post, hasAssertion || hasType} {
		if b {
			n++
		}
	}
	if n > 1 {
		return nil, errRequest("more than one client authentication method")
	}
	clients := s.state.Load().clients
	var (
		method AuthMethod
		id     string
	)
	switch {
	case basic:
		method, id = ClientSecretBasic, bid
		if hasID && fid != bid {
			return nil, errRequest("client_id differs from the Authorization header's")
		}
	case post:
		method, id = ClientSecretPost, fid
		if !hasID || fid == "" || psecret == "" {
			return nil, errRequest("client_secret_post needs client_id and client_secret")
		}
	case hasAssertion || hasType:
		method = PrivateKeyJWT
		if atype != AssertionType {
			return nil, errRequest("client_assertion_type must be " + AssertionType)
		}
		if assertion == "" {
			return nil, errRequest("client_assertion missing")
		}
		if len(assertion) > MaxAssertionSize {
			return nil, errClient("client assertion too large")
		}
		id = fid
		if !hasID {
			id = unverifiedIssuer(assertion)
		}
	default:
		return nil, errClient("client authentication required")
	}
	c, ok := clients.Lookup(id)
	if !ok {
		if method != PrivateKeyJWT {
			sha256.Sum256([]byte(bsecret + psecret)) // as long as a known client's check
		}
		note(r, "", ErrInvalidClient, "unknown client")
		return nil, errClient("client authentication failed")
	}
	note(r, c.ID, "", "")
	if c.Method != method {
		s.limiter.fail(c.ID, r)
		note(r, c.ID, ErrInvalidClient, "wrong method")
		return nil, errClient("client authentication failed")
	}
	if !s.limiter.allow(c.ID, r) {
		note(r, c.ID, ErrInvalidClient, "rate limited")
		e := errClient("too many failed authentications: try later")
		e.metric = rateLimited
		return nil, e
	}
	switch method {
	case ClientSecretBasic:
		ok = c.CheckSecret(bsecret)
	case ClientSecretPost:
		ok = c.CheckSecret(psecret)
	case PrivateKeyJWT:
		reason, err := s.checkAssertion(r, c, assertion)
		if err != nil {
			return nil, err
		}
		ok = reason == ""
		if !ok {
			s.limiter.fail(c.ID, r)
			note(r, c.ID, ErrInvalidClient, reason)
			return nil, errClient("client assertion refused")
		}
	}
	if !ok {
		s.limiter.fail(c.ID, r)
		note(r, c.ID, ErrInvalidClient, "wrong secret")
		return nil, errClient("client authentication failed")
	}
	return c, nil
}

// checkAssertion verifies a client assertion (RFC 7523 §3) and spends
// its jti. It returns why the assertion is refused ("" when accepted),
// or a 503 when the store could not record the jti.
func (s *Server) checkAssertion(r *http.Request, c *Client, assertion string) (string, *oauthError) {
	now := s.now()
	claims, err := jwt.Verify[assertionClaims](c.Keys, assertion, jwt.Policy{
		Issuer:   c.ID,
		Subject:  c.ID,
		Audience: []string{s.issuer, s.tokenEndpoint},
		Now:      func() time.Time { return now },
		MaxSize:  MaxAssertionSize,
	})
	if err != nil {
		return "assertion: " + reasonOf(err), nil
	}
	if exp := claims.ExpiresAt.Time(); exp.After(now.Add(MaxAssertionLifetime)) {
		return "assertion: exp too far ahead", nil
	}
	if claims.ID == "" || len(claims.ID) > MaxAssertionIDLength {
		return "assertion: jti missing or too long", nil
	}
	h := sha256.Sum256([]byte(c.ID + "\x00" + claims.ID))
	// Verify checks exp to the nanosecond but returns it rounded down to
	// the second: the jti is kept a second longer, so that an assertion
	// with a fractional exp is never valid after its jti is forgotten.
	until := claims.ExpiresAt.Time().Add(time.Second)
	first, err := s.store.UseOnce(r.Context(), "a:"+base64.RawURLEncoding.EncodeToString(h[:]), until)
	if err != nil {
		s.obs.StoreError(StoreOpUseOnce)
		note(r, c.ID, ErrTemporarilyUnavailable, "store: "+reasonOf(err))
		return "", errUnavailable("the assertion could not be checked for replay: try again")
	}
	if !first {
		return "assertion: jti replayed", nil
	}
	return "", nil
}

// unverifiedIssuer reads iss from an assertion's payload without
// verifying it, only to find the client whose keys then verify it.
func unverifiedIssuer(assertion string) string {
	parts := strings.SplitN(assertion, ".", 4)
	if len(parts) != 3 {
		return ""
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return ""
	}
	var c struct {
		Iss string `json:"iss"`
	}
	if json.Unmarshal(payload, &c) != nil {
		return ""
	}
	return c.Iss
}

// reasonOf is an error's text for the log, bounded: errors of the
// library name what failed, never a key or a token.
func reasonOf(err error) string {
	if errors.Is(err, storage.ErrUnavailable) {
		return "unavailable"
	}
	return clipLog(err.Error())
}
