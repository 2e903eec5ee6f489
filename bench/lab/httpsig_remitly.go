package lab

import (
	"context"
	"fmt"
	"net/http"

	remitly "github.com/remitly-oss/httpsig-go"
)

// remitlyHTTPSig is github.com/remitly-oss/httpsig-go v1.2.0: a Signer
// from a SigningProfile and a SigningKey, a Verifier from a KeyFetcher and
// a VerifyProfile. Signing sends created and keyid; verifying requires
// the study's components, created and keyid, allows only the key's
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
	sk := remitly.SigningKey{Secret: k.Secret, MetaKeyID: k.KeyID}
	if k.Private != nil {
		sk.Key = k.Private
	}
	s, err := remitly.NewSigner(remitly.SigningProfile{
		Algorithm: alg,
		Fields:    fields,
		Metadata:  []remitly.Metadata{remitly.MetaCreated, remitly.MetaKeyID},
		Label:     httpsigLabel,
	}, sk)
	if err != nil {
		return nil, err
	}
	v, err := remitly.NewVerifier(remitlyKeys{remitly.KeySpec{KeyID: k.KeyID, Algo: alg, PubKey: k.Public, Secret: k.Secret}},
		remitly.VerifyProfile{
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
	return &remitlyOps{s: s, v: v}, nil
}

// remitlyKeys is a KeyFetcher of one key.
type remitlyKeys struct{ spec remitly.KeySpec }

func (f remitlyKeys) FetchByKeyID(_ context.Context, _ http.Header, keyID string) (remitly.KeySpecer, error) {
	if keyID != f.spec.KeyID {
		return nil, fmt.Errorf("remitly: unknown keyid %q", keyID)
	}
	return f.spec, nil
}

func (f remitlyKeys) Fetch(context.Context, http.Header, remitly.MetadataProvider) (remitly.KeySpecer, error) {
	return nil, fmt.Errorf("remitly: a signature without keyid")
}

type remitlyOps struct {
	s *remitly.Signer
	v *remitly.Verifier
}

func (r *remitlyOps) Sign(req *http.Request) error { return r.s.Sign(req) }

func (r *remitlyOps) Verify(req *http.Request) error {
	res, err := r.v.Verify(req)
	if err != nil {
		return err
	}
	if !res.Verified {
		return fmt.Errorf("remitly: not verified")
	}
	return nil
}
