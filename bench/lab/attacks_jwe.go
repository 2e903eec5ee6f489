package lab

import (
	"encoding/base64"
	"fmt"
	"time"

	"github.com/signet-go/signet/attacks"
)

// JWEDecrypterFor is implemented by a JWE adapter that can decrypt as of
// a given time with the library's own audience check configured for
// audience (none when audience is ""): the security matrix's path.
type JWEDecrypterFor interface {
	DecryptFor(token string, p *Payload, now time.Time, audience string) error
}

// JWECaseTimeout bounds each peer's verdict on a JWE case: a library that
// would run a PBES2 count of 10⁹ (minutes of CPU) is recorded as
// TimedOut rather than waited for. Both peers cap p2c (jwx at 10,000 by
// default, jwe.WithMaxPBES2Count; go-jose at 1,000,000) and refuse the
// corpus's 10⁹ when reading the header; the bound is the matrix's guard,
// should a peer stop doing so. A timed-out goroutine is left to finish.
const JWECaseTimeout = 10 * time.Second

// attackJWEKeySpec is a JWE case's key as the peers take it: the secret
// (the password for PBES2), or the PKCS #8 private key and its public
// half; Alg is the lab's row name, alg+enc.
func attackJWEKeySpec(c attacks.Case) (KeySpec, error) {
	spec := KeySpec{Alg: c.Alg + "+" + c.Enc, KeyID: c.KeyID()}
	switch {
	case c.Key.Secret != "":
		b, err := base64.RawURLEncoding.Strict().DecodeString(c.Key.Secret)
		if err != nil {
			return spec, fmt.Errorf("%s: secret: %w", c.ID, err)
		}
		spec.Secret = b
	case c.Key.PEM != "":
		priv, err := pkcs8([]byte(c.Key.PEM))
		if err != nil {
			return spec, fmt.Errorf("%s: key: %w", c.ID, err)
		}
		spec.Private, spec.Public = priv, priv.Public()
	default:
		return spec, fmt.Errorf("%s: a JWE case's key is a secret or a PEM private key", c.ID)
	}
	return spec, nil
}

// attackJWE is lib's verdict on a JWE case: signet's through
// attacks.Case.Verify, a peer's through DecryptFor with the case's clock
// and audience, bounded by JWECaseTimeout.
func attackJWE(lib JWELib, spec KeySpec, c attacks.Case) Verdict {
	x, v, done := attackPeer(lib.Name(), lib.Algs(), spec.Alg, lib.New, spec, c)
	if done {
		return v
	}
	df, ok := x.(JWEDecrypterFor)
	if !ok {
		return notApplicable(lib.Name(), "needs DecryptFor: the case's verifier names "+audienceText(c.Audience))
	}
	return judgeWithin(lib.Name(), "DecryptFor", JWECaseTimeout, func() error {
		return df.DecryptFor(c.Token, new(Payload), c.Time(), c.Audience)
	})
}

// judgeWithin is judge bounded in time: TimedOut when f has not returned
// after d.
func judgeWithin(lib, path string, d time.Duration, f func() error) Verdict {
	done := make(chan Verdict, 1)
	go func() { done <- judge(lib, path, f) }()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case v := <-done:
		return v
	case <-t.C:
		return Verdict{Lib: lib, Outcome: TimedOut, Path: path, Detail: fmt.Sprintf("still working after %v", d)}
	}
}
