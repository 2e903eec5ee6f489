//go:build studies

package studies

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	gjwt4 "github.com/golang-jwt/jwt/v4"
	mpaseto "github.com/mateothegreat/go-jwt-paseto"
	mjwt "github.com/mateothegreat/go-jwt-paseto/jwt"

	"github.com/signet-go/signet/bench/lab"
)

// The JWT-vs-PASETO study's own package,
// github.com/mateothegreat/go-jwt-paseto: generic functions over the
// application's type T, which travels in a "data" claim, as its README
// and tests use them. The lab's application claims are lab.Payload, so T
// is lab.Payload: the whole payload goes in the data envelope, and the
// library adds its own exp (the payload's), iat and nbf (the signing
// time) beside it. Its signing functions set nothing else: iss, sub and
// aud cannot be registered claims, only the application's data.

// MateothegreatJWT is the package's jwt subpackage (golang-jwt v4
// underneath): JWTSign[T] with an ECDSA P-256 key (ES256, the one
// algorithm it signs) and ParseCustomClaims[T], whose key function takes
// any ECDSA method (a P-256 key refuses the others' signature sizes).
// What the library leaves to its user, the adapter does as the other
// adapters do (cristalhq's): it requires exp (golang-jwt v4's default
// validation checks exp only when present) and, in VerifyFor, checks the
// audience with the claims' VerifyAudience (golang-jwt v4's
// RegisteredClaims, embedded in the package's CustomClaims). Its key
// loader, InitializeKeys, reads base64url SEC1 and PKIX DER, not PEM: the
// KeyInit case loads the PEM with the standard library.
type MateothegreatJWT struct{}

// Name is the library's short name in the lab.
func (MateothegreatJWT) Name() string { return "mateothegreat" }

// Algs: JWTSign signs ES256 only.
func (MateothegreatJWT) Algs() []string { return []string{"ES256"} }

// New binds the library to k's P-256 key.
func (MateothegreatJWT) New(k lab.KeySpec) (lab.JWT, error) {
	if k.Alg != "ES256" {
		return nil, fmt.Errorf("mateothegreat: no %s", k.Alg)
	}
	k, err := lab.LoadPEM(k)
	if err != nil {
		return nil, err
	}
	keys := &mjwt.JWTKeys{}
	keys.PrivateKey, _ = k.Private.(*ecdsa.PrivateKey)
	var ok bool
	if keys.PublicKey, ok = k.Public.(*ecdsa.PublicKey); !ok && keys.PrivateKey != nil {
		keys.PublicKey, ok = &keys.PrivateKey.PublicKey, true
	}
	if !ok || keys.PublicKey.Curve != elliptic.P256() {
		return nil, errors.New("mateothegreat ES256: want a P-256 key")
	}
	return &mateothegreatJWTOps{keys: keys}, nil
}

type mateothegreatJWTOps struct{ keys *mjwt.JWTKeys }

// Sign is JWTSign with the payload as data and its exp.
func (m *mateothegreatJWTOps) Sign(p *lab.Payload) (string, error) {
	if m.keys.PrivateKey == nil {
		return "", errors.New("mateothegreat: verify-only key")
	}
	if p.ExpiresAt == 0 {
		return "", errors.New("mateothegreat: JWTSign always sets exp")
	}
	return mjwt.JWTSign(m.keys.PrivateKey, *p, time.Unix(p.ExpiresAt, 0))
}

// Verify is ParseCustomClaims, exp required; the payload is the data
// envelope's, its exp the verified token's.
func (m *mateothegreatJWTOps) Verify(token string, p *lab.Payload) error {
	return m.verify(token, p, "")
}

func (m *mateothegreatJWTOps) verify(token string, p *lab.Payload, audience string) error {
	c, err := mjwt.ParseCustomClaims[lab.Payload](token, m.keys.PublicKey)
	if err != nil {
		return err
	}
	if c.ExpiresAt == nil {
		return errors.New("mateothegreat: token has no exp")
	}
	if audience != "" && !c.VerifyAudience(audience, true) {
		return errors.New("mateothegreat: token not for this audience")
	}
	*p = c.Data
	p.ExpiresAt = c.ExpiresAt.Unix()
	return nil
}

