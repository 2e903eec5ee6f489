package lab

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"errors"
	"fmt"
	"time"

	cjwt "github.com/cristalhq/jwt/v5"
)

// cristalhqJWT is github.com/cristalhq/jwt/v5: a Builder (signer and
// header made once, kid included) and a Verifier bound to one algorithm,
// with claims in a struct embedding RegisteredClaims. The library checks
// no claim itself; its IsValidAt helper does exp, nbf and iat, and exp is
// required here, as signet requires it. PS256/384/512 sign with the
// largest salt (rsa.PSSSaltLengthAuto), not RFC 7518's hash-sized one, so
// verifiers that hold to the RFC (signet, jwx) refuse those tokens.
type cristalhqJWT struct{}

func (cristalhqJWT) Name() string   { return "cristalhq" }
func (cristalhqJWT) Algs() []string { return JWSAlgs }

func (cristalhqJWT) New(k KeySpec) (JWT, error) {
	k, err := fromPEM(k, pkcs8) // cristalhq has no PEM loader
	if err != nil {
		return nil, err
	}
	alg := cjwt.Algorithm(k.Alg)
	var signer cjwt.Signer
	var verifier cjwt.Verifier
	switch {
	case k.Secret != nil:
		var hs *cjwt.HSAlg
		hs, err = cjwt.NewSignerHS(alg, k.Secret)
		signer, verifier = hs, hs
	case k.Public != nil:
		switch pub := k.Public.(type) {
		case *rsa.PublicKey:
			if k.Alg[0] == 'P' {
				verifier, err = cjwt.NewVerifierPS(alg, pub)
				if priv, ok := k.Private.(*rsa.PrivateKey); ok && err == nil {
					signer, err = cjwt.NewSignerPS(alg, priv)
				}
			} else {
				verifier, err = cjwt.NewVerifierRS(alg, pub)
				if priv, ok := k.Private.(*rsa.PrivateKey); ok && err == nil {
					signer, err = cjwt.NewSignerRS(alg, priv)
				}
			}
		case *ecdsa.PublicKey:
			verifier, err = cjwt.NewVerifierES(alg, pub)
			if priv, ok := k.Private.(*ecdsa.PrivateKey); ok && err == nil {
				signer, err = cjwt.NewSignerES(alg, priv)
			}
		case ed25519.PublicKey:
			if alg != cjwt.EdDSA {
				return nil, fmt.Errorf("cristalhq: %s with an Ed25519 key", k.Alg)
			}
			verifier, err = cjwt.NewVerifierEdDSA(pub)
			if priv, ok := k.Private.(ed25519.PrivateKey); ok && err == nil {
				signer, err = cjwt.NewSignerEdDSA(priv)
			}
		default:
			return nil, fmt.Errorf("cristalhq: key %T", k.Public)
		}
	default:
		return nil, errors.New("cristalhq: no key")
	}
	if err != nil {
		return nil, err
	}
	c := &cristalhqOps{verifier: verifier}
	if signer != nil {
		c.builder = cjwt.NewBuilder(signer, cjwt.WithKeyID(k.KeyID))
	}
	return c, nil
}

type cristalhqOps struct {
	builder  *cjwt.Builder
	verifier cjwt.Verifier
}

type cristalhqClaims struct {
	cjwt.RegisteredClaims
	Data *Data `json:"data,omitempty"`
}

func (c *cristalhqOps) Sign(p *Payload) (string, error) {
	if c.builder == nil {
		return "", errors.New("cristalhq: verify-only key")
	}
	cl := cristalhqClaims{RegisteredClaims: cjwt.RegisteredClaims{Issuer: p.Issuer, Subject: p.Subject}, Data: p.Data}
	if p.Audience != "" {
		cl.Audience = cjwt.Audience{p.Audience}
	}
	if p.ExpiresAt != 0 {
		cl.ExpiresAt = cjwt.NewNumericDate(time.Unix(p.ExpiresAt, 0))
	}
	if p.IssuedAt != 0 {
		cl.IssuedAt = cjwt.NewNumericDate(time.Unix(p.IssuedAt, 0))
	}
	t, err := c.builder.Build(cl)
	if err != nil {
		return "", err
	}
	return t.String(), nil
}

func (c *cristalhqOps) Verify(token string, p *Payload) error {
	return c.VerifyAt(token, p, time.Now())
}
