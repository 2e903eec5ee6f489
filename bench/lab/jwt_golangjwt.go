package lab

import (
	"crypto"
	"errors"
	"fmt"
	"time"

	gjwt "github.com/golang-jwt/jwt/v5"
)

// golangJWT is github.com/golang-jwt/jwt/v5: typed claims embedding
// RegisteredClaims, a Parser made once with WithValidMethods (the
// library's documented defence against algorithm confusion; without it
// the token's alg picks the method) and WithExpirationRequired.
type golangJWT struct{}

func (golangJWT) Name() string   { return "golang-jwt" }
func (golangJWT) Algs() []string { return JWSAlgs }

func init() {
	// aud as a single string when it has one value (the payload's form and
	// go-jose's, cristalhq's and signet's), rather than the default
	// one-element array: the library's documented, process-wide setting.
	gjwt.MarshalSingleStringAsArray = false
}

func (golangJWT) New(k KeySpec) (JWT, error) {
	k, err := fromPEM(k, func(data []byte) (crypto.Signer, error) {
		switch k.Alg[0] {
		case 'R', 'P':
			return gjwt.ParseRSAPrivateKeyFromPEM(data)
		case 'E':
			if k.Alg == "EdDSA" {
				key, err := gjwt.ParseEdPrivateKeyFromPEM(data)
				if err != nil {
					return nil, err
				}
				return key.(crypto.Signer), nil
			}
			return gjwt.ParseECPrivateKeyFromPEM(data)
		}
		return nil, fmt.Errorf("golang-jwt: no PEM loader for %s", k.Alg)
	})
	if err != nil {
		return nil, err
	}
	m := gjwt.GetSigningMethod(k.Alg)
	if m == nil {
		return nil, fmt.Errorf("golang-jwt: no method %s", k.Alg)
	}
	g := &golangJWTOps{method: m, kid: k.KeyID,
		parser: gjwt.NewParser(gjwt.WithValidMethods([]string{k.Alg}), gjwt.WithExpirationRequired())}
	var ok bool
	if g.signKey, g.verifyKey, ok = jwsKeys(k); !ok {
		return nil, errors.New("golang-jwt: no key")
	}
	key := g.verifyKey
	g.keyfunc = func(*gjwt.Token) (any, error) { return key, nil }
	return g, nil
}

type golangJWTOps struct {
	method             gjwt.SigningMethod
	kid                string
	signKey, verifyKey any
	parser             *gjwt.Parser
	keyfunc            gjwt.Keyfunc
}

type golangJWTClaims struct {
	gjwt.RegisteredClaims
	Data *Data `json:"data,omitempty"`
}

func (g *golangJWTOps) Sign(p *Payload) (string, error) {
	if g.signKey == nil {
		return "", errors.New("golang-jwt: verify-only key")
	}
	c := golangJWTClaims{RegisteredClaims: gjwt.RegisteredClaims{Issuer: p.Issuer, Subject: p.Subject}, Data: p.Data}
	if p.Audience != "" {
		c.Audience = gjwt.ClaimStrings{p.Audience}
	}
	if p.ExpiresAt != 0 {
		c.ExpiresAt = gjwt.NewNumericDate(time.Unix(p.ExpiresAt, 0))
	}
	if p.IssuedAt != 0 {
		c.IssuedAt = gjwt.NewNumericDate(time.Unix(p.IssuedAt, 0))
	}
	t := gjwt.NewWithClaims(g.method, c)
	if g.kid != "" {
		t.Header["kid"] = g.kid
	}
	return t.SignedString(g.signKey)
}

func (g *golangJWTOps) Verify(token string, p *Payload) error {
	var c golangJWTClaims
	if _, err := g.parser.ParseWithClaims(token, &c, g.keyfunc); err != nil {
		return err
	}
	*p = Payload{Issuer: c.Issuer, Subject: c.Subject, Data: c.Data}
	if len(c.Audience) > 0 {
		p.Audience = c.Audience[0]
	}
	if c.ExpiresAt != nil {
		p.ExpiresAt = c.ExpiresAt.Unix()
	}
	if c.IssuedAt != nil {
		p.IssuedAt = c.IssuedAt.Unix()
	}
	return nil
}
