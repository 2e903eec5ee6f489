package lab

import (
	"encoding/json"
	"errors"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	jjwt "github.com/go-jose/go-jose/v4/jwt"
)

// goJoseJWE is github.com/go-jose/go-jose/v4 through its jwt package: a
// jose.Encrypter made once for the recipient (its public key for ECDH-ES
// and RSA-OAEP-256; typ JWT, kid set), jwt.Encrypted(…).Claims(c), and
// jwt.ParseEncrypted with the one allowed key algorithm and content
// encryption (v4 makes the caller name both), Claims(key, …) and
// Claims.Validate (exp required here, as signet requires it). PBES2 with
// Recipient.PBES2Count = JWEPBES2Count.
//
// go-jose's jwt.ParseEncrypted refuses the asymmetric (ECDH-ES,
// RSA-OAEP*) and password-based (PBES2) key algorithms: anyone holding
// the public key, or guessing the password, can write such a token, so
// go-jose wants it nested in a JWS. For those rows the adapter uses
// go-jose's JWE API as an application would then: jose.ParseEncryptedCompact
// with the one key algorithm and content encryption, Decrypt with the
// key, encoding/json into the claims, then Claims.Validate.
type goJoseJWE struct{}

func (goJoseJWE) Name() string   { return "go-jose" }
func (goJoseJWE) Algs() []string { return JWEAlgs }

func (goJoseJWE) New(k KeySpec) (JWE, error) {
	algName, encName := SplitJWE(k.Alg)
	g := &goJoseJWEOps{algs: []jose.KeyAlgorithm{jose.KeyAlgorithm(algName)}, encs: []jose.ContentEncryption{jose.ContentEncryption(encName)}}
	encKey, decKey, ok := jweKeys(k)
	if !ok {
		return nil, errors.New("go-jose: no key")
	}
	g.decKey = decKey
	switch g.algs[0] {
	case jose.RSA_OAEP, jose.RSA_OAEP_256, jose.ECDH_ES, jose.ECDH_ES_A128KW, jose.ECDH_ES_A192KW, jose.ECDH_ES_A256KW,
		jose.PBES2_HS256_A128KW, jose.PBES2_HS384_A192KW, jose.PBES2_HS512_A256KW:
		g.viaJOSE = true
	}
	r := jose.Recipient{Algorithm: g.algs[0], Key: encKey, KeyID: k.KeyID}
	if g.algs[0] == jose.PBES2_HS256_A128KW {
		r.PBES2Count = JWEPBES2Count
	}
	e, err := jose.NewEncrypter(g.encs[0], r, (&jose.EncrypterOptions{}).WithType("JWT"))
	if err != nil {
		return nil, err
	}
	g.encrypter = e
	return g, nil
}

type goJoseJWEOps struct {
	encrypter jose.Encrypter
	decKey    any
	algs      []jose.KeyAlgorithm
	encs      []jose.ContentEncryption
	// viaJOSE: decrypt with jose.ParseEncryptedCompact (an asymmetric or
	// PBES2 key algorithm, which jwt.ParseEncrypted refuses).
	viaJOSE bool
}

func (g *goJoseJWEOps) Encrypt(p *Payload) (string, error) {
	return jjwt.Encrypted(g.encrypter).Claims(goJoseClaimsOf(p)).Serialize()
}

func (g *goJoseJWEOps) Decrypt(token string, p *Payload) error {
	return g.DecryptFor(token, p, time.Time{}, "") // go-jose validates at time.Now() when Time is zero
}

// DecryptFor implements JWEDecrypterFor: jwt.Expected{Time: now} with
// AnyAudience when an audience is named.
func (g *goJoseJWEOps) DecryptFor(token string, p *Payload, now time.Time, audience string) error {
	var c goJoseClaims
	if g.viaJOSE {
		obj, err := jose.ParseEncryptedCompact(token, g.algs, g.encs)
		if err != nil {
			return err
		}
		pt, err := obj.Decrypt(g.decKey)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(pt, &c); err != nil {
			return err
		}
	} else {
		t, err := jjwt.ParseEncrypted(token, g.algs, g.encs)
		if err != nil {
			return err
		}
		if err := t.Claims(g.decKey, &c); err != nil {
			return err
		}
	}
	return c.validate(goJoseExpected(now, audience), p)
}
