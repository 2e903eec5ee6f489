package lab

import (
	"time"

	jose "github.com/go-jose/go-jose/v4"
	jjwt "github.com/go-jose/go-jose/v4/jwt"
)

// go-jose's adapter's optional methods for the security matrix
// (attacks.go).

// VerifyAt verifies with now as the clock (JWTVerifierAt), the claims
// validated with jwt.Expected{Time: now}; Verify is VerifyAt with the zero
// time, which go-jose takes as time.Now().
func (g *goJoseOps) VerifyAt(token string, p *Payload, now time.Time) error {
	return g.verifyExpected(token, p, jjwt.Expected{Time: now})
}

// VerifyFor is VerifyAt with the audience checked by the library
// (JWTVerifierFor): jwt.Expected's AnyAudience, none when audience is "".
func (g *goJoseOps) VerifyFor(token string, p *Payload, now time.Time, audience string) error {
	return g.verifyExpected(token, p, goJoseExpected(now, audience))
}

// goJoseExpected is jwt.Expected{Time: now} with AnyAudience when an
// audience is named.
func goJoseExpected(now time.Time, audience string) jjwt.Expected {
	e := jjwt.Expected{Time: now}
	if audience != "" {
		e.AnyAudience = jjwt.Audience{audience}
	}
	return e
}

func (g *goJoseOps) verifyExpected(token string, p *Payload, e jjwt.Expected) error {
	t, err := jjwt.ParseSigned(token, g.algs)
	if err != nil {
		return err
	}
	var c goJoseClaims
	if err := t.Claims(g.verifyKey, &c); err != nil {
		return err
	}
	return c.validate(e, p)
}

// VerifyBytes checks the signature and the algorithm only and returns the
// payload (JWSVerifierBytes): go-jose's JWS API, jose.ParseSignedCompact
// with the one allowed algorithm (jose.ParseSigned, which also takes the
// JSON serialization, is deprecated in v4 for it), then Verify with the
// key.
func (g *goJoseOps) VerifyBytes(token string) ([]byte, error) {
	obj, err := jose.ParseSignedCompact(token, g.algs)
	if err != nil {
		return nil, err
	}
	return obj.Verify(g.verifyKey)
}
