package lab

import (
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/httpsig"
)

// httpsigComponents are the covered components of the reference request
// (docs/design.md): its method, authority and path, and its content type.
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
// p beside the reference shape's (the peer tests use it to sign in a peer's shape).
// The verifier requires the reference components, a created no older than
// five minutes, and the keyid of the key; the reference requests have a
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
	ops := &signetHTTPSigOps{pub: key, replay: &httpsigNonces{seen: map[string]bool{}}}
	if key.CanSign() {
		if ops.s, err = httpsig.NewSigner(key, o); err != nil {
			return nil, err
		}
	}
	if !key.Symmetric() {
		if ops.pub, err = key.Public(); err != nil {
			return nil, err
		}
	}
	if k.KeyID != "" {
		ops.pub = ops.pub.WithKeyID(k.KeyID)
	}
	if p.Require == nil {
		p.Require = o.Components
	}
	p.Label, p.MaxAge, p.RequireKeyID, p.UnsignedBody = o.Label, httpsigMaxAge, true, true
	if ops.v, err = httpsig.NewVerifier(ops.pub, p); err != nil {
		return nil, err
	}
	return ops, nil
}

type signetHTTPSigOps struct {
	s      *httpsig.Signer // nil with a public key alone
	v      *httpsig.Verifier
	pub    *signet.Key
	replay *httpsigNonces // VerifyAt's nonces
}

// httpsigNonces is VerifyAt's replay store: it never forgets, as
// VerifyAt checks at instants that need not increase (a
// httpsig.MemoryReplayStore forgets what a later instant has passed).
type httpsigNonces struct {
	mu   sync.Mutex
	seen map[string]bool
}

func (n *httpsigNonces) Remember(keyID, nonce string, _, _ time.Time) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	k := keyID + "\x00" + nonce
	if n.seen[k] {
		return httpsig.ErrReplay
	}
	n.seen[k] = true
	return nil
}

func (s *signetHTTPSigOps) Sign(r *http.Request) error {
	if s.s == nil {
		return errors.New("signet: no private key")
	}
	return s.s.SignRequest(r)
}

func (s *signetHTTPSigOps) Verify(r *http.Request) error {
	_, err := s.v.VerifyRequest(r)
	return err
}

// VerifyAt implements HTTPSigVerifierAt: any label, no required
// component beyond signet's defaults (@method, @authority and @path: a
// signature covering less is refused, see TestAttackConformance), five
// minutes and a minute of skew at now, nonces remembered by s.
func (s *signetHTTPSigOps) VerifyAt(r *http.Request, now time.Time) error {
	v, err := httpsig.NewVerifier(s.pub, httpsig.Policy{Require: []string{}, MaxAge: httpsigMaxAge, Skew: time.Minute, UnsignedBody: true,
		Replay: s.replay, Now: func() time.Time { return now }})
	if err != nil {
		return err
	}
	_, err = v.VerifyRequest(r)
	return err
}