// mateothegreatClockMu serialises VerifyFor's use of golang-jwt v4's
// clock.
var mateothegreatClockMu sync.Mutex

// VerifyAt is Verify with now as the clock (lab.JWTVerifierAt).
func (m *mateothegreatJWTOps) VerifyAt(token string, p *lab.Payload, now time.Time) error {
	return m.VerifyFor(token, p, now, "")
}

// VerifyFor is VerifyAt with the audience checked when audience is not ""
// (lab.JWTVerifierFor). The package has no clock option and golang-jwt
// v4's only clock is the package-level jwt.TimeFunc (its doc: "You can
// override it to use another time value"), so VerifyFor sets it for the
// call and restores it, one call at a time, as the kataras adapter does
// with kataras's jwt.Clock: being process-wide, it must not run beside
// another golang-jwt v4 call (the lab runs the security matrix alone).
func (m *mateothegreatJWTOps) VerifyFor(token string, p *lab.Payload, now time.Time, audience string) error {
	mateothegreatClockMu.Lock()
	defer mateothegreatClockMu.Unlock()
	prev := gjwt4.TimeFunc
	gjwt4.TimeFunc = func() time.Time { return now }
	defer func() { gjwt4.TimeFunc = prev }()
	return m.verify(token, p, audience)
}

// MateothegreatPASETO is the package's PASETO functions (go-paseto
// underneath; the module asks for v1.5.4, the lab's build selects the
// v1.6.0 that bench/go.mod pins for the go-paseto peer): v4.public only, keys made by its InitializeKeys (hex),
// PasetoSign with the payload as data and its exp, and PasetoParse[T],
// which checks exp (go-paseto's NotExpired rule and its own check, both
// at time.Now) and returns the data alone.
//
// What the library cannot do: PasetoParse takes the secret key and
// derives the public one, so a holder of the public key alone cannot
// verify (New refuses a key without its private half: the attack corpus
// and the published vectors, which give public keys, are n/a); it has no
// clock, audience check, implicit assertion or footer, so there is no
// OpenFor or OpenBytes; and v4.local, v3 and v2 are not there.
type MateothegreatPASETO struct{}

// Name is the library's short name in the lab.
func (MateothegreatPASETO) Name() string { return "mateothegreat" }

// Purposes: v4.public only.
func (MateothegreatPASETO) Purposes() []string { return []string{"v4.public"} }

// New binds the library to k's Ed25519 key pair.
func (MateothegreatPASETO) New(k lab.KeySpec) (lab.PASETO, error) {
	if k.Alg != "v4.public" {
		return nil, fmt.Errorf("mateothegreat: no %s", k.Alg)
	}
	priv, ok := k.Private.(ed25519.PrivateKey)
	if !ok {
		return nil, errors.New("mateothegreat v4.public: PasetoParse takes the secret key, so a public key alone cannot verify")
	}
	keys, err := mpaseto.InitializeKeys(hex.EncodeToString(priv), hex.EncodeToString(priv.Public().(ed25519.PublicKey)))
	if err != nil {
		return nil, err
	}
	return &mateothegreatPASETOOps{keys: keys}, nil
}

type mateothegreatPASETOOps struct{ keys *mpaseto.PasetoKeys }

// Seal is PasetoSign with the payload as data and its exp.
func (m *mateothegreatPASETOOps) Seal(p *lab.Payload) (string, error) {
	if p.ExpiresAt == 0 {
		return "", errors.New("mateothegreat: PasetoSign always sets exp")
	}
	return mpaseto.PasetoSign(m.keys.PrivateKey, *p, time.Unix(p.ExpiresAt, 0)), nil
}

// Open is PasetoParse: the payload is the data envelope's.
func (m *mateothegreatPASETOOps) Open(token string, p *lab.Payload) error {
	data, err := mpaseto.PasetoParse[lab.Payload](m.keys.PrivateKey, token)
	if err != nil {
		return err
	}
	*p = data
	return nil
}
