package lab

import (
	"crypto"
	"errors"
	"fmt"

	kjwt "github.com/kataras/jwt"
)

// katarasJWT is github.com/kataras/jwt. The caller names the algorithm on
// every call; Verify checks the signature before decoding the payload and
// then validates exp, nbf and iat when present (exp required here, as
// signet requires it, through a TokenValidator).
//
// Its plain Sign/Verify write and expect the fixed header
// {"alg":…,"typ":"JWT"}, compared byte for byte: a token with a kid is
// refused. Keys with a kid therefore go through kjwt.Keys, the library's
// API for them (a kid → algorithm and key map: the header is JSON-decoded,
// its kid looked up and its alg checked against that key's; it writes
// {"kid":…,"alg":…}, without typ). PS256/384/512 sign with the largest
// salt (rsa.PSSSaltLengthAuto), not RFC 7518's hash-sized one, so
// verifiers that hold to the RFC (signet, jwx) refuse those tokens.
type katarasJWT struct{}

func (katarasJWT) Name() string   { return "kataras" }
func (katarasJWT) Algs() []string { return JWSAlgs }

var katarasAlgs = map[string]kjwt.Alg{
	"HS256": kjwt.HS256, "HS384": kjwt.HS384, "HS512": kjwt.HS512,
	"RS256": kjwt.RS256, "RS384": kjwt.RS384, "RS512": kjwt.RS512,
	"PS256": kjwt.PS256, "PS384": kjwt.PS384, "PS512": kjwt.PS512,
	"ES256": kjwt.ES256, "ES384": kjwt.ES384, "ES512": kjwt.ES512,
	"EdDSA": kjwt.EdDSA,
}

func (katarasJWT) New(k KeySpec) (JWT, error) {
	// kataras' own loaders, but for EC keys: its ParsePrivateKeyECDSA
	// reads SEC 1 only, so PKCS #8 goes through the standard library.
	k, err := fromPEM(k, func(data []byte) (crypto.Signer, error) {
		switch k.Alg[0] {
		case 'R', 'P':
			return kjwt.ParsePrivateKeyRSA(data)
		case 'E':
			if k.Alg == "EdDSA" {
				return kjwt.ParsePrivateKeyEdDSA(data)
			}
			return pkcs8(data)
		}
		return nil, fmt.Errorf("kataras: no PEM loader for %s", k.Alg)
	})
	if err != nil {
		return nil, err
	}
	alg, ok := katarasAlgs[k.Alg]
	if !ok {
		return nil, fmt.Errorf("kataras: no algorithm %s", k.Alg)
	}
	o := &katarasOps{alg: alg, kid: k.KeyID}
	if o.signKey, o.verifyKey, ok = jwsKeys(k); !ok {
		return nil, errors.New("kataras: no key")
	}
	if o.kid != "" {
		o.keys = kjwt.Keys{}
		o.keys.Register(alg, o.kid, o.verifyKey, o.signKey)
	}
	return o, nil
}

type katarasOps struct {
	alg                kjwt.Alg
	kid                string
	signKey, verifyKey any
	keys               kjwt.Keys // when kid != ""
}

// katarasClaims decodes a verified payload: the library's standard claims
// (aud as a string or an array) and the data.
type katarasClaims struct {
	kjwt.Claims
	Data *Data `json:"data,omitempty"`
}

var errKatarasNoExp = errors.New("kataras: token has no exp")

// katarasRequireExp is a TokenValidator: exp must be present (the library
// has already refused an expired one).
var katarasRequireExp = kjwt.TokenValidatorFunc(func(_ []byte, c kjwt.Claims, err error) error {
	if err == nil && c.Expiry == 0 {
		return errKatarasNoExp
	}
	return err
})

func (o *katarasOps) Sign(p *Payload) (string, error) {
	if o.signKey == nil {
		return "", errors.New("kataras: verify-only key")
	}
	// Any JSON-encodable value is the claims; p's fields are the
	// registered claims' names (aud a string).
	var b []byte
	var err error
	if o.keys != nil {
		b, err = o.keys.SignToken(o.kid, p)
	} else {
		b, err = kjwt.Sign(o.alg, o.signKey, p)
	}
	return string(b), err
}

func (o *katarasOps) Verify(token string, p *Payload) error {
	return o.verify(token, p, katarasRequireExp)
}

// verify is Verify with the token validators given.
func (o *katarasOps) verify(token string, p *Payload, validators ...kjwt.TokenValidator) error {
	if o.keys == nil {
		// The library's usual form: the standard claims, decoded and
		// validated by Verify, and the application's own in a second
		// decode.
		v, err := kjwt.Verify(o.alg, o.verifyKey, []byte(token), validators...)
		if err != nil {
			return err
		}
		var c struct {
			Data *Data `json:"data,omitempty"`
		}
		if err := v.Claims(&c); err != nil {
			return err
		}
		setKatarasPayload(p, v.StandardClaims, c.Data)
		return nil
	}
	// Keys.VerifyToken validates the standard claims too but returns only
	// the decoded claims: they carry the standard ones.
	var c katarasClaims
	if err := o.keys.VerifyToken([]byte(token), &c, validators...); err != nil {
		return err
	}
	setKatarasPayload(p, c.Claims, c.Data)
	return nil
}

func setKatarasPayload(p *Payload, c kjwt.Claims, d *Data) {
	*p = Payload{Issuer: c.Issuer, Subject: c.Subject, ExpiresAt: c.Expiry, IssuedAt: c.IssuedAt, Data: d}
	if len(c.Audience) > 0 {
		p.Audience = c.Audience[0]
	}
}
