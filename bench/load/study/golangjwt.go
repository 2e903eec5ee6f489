package study

import (
	"errors"
	"fmt"
	"time"

	gjwt "github.com/golang-jwt/jwt/v5"
	"github.com/signet-go/signet"
)

// golangJWTClaims are the study's claims type: its CustomClaims
// (user_id, username) embedding RegisteredClaims, with the permissions of
// the larger payload classes.
type golangJWTClaims struct {
	UserID   uint     `json:"user_id"`
	Username string   `json:"username"`
	Perms    []string `json:"perms,omitempty"`
	gjwt.RegisteredClaims
}

// golangJWT is the study's code: jwt.NewWithClaims and SignedString to
// issue, ParseWithClaims with a key function to check. The parser is made
// once with WithValidMethods (the library's documented defence against
// algorithm confusion; the study's package-level ParseWithClaims omits
// it) and WithExpirationRequired (signet requires exp by default: both
// then check the same things).
type golangJWT struct {
	alg     string
	method  gjwt.SigningMethod
	signKey any
	keyfunc gjwt.Keyfunc
	parser  *gjwt.Parser
	perms   []string
	kid     string
}

func newGolangJWT(alg string, perms []string, k *Keys) (*golangJWT, error) {
	g := &golangJWT{alg: alg, method: gjwt.GetSigningMethod(alg), perms: perms, kid: KeyID(alg),
		parser: gjwt.NewParser(gjwt.WithValidMethods([]string{alg}), gjwt.WithExpirationRequired())}
	if g.method == nil {
		return nil, fmt.Errorf("%w: study: golang-jwt has no %s", signet.ErrUnsupported, alg)
	}
	var verifyKey any
	switch alg {
	case "HS256":
		g.signKey, verifyKey = k.HMAC, k.HMAC
	case "RS256", "PS256":
		g.signKey, verifyKey = k.RSA, &k.RSA.PublicKey
	case "ES256":
		g.signKey, verifyKey = k.P256, &k.P256.PublicKey
	case "EdDSA":
		g.signKey, verifyKey = k.Ed25519, k.Ed25519.Public()
	default:
		return nil, fmt.Errorf("%w: study: golang-jwt: no key for %s", signet.ErrUnsupported, alg)
	}
	g.keyfunc = func(*gjwt.Token) (any, error) { return verifyKey, nil }
	return g, nil
}

func (g *golangJWT) Lib() string { return LibGolangJWT }
func (g *golangJWT) Alg() string { return g.alg }

func (g *golangJWT) Issue(now time.Time, userID uint) (string, error) {
	claims := &golangJWTClaims{
		UserID:   userID,
		Username: Username,
		Perms:    g.perms,
		RegisteredClaims: gjwt.RegisteredClaims{
			ExpiresAt: gjwt.NewNumericDate(now.Add(Lifetime)),
			IssuedAt:  gjwt.NewNumericDate(now),
		},
	}
	token := gjwt.NewWithClaims(g.method, claims)
	token.Header["kid"] = g.kid
	return token.SignedString(g.signKey)
}

func (g *golangJWT) Check(token string) (Identity, error) {
	parsed, err := g.parser.ParseWithClaims(token, &golangJWTClaims{}, g.keyfunc)
	if err != nil {
		return Identity{}, refused(LibGolangJWT, err)
	}
	claims, ok := parsed.Claims.(*golangJWTClaims)
	if !ok || !parsed.Valid {
		return Identity{}, refused(LibGolangJWT, errors.New("invalid token"))
	}
	return Identity{UserID: claims.UserID, Username: claims.Username}, nil
}
