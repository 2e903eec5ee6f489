package study

import (
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwt"
)

// signetJWTClaims are the study's claims for signet: the same members,
// jwt.Claims embedded in place of golang-jwt's RegisteredClaims.
type signetJWTClaims struct {
	UserID   uint     `json:"user_id"`
	Username string   `json:"username"`
	Perms    []string `json:"perms,omitempty"`
	jwt.Claims
}

// signetJWT issues with jwt.Sign and checks with jwt.Verify under the
// zero Policy (exp required; the tokens carry no aud), the public key
// verifying as a relying party holds it.
type signetJWT struct {
	alg        string
	key, check *signet.Key
	perms      []string
}

func newSignetJWT(alg string, perms []string, k *Keys) (*signetJWT, error) {
	key, check, err := signetKeys(alg, k)
	if err != nil {
		return nil, err
	}
	return &signetJWT{alg: alg, key: key, check: check, perms: perms}, nil
}

// signetKeys returns signet's signing key for alg, with the kid every
// library writes, and the key that checks: its public half for an
// asymmetric algorithm.
func signetKeys(alg string, k *Keys) (sign, check *signet.Key, err error) {
	var material any
	switch alg {
	case "HS256":
		material = k.HMAC
	case "RS256", "PS256":
		material = k.RSA
	case "ES256":
		material = k.P256
	case "EdDSA", "v4.public":
		material = k.Ed25519
	case "v4.local":
		material = k.Local
	}
	key, err := signet.NewKey(signet.Algorithm(alg), material)
	if err != nil {
		return nil, nil, err
	}
	key = key.WithKeyID(KeyID(alg))
	if key.Symmetric() {
		return key, key, nil
	}
	pub, err := key.Public()
	if err != nil {
		return nil, nil, err
	}
	return key, pub, nil
}

func (s *signetJWT) Lib() string { return LibSignet }
func (s *signetJWT) Alg() string { return s.alg }

func (s *signetJWT) Issue(now time.Time, userID uint) (string, error) {
	return jwt.Sign(s.key, signetJWTClaims{
		UserID:   userID,
		Username: Username,
		Perms:    s.perms,
		Claims:   jwt.Claims{ExpiresAt: jwt.At(now.Add(Lifetime)), IssuedAt: jwt.At(now)},
	})
}

func (s *signetJWT) Check(token string) (Identity, error) {
	c, err := jwt.Verify[signetJWTClaims](s.check, token, jwt.Policy{})
	if err != nil {
		return Identity{}, refused(LibSignet, err)
	}
	return Identity{UserID: c.UserID, Username: c.Username}, nil
}
