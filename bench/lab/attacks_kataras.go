package lab

import (
	"sync"
	"time"

	kjwt "github.com/kataras/jwt"
)

// kataras's adapter's optional methods for the security matrix
// (attacks.go).

// katarasClockMu serialises VerifyAt's use of kjwt.Clock.
var katarasClockMu sync.Mutex

// VerifyAt is Verify with now as the clock (JWTVerifierAt). The library's
// only way to set its clock is the package-level kjwt.Clock (its README:
// "You can change that behavior through the jwt.Clock variable"), so
// VerifyAt sets it for the call and restores it, one VerifyAt at a time.
// Being process-wide, it must not run alongside this adapter's Verify (or
// any other kataras call) in another goroutine; the lab runs the security
// matrix on its own, sequentially.
func (o *katarasOps) VerifyAt(token string, p *Payload, now time.Time) error {
	return o.VerifyFor(token, p, now, "")
}

// VerifyFor is VerifyAt with the library's audience check, the validator
// jwt.Expected{Audience: …}, when audience is not "" (JWTVerifierFor).
func (o *katarasOps) VerifyFor(token string, p *Payload, now time.Time, audience string) error {
	katarasClockMu.Lock()
	defer katarasClockMu.Unlock()
	prev := kjwt.Clock
	kjwt.Clock = func() time.Time { return now }
	defer func() { kjwt.Clock = prev }()
	if audience == "" {
		return o.Verify(token, p)
	}
	return o.verify(token, p, katarasRequireExp, kjwt.Expected{Audience: kjwt.Audience{audience}})
}

// katarasAnyPayload is a TokenValidator that drops the verdict on the
// payload: not JSON (what kjwt.Plain forgives), or claims out of date. The
// library documents that a validator may "skip the builtin validation and
// return a nil error"; the signature and the header have been checked
// before any validator runs.
var katarasAnyPayload = kjwt.TokenValidatorFunc(func([]byte, kjwt.Claims, error) error { return nil })

// VerifyBytes checks the signature and the algorithm only and returns the
// payload (JWSVerifierBytes): Verify with the adapter's algorithm, or, for
// a key with a kid, VerifyWithHeaderValidator with the adapter's Keys'
// ValidateHeader and the algorithm pinned as well, and the verified
// token's Payload. The header is checked as in Verify: without a kid it
// must be byte for byte {"alg":…}, {"alg":…,"typ":"JWT"} or
// {"typ":"JWT","alg":…}.
func (o *katarasOps) VerifyBytes(token string) ([]byte, error) {
	var v *kjwt.VerifiedToken
	var err error
	if o.keys == nil {
		v, err = kjwt.Verify(o.alg, o.verifyKey, []byte(token), katarasAnyPayload)
	} else {
		v, err = kjwt.VerifyWithHeaderValidator(o.alg, nil, []byte(token), o.keys.ValidateHeader, katarasAnyPayload)
	}
	if err != nil {
		return nil, err
	}
	return v.Payload, nil
}
