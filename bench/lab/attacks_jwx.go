package lab

import (
	"slices"
	"time"

	"github.com/lestrrat-go/jwx/v3/jws"
	jjwt "github.com/lestrrat-go/jwx/v3/jwt"
)

// jwx's adapter's optional methods for the security matrix (attacks.go).

// VerifyAt is Verify with now as the clock (JWTVerifierAt): Verify's parse
// options (the one algorithm and key, exp required) and jwt.WithClock.
func (j *jwxOps) VerifyAt(token string, p *Payload, now time.Time) error {
	return j.VerifyFor(token, p, now, "")
}

// VerifyFor is VerifyAt with the library's audience check, the option
// jwt.WithAudience, when audience is not "" (JWTVerifierFor).
func (j *jwxOps) VerifyFor(token string, p *Payload, now time.Time, audience string) error {
	at := *j
	at.parse = append(slices.Clip(j.parse), jjwt.WithClock(jjwt.ClockFunc(func() time.Time { return now })))
	if audience != "" {
		at.parse = append(at.parse, jjwt.WithAudience(audience))
	}
	return at.Verify(token, p)
}

// VerifyBytes checks the signature and the algorithm only and returns the
// payload (JWSVerifierBytes): jws.Verify with the adapter's algorithm and
// key, jwx's JWS-level API.
func (j *jwxOps) VerifyBytes(token string) ([]byte, error) {
	return jws.Verify([]byte(token), jws.WithKey(j.alg, j.verifyKey))
}
