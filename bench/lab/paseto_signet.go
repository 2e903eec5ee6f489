package lab

import (
	"strings"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/paseto"
)

// signetPASETO is signet's paseto package: v4 and v3, local and public
// (signet has no v2, which PASETO's version rules retire).
type signetPASETO struct{}

func (signetPASETO) Name() string { return "signet" }
func (signetPASETO) Purposes() []string {
	return []string{"v4.local", "v4.public", "v3.local", "v3.public"}
}

func (signetPASETO) New(k KeySpec) (PASETO, error) {
	key, err := signetKey(k)
	if err != nil {
		return nil, err
	}
	o := &signetPASETOOps{key: key, open: key, local: key.Symmetric(), registered: k.Registered,
		// The lab's largest payload (≈ 500 KiB of claims) is past
		// DefaultMaxSize (64 KiB); a service taking such tokens says so.
		// The peers are configured without an audience and do not check
		// aud: signet skips it too (IgnoreAudience) for the same work,
		// except in OpenFor, which names the audience it is given.
		policy: paseto.Policy{MaxSize: 1 << 20, IgnoreAudience: true}}
	if !o.local {
		// Verification takes the public key, as a relying party holds it
		// (a key made from a public key alone is its own public half).
		if o.open, err = key.Public(); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// signetPASETOOps seals and opens paseto.Claims when the application's
// claims are the registered ones only (the library's type for them), and
// a struct embedding paseto.Claims otherwise.
type signetPASETOOps struct {
	key, open  *signet.Key
	local      bool
	registered bool
	policy     paseto.Policy
}

// signetPASETOClaims is the payload as signet's typed claims: the
// registered ones (RFC 3339 times) validated by Decrypt/Verify, and the
// data.
type signetPASETOClaims struct {
	paseto.Claims
	Data *Data `json:"data,omitempty"`
}

// Seal: signet adds iat (now) to a payload without one (the "tiny"
// class), as its defaults say; every other class carries iat already.
func (s *signetPASETOOps) Seal(p *Payload) (string, error) {
	if s.registered && p.Data == nil {
		c := paseto.Claims{Issuer: p.Issuer, Subject: p.Subject, Audience: p.Audience,
			ExpiresAt: pasetoTime(p.ExpiresAt), IssuedAt: pasetoTime(p.IssuedAt)}
		if s.local {
			return paseto.Encrypt(s.key, c, paseto.Options{})
		}
		return paseto.Sign(s.key, c, paseto.Options{})
	}
	c := signetPASETOClaims{Claims: paseto.Claims{Issuer: p.Issuer, Subject: p.Subject, Audience: p.Audience,
		ExpiresAt: pasetoTime(p.ExpiresAt), IssuedAt: pasetoTime(p.IssuedAt)}, Data: p.Data}
	if s.local {
		return paseto.Encrypt(s.key, c, paseto.Options{})
	}
	return paseto.Sign(s.key, c, paseto.Options{})
}

func (s *signetPASETOOps) Open(token string, p *Payload) error {
	return s.openWith(token, p, s.policy)
}

// OpenFor implements PASETOOpenerFor (the security matrix takes signet's
// verdicts from attacks.Case.Verify instead).
func (s *signetPASETOOps) OpenFor(token string, implicit []byte, p *Payload, now time.Time, audience string) error {
	pol := s.policy
	pol.Implicit, pol.Now = implicit, func() time.Time { return now }
	pol.IgnoreAudience, pol.Audience = false, nil
	if audience != "" {
		pol.Audience = []string{audience}
	}
	return s.openWith(token, p, pol)
}

// OpenBytes implements PASETOOpenerBytes.
func (s *signetPASETOOps) OpenBytes(token string, implicit []byte) (payload, footer []byte, err error) {
	pol := paseto.Policy{MaxSize: s.policy.MaxSize, Implicit: implicit}
	if s.local {
		payload, err = paseto.DecryptBytes(s.open, token, pol)
	} else {
		payload, err = paseto.VerifyBytes(s.open, token, pol)
	}
	if err != nil {
		return nil, nil, err
	}
	// paseto.Footer applies DefaultMaxSize whatever the Policy said: ask
	// it only when there is a footer.
	if strings.Count(token, ".") == 3 {
		if footer, err = paseto.Footer(token); err != nil {
			return nil, nil, err
		}
	}
	return payload, footer, nil
}

func (s *signetPASETOOps) openWith(token string, p *Payload, pol paseto.Policy) error {
	if s.registered {
		var c paseto.Claims
		var err error
		if s.local {
			c, err = paseto.Decrypt[paseto.Claims](s.open, token, pol)
		} else {
			c, err = paseto.Verify[paseto.Claims](s.open, token, pol)
		}
		if err != nil {
			return err
		}
		*p = Payload{Issuer: c.Issuer, Subject: c.Subject, Audience: c.Audience,
			ExpiresAt: pasetoUnix(c.ExpiresAt), IssuedAt: pasetoUnix(c.IssuedAt)}
		return nil
	}
	var c signetPASETOClaims
	var err error
	if s.local {
		c, err = paseto.Decrypt[signetPASETOClaims](s.open, token, pol)
	} else {
		c, err = paseto.Verify[signetPASETOClaims](s.open, token, pol)
	}
	if err != nil {
		return err
	}
	*p = Payload{Issuer: c.Issuer, Subject: c.Subject, Audience: c.Audience,
		ExpiresAt: pasetoUnix(c.ExpiresAt), IssuedAt: pasetoUnix(c.IssuedAt), Data: c.Data}
	return nil
}

// pasetoTime is a Payload's unix time as PASETO writes it (RFC 3339,
// UTC); 0 (absent) is the zero Time.
func pasetoTime(sec int64) time.Time {
	if sec == 0 {
		return time.Time{}
	}
	return time.Unix(sec, 0).UTC()
}

// pasetoUnix is the inverse of pasetoTime.
func pasetoUnix(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.Unix()
}
