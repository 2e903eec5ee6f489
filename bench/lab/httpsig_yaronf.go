package lab

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"fmt"
	"net/http"
	"time"

	"github.com/yaronf/httpsign"
)

// yaronfHTTPSig is github.com/yaronf/httpsign v0.3.2: SignRequest and
// VerifyRequest with a Signer and a Verifier per key, as its examples use
// them. Signing sends created and keyid, not alg (SignAlg(false): the
// study's shape); verifying requires the study's components, a created no
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
	var s *httpsign.Signer
	var v *httpsign.Verifier
	var err1, err2 error
	switch k.Alg {
	case "hmac-sha256":
		s, err1 = httpsign.NewHMACSHA256Signer(k.Secret, sc, fields)
		v, err2 = httpsign.NewHMACSHA256Verifier(k.Secret, vc, fields)
	case "ed25519":
		priv, ok1 := k.Private.(ed25519.PrivateKey)
		pub, ok2 := k.Public.(ed25519.PublicKey)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("yaronf %s: want an Ed25519 key", k.Alg)
		}
		s, err1 = httpsign.NewEd25519Signer(priv, sc, fields)
		v, err2 = httpsign.NewEd25519Verifier(pub, vc, fields)
	case "ecdsa-p256-sha256", "ecdsa-p384-sha384":
		priv, ok1 := k.Private.(*ecdsa.PrivateKey)
		pub, ok2 := k.Public.(*ecdsa.PublicKey)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("yaronf %s: want an ECDSA key", k.Alg)
		}
		if k.Alg == "ecdsa-p256-sha256" {
			s, err1 = httpsign.NewP256Signer(*priv, sc, fields)
			v, err2 = httpsign.NewP256Verifier(*pub, vc, fields)
		} else {
			s, err1 = httpsign.NewP384Signer(*priv, sc, fields)
			v, err2 = httpsign.NewP384Verifier(*pub, vc, fields)
		}
	case "rsa-pss-sha512", "rsa-v1_5-sha256":
		priv, ok1 := k.Private.(*rsa.PrivateKey)
		pub, ok2 := k.Public.(*rsa.PublicKey)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("yaronf %s: want an RSA key", k.Alg)
		}
		if k.Alg == "rsa-pss-sha512" {
			s, err1 = httpsign.NewRSAPSSSigner(*priv, sc, fields)
			v, err2 = httpsign.NewRSAPSSVerifier(*pub, vc, fields)
		} else {
			s, err1 = httpsign.NewRSASigner(*priv, sc, fields)
			v, err2 = httpsign.NewRSAVerifier(*pub, vc, fields)
		}
	default:
		return nil, fmt.Errorf("yaronf: no %s", k.Alg)
	}
	if err1 != nil {
		return nil, err1
	}
	if err2 != nil {
		return nil, err2
	}
	return &yaronfOps{s: s, v: v}, nil
}

type yaronfOps struct {
	s *httpsign.Signer
	v *httpsign.Verifier
}

// Sign adds the field values SignRequest returns, as the library's
// examples do.
func (y *yaronfOps) Sign(r *http.Request) error {
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
