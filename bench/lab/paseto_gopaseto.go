package lab

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	gopaseto "aidanwoods.dev/go-paseto"
)

// goPASETO is aidanwoods.dev/go-paseto: v2, v3 and v4, local and public,
// used as its README shows: a Token built with the typed setters, and a
// Parser made by NewParser (whose NotExpired rule requires a valid exp).
type goPASETO struct{}

func (goPASETO) Name() string { return "go-paseto" }
func (goPASETO) Purposes() []string {
	return []string{"v4.local", "v4.public", "v3.local", "v3.public", "v2.local", "v2.public"}
}

// errNoImplicit: v2 has no implicit assertions.
var errNoImplicit = errors.New("lab: PASETO v2 has no implicit assertions")

func (goPASETO) New(k KeySpec) (PASETO, error) {
	o := &goPASETOOps{parser: gopaseto.NewParser()}
	switch k.Alg {
	case "v4.local":
		key, err := gopaseto.V4SymmetricKeyFromBytes(k.Secret)
		if err != nil {
			return nil, err
		}
		o.seal = func(t *gopaseto.Token) string { return t.V4Encrypt(key, nil) }
		o.parse = func(p gopaseto.Parser, tok string, i []byte) (*gopaseto.Token, error) {
			return p.ParseV4Local(key, tok, i)
		}
	case "v3.local":
		key, err := gopaseto.V3SymmetricKeyFromBytes(k.Secret)
		if err != nil {
			return nil, err
		}
		o.seal = func(t *gopaseto.Token) string { return t.V3Encrypt(key, nil) }
		o.parse = func(p gopaseto.Parser, tok string, i []byte) (*gopaseto.Token, error) {
			return p.ParseV3Local(key, tok, i)
		}
	case "v2.local":
		key, err := gopaseto.V2SymmetricKeyFromBytes(k.Secret)
		if err != nil {
			return nil, err
		}
		o.seal = func(t *gopaseto.Token) string { return t.V2Encrypt(key) }
		o.parse = func(p gopaseto.Parser, tok string, i []byte) (*gopaseto.Token, error) {
			if i != nil {
				return nil, errNoImplicit
			}
			return p.ParseV2Local(key, tok)
		}
	case "v4.public", "v2.public":
		priv, _ := k.Private.(ed25519.PrivateKey)
		pub, ok := k.Public.(ed25519.PublicKey)
		if !ok && priv != nil {
			pub, ok = priv.Public().(ed25519.PublicKey)
		}
		if !ok {
			return nil, fmt.Errorf("go-paseto %s: want an Ed25519 key", k.Alg)
		}
		if k.Alg == "v4.public" {
			pk, err := gopaseto.NewV4AsymmetricPublicKeyFromEd25519(pub)
			if err != nil {
				return nil, err
			}
			if priv != nil {
				sk, err := gopaseto.NewV4AsymmetricSecretKeyFromEd25519(priv)
				if err != nil {
					return nil, err
				}
				o.seal = func(t *gopaseto.Token) string { return t.V4Sign(sk, nil) }
			}
			o.parse = func(p gopaseto.Parser, tok string, i []byte) (*gopaseto.Token, error) {
				return p.ParseV4Public(pk, tok, i)
			}
		} else {
			pk, err := gopaseto.NewV2AsymmetricPublicKeyFromEd25519(pub)
			if err != nil {
				return nil, err
			}
			if priv != nil {
				sk, err := gopaseto.NewV2AsymmetricSecretKeyFromEd25519(priv)
				if err != nil {
					return nil, err
				}
				o.seal = func(t *gopaseto.Token) string { return t.V2Sign(sk) }
			}
			o.parse = func(p gopaseto.Parser, tok string, i []byte) (*gopaseto.Token, error) {
				if i != nil {
					return nil, errNoImplicit
				}
				return p.ParseV2Public(pk, tok)
			}
		}
	case "v3.public":
		priv, _ := k.Private.(*ecdsa.PrivateKey)
		pub, ok := k.Public.(*ecdsa.PublicKey)
		if !ok && priv != nil {
			pub, ok = &priv.PublicKey, true
		}
		if !ok {
			return nil, fmt.Errorf("go-paseto %s: want a P-384 key", k.Alg)
		}
		pk, err := gopaseto.NewV3AsymmetricPublicKeyFromEcdsa(*pub)
		if err != nil {
			return nil, err
		}
		if priv != nil {
			sk, err := gopaseto.NewV3AsymmetricSecretKeyFromEcdsa(*priv)
			if err != nil {
				return nil, err
			}
			o.seal = func(t *gopaseto.Token) string { return t.V3Sign(sk, nil) }
		}
		o.parse = func(p gopaseto.Parser, tok string, i []byte) (*gopaseto.Token, error) {
			return p.ParseV3Public(pk, tok, i)
		}
	default:
		return nil, fmt.Errorf("go-paseto: no %s", k.Alg)
	}
	return o, nil
}

