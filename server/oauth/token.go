package oauth

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/signet-go/signet"
	b64url "github.com/signet-go/signet/internal/b64"
	"github.com/signet-go/signet/internal/jsonx"
	"github.com/signet-go/signet/jwt"
	"github.com/signet-go/signet/paseto"
)

// AccessTokenType is the JWT typ header of access tokens (RFC 9068 §2.1).
const AccessTokenType = "at+jwt"

// token serves PathToken: the client credentials grant (RFC 6749 §4.4).
func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	var f form
	c, ok := s.request(w, r, epToken, &f)
	if !ok {
		return
	}
	switch gt, _ := f.get("grant_type"); gt {
	case "client_credentials":
	case "":
		s.fail(w, r, epToken, errRequest("grant_type missing"))
		return
	default:
		s.fail(w, r, epToken, &oauthError{status: http.StatusBadRequest, code: ErrUnsupportedGrantType, desc: "only client_credentials is supported"})
		return
	}
	scope, e := grantScope(c, &f)
	if e != nil {
		s.fail(w, r, epToken, e)
		return
	}
	aud, e := s.grantAudience(c, &f)
	if e != nil {
		s.fail(w, r, epToken, e)
		return
	}
	key, err := s.keys.Signer(r.Context())
	if err != nil || key == nil {
		note(r, c.ID, ErrTemporarilyUnavailable, "no signing key")
		s.fail(w, r, epToken, errUnavailable("no signing key: try again"))
		return
	}
	iat := s.now().Unix()
	exp := iat + int64(c.TTL/time.Second)
	var jti [16]byte
	rand.Read(jti[:])
	var b []byte
	if s.format == FormatPASETO {
		b, err = s.responsePASETO(key, c, aud, scope, iat, exp, jti[:])
	} else {
		b, err = s.responseJWT(key, c, aud, scope, iat, exp, jti[:])
	}
	if err != nil {
		note(r, c.ID, ErrTemporarilyUnavailable, "sign: "+reasonOf(err))
		e := errUnavailable("the token could not be signed")
		e.metric = serverError
		s.fail(w, r, epToken, e)
		return
	}
	h := w.Header()
	h["Content-Type"] = hdrJSON
	noStore(h)
	w.WriteHeader(http.StatusOK)
	w.Write(b)
	s.obs.TokenIssued(string(key.Algorithm()), c.ID)
}

// fail writes e, notes it for the log and tells the Observer (as a
// failure of ep).
func (s *Server) fail(w http.ResponseWriter, r *http.Request, ep endpoint, e *oauthError) {
	s.observe(ep, failReason(e))
	if o, ok := r.Context().Value(outcomeKey{}).(*outcome); ok && o.code == "" {
		o.code = e.code
		if o.reason == "" {
			o.reason = e.desc
		}
	}
	writeError(w, s.realm, e)
}

// grantScope is the scope to grant: the requested scope-tokens (RFC 6749
// §3.3), each one of the client's, or all of the client's when none is
// requested; written in the client's order, each once.
func grantScope(c *Client, f *form) (string, *oauthError) {
	req, ok := f.get("scope")
	if !ok {
		return c.allScope, nil
	}
	want := strings.Split(req, " ")
	for _, s := range want {
		if !validScopeToken(s) {
			return "", &oauthError{status: http.StatusBadRequest, code: ErrInvalidScope, desc: "scope must be scope-tokens separated by single spaces"}
		}
		if !c.scopeSet[s] {
			return "", &oauthError{status: http.StatusBadRequest, code: ErrInvalidScope, desc: "a requested scope is not granted to this client"}
		}
	}
	if len(want) == len(c.Scopes) {
		if req == c.allScope {
			return req, nil
		}
	}
	var b strings.Builder
	for _, s := range c.Scopes {
		for _, w := range want {
			if w == s {
				if b.Len() > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(s)
				break
			}
		}
	}
	return b.String(), nil
}

