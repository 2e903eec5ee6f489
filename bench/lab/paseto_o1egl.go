package lab

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"time"

	o1egl "github.com/o1egl/paseto"
)

// o1eglPASETO is github.com/o1egl/paseto v1.0.0: v1 and v2 only, so
// v2.local and v2.public here. A payload of registered claims only is its
// JSONToken, as the README shows; JSONToken carries other claims as
// strings only, so a payload with data is a struct of the lab's (the
// README: "you are free to use any data types and structs you want"),
// with exp and iat as RFC 3339. Open checks the times with the library's
// own validator, JSONToken.Validate(ValidAt(now)), which, as shipped,
// lets a token without exp pass.
type o1eglPASETO struct{}

func (o1eglPASETO) Name() string       { return "o1egl" }
func (o1eglPASETO) Purposes() []string { return []string{"v2.local", "v2.public"} }

func (o1eglPASETO) New(k KeySpec) (PASETO, error) {
	o := &o1eglOps{v2: o1egl.NewV2(), registered: k.Registered}
	switch k.Alg {
	case "v2.local":
		if len(k.Secret) != 32 {
			return nil, fmt.Errorf("o1egl v2.local: want a 32-byte key")
		}
		o.secret = k.Secret
	case "v2.public":
		var ok bool
		o.priv, _ = k.Private.(ed25519.PrivateKey)
		if o.pub, ok = k.Public.(ed25519.PublicKey); !ok && o.priv != nil {
			o.pub, ok = o.priv.Public().(ed25519.PublicKey)
		}
		if !ok {
			return nil, fmt.Errorf("o1egl v2.public: want an Ed25519 key")
		}
	default:
		return nil, fmt.Errorf("o1egl: no %s", k.Alg)
	}
	return o, nil
}

type o1eglOps struct {
	v2         *o1egl.V2
	registered bool // the payload is a JSONToken
	secret     []byte
	priv       ed25519.PrivateKey // nil with a public key alone
	pub        ed25519.PublicKey
}

// o1eglClaims is the payload as o1egl encodes it (encoding/json): the
// registered claims with RFC 3339 times, and the data.
type o1eglClaims struct {
	Issuer    string    `json:"iss,omitempty"`
	Subject   string    `json:"sub,omitempty"`
	Audience  string    `json:"aud,omitempty"`
	ExpiresAt time.Time `json:"exp,omitzero"`
	IssuedAt  time.Time `json:"iat,omitzero"`
	Data      *Data     `json:"data,omitempty"`
}

func newO1eglClaims(p *Payload) o1eglClaims {
	return o1eglClaims{Issuer: p.Issuer, Subject: p.Subject, Audience: p.Audience,
		ExpiresAt: pasetoTime(p.ExpiresAt), IssuedAt: pasetoTime(p.IssuedAt), Data: p.Data}
}

// Seal passes "" for the footer: a nil footer is JSON-encoded like any
// other value, so that the token would carry the footer "null".
func (o *o1eglOps) Seal(p *Payload) (string, error) {
	var c any = newO1eglClaims(p)
	if o.registered && p.Data == nil {
		c = o1egl.JSONToken{Issuer: p.Issuer, Subject: p.Subject, Audience: p.Audience,
			Expiration: pasetoTime(p.ExpiresAt), IssuedAt: pasetoTime(p.IssuedAt)}
	}
	switch {
	case o.secret != nil:
		return o.v2.Encrypt(o.secret, c, "")
	case o.priv != nil:
		return o.v2.Sign(o.priv, c, "")
	}
	return "", errors.New("o1egl: no private key")
}

func (o *o1eglOps) Open(token string, p *Payload) error {
	return o.OpenFor(token, nil, p, time.Now(), "")
}

// OpenFor implements PASETOOpenerFor (v2 has no implicit assertions), the
// audience checked by the library's validator ForAudience when audience is
// not "".
func (o *o1eglOps) OpenFor(token string, implicit []byte, p *Payload, now time.Time, audience string) error {
	if implicit != nil {
		return errNoImplicit
	}
	var c o1eglClaims
	var jt o1egl.JSONToken
	var dst any = &c
	if o.registered {
		dst = &jt
	}
	var err error
	if o.secret != nil {
		err = o.v2.Decrypt(token, o.secret, dst, nil)
	} else {
		err = o.v2.Verify(token, o.pub, dst, nil)
	}
	if err != nil {
		return err
	}
	if !o.registered {
		jt = o1egl.JSONToken{Issuer: c.Issuer, Subject: c.Subject, Audience: c.Audience, Expiration: c.ExpiresAt, IssuedAt: c.IssuedAt}
	}
	validators := []o1egl.Validator{o1egl.ValidAt(now)}
	if audience != "" {
		validators = append(validators, o1egl.ForAudience(audience))
	}
	if err := jt.Validate(validators...); err != nil {
		return err
	}
	*p = Payload{Issuer: jt.Issuer, Subject: jt.Subject, Audience: jt.Audience,
		ExpiresAt: pasetoUnix(jt.Expiration), IssuedAt: pasetoUnix(jt.IssuedAt), Data: c.Data}
	return nil
}

// OpenBytes implements PASETOOpenerBytes: o1egl hands a *[]byte payload
// and footer over as they are.
func (o *o1eglOps) OpenBytes(token string, implicit []byte) (payload, footer []byte, err error) {
	if implicit != nil {
		return nil, nil, errNoImplicit
	}
	if o.secret != nil {
		err = o.v2.Decrypt(token, o.secret, &payload, &footer)
	} else {
		err = o.v2.Verify(token, o.pub, &payload, &footer)
	}
	if err != nil {
		return nil, nil, err
	}
	return payload, footer, nil
}
