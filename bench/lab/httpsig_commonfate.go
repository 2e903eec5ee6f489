package lab

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"fmt"
	"net/http"
	"time"

	"github.com/common-fate/httpsig/alg_ecdsa"
	"github.com/common-fate/httpsig/alg_ed25519"
	"github.com/common-fate/httpsig/alg_hmac"
	"github.com/common-fate/httpsig/alg_rsa"
	"github.com/common-fate/httpsig/inmemory"
	"github.com/common-fate/httpsig/signer"
	"github.com/common-fate/httpsig/sigparams"
	"github.com/common-fate/httpsig/sigset"
	"github.com/common-fate/httpsig/verifier"
)

// commonFateHTTPSig is github.com/common-fate/httpsig v0.2.1: the
// signer.Transport's Sign with the signature set written as its
// RoundTrip writes it, and a verifier.Verifier's Parse, as its Middleware
// runs it.
//
// Deviations from the reference shape, all the library's: it has no @path,
// so its signatures cover @target-uri in its place; it always sends the
// alg parameter and a tag, which its verifier requires (the tag selects
// the signature), here "lab". Its default random nonce is turned off
// (GetNonce returning ""), so that it signs what the others sign; with
// no nonce there is nothing for its NonceStorage to remember.
//
// Its verifier rebuilds @signature-params from the parameters it parsed,
// in its own order (keyid, alg, tag, nonce, created), not as received
// (RFC 9421 §2.3, §3.2): it refuses every signature whose parameters come
// in another order, signet's among them.
//
// As shipped, two of its algorithms call Sum on the signature base where
// they should Write it, and the lab measures them so:
//   - hmac-sha256: the "signature" is the base followed by HMAC(key, ""):
//     its own verify, no other library's do, and anyone who has seen one
//     can sign any request;
//   - ecdsa-p384-sha384: the "digest" is the base followed by
//     SHA-384(""), which ECDSA truncates to its first 48 bytes: the
//     signature covers the first 48 bytes of the base (for the reference
//     request, @method, @authority and 5 bytes more), so the rest of the
//     request, created included, can be changed at will; other libraries'
//     P-384 signatures do not verify, nor do its own elsewhere.
type commonFateHTTPSig struct{}

func (commonFateHTTPSig) Name() string { return "common-fate" }
func (commonFateHTTPSig) Algs() []string {
	return []string{"hmac-sha256", "ed25519", "ecdsa-p256-sha256", "ecdsa-p384-sha384", "rsa-pss-sha512", "rsa-v1_5-sha256"}
}

// commonFateComponents: the reference components, with @target-uri for @path.
var commonFateComponents = []string{"@method", "@authority", "@target-uri", "content-type"}

// The origin common-fate's verifier is configured with (it refuses a
// request whose Host is not its authority): httpsigRequest's.
const (
	httpsigScheme    = "https"
	httpsigAuthority = "example.com"
	commonFateTag    = "lab"
)

