package lab

import (
	"errors"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	jjwt "github.com/go-jose/go-jose/v4/jwt"
)

// goJoseJWT is github.com/go-jose/go-jose/v4 through its jwt package: a
// jose.Signer made once (typ JWT, kid as an extra protected header), the
// claims as one struct embedding jwt.Claims, and jwt.ParseSigned with the
// one allowed algorithm (v4 makes the caller name them), Claims(key, …)
// and Claims.Validate (exp, nbf, iat with its default one-minute leeway;
// exp required here, as signet requires it).
type goJoseJWT struct{}

func (goJoseJWT) Name() string   { return "go-jose" }
func (goJoseJWT) Algs() []string { return JWSAlgs }

func (goJoseJWT) New(k KeySpec) (JWT, error) {
	k, err := fromPEM(k, pkcs8) // go-jose has no PEM loader
	if err != nil {
		return nil, err
	}
	alg := jose.SignatureAlgorithm(k.Alg)
	g := &goJoseOps{algs: []jose.SignatureAlgorithm{alg}}
	sign, verifyKey, ok := jwsKeys(k)
	if !ok {
		return nil, errors.New("go-jose: no key")
	}
	g.verifyKey = verifyKey
	if sign != nil {
		opts := (&jose.SignerOptions{}).WithType("JWT")
		if k.KeyID != "" {
			opts = opts.WithHeader(jose.HeaderKey("kid"), k.KeyID)
		}
		s, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: sign}, opts)
		if err != nil {
			return nil, err
		}
		g.signer = s
	}
	return g, nil
}

type goJoseOps struct {
	signer    jose.Signer
	verifyKey any
	algs      []jose.SignatureAlgorithm
}

type goJoseClaims struct {
	jjwt.Claims
	Data *Data `json:"data,omitempty"`
}

func (g *goJoseOps) Sign(p *Payload) (string, error) {
	if g.signer == nil {
		return "", errors.New("go-jose: verify-only key")
	}
	return jjwt.Signed(g.signer).Claims(goJoseClaimsOf(p)).Serialize()
}

// goJoseClaimsOf is p as go-jose's claims (JWS and JWE adapters alike).
func goJoseClaimsOf(p *Payload) goJoseClaims {
	c := goJoseClaims{Claims: jjwt.Claims{Issuer: p.Issuer, Subject: p.Subject}, Data: p.Data}
	if p.Audience != "" {
		c.Audience = jjwt.Audience{p.Audience}
	}
	if p.ExpiresAt != 0 {
		c.Expiry = jjwt.NewNumericDate(time.Unix(p.ExpiresAt, 0))
	}
	if p.IssuedAt != 0 {
		c.IssuedAt = jjwt.NewNumericDate(time.Unix(p.IssuedAt, 0))
	}
	return c
}

// validate checks c with e, exp required (as signet requires it), and
// sets p to c.
func (c *goJoseClaims) validate(e jjwt.Expected, p *Payload) error {
	if c.Expiry == nil {
		return errors.New("go-jose: token has no exp")
	}
	if err := c.Validate(e); err != nil {
		return err
	}
	*p = Payload{Issuer: c.Issuer, Subject: c.Subject, ExpiresAt: int64(*c.Expiry), Data: c.Data}
	if len(c.Audience) > 0 {
		p.Audience = c.Audience[0]
	}
	if c.IssuedAt != nil {
		p.IssuedAt = int64(*c.IssuedAt)
	}
	return nil
}

func (g *goJoseOps) Verify(token string, p *Payload) error {
	return g.VerifyAt(token, p, time.Time{}) // go-jose validates at time.Now() when Time is zero
}
