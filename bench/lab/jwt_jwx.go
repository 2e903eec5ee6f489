package lab

import (
	"crypto"
	"errors"
	"fmt"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
	jjwt "github.com/lestrrat-go/jwx/v3/jwt"
)

// jwxJWT is github.com/lestrrat-go/jwx/v3 through its jwt package, the
// way its documentation shows: a jwt.Token built with Set and signed
// with jwt.Sign(WithKey(alg, key)), and jwt.Parse with WithKey(alg, key),
// which pins the algorithm and validates exp, iat and nbf (exp required
// here, as signet requires it). The kid goes in through a jwk.Key carrying
// it (the documented way, which keeps jwt.Sign on its fast path); the
// private "data" claim decodes into Data through RegisterCustomField.
type jwxJWT struct{}

func (jwxJWT) Name() string   { return "jwx" }
func (jwxJWT) Algs() []string { return JWSAlgs }

func init() {
	// jwx's way to type a private claim (docs/20-global-settings.md); the
	// per-call alternative, WithTypedClaim, builds a registry per parse.
	jjwt.RegisterCustomField("data", Data{})
}

func (jwxJWT) New(k KeySpec) (JWT, error) {
	k, err := fromPEM(k, func(data []byte) (crypto.Signer, error) {
		key, err := jwk.ParseKey(data, jwk.WithPEM(true))
		if err != nil {
			return nil, err
		}
		var raw any
		if err := jwk.Export(key, &raw); err != nil {
			return nil, err
		}
		s, ok := raw.(crypto.Signer)
		if !ok {
			return nil, fmt.Errorf("jwx: %T is not a signer", raw)
		}
		return s, nil
	})
	if err != nil {
		return nil, err
	}
	alg, ok := jwa.LookupSignatureAlgorithm(k.Alg)
	if !ok {
		return nil, fmt.Errorf("jwx: no algorithm %s", k.Alg)
	}
	sign, verify, ok := jwsKeys(k)
	if !ok {
		return nil, errors.New("jwx: no key")
	}
	j := &jwxOps{
		parse: []jjwt.ParseOption{jjwt.WithKey(alg, verify), jjwt.WithRequiredClaim(jjwt.ExpirationKey)},
		alg:   alg, verifyKey: verify,
	}
	if sign != nil {
		if sign, err = jwxWithKeyID(sign, k.KeyID); err != nil {
			return nil, err
		}
		j.sign = []jjwt.SignOption{jjwt.WithKey(alg, sign)}
	}
	return j, nil
}

type jwxOps struct {
	sign  []jjwt.SignOption
	parse []jjwt.ParseOption
	// the algorithm and the verification key, for VerifyBytes
	// (attacks_jwx.go)
	alg       jwa.SignatureAlgorithm
	verifyKey any
}

func (j *jwxOps) Sign(p *Payload) (string, error) {
	if j.sign == nil {
		return "", errors.New("jwx: verify-only key")
	}
	t, err := jwxToken(p)
	if err != nil {
		return "", err
	}
	b, err := jjwt.Sign(t, j.sign...)
	return string(b), err
}

// jwxWithKeyID returns key as a jwx jwk.Key carrying kid (the documented
// way to put a kid in the header, which keeps jwt.Sign on its fast path),
// or key itself when kid is "".
func jwxWithKeyID(key any, kid string) (any, error) {
	if kid == "" {
		return key, nil
	}
	jk, err := jwk.Import(key)
	if err != nil {
		return nil, err
	}
	if err := jk.Set(jwk.KeyIDKey, kid); err != nil {
		return nil, err
	}
	return jk, nil
}

// jwxToken builds p as a jwx jwt.Token (JWS and JWE adapters alike).
func jwxToken(p *Payload) (jjwt.Token, error) {
	t := jjwt.New()
	var err error
	set := func(name string, v any) {
		if err == nil {
			err = t.Set(name, v)
		}
	}
	if p.Issuer != "" {
		set(jjwt.IssuerKey, p.Issuer)
	}
	if p.Subject != "" {
		set(jjwt.SubjectKey, p.Subject)
	}
	if p.Audience != "" {
		set(jjwt.AudienceKey, p.Audience)
		t.Options().Enable(jjwt.FlattenAudience) // "aud":"x", not ["x"]
	}
	if p.ExpiresAt != 0 {
		set(jjwt.ExpirationKey, time.Unix(p.ExpiresAt, 0))
	}
	if p.IssuedAt != 0 {
		set(jjwt.IssuedAtKey, time.Unix(p.IssuedAt, 0))
	}
	if p.Data != nil {
		set("data", p.Data)
	}
	return t, err
}

func (j *jwxOps) Verify(token string, p *Payload) error {
	t, err := jjwt.ParseString(token, j.parse...)
	if err != nil {
		return err
	}
	return jwxPayload(t, p)
}

// jwxPayload reads a parsed jwx jwt.Token into p.
func jwxPayload(t jjwt.Token, p *Payload) error {
	*p = Payload{}
	p.Issuer, _ = t.Issuer()
	p.Subject, _ = t.Subject()
	if aud, ok := t.Audience(); ok && len(aud) > 0 {
		p.Audience = aud[0]
	}
	if exp, ok := t.Expiration(); ok {
		p.ExpiresAt = exp.Unix()
	}
	if iat, ok := t.IssuedAt(); ok {
		p.IssuedAt = iat.Unix()
	}
	if t.Has("data") {
		var d Data
		if err := t.Get("data", &d); err != nil {
			return err
		}
		p.Data = &d
	}
	return nil
}
