package study

import (
	"fmt"
	"time"

	gopaseto "aidanwoods.dev/go-paseto"
	"github.com/signet-go/signet"
)

// goPASETO is aidanwoods.dev/go-paseto as its README shows: a Token built
// with the typed setters, signed or encrypted; a Parser made by NewParser
// (its NotExpired rule requires a valid exp), the claims read with the
// typed getters.
type goPASETO struct {
	alg    string
	perms  []string
	parser gopaseto.Parser
	seal   func(*gopaseto.Token) string
	parse  func(token string) (*gopaseto.Token, error)
}

func newGoPASETO(alg string, perms []string, k *Keys) (*goPASETO, error) {
	g := &goPASETO{alg: alg, perms: perms, parser: gopaseto.NewParser()}
	switch alg {
	case "v4.local":
		key, err := gopaseto.V4SymmetricKeyFromBytes(k.Local)
		if err != nil {
			return nil, err
		}
		g.seal = func(t *gopaseto.Token) string { return t.V4Encrypt(key, nil) }
		g.parse = func(tok string) (*gopaseto.Token, error) { return g.parser.ParseV4Local(key, tok, nil) }
	case "v4.public":
		sk, err := gopaseto.NewV4AsymmetricSecretKeyFromEd25519(k.Ed25519)
		if err != nil {
			return nil, err
		}
		pk := sk.Public()
		g.seal = func(t *gopaseto.Token) string { return t.V4Sign(sk, nil) }
		g.parse = func(tok string) (*gopaseto.Token, error) { return g.parser.ParseV4Public(pk, tok, nil) }
	default:
		return nil, fmt.Errorf("%w: study: go-paseto: no %s", signet.ErrUnsupported, alg)
	}
	return g, nil
}

func (g *goPASETO) Lib() string { return LibGoPASETO }
func (g *goPASETO) Alg() string { return g.alg }

func (g *goPASETO) Issue(now time.Time, userID uint) (string, error) {
	t := gopaseto.NewToken()
	if err := t.Set("user_id", userID); err != nil {
		return "", err
	}
	t.SetString("username", Username)
	if g.perms != nil {
		if err := t.Set("perms", g.perms); err != nil {
			return "", err
		}
	}
	t.SetExpiration(now.Add(Lifetime))
	t.SetIssuedAt(now)
	return g.seal(&t), nil
}

func (g *goPASETO) Check(token string) (Identity, error) {
	t, err := g.parse(token)
	if err != nil {
		return Identity{}, refused(LibGoPASETO, err)
	}
	var id Identity
	if err := t.Get("user_id", &id.UserID); err != nil {
		return Identity{}, refused(LibGoPASETO, err)
	}
	if id.Username, err = t.GetString("username"); err != nil {
		return Identity{}, refused(LibGoPASETO, err)
	}
	return id, nil
}
