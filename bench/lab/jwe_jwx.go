package lab

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwe"
	jjwt "github.com/lestrrat-go/jwx/v3/jwt"
)

// jwxJWE is github.com/lestrrat-go/jwx/v3 through its jwe package, as its
// documentation shows for encrypted JWTs: a jwt.Token built with Set
// (as jwxJWT does), serialised with json.Marshal and encrypted with
// jwe.Encrypt(WithKey(alg, key), WithContentEncryption(enc)); decrypted
// with jwe.Decrypt(WithKey(alg, key)), which pins the key-management
// algorithm (jwx has no option to pin enc: it takes the header's), and
// the claims read and validated with jwt.Parse(WithVerify(false)) (exp
// required, as signet requires it). The kid goes in through a jwk.Key
// carrying it. PBES2 with jwe.WithPBES2Count(JWEPBES2Count).
type jwxJWE struct{}

func (jwxJWE) Name() string   { return "jwx" }
func (jwxJWE) Algs() []string { return JWEAlgs }

func (jwxJWE) New(k KeySpec) (JWE, error) {
	algName, encName := SplitJWE(k.Alg)
	alg, ok := jwa.LookupKeyEncryptionAlgorithm(algName)
	if !ok {
		return nil, fmt.Errorf("jwx: no key algorithm %s", algName)
	}
	enc, ok := jwa.LookupContentEncryptionAlgorithm(encName)
	if !ok {
		return nil, fmt.Errorf("jwx: no content encryption %s", encName)
	}
	encKey, decKey, ok := jweKeys(k)
	if !ok {
		return nil, errors.New("jwx: no key")
	}
	encKey, err := jwxWithKeyID(encKey, k.KeyID)
	if err != nil {
		return nil, err
	}
	j := &jwxJWEOps{
		enc: []jwe.EncryptOption{jwe.WithKey(alg, encKey), jwe.WithContentEncryption(enc)},
		dec: []jwe.DecryptOption{jwe.WithKey(alg, decKey)},
	}
	if strings.HasPrefix(algName, "PBES2") {
		j.enc = append(j.enc, jwe.WithPBES2Count(JWEPBES2Count))
	}
	return j, nil
}

type jwxJWEOps struct {
	enc []jwe.EncryptOption
	dec []jwe.DecryptOption
}

func (j *jwxJWEOps) Encrypt(p *Payload) (string, error) {
	t, err := jwxToken(p)
	if err != nil {
		return "", err
	}
	pt, err := json.Marshal(t)
	if err != nil {
		return "", err
	}
	b, err := jwe.Encrypt(pt, j.enc...)
	return string(b), err
}

func (j *jwxJWEOps) Decrypt(token string, p *Payload) error {
	return j.decryptWith(token, p)
}

func (j *jwxJWEOps) decryptWith(token string, p *Payload, opts ...jjwt.ParseOption) error {
	pt, err := jwe.Decrypt([]byte(token), j.dec...)
	if err != nil {
		return err
	}
	t, err := jjwt.Parse(pt, append([]jjwt.ParseOption{jjwt.WithVerify(false), jjwt.WithRequiredClaim(jjwt.ExpirationKey)}, opts...)...)
	if err != nil {
		return err
	}
	return jwxPayload(t, p)
}

// DecryptFor implements JWEDecrypterFor: jwt.Parse's validation with
// WithClock(now) and WithAudience(audience) when one is named.
func (j *jwxJWEOps) DecryptFor(token string, p *Payload, now time.Time, audience string) error {
	opts := []jjwt.ParseOption{jjwt.WithClock(jjwt.ClockFunc(func() time.Time { return now }))}
	if audience != "" {
		opts = append(opts, jjwt.WithAudience(audience))
	}
	return j.decryptWith(token, p, opts...)
}