// grantAudience is the token's aud: the resources requested (RFC 8707
// §2: absolute URIs without fragment, each one of the client's
// audiences), or the client's first audience. PASETO's aud is one
// string: one resource at most.
func (s *Server) grantAudience(c *Client, f *form) ([]string, *oauthError) {
	res := f.all("resource")
	if len(res) == 0 {
		return c.Audience[:1], nil
	}
	if len(res) > 1 && s.format == FormatPASETO {
		return nil, &oauthError{status: http.StatusBadRequest, code: ErrInvalidTarget, desc: "one resource at most"}
	}
	for i, r := range res {
		u, err := url.Parse(r)
		if err != nil || !u.IsAbs() || strings.Contains(r, "#") {
			return nil, &oauthError{status: http.StatusBadRequest, code: ErrInvalidTarget, desc: "resource must be an absolute URI without fragment"}
		}
		if _, ok := c.audJSON[r]; !ok {
			return nil, &oauthError{status: http.StatusBadRequest, code: ErrInvalidTarget, desc: "resource is not an audience of this client"}
		}
		for _, p := range res[:i] {
			if p == r {
				return nil, &oauthError{status: http.StatusBadRequest, code: ErrInvalidTarget, desc: "resource repeated"}
			}
		}
	}
	return res, nil
}

// The token response (RFC 6749 §5.1) around the access token.
const (
	respPrefix = `{"access_token":"`
	respMiddle = `","token_type":"Bearer","expires_in":`
	respScope  = `,"scope":"`
)

// appendResponse appends the rest of the token response after the access
// token: its type, lifetime and scope (scope-tokens need no JSON escape:
// validScopeToken admits neither '"' nor a backslash).
func appendResponse(b []byte, scope string, lifetime int64) []byte {
	b = append(b, respMiddle...)
	b = strconv.AppendInt(b, lifetime, 10)
	if scope != "" {
		b = append(b, respScope...)
		b = append(b, scope...)
		b = append(b, '"')
	}
	return append(b, "}\n"...)
}

// responseJWT is the token response for an RFC 9068 access token: header
// {alg, kid, typ:at+jwt}, claims iss, exp, aud, sub, client_id, iat, jti,
// scope. The claims are written from JSON the client's entry pre-encoded
// into a stack buffer, and the JWS (compact serialization, RFC 7515 §7.1)
// is signed in place in the response, which is allocated once at its
// final size.
func (s *Server) responseJWT(key *signet.Key, c *Client, aud []string, scope string, iat, exp int64, jti []byte) ([]byte, error) {
	hdr, err := s.jwtHeader(key)
	if err != nil {
		return nil, err
	}
	var buf [512]byte
	p := append(buf[:0], s.issJSON...)
	p = append(p, `,"exp":`...)
	p = strconv.AppendInt(p, exp, 10)
	p = append(p, `,"aud":`...)
	if len(aud) == 1 {
		p = append(p, c.audJSON[aud[0]]...)
	} else {
		p = append(p, '[')
		for i, a := range aud {
			if i > 0 {
				p = append(p, ',')
			}
			p = append(p, c.audJSON[a]...)
		}
		p = append(p, ']')
	}
	p = append(p, ',')
	p = append(p, c.subJSON...)
	p = append(p, `,"iat":`...)
	p = strconv.AppendInt(p, iat, 10)
	p = append(p, `,"jti":"`...)
	p = b64url.AppendEncode(p, jti)
	p = append(p, '"')
	if scope != "" {
		p = append(p, `,"scope":"`...)
		p = append(p, scope...)
		p = append(p, '"')
	}
	p = append(p, '}')

	sigSize := key.SignatureSize()
	n := len(respPrefix) + len(hdr) + 1 + b64url.EncodedLen(len(p)) + 1 + b64url.EncodedLen(sigSize) +
		len(respMiddle) + 20 + len(respScope) + len(scope) + 3
	b := make([]byte, 0, n)
	b = append(b, respPrefix...)
	start := len(b)
	b = append(b, hdr...)
	b = append(b, '.')
	b = b64url.AppendEncode(b, p)
	// The raw signature: a MAC, ECDSA's r‖s or Ed25519's fit in sb; an
	// RSA one is made on the heap (RSA signing dwarfs it).
	var sb [132]byte
	sig, err := key.Sign(sb[:0], b[start:])
	if err != nil {
		return nil, err
	}
	b = append(b, '.')
	b = b64url.AppendEncode(b, sig)
	return appendResponse(b, scope, exp-iat), nil
}

