package lab

import (
	"net/http"
	"time"

	"github.com/signet-go/signet/httpsig"
)

// httpsigComponents are the covered components of the HTTP signatures
// study: the request's method, authority and path, and its content type.
var httpsigComponents = []string{"@method", "@authority", "@path", "content-type"}

// httpsigLabel is the signature label every adapter signs and verifies.
const httpsigLabel = "sig1"

// httpsigMaxAge is how old a signature's created may be.
const httpsigMaxAge = 5 * time.Minute

// signetHTTPSig is signet's httpsig package: a Signer and a Verifier.
type signetHTTPSig struct{}

func (signetHTTPSig) Name() string { return "signet" }
func (signetHTTPSig) Algs() []string {
	return []string{"hmac-sha256", "ed25519", "ecdsa-p256-sha256", "ecdsa-p384-sha384", "rsa-pss-sha512", "rsa-v1_5-sha256"}
}

func (signetHTTPSig) New(k KeySpec) (HTTPSig, error) {
	return newSignetHTTPSig(k, httpsig.Options{Components: httpsigComponents}, httpsig.Policy{})
}

// newSignetHTTPSig is signet's adapter with signing options o and policy
// p beside the study's (the peer tests use it to sign in a peer's shape).
// The verifier requires the study's components, a created no older than
// five minutes, and the keyid of the key; the study's requests have a
// body that no Content-Digest covers, which the zero Policy would refuse:
// UnsignedBody says the application accepts that.
func newSignetHTTPSig(k KeySpec, o httpsig.Options, p httpsig.Policy) (*signetHTTPSigOps, error) {
	key, err := signetKey(k)
	if err != nil {
		return nil, err
	}
	if o.Label == "" {
		o.Label = httpsigLabel
	}
	s, err := httpsig.NewSigner(key, o)
	if err != nil {
		return nil, err
	}
	pub := key
	if !key.Symmetric() {
		if pub, err = key.Public(); err != nil {
			return nil, err
		}
	}
	if p.Require == nil {
		p.Require = o.Components
	}
	p.Label, p.MaxAge, p.RequireKeyID, p.UnsignedBody = o.Label, httpsigMaxAge, true, true
	v, err := httpsig.NewVerifier(pub.WithKeyID(k.KeyID), p)
	if err != nil {
		return nil, err
	}
	return &signetHTTPSigOps{s: s, v: v}, nil
}

type signetHTTPSigOps struct {
	s *httpsig.Signer
	v *httpsig.Verifier
}

func (s *signetHTTPSigOps) Sign(r *http.Request) error { return s.s.SignRequest(r) }

func (s *signetHTTPSigOps) Verify(r *http.Request) error {
	_, err := s.v.VerifyRequest(r)
	return err
}