type goPASETOOps struct {
	parser gopaseto.Parser
	seal   func(*gopaseto.Token) string // nil with a public key alone
	parse  func(p gopaseto.Parser, token string, implicit []byte) (*gopaseto.Token, error)
}

func (g *goPASETOOps) Seal(p *Payload) (string, error) {
	if g.seal == nil {
		return "", errors.New("go-paseto: no private key")
	}
	t := gopaseto.NewToken()
	if p.Issuer != "" {
		t.SetIssuer(p.Issuer)
	}
	if p.Subject != "" {
		t.SetSubject(p.Subject)
	}
	if p.Audience != "" {
		t.SetAudience(p.Audience)
	}
	if p.ExpiresAt != 0 {
		t.SetExpiration(pasetoTime(p.ExpiresAt))
	}
	if p.IssuedAt != 0 {
		t.SetIssuedAt(pasetoTime(p.IssuedAt))
	}
	if p.Data != nil {
		if err := t.Set("data", p.Data); err != nil {
			return "", err
		}
	}
	return g.seal(&t), nil
}

// Open parses with the parser's rules (NotExpired), then reads the claims
// with the typed getters.
func (g *goPASETOOps) Open(token string, p *Payload) error {
	t, err := g.parse(g.parser, token, nil)
	if err != nil {
		return err
	}
	return goPASETOClaims(t, p)
}

// OpenFor implements PASETOOpenerFor, the audience checked by the
// library's rule ForAudience when audience is not "". go-paseto's
// NotExpired reads the wall clock; a Rule (the parser's extension point)
// does its check at now, as NotExpired does (expired after exp).
func (g *goPASETOOps) OpenFor(token string, implicit []byte, p *Payload, now time.Time, audience string) error {
	parser := gopaseto.NewParserWithoutExpiryCheck()
	if audience != "" {
		parser.AddRule(gopaseto.ForAudience(audience))
	}
	parser.AddRule(func(t gopaseto.Token) error {
		exp, err := t.GetExpiration()
		if err != nil {
			return err
		}
		if now.After(exp) {
			return errors.New("go-paseto: this token has expired")
		}
		return nil
	})
	t, err := g.parse(parser, token, implicit)
	if err != nil {
		return err
	}
	return goPASETOClaims(t, p)
}

// OpenBytes implements PASETOOpenerBytes. go-paseto keeps the claims as a
// map: the payload comes back as ClaimsJSON re-encodes it (keys sorted,
// compact), not byte for byte.
func (g *goPASETOOps) OpenBytes(token string, implicit []byte) (payload, footer []byte, err error) {
	t, err := g.parse(gopaseto.NewParserWithoutExpiryCheck(), token, implicit)
	if err != nil {
		return nil, nil, err
	}
	return t.ClaimsJSON(), t.Footer(), nil
}

// goPASETOClaims reads t's claims into p. A claim the payload lacks (iss
// in "tiny") makes its getter fail, which only means it is absent.
func goPASETOClaims(t *gopaseto.Token, p *Payload) error {
	*p = Payload{}
	p.Issuer, _ = t.GetIssuer()
	p.Subject, _ = t.GetSubject()
	p.Audience, _ = t.GetAudience()
	if exp, err := t.GetExpiration(); err == nil {
		p.ExpiresAt = exp.Unix()
	}
	if iat, err := t.GetIssuedAt(); err == nil {
		p.IssuedAt = iat.Unix()
	}
	d := new(Data)
	switch err := t.Get("data", d); {
	case err == nil:
		p.Data = d
	case errors.As(err, new(*json.SyntaxError)), errors.As(err, new(*json.UnmarshalTypeError)):
		return err // present but not Data; otherwise absent
	}
	return nil
}
