package lab

import (
	"time"

	"github.com/signet-go/signet/attacks"
	"github.com/signet-go/signet/jwt"
)

// signet's JWT adapter's optional methods, which the conformance runs
// of the published vectors use (attacks.go; signet's attack verdicts come
// from attacks.Case.Verify instead): the same verification as its Verify,
// at a given time, and the JWS check alone.

// VerifyAt is Verify with now as the clock (JWTVerifierAt).
func (s signetJWTOps) VerifyAt(token string, p *Payload, now time.Time) error {
	c, err := jwt.Verify[claims](s.key, token, jwt.Policy{MaxSize: 1 << 20, Now: func() time.Time { return now }, Audience: []string{attacks.Audience}})
	if err != nil {
		return err
	}
	*p = Payload{Issuer: c.Issuer, Subject: c.Subject, ExpiresAt: int64(c.ExpiresAt), IssuedAt: int64(c.IssuedAt), Data: c.Data}
	if len(c.Audience) > 0 {
		p.Audience = c.Audience[0]
	}
	return nil
}

// VerifyBytes checks the signature and algorithm only and returns the
// payload (JWSVerifierBytes).
func (s signetJWTOps) VerifyBytes(token string) ([]byte, error) {
	payload, _, err := jwt.VerifyBytes(s.key, token, jwt.Policy{MaxSize: 1 << 20})
	return payload, err
}
