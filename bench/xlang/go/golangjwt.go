package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// golangJWTScenario is the scenario as golang-jwt's documentation writes
// it: NewWithClaims + SignedString, ParseWithClaims with the method pinned
// and exp required.
type golangJWTScenario struct{ secret []byte }

func newGolangJWTScenario(secret []byte) (scenario, error) {
	return golangJWTScenario{secret}, nil
}

func (s golangJWTScenario) keyFunc(*jwt.Token) (any, error) { return s.secret, nil }

func (s golangJWTScenario) once(sub string, iat int64) error {
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.RegisteredClaims{
		Subject:   sub,
		IssuedAt:  jwt.NewNumericDate(time.Unix(iat, 0)),
		ExpiresAt: jwt.NewNumericDate(time.Unix(iat+2*60*60, 0)),
	}).SignedString(s.secret)
	if err != nil {
		return err
	}
	var c jwt.RegisteredClaims
	if _, err := jwt.ParseWithClaims(tok, &c, s.keyFunc,
		jwt.WithValidMethods([]string{"HS256"}), jwt.WithExpirationRequired()); err != nil {
		return err
	}
	if c.Subject != sub {
		return fmt.Errorf("sub %q, want %q", c.Subject, sub)
	}
	return nil
}

// golangJWTInterop signs or verifies one interop case with golang-jwt.
func golangJWTInterop(c *interopCase) interopResult {
	method := jwt.GetSigningMethod(c.Alg)
	if method == nil {
		return c.failed(fmt.Errorf("unsupported: %s", c.Alg))
	}
	var key any
	var err error
	switch c.Alg {
	case "HS256":
		key, err = c.Key.secret()
	case "RS256":
		if c.Op == "sign" {
			key, err = jwt.ParseRSAPrivateKeyFromPEM([]byte(c.Key.PrivatePKCS8PEM))
		} else {
			key, err = jwt.ParseRSAPublicKeyFromPEM([]byte(c.Key.PublicSPKIPEM))
		}
	case "ES256":
		if c.Op == "sign" {
			key, err = jwt.ParseECPrivateKeyFromPEM([]byte(c.Key.PrivatePKCS8PEM))
		} else {
			key, err = jwt.ParseECPublicKeyFromPEM([]byte(c.Key.PublicSPKIPEM))
		}
	case "EdDSA":
		if c.Op == "sign" {
			key, err = jwt.ParseEdPrivateKeyFromPEM([]byte(c.Key.PrivatePKCS8PEM))
		} else {
			key, err = jwt.ParseEdPublicKeyFromPEM([]byte(c.Key.PublicSPKIPEM))
		}
	default:
		err = fmt.Errorf("unsupported: %s", c.Alg)
	}
	if err != nil {
		return c.failed(err)
	}
	if c.Op == "sign" {
		tok, err := jwt.NewWithClaims(method, jwt.MapClaims(c.Claims)).SignedString(key)
		if err != nil {
			return c.failed(err)
		}
		return interopResult{ID: c.ID, Token: tok}
	}
	claims := jwt.MapClaims{}
	_, err = jwt.ParseWithClaims(c.Token, claims, func(*jwt.Token) (any, error) { return key, nil },
		jwt.WithValidMethods([]string{c.Alg}), jwt.WithExpirationRequired())
	if err != nil {
		return c.failed(err)
	}
	if len(claims) == 0 {
		return c.failed(errors.New("no claims"))
	}
	return c.verified(claims)
}
