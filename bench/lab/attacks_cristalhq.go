package lab

import (
	"errors"
	"time"

	cjwt "github.com/cristalhq/jwt/v5"
)

// cristalhq's adapter's optional methods for the security matrix
// (attacks.go).

// VerifyAt verifies with now as the clock (JWTVerifierAt), the claims
// checked with IsValidAt(now); Verify is VerifyAt at time.Now().
func (c *cristalhqOps) VerifyAt(token string, p *Payload, now time.Time) error {
	return c.VerifyFor(token, p, now, "")
}

// VerifyFor is VerifyAt with the audience checked by the library's
// RegisteredClaims.IsForAudience (JWTVerifierFor); none when audience is
// "" (the library checks aud only when asked).
func (c *cristalhqOps) VerifyFor(token string, p *Payload, now time.Time, audience string) error {
	var cl cristalhqClaims
	if err := cjwt.ParseClaims([]byte(token), c.verifier, &cl); err != nil {
		return err
	}
	if cl.ExpiresAt == nil {
		return errors.New("cristalhq: token has no exp")
	}
	if !cl.IsValidAt(now) {
		return errors.New("cristalhq: token expired or not yet valid")
	}
	if audience != "" && !cl.IsForAudience(audience) {
		return errors.New("cristalhq: token not for this audience")
	}
	*p = Payload{Issuer: cl.Issuer, Subject: cl.Subject, ExpiresAt: cl.ExpiresAt.Unix(), Data: cl.Data}
	if len(cl.Audience) > 0 {
		p.Audience = cl.Audience[0]
	}
	if cl.IssuedAt != nil {
		p.IssuedAt = cl.IssuedAt.Unix()
	}
	return nil
}

// VerifyBytes checks the signature and the algorithm only and returns the
// payload (JWSVerifierBytes): jwt.Parse with the adapter's Verifier (bound
// to one algorithm), then the token's raw payload, Claims.
func (c *cristalhqOps) VerifyBytes(token string) ([]byte, error) {
	t, err := cjwt.Parse([]byte(token), c.verifier)
	if err != nil {
		return nil, err
	}
	return t.Claims(), nil
}
