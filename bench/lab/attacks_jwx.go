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
	at := *j
	at.parse = append(slices.Clip(j.parse), jjwt.WithClock(jjwt.ClockFunc(func() time.Time { return now })))
	return at.Verify(token, p)
}

// VerifyBytes checks the signature and the algorithm only and returns the
// payload (JWSVerifierBytes): jws.Verify with the adapter's algorithm and
// key, jwx's JWS-level API.
func (j *jwxOps) VerifyBytes(token string) ([]byte, error) {
	return jws.Verify([]byte(token), jws.WithKey(j.alg, j.verifyKey))
}