// jwtHeader returns the base64url of the access token header for key,
// {"alg":…,"kid":…,"typ":"at+jwt"}, made once per signing algorithm and
// key ID (all the header depends on).
func (s *Server) jwtHeader(key *signet.Key) ([]byte, error) {
	alg, kid := key.Algorithm(), key.KeyID()
	if h := s.hdr.Load(); h != nil && h.alg == alg && h.kid == kid {
		return h.b64, nil
	}
	if !alg.IsJWS() {
		return nil, fmt.Errorf("%w: %s is not a JWS algorithm", signet.ErrAlgorithmMismatch, alg)
	}
	if !key.CanSign() {
		return nil, fmt.Errorf("%w: signing needs a private or secret key", signet.ErrKeyUsage)
	}
	j := jsonx.AppendString([]byte(`{"alg":`), string(alg))
	if kid != "" {
		j = append(j, `,"kid":`...)
		j = jsonx.AppendString(j, kid)
	}
	j = append(j, `,"typ":"`+AccessTokenType+`"}`...)
	h := &signingHeader{alg: alg, kid: kid, b64: b64url.AppendEncode(nil, j)}
	s.hdr.Store(h)
	return h.b64, nil
}

// signingHeader is the encoded JWT header for one algorithm and key ID.
type signingHeader struct {
	alg signet.Algorithm
	kid string
	b64 []byte
}

// responsePASETO is the token response for a v4.public access token.
func (s *Server) responsePASETO(key *signet.Key, c *Client, aud []string, scope string, iat, exp int64, jti []byte) ([]byte, error) {
	tok, err := s.signPASETO(key, c, aud, scope, iat, exp, jti)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, len(respPrefix)+len(tok)+len(respMiddle)+20+len(respScope)+len(scope)+3)
	b = append(b, respPrefix...)
	b = append(b, tok...)
	return appendResponse(b, scope, exp-iat), nil
}

// signPASETO issues a v4.public access token with the claims of responseJWT
// (exp and iat as RFC 3339, aud one string) and {"kid":…} in the footer.
func (s *Server) signPASETO(key *signet.Key, c *Client, aud []string, scope string, iat, exp int64, jti []byte) (string, error) {
	claims := pasetoClaims{
		Claims: paseto.Claims{
			Issuer:    s.issuer,
			Subject:   c.ID,
			Audience:  aud[0],
			ExpiresAt: time.Unix(exp, 0).UTC(),
			IssuedAt:  time.Unix(iat, 0).UTC(),
			ID:        base64.RawURLEncoding.EncodeToString(jti),
		},
		ClientID: c.ID,
		Scope:    scope,
	}
	var o paseto.Options
	if kid := key.KeyID(); kid != "" {
		f, err := json.Marshal(struct {
			Kid string `json:"kid"`
		}{kid})
		if err != nil {
			return "", err
		}
		o.Footer = f
	}
	return paseto.Sign(key, claims, o)
}

// accessClaims are an access token's claims as a reader gets them.
type accessClaims struct {
	jwt.Claims
	ClientID string `json:"client_id"`
	Scope    string `json:"scope,omitempty"`
}

// pasetoClaims are a PASETO access token's claims.
type pasetoClaims struct {
	paseto.Claims
	ClientID string `json:"client_id"`
	Scope    string `json:"scope,omitempty"`
}
