package oauth

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwt"
	"github.com/signet-go/signet/paseto"
)

// MaxTokenSize bounds a token presented to introspection or revocation,
// in bytes: larger ones are not this service's, and are not parsed.
const MaxTokenSize = 8 << 10

// verified is an access token of this service that verified: signature,
// typ, iss and exp, issued to a client still registered.
type verified struct {
	claims accessClaims
	aud    any         // the aud claim as written: a string or a list
	keys   signet.Keys // the keys it verified with
}

// verify checks tok as an access token of this service at now. The
// audience is not checked here: introspection and revocation answer for
// every audience the service issues to (see the package doc). It
// returns nil for any token that does not verify; err only when the
// verifying keys could not be had.
func (s *Server) verify(ctx context.Context, tok string, now time.Time) (*verified, error) {
	if tok == "" || len(tok) > MaxTokenSize {
		return nil, nil
	}
	keys, err := s.keys.Verifier(ctx)
	if err != nil {
		return nil, err
	}
	clock := func() time.Time { return now }
	v := &verified{keys: keys}
	if s.format == FormatPASETO {
		c, err := paseto.Verify[pasetoClaims](keys, tok, paseto.Policy{Issuer: s.issuer, IgnoreAudience: true, Now: clock, MaxSize: MaxTokenSize})
		if err != nil {
			return nil, nil
		}
		v.claims = accessClaims{
			Claims: jwt.Claims{
				Issuer: c.Issuer, Subject: c.Subject, ID: c.ID,
				ExpiresAt: jwt.At(c.ExpiresAt), IssuedAt: jwt.At(c.IssuedAt),
			},
			ClientID: c.ClientID, Scope: c.Scope,
		}
		if c.Audience != "" {
			v.claims.Audience = jwt.Audience{c.Audience}
		}
	} else {
		c, err := jwt.Verify[accessClaims](keys, tok, jwt.Policy{Type: AccessTokenType, Issuer: s.issuer, IgnoreAudience: true, Now: clock, MaxSize: MaxTokenSize})
		if err != nil {
			return nil, nil
		}
		v.claims = c
	}
	// Every token this service issues has these; one without them is not
	// one of its access tokens.
	if v.claims.ID == "" || v.claims.ClientID == "" || v.claims.Subject != v.claims.ClientID || v.claims.ExpiresAt == 0 {
		return nil, nil
	}
	// A client no longer registered (the clients file reloaded without
	// it) has no active tokens: it cannot revoke them itself any more,
	// nor may any other client, so this is how an operator ends them.
	// Likewise a token whose grant the client no longer has (a scope or
	// audience taken from it on reload) is no longer active.
	c, ok := s.state.Load().clients.Lookup(v.claims.ClientID)
	if !ok || !c.allows(v.claims.Scope, v.claims.Audience) {
		return nil, nil
	}
	if len(v.claims.Audience) == 1 {
		v.aud = v.claims.Audience[0]
	} else {
		v.aud = []string(v.claims.Audience)
	}
	return v, nil
}

// recheck returns v if the keys v verified with are still the keys
// served, else tok verified again with those (nil when it no longer
// verifies); err when the key source cannot answer now.
func (s *Server) recheck(ctx context.Context, tok string, now time.Time, v *verified) (*verified, error) {
	cur, err := s.keys.Verifier(ctx)
	if err != nil {
		return nil, err
	}
	if sameKeys(cur, v.keys) {
		return v, nil
	}
	return s.verify(ctx, tok, now)
}

// sameKeys reports whether a and b are one key set: the same pointer (a
// *signet.KeySet, as the key manager serves); sets of other kinds count
// as different (comparing them could panic).
func sameKeys(a, b signet.Keys) bool {
	t := reflect.TypeOf(a)
	return t != nil && t.Kind() == reflect.Pointer && t == reflect.TypeOf(b) && a == b
}

// introspectResponse is an RFC 7662 §2.2 response for an active token.
type introspectResponse struct {
	Active    bool   `json:"active"`
	Scope     string `json:"scope,omitempty"`
	ClientID  string `json:"client_id"`
	Subject   string `json:"sub"`
	Audience  any    `json:"aud,omitempty"`
	Issuer    string `json:"iss"`
	ExpiresAt int64  `json:"exp"`
	IssuedAt  int64  `json:"iat"`
	ID        string `json:"jti"`
	TokenType string `json:"token_type"`
}

