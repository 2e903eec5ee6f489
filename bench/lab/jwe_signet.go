package lab

import (
	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwe"
	"github.com/signet-go/signet/jwt"
)

// signetJWE is signet's jwe package: jwe.Encrypt with the recipient's
// key (its public half for ECDH-ES and RSA-OAEP-256) and jwe.Decrypt[T]
// with the private key or secret, the claims typed as for JWT
// (jwt.Claims for registered-only payloads, a struct embedding it
// otherwise).
type signetJWE struct{}

func (signetJWE) Name() string   { return "signet" }
func (signetJWE) Algs() []string { return JWEAlgs }

func (signetJWE) New(k KeySpec) (JWE, error) {
	key, err := signetJWEKey(k)
	if err != nil {
		return nil, err
	}
	s := &signetJWEOps{key: key, enc: key, registered: k.Registered}
	if !key.Symmetric() {
		if s.enc, err = key.Public(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// signetJWEKey makes a signet JWE key of k's alg+enc from its material.
func signetJWEKey(k KeySpec) (*signet.Key, error) {
	alg, enc := SplitJWE(k.Alg)
	return signet.NewEncryptionKeyWithID(signet.Algorithm(alg), signet.Encryption(enc), k.KeyID, keyMaterial(k))
}

type signetJWEOps struct {
	key, enc   *signet.Key // decrypting and encrypting keys
	registered bool
}

// Encrypt: as signetJWT's Sign; PBES2 keys with JWEPBES2Count.
func (s *signetJWEOps) Encrypt(p *Payload) (string, error) {
	o := jwe.Options{NoExpiry: p.ExpiresAt == 0, PBES2Count: JWEPBES2Count}
	if s.registered && p.Data == nil {
		return jwe.Encrypt(s.enc, registeredClaims(p), o)
	}
	return jwe.Encrypt(s.enc, claims{Claims: registeredClaims(p), Data: p.Data}, o)
}

// Decrypt with labPolicy (no audience, as the peers are configured; 1 MiB).
func (s *signetJWEOps) Decrypt(token string, p *Payload) error {
	return s.decryptWith(token, p, labPolicy)
}

func (s *signetJWEOps) decryptWith(token string, p *Payload, pol jwe.Policy) error {
	if s.registered {
		c, err := jwe.Decrypt[jwt.Claims](s.key, token, pol)
		if err != nil {
			return err
		}
		setPayload(p, &c, nil)
		return nil
	}
	c, err := jwe.Decrypt[claims](s.key, token, pol)
	if err != nil {
		return err
	}
	setPayload(p, &c.Claims, c.Data)
	return nil
}

// DecryptBytes implements JWEDecrypterBytes: the plaintext of a token,
// without reading claims (the floor takes its bytes from it).
func (s *signetJWEOps) DecryptBytes(token string) ([]byte, error) {
	pt, _, err := jwe.DecryptBytes(s.key, token, jwe.Policy{MaxSize: 1 << 20})
	return pt, err
}

// JWEDecrypterBytes is implemented by a JWE adapter that can return a
// token's plaintext without reading claims.
type JWEDecrypterBytes interface {
	DecryptBytes(token string) ([]byte, error)
}
