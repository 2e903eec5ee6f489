package lab

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/yaronf/httpsign"
)

// yaronfHTTPSig is github.com/yaronf/httpsign v0.3.2: SignRequest and
// VerifyRequest with a Signer and a Verifier per key, as its examples use
// them. Signing sends created and keyid, not alg (SignAlg(false): the
// reference shape); verifying requires the reference components, a created no
// older than five minutes (and at most a minute ahead), and keyid equal to
// the key's.
//
// As shipped, v0.3.2 signs rsa-pss-sha512 with the maximum salt length,
// not the RFC's 64 bytes (fixed upstream in v0.4.2): its own signatures
// verify (its verifier detects the salt length) but a strict verifier
// refuses them; and SetKeyID lets a signature without keyid through
// (fixed in v0.5.0). The lab measures it as shipped.
type yaronfHTTPSig struct{}

func (yaronfHTTPSig) Name() string { return "yaronf" }
func (yaronfHTTPSig) Algs() []string {
	return []string{"hmac-sha256", "ed25519", "ecdsa-p256-sha256", "ecdsa-p384-sha384", "rsa-pss-sha512", "rsa-v1_5-sha256"}
}

func (yaronfHTTPSig) New(k KeySpec) (HTTPSig, error) {
	fields := httpsign.Headers(httpsigComponents...)
	sc := httpsign.NewSignConfig().SignAlg(false).SetKeyID(k.KeyID)
	vc := httpsign.NewVerifyConfig().SetNotOlderThan(httpsigMaxAge).SetNotNewerThan(time.Minute).SetKeyID(k.KeyID)
	// VerifyAt's verifier: no required field, no time check of its own
	// (see httpsig_at.go), keyid checked when the key has one.
	vcAt := httpsign.NewVerifyConfig().SetVerifyCreated(false).SetRejectExpired(false)
	if k.KeyID != "" {
		vcAt.SetKeyID(k.KeyID)
	}
	none := *httpsign.NewFields()
	o := &yaronfOps{}
	var err error
	// each makes the signer (when there is a private key) and both
	// verifiers with one library constructor pair.
	each := func(signer func(*httpsign.SignConfig, httpsign.Fields) (*httpsign.Signer, error),
		verifier func(*httpsign.VerifyConfig, httpsign.Fields) (*httpsign.Verifier, error)) error {
		if signer != nil {
			if o.s, err = signer(sc, fields); err != nil {
				return err
			}
		}
		if o.v, err = verifier(vc, fields); err != nil {
			return err
		}
		o.vAt, err = verifier(vcAt, none)
		return err
	}
	switch k.Alg {
	case "hmac-sha256":
		err = each(func(c *httpsign.SignConfig, f httpsign.Fields) (*httpsign.Signer, error) {
			return httpsign.NewHMACSHA256Signer(k.Secret, c, f)
		}, func(c *httpsign.VerifyConfig, f httpsign.Fields) (*httpsign.Verifier, error) {
			return httpsign.NewHMACSHA256Verifier(k.Secret, c, f)
		})
	case "ed25519":
		priv, _ := k.Private.(ed25519.PrivateKey)
		pub, ok := k.Public.(ed25519.PublicKey)
		if !ok {
			return nil, fmt.Errorf("yaronf %s: want an Ed25519 key", k.Alg)
		}
		var pp *ed25519.PrivateKey
		if priv != nil {
			pp = &priv
		}
		err = each(yaronfPair(pp, pub, httpsign.NewEd25519Signer, httpsign.NewEd25519Verifier))
	case "ecdsa-p256-sha256", "ecdsa-p384-sha384":
		priv, _ := k.Private.(*ecdsa.PrivateKey)
		pub, ok := k.Public.(*ecdsa.PublicKey)
		if !ok {
			return nil, fmt.Errorf("yaronf %s: want an ECDSA key", k.Alg)
		}
		if k.Alg == "ecdsa-p384-sha384" {
			err = each(yaronfPair(priv, *pub, httpsign.NewP384Signer, httpsign.NewP384Verifier))
		} else {
			err = each(yaronfPair(priv, *pub, httpsign.NewP256Signer, httpsign.NewP256Verifier))
		}
	case "rsa-pss-sha512", "rsa-v1_5-sha256":
		priv, _ := k.Private.(*rsa.PrivateKey)
		pub, ok := k.Public.(*rsa.PublicKey)
		if !ok {
			return nil, fmt.Errorf("yaronf %s: want an RSA key", k.Alg)
		}
		if k.Alg == "rsa-pss-sha512" {
			err = each(yaronfPair(priv, *pub, httpsign.NewRSAPSSSigner, httpsign.NewRSAPSSVerifier))
		} else {
			err = each(yaronfPair(priv, *pub, httpsign.NewRSASigner, httpsign.NewRSAVerifier))
		}
	default:
		return nil, fmt.Errorf("yaronf: no %s", k.Alg)
	}
	if err != nil {
		return nil, err
	}
	return o, nil
}