func (commonFateHTTPSig) New(k KeySpec) (HTTPSig, error) {
	var sa signer.Algorithm
	var va verifier.Algorithm
	switch k.Alg {
	case "hmac-sha256":
		a := alg_hmac.NewHMAC(k.Secret)
		sa, va = a, a
	case "ed25519":
		priv, _ := k.Private.(ed25519.PrivateKey) // nil with a public key alone: Sign fails
		pub, ok := k.Public.(ed25519.PublicKey)
		if !ok {
			return nil, fmt.Errorf("common-fate %s: want an Ed25519 key", k.Alg)
		}
		sa, va = alg_ed25519.Ed25519{PrivateKey: priv}, alg_ed25519.Ed25519{PublicKey: pub}
	case "ecdsa-p256-sha256", "ecdsa-p384-sha384":
		priv, _ := k.Private.(*ecdsa.PrivateKey)
		pub, ok := k.Public.(*ecdsa.PublicKey)
		if !ok {
			return nil, fmt.Errorf("common-fate %s: want an ECDSA key", k.Alg)
		}
		if k.Alg == "ecdsa-p256-sha256" {
			sa, va = alg_ecdsa.NewP256Signer(priv), alg_ecdsa.NewP256Verifier(pub)
		} else {
			sa, va = alg_ecdsa.NewP384Signer(priv), alg_ecdsa.NewP384Verifier(pub)
		}
	case "rsa-pss-sha512", "rsa-v1_5-sha256":
		priv, _ := k.Private.(*rsa.PrivateKey)
		pub, ok := k.Public.(*rsa.PublicKey)
		if !ok {
			return nil, fmt.Errorf("common-fate %s: want an RSA key", k.Alg)
		}
		// (the constructors' fields; NewRSA…Signer dereferences a nil key)
		if k.Alg == "rsa-pss-sha512" {
			sa, va = alg_rsa.RSAPSS512{PrivateKey: priv, PublicKey: pub}, alg_rsa.NewRSAPSS512Verifier(pub)
		} else {
			sa, va = alg_rsa.RSAPKCS256{PrivateKey: priv, PublicKey: pub}, alg_rsa.NewRSAPKCS256Verifier(pub)
		}
	default:
		return nil, fmt.Errorf("common-fate: no %s", k.Alg)
	}
	required := map[string]bool{}
	for _, c := range commonFateComponents {
		required[c] = true
	}
	v := verifier.Verifier{
		NonceStorage: commonFateNoNonces{},
		KeyDirectory: commonFateKeys{kid: k.KeyID, alg: va},
		Tag:          commonFateTag,
		Validation: sigparams.ValidateOpts{
			BeforeDuration:            httpsigMaxAge,
			AfterDuration:             time.Minute,
			RequiredCoveredComponents: required,
		},
		Scheme:    httpsigScheme,
		Authority: httpsigAuthority,
	}
	// VerifyAt's verifier: no required component, and the library's own
	// in-memory nonce store (which also takes a signature without nonce
	// only once).
	vAt := v
	vAt.Validation.RequiredCoveredComponents = nil
	vAt.NonceStorage = inmemory.NewNonceStorage()
	return &commonFateOps{
		s: &signer.Transport{KeyID: k.KeyID, Tag: commonFateTag, Alg: sa, CoveredComponents: commonFateComponents,
			GetNonce: func() (string, error) { return "", nil }},
		v:   &v,
		vAt: &vAt,
	}, nil
}

type commonFateOps struct {
	s      *signer.Transport
	v, vAt *verifier.Verifier
}

// Sign signs r and adds the signature to the set r carries, as the
// library's Transport.RoundTrip does (on r itself rather than a copy).
func (c *commonFateOps) Sign(r *http.Request) error {
	set, err := sigset.Unmarshal(r)
	if err != nil {
		return err
	}
	m, err := c.s.Sign(r)
	if err != nil {
		return err
	}
	set.Add(m)
	return set.Include(r)
}

// Verify is the verifier's Parse, which the library's Middleware calls
// (it returns a copy of r stripped of what the signature does not cover,
// which the middleware hands on).
func (c *commonFateOps) Verify(r *http.Request) error {
	_, _, err := c.v.Parse(nil, r, time.Now())
	return err
}

// VerifyAt implements HTTPSigVerifierAt with the verifier's own clock.
// The verifier selects the signature by its tag, "lab" here, as an
// application's would: a signature without it is refused.
func (c *commonFateOps) VerifyAt(r *http.Request, now time.Time) error {
	_, _, err := c.vAt.Parse(nil, r, now)
	return err
}

// commonFateKeys is a KeyDirectory of one key, found by its keyid.
type commonFateKeys struct {
	kid string
	alg verifier.Algorithm
}

func (d commonFateKeys) GetKey(_ context.Context, kid, _ string) (verifier.Algorithm, error) {
	if kid != d.kid {
		return nil, fmt.Errorf("common-fate: unknown keyid %q", kid)
	}
	return d.alg, nil
}

// commonFateNoNonces is the NonceStorage (which the verifier must have)
// for signatures without a nonce.
type commonFateNoNonces struct{}

func (commonFateNoNonces) Seen(context.Context, string) (bool, error) { return false, nil }
