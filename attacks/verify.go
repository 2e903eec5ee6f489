package attacks

import (
	"errors"
	"fmt"
	"time"

	"github.com/signet-go/signet/httpsig"
	"github.com/signet-go/signet/jwe"
	"github.com/signet-go/signet/jwt"
	"github.com/signet-go/signet/paseto"
)

// The corpus claims that signet refuses its attacks by default: each case
// is verified with the zero Policy of its format, given only what the
// case says the verifier holds (its key, its clock, the audience it
// names, the implicit assertion it presents). These functions are that
// verification, the one definition that attacks_test.go and the lab
// (bench/lab) both run.

// JWTPolicy is the zero jwt.Policy with the case's clock and audience;
// JWE cases are decrypted with it too (jwe.Policy is jwt.Policy).
func (c Case) JWTPolicy() jwt.Policy {
	return jwt.Policy{Now: c.clock(), Audience: c.audiences()}
}

// PASETOPolicy is the zero paseto.Policy with the case's clock, audience
// and implicit assertion.
func (c Case) PASETOPolicy() paseto.Policy {
	p := paseto.Policy{Now: c.clock(), Audience: c.audiences()}
	if c.Implicit != "" {
		p.Implicit = []byte(c.Implicit)
	}
	return p
}

// HTTPSigPolicy is the zero httpsig.Policy with the case's clock.
func (c Case) HTTPSigPolicy() httpsig.Policy {
	return httpsig.Policy{Now: c.clock()}
}

// clock is the case's clock, as the policies take it.
func (c Case) clock() func() time.Time {
	now := c.Time()
	return func() time.Time { return now }
}

// audiences is the audience the verifier names, as the policies take it
// (none when the case names none).
func (c Case) audiences() []string {
	if c.Audience == "" {
		return nil
	}
	return []string{c.Audience}
}

// Verify checks the case with signet's packages as an application calls
// them with the default policies (JWTPolicy, PASETOPolicy, HTTPSigPolicy)
// and returns signet's error: nil when the token or message is accepted.
// For a replay case the message is presented twice to one verifier, and
// the error is the second presentation's; a refused first presentation
// is an error that wraps ErrFirstRefused.
func (c Case) Verify() error {
	key, err := c.SignetKey()
	if err != nil {
		return err
	}
	switch c.Format {
	case JWT:
		_, err := jwt.Verify[jwt.Claims](key, c.Token, c.JWTPolicy())
		return err
	case PASETO:
		// The key decides the call: a local key decrypts, a public key
		// verifies, whatever the token says it is.
		if key.Symmetric() {
			_, err = paseto.Decrypt[paseto.Claims](key, c.Token, c.PASETOPolicy())
		} else {
			_, err = paseto.Verify[paseto.Claims](key, c.Token, c.PASETOPolicy())
		}
		return err
	case JWE:
		_, err := jwe.Decrypt[jwt.Claims](key, c.Token, c.JWTPolicy())
		return err
	case HTTPSig:
		v, err := httpsig.NewVerifier(key, c.HTTPSigPolicy())
		if err != nil {
			return fmt.Errorf("%s: verifier: %w", c.ID, err)
		}
		check := func() error {
			r, err := c.Request()
			if err != nil {
				return err
			}
			_, err = v.VerifyRequest(r)
			return err
		}
		if c.Replay {
			if err := check(); err != nil {
				return fmt.Errorf("%w: %w", ErrFirstRefused, err)
			}
		}
		return check()
	}
	return fmt.Errorf("%s: format %q", c.ID, c.Format)
}

// ErrFirstRefused is wrapped by Verify's error when the first, valid,
// presentation of a replay case was refused.
var ErrFirstRefused = errors.New("attacks: the first presentation of a replayed message was refused")
