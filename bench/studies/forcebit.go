//go:build studies

package studies

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/forcebit/http-message-signatures-rfc9421-go/pkg/digest"
	"github.com/forcebit/http-message-signatures-rfc9421-go/pkg/httpsig"
	"github.com/forcebit/http-message-signatures-rfc9421-go/pkg/parser"
	"github.com/forcebit/http-message-signatures-rfc9421-go/pkg/sfv"

	"github.com/signet-go/signet/bench/lab"
)

// Forcebit is github.com/forcebit/http-message-signatures-rfc9421-go at
// the commit with its high-level API (pkg/httpsig), used as its README
// shows: httpsig.NewSigner with the covered components, the key, keyid
// and created; httpsig.NewVerifier with the key and algorithm fixed, the
// required components and its ParamsValidation (created required, at
// most five minutes old and a minute ahead, expires enforced). Signing
// sends created and keyid, not alg (DisableAlgorithm: the reference
// shape). The key's keyid is checked through a KeyResolver, the
// library's documented way to look a key up by keyid.
//
// What the library makes an adapter do:
//   - A Signer fixes created when it is made (NewSigner reads the clock,
//     or SignerOptions.Created, once), so Sign makes a Signer per
//     request, as the README's example does (Created: time.Now()).
//   - A Verifier caches the last Signature-Input it parsed in its own
//     fields, without a lock: it is not safe for concurrent use, so the
//     adapter keeps one per goroutine in a sync.Pool.
//   - It signs and verifies ecdsa-p256-sha256 and ecdsa-p384-sha384 as
//     ASN.1 DER, not RFC 9421 §3.3.4's fixed-size r‖s: its own
//     signatures verify, but not another library's (signet's, the RFC's),
//     and a DER signature other verifiers refuse passes.
//   - It verifies rsa-pss-sha512 with any salt length
//     (PSSSaltLengthAuto); it signs with the RFC's 64 bytes.
//   - It rebuilds the @signature-params line with the parameters in an
//     order of its own (created, expires, nonce, alg, keyid, tag), not as
//     the signer sent them: a signature whose parameters come in another
//     order does not verify (RFC 9421 B.2.1, 4.3's proxy_sig). Its own
//     signatures and signet's (created, keyid) agree with that order.
//   - It takes @authority as the request carries it, not normalized
//     (RFC 9421 §2.2.3): a host in capitals or with the default port
//     signs differently from the normalized one.
//   - VerifyRequest does not look at the body: VerifyAt checks a covered
//     Content-Digest first with the library's digest package
//     (VerifyContentDigestBytes, sha-256 and sha-512).
type Forcebit struct{}

// Name is the library's short name in the lab.
func (Forcebit) Name() string { return "forcebit" }

// Algs lists the RFC 9421 algorithms the library registers (its ECDSA
// in DER, above).
func (Forcebit) Algs() []string {
	return []string{"hmac-sha256", "ed25519", "ecdsa-p256-sha256", "ecdsa-p384-sha384", "rsa-pss-sha512", "rsa-v1_5-sha256"}
}

// New binds the library to k.Alg and k's key.
func (Forcebit) New(k lab.KeySpec) (lab.HTTPSig, error) {
	f := &forcebitOps{alg: k.Alg, keyID: k.KeyID}
	switch k.Alg {
	case "hmac-sha256":
		if len(k.Secret) == 0 {
			return nil, errors.New("forcebit hmac-sha256: no secret")
		}
		f.signKey, f.verifyKey = k.Secret, k.Secret
	case "ed25519":
		priv, _ := k.Private.(ed25519.PrivateKey)
		pub, ok := k.Public.(ed25519.PublicKey)
		if !ok {
			return nil, fmt.Errorf("forcebit %s: want an Ed25519 key", k.Alg)
		}
		if priv != nil {
			f.signKey = priv
		}
		f.verifyKey = pub
	case "ecdsa-p256-sha256", "ecdsa-p384-sha384":
		priv, _ := k.Private.(*ecdsa.PrivateKey)
		pub, ok := k.Public.(*ecdsa.PublicKey)
		if !ok {
			return nil, fmt.Errorf("forcebit %s: want an ECDSA key", k.Alg)
		}
		if priv != nil {
			f.signKey = priv
		}
		f.verifyKey = pub
	case "rsa-pss-sha512", "rsa-v1_5-sha256":
		priv, _ := k.Private.(*rsa.PrivateKey)
		pub, ok := k.Public.(*rsa.PublicKey)
		if !ok {
			return nil, fmt.Errorf("forcebit %s: want an RSA key", k.Alg)
		}
		if priv != nil {
			f.signKey = priv
		}
		f.verifyKey = pub
	default:
		return nil, fmt.Errorf("forcebit: no %s", k.Alg)
	}
	for _, name := range lab.HTTPSigComponents() {
		typ := parser.ComponentField
		if strings.HasPrefix(name, "@") {
			typ = parser.ComponentDerived
		}
		f.components = append(f.components, parser.ComponentIdentifier{Name: name, Type: typ})
	}
	opts := f.verifyOptions(lab.HTTPSigLabel, f.components, time.Time{})
	if _, err := httpsig.NewVerifier(opts); err != nil {
		return nil, err
	}
	f.verifiers.New = func() any {
		v, err := httpsig.NewVerifier(opts)
		if err != nil {
			panic(err) // the same options made a verifier above
		}
		return v
	}
	return f, nil
}

