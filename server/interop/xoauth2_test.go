package interop_test

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwt"
	"github.com/signet-go/signet/server/oauth"
)

// assertion is a private_key_jwt client assertion (RFC 7523 §3) for
// svc-jwt, signed by key: aud the token endpoint, a fresh jti, one minute.
func assertion(t *testing.T, s *service, key *signet.Key) string {
	t.Helper()
	var jti [16]byte
	rand.Read(jti[:])
	a, err := jwt.Sign(key, jwt.Claims{
		Issuer: idJWT, Subject: idJWT, Audience: jwt.Audience{s.tokenURL()},
		ID: base64.RawURLEncoding.EncodeToString(jti[:]),
	}, jwt.Options{Lifetime: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// assertionParams are the EndpointParams that carry an assertion through
// x/oauth2, which has no private_key_jwt of its own.
func assertionParams(a string, extra url.Values) url.Values {
	v := url.Values{"client_assertion_type": {oauth.AssertionType}, "client_assertion": {a}}
	for k, vs := range extra {
		v[k] = vs
	}
	return v
}

// TestXOAuth2ClientCredentials: golang.org/x/oauth2/clientcredentials gets
// tokens from the service with each client authentication method, and
// each verifies from the published JWKS, for ES256 and EdDSA signing keys.
func TestXOAuth2ClientCredentials(t *testing.T) {
	for _, alg := range []signet.Algorithm{signet.ES256, signet.EdDSA} {
		t.Run(string(alg), func(t *testing.T) {
			s := startService(t, alg)
			ctx := context.WithValue(context.Background(), oauth2.HTTPClient, s.http)
			type want struct {
				sub, aud, scope string
				ttl             time.Duration
			}
			cases := []struct {
				name string
				cfg  func() *clientcredentials.Config
				want want
			}{
				{"client_secret_basic/AuthStyleInHeader", func() *clientcredentials.Config {
					return &clientcredentials.Config{
						ClientID: idBasic, ClientSecret: secretBasic, TokenURL: s.tokenURL(),
						Scopes: []string{"read", "write"}, EndpointParams: url.Values{"resource": {apiB}},
						AuthStyle: oauth2.AuthStyleInHeader,
					}
				}, want{idBasic, apiB, "read write", ttlBasic}},
				{"client_secret_post/AuthStyleInParams", func() *clientcredentials.Config {
					return &clientcredentials.Config{
						ClientID: idPost, ClientSecret: secretPost, TokenURL: s.tokenURL(),
						Scopes: []string{"read"}, EndpointParams: url.Values{"resource": {apiA}},
						AuthStyle: oauth2.AuthStyleInParams,
					}
				}, want{idPost, apiA, "read", oauth.DefaultAccessTokenTTL}},
				{"client_secret_basic/secret with + and /", func() *clientcredentials.Config {
					return &clientcredentials.Config{
						ClientID: idB64, ClientSecret: secretB64, TokenURL: s.tokenURL(),
						AuthStyle: oauth2.AuthStyleInHeader,
					}
				}, want{idB64, apiA, "read", oauth.DefaultAccessTokenTTL}},
				// The zero AuthStyle, what most code leaves: x/oauth2 tries
				// the header first, then the body after a 401.
				{"client_secret_basic/AuthStyleAutoDetect", func() *clientcredentials.Config {
					return &clientcredentials.Config{ClientID: idBasic, ClientSecret: secretBasic, TokenURL: s.tokenURL()}
				}, want{idBasic, apiA, "read write admin", ttlBasic}},
				{"client_secret_post/AuthStyleAutoDetect", func() *clientcredentials.Config {
					return &clientcredentials.Config{ClientID: idPost, ClientSecret: secretPost, TokenURL: s.tokenURL()}
				}, want{idPost, apiA, "read", oauth.DefaultAccessTokenTTL}},
				{"private_key_jwt/ES256 assertion", func() *clientcredentials.Config {
					return &clientcredentials.Config{
						ClientID: idJWT, TokenURL: s.tokenURL(), Scopes: []string{"read", "write"},
						EndpointParams: assertionParams(assertion(t, s, s.jwtKeys[0].key), url.Values{"resource": {apiA}}),
						AuthStyle:      oauth2.AuthStyleInParams,
					}
				}, want{idJWT, apiA, "read write", oauth.DefaultAccessTokenTTL}},
				// No ClientID: the service finds the client by the
				// assertion's iss (RFC 7523 §3: client_id is optional).
				{"private_key_jwt/EdDSA assertion without client_id", func() *clientcredentials.Config {
					return &clientcredentials.Config{
						TokenURL: s.tokenURL(), Scopes: []string{"read"},
						EndpointParams: assertionParams(assertion(t, s, s.jwtKeys[1].key), nil),
						AuthStyle:      oauth2.AuthStyleInParams,
					}
				}, want{idJWT, apiA, "read", oauth.DefaultAccessTokenTTL}},
			}
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					before := time.Now()
					tok, err := c.cfg().Token(ctx)
					if err != nil {
						t.Fatalf("Token: %v", err)
					}
					if !tok.Valid() || tok.Type() != "Bearer" || tok.RefreshToken != "" {
						t.Fatalf("token %+v: want a valid Bearer token without refresh token", tok)
					}
					if tok.Extra("scope") != c.want.scope {
						t.Errorf("scope in the token response %v, want %q", tok.Extra("scope"), c.want.scope)
					}
					// x/oauth2 computes Expiry from expires_in.
					if exp := tok.Expiry.Sub(before); exp < c.want.ttl-time.Minute || exp > c.want.ttl+time.Minute {
						t.Errorf("Expiry %v after the request, want about %v", exp, c.want.ttl)
					}
					s.verify(t, tok.AccessToken, c.want.sub, c.want.aud, c.want.scope, c.want.ttl)
				})
			}

			// Errors reach x/oauth2 as RFC 6749 §5.2 JSON, which it
			// parses into *oauth2.RetrieveError.
			errCases := []struct {
				name   string
				cfg    *clientcredentials.Config
				status int
				code   string
			}{
				{"wrong secret", &clientcredentials.Config{
					ClientID: idPost, ClientSecret: secretBasic, TokenURL: s.tokenURL(), AuthStyle: oauth2.AuthStyleInParams,
				}, http.StatusUnauthorized, oauth.ErrInvalidClient},
				{"scope not granted", &clientcredentials.Config{
					ClientID: idBasic, ClientSecret: secretBasic, TokenURL: s.tokenURL(), AuthStyle: oauth2.AuthStyleInHeader,
					Scopes: []string{"read", "delete"},
				}, http.StatusBadRequest, oauth.ErrInvalidScope},
				{"resource not an audience", &clientcredentials.Config{
					ClientID: idPost, ClientSecret: secretPost, TokenURL: s.tokenURL(), AuthStyle: oauth2.AuthStyleInParams,
					EndpointParams: url.Values{"resource": {apiB}},
				}, http.StatusBadRequest, oauth.ErrInvalidTarget},
				{"assertion replayed", func() *clientcredentials.Config {
					a := assertion(t, s, s.jwtKeys[0].key)
					cfg := &clientcredentials.Config{
						ClientID: idJWT, TokenURL: s.tokenURL(), AuthStyle: oauth2.AuthStyleInParams,
						EndpointParams: assertionParams(a, nil),
					}
					if _, err := cfg.Token(ctx); err != nil {
						t.Fatalf("first use of the assertion: %v", err)
					}
					return cfg
				}(), http.StatusUnauthorized, oauth.ErrInvalidClient},
			}
			for _, c := range errCases {
				t.Run("error/"+c.name, func(t *testing.T) {
					tok, err := c.cfg.Token(ctx)
					var re *oauth2.RetrieveError
					if !errors.As(err, &re) {
						t.Fatalf("Token = %v, %v; want a *oauth2.RetrieveError", tok, err)
					}
					if re.Response.StatusCode != c.status || re.ErrorCode != c.code || re.ErrorDescription == "" {
						t.Fatalf("RetrieveError %d %q %q, want %d %q with a description", re.Response.StatusCode, re.ErrorCode, re.ErrorDescription, c.status, c.code)
					}
				})
			}

			// The http.Client of clientcredentials sends the token to a
			// resource server that verifies it from the published JWKS.
			t.Run("resource server", func(t *testing.T) {
				set := s.publishedKeys(t)
				api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
					c, err := jwt.Verify[accessClaims](set, tok, jwt.Policy{Type: "at+jwt", Issuer: s.issuer, Audience: []string{apiA}})
					if !ok || err != nil {
						http.Error(w, "invalid_token", http.StatusUnauthorized)
						return
					}
					io.WriteString(w, c.ClientID+" "+c.Scope)
				}))
				defer api.Close()
				cfg := &clientcredentials.Config{ClientID: idPost, ClientSecret: secretPost, TokenURL: s.tokenURL(), AuthStyle: oauth2.AuthStyleInParams}
				res, err := cfg.Client(ctx).Get(api.URL)
				if err != nil {
					t.Fatal(err)
				}
				defer res.Body.Close()
				body, _ := io.ReadAll(res.Body)
				if res.StatusCode != http.StatusOK || string(body) != idPost+" read" {
					t.Fatalf("resource server: %d %q", res.StatusCode, body)
				}
			})
		})
	}
}
