package study

import (
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/paseto"
)

// signetPASETOClaims are the study's claims as a PASETO payload:
// paseto.Claims embedded (exp and iat as RFC 3339 times).
type signetPASETOClaims struct {
	UserID   uint     `json:"user_id"`
	Username string   `json:"username"`
	Perms    []string `json:"perms,omitempty"`
	paseto.Claims
}

// signetPASETO issues with paseto.Sign or Encrypt and checks with
// paseto.Verify or Decrypt under the zero Policy (exp required).
type signetPASETO struct {
	alg        string
	key, check *signet.Key
	local      bool
	perms      []string
}

func newSignetPASETO(alg string, perms []string, k *Keys) (*signetPASETO, error) {
	key, check, err := signetKeys(alg, k)
	if err != nil {
		return nil, err
	}
	return &signetPASETO{alg: alg, key: key, check: check, local: key.Symmetric(), perms: perms}, nil
}

func (s *signetPASETO) Lib() string { return LibSignet }
func (s *signetPASETO) Alg() string { return s.alg }

func (s *signetPASETO) Issue(now time.Time, userID uint) (string, error) {
	c := signetPASETOClaims{
		UserID:   userID,
		Username: Username,
		Perms:    s.perms,
		Claims:   paseto.Claims{ExpiresAt: now.Add(Lifetime), IssuedAt: now},
	}
	if s.local {
		return paseto.Encrypt(s.key, c, paseto.Options{})
	}
	return paseto.Sign(s.key, c, paseto.Options{})
}

func (s *signetPASETO) Check(token string) (Identity, error) {
	var c signetPASETOClaims
	var err error
	if s.local {
		c, err = paseto.Decrypt[signetPASETOClaims](s.check, token, paseto.Policy{})
	} else {
		c, err = paseto.Verify[signetPASETOClaims](s.check, token, paseto.Policy{})
	}
	if err != nil {
		return Identity{}, refused(LibSignet, err)
	}
	return Identity{UserID: c.UserID, Username: c.Username}, nil
}
