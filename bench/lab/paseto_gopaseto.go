package lab

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"

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

func (goPASETO) New(k KeySpec) (PASETO, error) {
	o := &goPASETOOps{parser: gopaseto.NewParser()}
	switch k.Alg {
	case "v4.local":
		key, err := gopaseto.V4SymmetricKeyFromBytes(k.Secret)
		if err != nil {
			return nil, err
		}
		o.seal = func(t *gopaseto.Token) string { return t.V4Encrypt(key, nil) }
		o.parse = func(tok string) (*gopaseto.Token, error) { return o.parser.ParseV4Local(key, tok, nil) }
	case "v3.local":
		key, err := gopaseto.V3SymmetricKeyFromBytes(k.Secret)
		if err != nil {
			return nil, err
		}
		o.seal = func(t *gopaseto.Token) string { return t.V3Encrypt(key, nil) }
		o.parse = func(tok string) (*gopaseto.Token, error) { return o.parser.ParseV3Local(key, tok, nil) }
	case "v2.local":
		key, err := gopaseto.V2SymmetricKeyFromBytes(k.Secret)
		if err != nil {
			return nil, err
		}
		o.seal = func(t *gopaseto.Token) string { return t.V2Encrypt(key) }
		o.parse = func(tok string) (*gopaseto.Token, error) { return o.parser.ParseV2Local(key, tok) }
	case "v4.public", "v2.public":
		priv, ok1 := k.Private.(ed25519.PrivateKey)
		pub, ok2 := k.Public.(ed25519.PublicKey)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("go-paseto %s: want an Ed25519 key", k.Alg)
		}
		if k.Alg == "v4.public" {
			sk, err := gopaseto.NewV4AsymmetricSecretKeyFromEd25519(priv)
			if err != nil {
				return nil, err
			}
			pk, err := gopaseto.NewV4AsymmetricPublicKeyFromEd25519(pub)
			if err != nil {
				return nil, err
			}
			o.seal = func(t *gopaseto.Token) string { return t.V4Sign(sk, nil) }
			o.parse = func(tok string) (*gopaseto.Token, error) { return o.parser.ParseV4Public(pk, tok, nil) }
		} else {
			sk, err := gopaseto.NewV2AsymmetricSecretKeyFromEd25519(priv)
			if err != nil {
				return nil, err
			}
			pk, err := gopaseto.NewV2AsymmetricPublicKeyFromEd25519(pub)
			if err != nil {
				return nil, err
			}
			o.seal = func(t *gopaseto.Token) string { return t.V2Sign(sk) }
			o.parse = func(tok string) (*gopaseto.Token, error) { return o.parser.ParseV2Public(pk, tok) }
		}
	case "v3.public":
		priv, ok1 := k.Private.(*ecdsa.PrivateKey)
		pub, ok2 := k.Public.(*ecdsa.PublicKey)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("go-paseto %s: want a P-384 key", k.Alg)
		}
		sk, err := gopaseto.NewV3AsymmetricSecretKeyFromEcdsa(*priv)
		if err != nil {
			return nil, err
		}
		pk, err := gopaseto.NewV3AsymmetricPublicKeyFromEcdsa(*pub)
		if err != nil {
			return nil, err
		}
		o.seal = func(t *gopaseto.Token) string { return t.V3Sign(sk, nil) }
		o.parse = func(tok string) (*gopaseto.Token, error) { return o.parser.ParseV3Public(pk, tok, nil) }
	default:
		return nil, fmt.Errorf("go-paseto: no %s", k.Alg)
	}
	return o, nil
}

type goPASETOOps struct {
	parser gopaseto.Parser
	seal   func(*gopaseto.Token) string
	parse  func(string) (*gopaseto.Token, error)
}

func (g *goPASETOOps) Seal(p *Payload) (string, error) {
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
// with the typed getters; a claim the payload lacks (iss in "tiny") makes
// its getter fail, which only means it is absent.
func (g *goPASETOOps) Open(token string, p *Payload) error {
	t, err := g.parse(token)
	if err != nil {
		return err
	}
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