// yaronfPair binds one of yaronf's constructor pairs to a key pair: the
// signer constructor is nil without a private key.
func yaronfPair[Priv, Pub any](priv *Priv, pub Pub,
	newSigner func(Priv, *httpsign.SignConfig, httpsign.Fields) (*httpsign.Signer, error),
	newVerifier func(Pub, *httpsign.VerifyConfig, httpsign.Fields) (*httpsign.Verifier, error),
) (func(*httpsign.SignConfig, httpsign.Fields) (*httpsign.Signer, error), func(*httpsign.VerifyConfig, httpsign.Fields) (*httpsign.Verifier, error)) {
	var signer func(*httpsign.SignConfig, httpsign.Fields) (*httpsign.Signer, error)
	if priv != nil {
		signer = func(c *httpsign.SignConfig, f httpsign.Fields) (*httpsign.Signer, error) {
			return newSigner(*priv, c, f)
		}
	}
	return signer, func(c *httpsign.VerifyConfig, f httpsign.Fields) (*httpsign.Verifier, error) {
		return newVerifier(pub, c, f)
	}
}

type yaronfOps struct {
	s      *httpsign.Signer // nil with a public key alone
	v, vAt *httpsign.Verifier
}

// Sign adds the field values SignRequest returns, as the library's
// examples do.
func (y *yaronfOps) Sign(r *http.Request) error {
	if y.s == nil {
		return errors.New("yaronf: no private key")
	}
	si, sig, err := httpsign.SignRequest(httpsigLabel, *y.s, r)
	if err != nil {
		return err
	}
	r.Header.Add("Signature-Input", si)
	r.Header.Add("Signature", sig)
	return nil
}

func (y *yaronfOps) Verify(r *http.Request) error {
	return httpsign.VerifyRequest(httpsigLabel, *y.v, r)
}

// VerifyAt implements HTTPSigVerifierAt; the library reads the wall
// clock, so the adapter checks the time (httpsigEach). VerifyRequest does
// not look at the body: when the signature covers Content-Digest, the
// adapter first validates it as the library's WrapHandler does
// (ValidateContentDigestHeader, sha-256 and sha-512 accepted).
func (y *yaronfOps) VerifyAt(r *http.Request, now time.Time) error {
	return httpsigEach(r, now, func(in httpsigInput) error {
		if in.covers("content-digest") {
			received := r.Header.Values("Content-Digest")
			if r.Body == nil && len(received) > 0 {
				return errors.New("yaronf: Content-Digest but no body")
			}
			if err := httpsign.ValidateContentDigestHeader(received, &r.Body, []string{httpsign.DigestSha256, httpsign.DigestSha512}); err != nil {
				return err
			}
		}
		return httpsign.VerifyRequest(in.label, *y.vAt, r)
	})
}
