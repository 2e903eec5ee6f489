package lab

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	remitly "github.com/remitly-oss/httpsig-go"
)

// remitlyHTTPSig is github.com/remitly-oss/httpsig-go v1.2.0: a Signer
// from a SigningProfile and a SigningKey, a Verifier from a KeyFetcher and
// a VerifyProfile. Signing sends created and keyid; verifying requires
// the reference components, created and keyid, allows only the key's
// algorithm, and takes created up to five minutes old. The key fetcher
// knows one key, by its keyid.
type remitlyHTTPSig struct{}

func (remitlyHTTPSig) Name() string { return "remitly" }
func (remitlyHTTPSig) Algs() []string {
	return []string{"hmac-sha256", "ed25519", "ecdsa-p256-sha256", "ecdsa-p384-sha384", "rsa-pss-sha512", "rsa-v1_5-sha256"}
}

func (remitlyHTTPSig) New(k KeySpec) (HTTPSig, error) {
	alg := remitly.Algorithm(k.Alg)
	fields := remitly.Fields(httpsigComponents...)
	o := &remitlyOps{alg: alg, keys: remitlyKeys{remitly.KeySpec{KeyID: k.KeyID, Algo: alg, PubKey: k.Public, Secret: k.Secret}}}
	if k.Private != nil || k.Secret != nil {
		sk := remitly.SigningKey{Secret: k.Secret, MetaKeyID: k.KeyID}
		if k.Private != nil {
			sk.Key = k.Private
		}
		var err error
		if o.s, err = remitly.NewSigner(remitly.SigningProfile{
			Algorithm: alg,
			Fields:    fields,
			Metadata:  []remitly.Metadata{remitly.MetaCreated, remitly.MetaKeyID},
			Label:     httpsigLabel,
		}, sk); err != nil {
			return nil, err
		}
	}
	var err error
	o.v, err = remitly.NewVerifier(o.keys, remitly.VerifyProfile{
		SignatureLabel:       httpsigLabel,
		RequiredFields:       fields,
		RequiredMetadata:     []remitly.Metadata{remitly.MetaCreated, remitly.MetaKeyID},
		DisallowedMetadata:   []remitly.Metadata{remitly.MetaAlgorithm},
		AllowedAlgorithms:    []remitly.Algorithm{alg},
		CreatedValidDuration: httpsigMaxAge,
	})
	if err != nil {
		return nil, err
	}
	return o, nil
}

// remitlyKeys is a KeyFetcher of one key: by its keyid, or for a
// signature without keyid (which the reference profile refuses before
// asking) the key itself.
type remitlyKeys struct{ spec remitly.KeySpec }

func (f remitlyKeys) FetchByKeyID(_ context.Context, _ http.Header, keyID string) (remitly.KeySpecer, error) {
	if keyID != f.spec.KeyID {
		return nil, fmt.Errorf("remitly: unknown keyid %q", keyID)
	}
	return f.spec, nil
}

func (f remitlyKeys) Fetch(context.Context, http.Header, remitly.MetadataProvider) (remitly.KeySpecer, error) {
	return f.spec, nil
}

type remitlyOps struct {
	alg  remitly.Algorithm
	keys remitlyKeys
	s    *remitly.Signer // nil with a public key alone
	v    *remitly.Verifier
}

func (r *remitlyOps) Sign(req *http.Request) error {
	if r.s == nil {
		return errors.New("remitly: no private key")
	}
	return r.s.Sign(req)
}

func (r *remitlyOps) Verify(req *http.Request) error { return remitlyVerify(r.v, req) }

// VerifyAt implements HTTPSigVerifierAt. The verifier takes the label to
// check and reads the wall clock: a verifier per label, its time
// enforcement off, the adapter checking the time (httpsigEach).
func (r *remitlyOps) VerifyAt(req *http.Request, now time.Time) error {
	return httpsigEach(req, now, func(in httpsigInput) error {
		v, err := remitly.NewVerifier(r.keys, remitly.VerifyProfile{
			SignatureLabel:         in.label,
			AllowedAlgorithms:      []remitly.Algorithm{r.alg},
			DisableTimeEnforcement: true,
		})
		if err != nil {
			return err
		}
		return remitlyVerify(v, req)
	})
}

func remitlyVerify(v *remitly.Verifier, req *http.Request) error {
	res, err := v.Verify(req)
	if err != nil {
		return err
	}
	if !res.Verified {
		return errors.New("remitly: not verified")
	}
	return nil
}
