package main

import (
	"fmt"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwt"
)

// signetScenario signs and verifies with one HS256 key; jwt.Claims holds
// sub, iat and exp, and the zero Policy requires exp.
type signetScenario struct{ key *signet.Key }

func newSignetScenario(secret []byte) (scenario, error) {
	key, err := signet.NewKey(signet.HS256, secret)
	if err != nil {
		return nil, err
	}
	return signetScenario{key}, nil
}

func (s signetScenario) once(sub string, iat int64) error {
	tok, err := jwt.Sign(s.key, jwt.Claims{
		Subject:   sub,
		IssuedAt:  jwt.NumericDate(iat),
		ExpiresAt: jwt.NumericDate(iat + 2*60*60),
	})
	if err != nil {
		return err
	}
	c, err := jwt.Verify[jwt.Claims](s.key, tok, jwt.Policy{})
	if err != nil {
		return err
	}
	if c.Subject != sub {
		return fmt.Errorf("sub %q, want %q", c.Subject, sub)
	}
	return nil
}

// signetInterop signs or verifies one interop case with signet.
func signetInterop(c *interopCase) interopResult {
	alg, err := signet.ParseAlgorithm(c.Alg)
	if err != nil {
		return c.failed(err)
	}
	var key *signet.Key
	switch {
	case c.Key.SecretB64URL != "":
		secret, err := c.Key.secret()
		if err != nil {
			return c.failed(err)
		}
		key, err = signet.NewKey(alg, secret)
		if err != nil {
			return c.failed(err)
		}
	case c.Op == "sign":
		key, err = signet.ParsePEM([]byte(c.Key.PrivatePKCS8PEM), alg)
	default:
		key, err = signet.ParsePEM([]byte(c.Key.PublicSPKIPEM), alg)
	}
	if err != nil {
		return c.failed(err)
	}
	if c.Op == "sign" {
		tok, err := jwt.Sign(key, c.Claims)
		if err != nil {
			return c.failed(err)
		}
		return interopResult{ID: c.ID, Token: tok}
	}
	// No audience is configured (the Go test compares the decoded claims
	// itself, README): aud is not checked, as the other libraries are told.
	claims, err := jwt.Verify[map[string]any](key, c.Token, jwt.Policy{IgnoreAudience: true})
	if err != nil {
		return c.failed(err)
	}
	return c.verified(claims)
}