type forcebitOps struct {
	alg, keyID         string
	signKey, verifyKey any // signKey nil with a public key alone
	components         []parser.ComponentIdentifier
	verifiers          sync.Pool // of *httpsig.Verifier, one per goroutine
}

// verifyOptions are the verifier's options for a label, the components
// it requires and a clock (the zero time: the library's time.Now).
func (f *forcebitOps) verifyOptions(label string, required []parser.ComponentIdentifier, now time.Time) httpsig.VerifyOptions {
	o := httpsig.VerifyOptions{
		Label:              label,
		RequiredComponents: required,
		Algorithm:          f.alg,
		ParamsValidation: parser.SignatureParamsValidationOptions{
			Now:                     now,
			RequireCreated:          true,
			CreatedNotOlderThan:     lab.HTTPSigMaxAge,
			CreatedNotNewerThan:     lab.HTTPSigSkew,
			RejectExpired:           true,
			ExpiresNotBeforeCreated: true,
		},
	}
	if f.keyID == "" {
		o.Key = f.verifyKey
		return o
	}
	key, keyID := f.verifyKey, f.keyID
	o.KeyResolver = httpsig.KeyResolverFunc(func(_ context.Context, _ string, p parser.SignatureParams) (any, string, error) {
		if p.KeyID == nil || *p.KeyID != keyID {
			return nil, "", errors.New("forcebit: unknown keyid")
		}
		return key, "", nil
	})
	return o
}

// Sign makes a Signer for this request (created now) and signs it:
// SignRequest sets Signature-Input and Signature.
func (f *forcebitOps) Sign(r *http.Request) error {
	if f.signKey == nil {
		return errors.New("forcebit: no private key")
	}
	s, err := httpsig.NewSigner(httpsig.SignerOptions{
		Label:            lab.HTTPSigLabel,
		Components:       f.components,
		Algorithm:        f.alg,
		Key:              f.signKey,
		KeyID:            f.keyID,
		Created:          time.Now(),
		DisableAlgorithm: true,
	})
	if err != nil {
		return err
	}
	_, err = s.SignRequest(r)
	return err
}

// Verify checks r's signature with a pooled Verifier.
func (f *forcebitOps) Verify(r *http.Request) error {
	v := f.verifiers.Get().(*httpsig.Verifier)
	defer f.verifiers.Put(v)
	_, err := v.VerifyRequest(r)
	return err
}

// VerifyAt implements lab.HTTPSigVerifierAt: for each signature of r
// (labels as the library's parser reads Signature-Input), a Verifier for
// that label with ParamsValidation.Now set to now and no required
// component; it succeeds when one does. A covered Content-Digest is
// checked against the body first.
func (f *forcebitOps) VerifyAt(r *http.Request, now time.Time) error {
	parsed, err := parser.ParseSignatureInput(strings.Join(r.Header.Values("Signature-Input"), ", "), sfv.DefaultLimits())
	if err != nil {
		return err
	}
	labels := make([]string, 0, len(parsed.Signatures))
	for label := range parsed.Signatures {
		labels = append(labels, label)
	}
	slices.Sort(labels)
	if len(labels) == 0 {
		return errors.New("forcebit: no signature")
	}
	var first error
	for _, label := range labels {
		err := f.verifyLabel(r, now, label, parsed.Signatures[label])
		if err == nil {
			return nil
		}
		if first == nil {
			first = err
		}
	}
	return first
}

func (f *forcebitOps) verifyLabel(r *http.Request, now time.Time, label string, e parser.SignatureEntry) error {
	for _, c := range e.CoveredComponents {
		if c.Name == "content-digest" && c.Type == parser.ComponentField {
			if err := forcebitDigest(r); err != nil {
				return err
			}
			break
		}
	}
	v, err := httpsig.NewVerifier(f.verifyOptions(label, nil, now))
	if err != nil {
		return err
	}
	_, err = v.VerifyRequest(r)
	return err
}

// forcebitDigest checks r's Content-Digest against its body with the
// library's digest package: every sha-256 and sha-512 digest the field
// carries must match (at least one).
func forcebitDigest(r *http.Request) error {
	header := strings.Join(r.Header.Values("Content-Digest"), ", ")
	got, err := digest.ParseContentDigest(header)
	if err != nil {
		return err
	}
	var algs []string
	for _, a := range []string{"sha-256", "sha-512"} {
		if _, ok := got[a]; ok {
			algs = append(algs, a)
		}
	}
	if len(algs) == 0 {
		return errors.New("forcebit: no sha-256 or sha-512 Content-Digest")
	}
	var body []byte
	if r.Body != nil {
		if body, err = io.ReadAll(r.Body); err != nil {
			return err
		}
		r.Body.Close()
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	return digest.VerifyContentDigestBytes(body, header, algs)
}
