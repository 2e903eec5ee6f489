package lab

import (
	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwt"
)

// signetJWT is signet's jwt package.
type signetJWT struct{}

func (signetJWT) Name() string   { return "signet" }
func (signetJWT) Algs() []string { return JWSAlgs }

func (signetJWT) New(k KeySpec) (JWT, error) {
	key, err := signetKey(k)
	if err != nil {
		return nil, err
	}
	if k.Registered {
		return signetJWTRegistered{signetJWTOps{key}}, nil
	}
	return signetJWTOps{key}, nil
}

// signetJWTOps signs and verifies with a struct embedding jwt.Claims;
// signetJWTRegistered with jwt.Claims when the application's claims are
// the registered ones only (the library's documented type for them). Each
// is one pointer: made into a JWT, it needs no allocation of its own.
type signetJWTOps struct{ key *signet.Key }

type signetJWTRegistered struct{ signetJWTOps }

// claims is the payload as signet's typed claims: the registered ones
// validated by jwt.Verify, and the data.
type claims struct {
	jwt.Claims
	Data *Data `json:"data,omitempty"`
}

// Sign: signet adds iat (now) to a payload without one (the "tiny"
// class), as its defaults say; a payload without exp stands for a token
// without one, as the peers issue it, so the default exp is turned off.
func (s signetJWTRegistered) Sign(p *Payload) (string, error) {
	if p.Data != nil {
		return s.signetJWTOps.Sign(p)
	}
	return jwt.Sign(s.key, registeredClaims(p), jwt.Options{NoExpiry: p.ExpiresAt == 0})
}

func (s signetJWTOps) Sign(p *Payload) (string, error) {
	return jwt.Sign(s.key, claims{Claims: registeredClaims(p), Data: p.Data}, jwt.Options{NoExpiry: p.ExpiresAt == 0})
}

// registeredClaims are p's registered claims as signet's jwt.Claims.
func registeredClaims(p *Payload) jwt.Claims {
	rc := jwt.Claims{Issuer: p.Issuer, Subject: p.Subject, ExpiresAt: jwt.NumericDate(p.ExpiresAt), IssuedAt: jwt.NumericDate(p.IssuedAt)}
	if p.Audience != "" {
		rc.Audience = jwt.Audience{p.Audience}
	}
	return rc
}

// setPayload sets p to the registered claims rc and data.
func setPayload(p *Payload, rc *jwt.Claims, data *Data) {
	*p = Payload{Issuer: rc.Issuer, Subject: rc.Subject, ExpiresAt: int64(rc.ExpiresAt), IssuedAt: int64(rc.IssuedAt), Data: data}
	if len(rc.Audience) > 0 {
		p.Audience = rc.Audience[0]
	}
}

// labPolicy is the policy the lab verifies with: the peers are configured
// without an audience and do not check aud, so signet skips it too
// (IgnoreAudience), doing the same work; the security matrix names the
// corpus's audience instead (attacks_signet.go).
var labPolicy = jwt.Policy{MaxSize: 1 << 20, IgnoreAudience: true}

func (s signetJWTRegistered) Verify(token string, p *Payload) error {
	c, err := jwt.Verify[jwt.Claims](s.key, token, labPolicy)
	if err != nil {
		return err
	}
	setPayload(p, &c, nil)
	return nil
}

func (s signetJWTOps) Verify(token string, p *Payload) error {
	c, err := jwt.Verify[claims](s.key, token, labPolicy)
	if err != nil {
		return err
	}
	setPayload(p, &c.Claims, c.Data)
	return nil
}

// signetKey makes a signet key of k's algorithm from k's material: the
// private key when there is one, else the public key or the secret.
func signetKey(k KeySpec) (*signet.Key, error) {
	if k.PEM != nil {
		return signet.ParsePEMWithID(k.PEM, signet.Algorithm(k.Alg), k.KeyID)
	}
	return signet.NewKeyWithID(signet.Algorithm(k.Alg), k.KeyID, keyMaterial(k))
}

// keyMaterial is what signet makes a key of: k's private key when it has
// one, else its public key or its secret.
func keyMaterial(k KeySpec) any {
	switch {
	case k.Private != nil:
		return k.Private
	case k.Public != nil:
		return k.Public
	}
	return k.Secret
}