// introspect serves PathIntrospect (RFC 7662).
func (s *Server) introspect(w http.ResponseWriter, r *http.Request) {
	var f form
	_, ok := s.request(w, r, epIntrospect, &f)
	if !ok {
		return
	}
	tok, ok := f.get("token")
	if !ok {
		s.fail(w, r, epIntrospect, errRequest("token missing"))
		return
	}
	now := s.now()
	v, err := s.verify(r.Context(), tok, now)
	if err != nil {
		note(r, "", ErrTemporarilyUnavailable, "keys: "+reasonOf(err))
		s.fail(w, r, epIntrospect, errUnavailable("the token could not be checked: try again"))
		return
	}
	if v == nil {
		writeJSON(w, []byte(`{"active":false}`+"\n"))
		s.obs.Introspected(ResultInactive)
		return
	}
	revoked, err := s.store.Revoked(r.Context(), v.claims.ID)
	if err != nil {
		s.obs.StoreError(StoreOpRevoked)
		note(r, "", ErrTemporarilyUnavailable, "store: "+reasonOf(err))
		s.fail(w, r, epIntrospect, errUnavailable("revocation could not be checked: try again"))
		return
	}
	if !revoked {
		// The keys may have changed while the store answered: a store
		// back from an outage without its data (the revocations lost)
		// makes the key source refuse until it reloaded, then serve the
		// store's new ring. Whatever the token verified with before, it
		// must verify with the keys served now.
		if v, err = s.recheck(r.Context(), tok, now, v); err != nil {
			note(r, "", ErrTemporarilyUnavailable, "keys: "+reasonOf(err))
			s.fail(w, r, epIntrospect, errUnavailable("the token could not be checked: try again"))
			return
		}
	}
	if revoked || v == nil {
		writeJSON(w, []byte(`{"active":false}`+"\n"))
		s.obs.Introspected(ResultInactive)
		return
	}
	b, err := json.Marshal(introspectResponse{
		Active: true, Scope: v.claims.Scope, ClientID: v.claims.ClientID, Subject: v.claims.Subject,
		Audience: v.aud, Issuer: v.claims.Issuer, ExpiresAt: int64(v.claims.ExpiresAt),
		IssuedAt: int64(v.claims.IssuedAt), ID: v.claims.ID, TokenType: "Bearer",
	})
	if err != nil {
		s.fail(w, r, epIntrospect, &oauthError{status: http.StatusInternalServerError, code: ReasonServerError})
		return
	}
	writeJSON(w, append(b, '\n'))
	s.obs.Introspected(ResultActive)
}

// revoke serves PathRevoke (RFC 7009): a valid token of this service,
// issued to the authenticated client, is refused by introspection until
// it expires. An invalid token is answered 200 as well (RFC 7009 §2.2);
// another client's token is refused with invalid_grant (§2.1).
func (s *Server) revoke(w http.ResponseWriter, r *http.Request) {
	var f form
	c, ok := s.request(w, r, epRevoke, &f)
	if !ok {
		return
	}
	tok, ok := f.get("token")
	if !ok {
		s.fail(w, r, epRevoke, errRequest("token missing"))
		return
	}
	v, err := s.verify(r.Context(), tok, s.now())
	if err != nil {
		note(r, c.ID, ErrTemporarilyUnavailable, "keys: "+reasonOf(err))
		s.fail(w, r, epRevoke, errUnavailable("the token could not be checked: try again"))
		return
	}
	if v == nil {
		note(r, c.ID, "", "invalid token: nothing to revoke")
		writeEmpty(w)
		s.obs.Revoked(ResultIgnored)
		return
	}
	if v.claims.ClientID != c.ID {
		s.fail(w, r, epRevoke, &oauthError{status: http.StatusBadRequest, code: ErrInvalidGrant, desc: "the token was issued to another client"})
		return
	}
	if err := s.store.Revoke(r.Context(), v.claims.ID, v.claims.ExpiresAt.Time()); err != nil {
		s.obs.StoreError(StoreOpRevoke)
		note(r, c.ID, ErrTemporarilyUnavailable, "store: "+reasonOf(err))
		s.fail(w, r, epRevoke, errUnavailable("the token could not be revoked: try again"))
		return
	}
	note(r, c.ID, "", "revoked")
	writeEmpty(w)
	s.obs.Revoked(ResultRevoked)
}

func writeJSON(w http.ResponseWriter, b []byte) {
	h := w.Header()
	h["Content-Type"] = hdrJSON
	noStore(h)
	w.WriteHeader(http.StatusOK)
	w.Write(b)
}

func writeEmpty(w http.ResponseWriter) {
	noStore(w.Header())
	w.Header().Set("Content-Length", "0")
	w.WriteHeader(http.StatusOK)
}
