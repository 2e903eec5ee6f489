package httpsig

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/asn1"
	"math/big"
	"net/http"
	"strings"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/ratio"
)

// The benchmarks' message is the lab's reference request (docs/design.md,
// "Benchmarks"): a JSON POST signed over @method, @authority, @path and
// content-type, with created and keyid.
var benchComponents = []string{"@method", "@authority", "@path", "content-type"}

func benchRequest() *http.Request {
	r, _ := http.NewRequest(http.MethodPost, "https://example.com/api/resource?param=value", strings.NewReader(`{"id":42,"name":"widget","tags":["a","b"],"ok":true}`))
	r.Header.Set("Content-Type", "application/json")
	return r
}

type benchCase struct {
	alg    signet.Algorithm
	key    *signet.Key
	pub    *signet.Key
	signer *Signer
	ver    *Verifier
	signed *http.Request // a signed request, as the server reads it
	base   []byte        // its signature base
	sig    []byte
}

func newBenchCase(b testing.TB, alg signet.Algorithm) *benchCase {
	b.Helper()
	c := &benchCase{alg: alg}
	c.key, c.pub = mustKey(b, alg, "bench-key")
	c.signer = mustSigner(b, c.key, Options{Components: benchComponents})
	c.ver = mustVerifier(b, Policy{UnsignedBody: true, Origin: &Origin{Scheme: "https"}}, c.pub)
	r := benchRequest()
	if err := c.signer.SignRequest(r); err != nil {
		b.Fatal(err)
	}
	c.signed = serverSide(b, r)
	base, err := RequestBase(c.signed, "sig1", &Origin{Scheme: "https"})
	if err != nil {
		b.Fatal(err)
	}
	c.base = []byte(base)
	if c.sig, err = c.key.Sign(nil, c.base); err != nil {
		b.Fatal(err)
	}
	if _, err := c.ver.VerifyRequest(c.signed); err != nil {
		b.Fatal(err)
	}
	return c
}

// floorSign is the raw primitive over a base of the same length, the
// same definition as the jwt package's floor: HMAC-SHA256 on a reused
// keyed state (Reset, Write, Sum: what signet's key does, and what a
// careful plain implementation does), Ed25519, ECDSA with its hash
// (crypto/ecdsa's ASN.1 form, as the package gives it), RSA with its hash.
// Encoding the signature is not part of the floor.
func floorSign(b *testing.B, c *benchCase) func() {
	base := c.base
	switch m := c.key.Material().(type) {
	case []byte:
		h := hmac.New(sha256.New, m)
		buf := make([]byte, 0, 32)
		return func() { h.Reset(); h.Write(base); buf = h.Sum(buf[:0]) }
	case ed25519.PrivateKey:
		return func() { ed25519.Sign(m, base) }
	case *ecdsa.PrivateKey:
		hf := ecdsaHash(c.alg)
		return func() {
			h := hf.New()
			h.Write(base)
			if _, err := ecdsa.SignASN1(rand.Reader, m, h.Sum(nil)); err != nil {
				b.Fatal(err)
			}
		}
	case *rsa.PrivateKey:
		return func() {
			var err error
			if c.alg == signet.RSAPSSSHA512 {
				h := crypto.SHA512.New()
				h.Write(base)
				_, err = rsa.SignPSS(rand.Reader, m, crypto.SHA512, h.Sum(nil), &rsa.PSSOptions{SaltLength: 64})
			} else {
				d := sha256.Sum256(base)
				_, err = rsa.SignPKCS1v15(nil, m, crypto.SHA256, d[:])
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Fatalf("no floor for %s", c.alg)
	return nil
}

func ecdsaHash(alg signet.Algorithm) crypto.Hash {
	if alg == signet.ECDSAP384SHA384 {
		return crypto.SHA384
	}
	return crypto.SHA256
}

// ecdsaDER is the ASN.1 DER form of an r‖s signature, the form
// crypto/ecdsa verifies: the floor checks the same signature without any
// of signet's code in its loop.
func ecdsaDER(b *testing.B, sig []byte) []byte {
	n := len(sig) / 2
	der, err := asn1.Marshal(struct{ R, S *big.Int }{new(big.Int).SetBytes(sig[:n]), new(big.Int).SetBytes(sig[n:])})
	if err != nil {
		b.Fatal(err)
	}
	return der
}

// floorVerify checks c.sig over the base with the raw primitive (the
// definitions of floorSign).
func floorVerify(b *testing.B, c *benchCase) func() {
	base, sig := c.base, c.sig
	switch m := c.pub.Material().(type) {
	case []byte:
		h := hmac.New(sha256.New, m)
		buf := make([]byte, 0, 32)
		return func() {
			h.Reset()
			h.Write(base)
			buf = h.Sum(buf[:0])
			if !hmac.Equal(buf, sig) {
				b.Fatal("floor")
			}
		}
	case ed25519.PublicKey:
		return func() {
			if !ed25519.Verify(m, base, sig) {
				b.Fatal("floor")
			}
		}
	case *ecdsa.PublicKey:
		hf, der := ecdsaHash(c.alg), ecdsaDER(b, sig)
		return func() {
			h := hf.New()
			h.Write(base)
			if !ecdsa.VerifyASN1(m, h.Sum(nil), der) {
				b.Fatal("floor")
			}
		}
	case *rsa.PublicKey:
		return func() {
			var err error
			if c.alg == signet.RSAPSSSHA512 {
				h := crypto.SHA512.New()
				h.Write(base)
				err = rsa.VerifyPSS(m, crypto.SHA512, h.Sum(nil), sig, &rsa.PSSOptions{SaltLength: 64})
			} else {
				d := sha256.Sum256(base)
				err = rsa.VerifyPKCS1v15(m, crypto.SHA256, d[:], sig)
			}
			if err != nil {
				b.Fatal("floor")
			}
		}
	}
	b.Fatalf("no floor for %s", c.alg)
	return nil
}

// signOnce strips the request's signature and signs it again, as a client
// re-sending one request does.
func (c *benchCase) signOnce(b testing.TB, r *http.Request) {
	delete(r.Header, "Signature-Input")
	delete(r.Header, "Signature")
	if err := c.signer.SignRequest(r); err != nil {
		b.Fatal(err)
	}
}

func (c *benchCase) verifyOnce(b testing.TB) {
	if _, err := c.ver.VerifyRequest(c.signed); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkHTTPSig: sign and verify per algorithm, beside the floor.
//
//	go test -run '^$' -bench HTTPSig -benchmem ./httpsig
func BenchmarkHTTPSig(b *testing.B) {
	for _, alg := range signet.HTTPSigAlgorithms() {
		c := newBenchCase(b, alg)
		b.Run(string(alg)+"/Sign/floor", func(b *testing.B) {
			f := floorSign(b, c)
			b.ReportAllocs()
			for b.Loop() {
				f()
			}
		})
		b.Run(string(alg)+"/Sign/signet", func(b *testing.B) {
			r := benchRequest()
			b.ReportAllocs()
			for b.Loop() {
				c.signOnce(b, r)
			}
		})
		b.Run(string(alg)+"/Verify/floor", func(b *testing.B) {
			f := floorVerify(b, c)
			b.ReportAllocs()
			for b.Loop() {
				f()
			}
		})
		b.Run(string(alg)+"/Verify/signet", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.verifyOnce(b)
			}
		})
	}
}

// BenchmarkRatio reports signet/floor from interleaved slices (see
// internal/ratio), with the floors of floorSign and floorVerify.
//
//	go test -run '^$' -bench Ratio -cpu 1 ./httpsig
func BenchmarkRatio(b *testing.B) {
	for _, alg := range signet.HTTPSigAlgorithms() {
		c := newBenchCase(b, alg)
		r := benchRequest()
		b.Run(string(alg)+"/Sign", func(b *testing.B) {
			ratio.Run(b, floorSign(b, c), func() { c.signOnce(b, r) })
		})
		b.Run(string(alg)+"/Verify", func(b *testing.B) {
			ratio.Run(b, floorVerify(b, c), func() { c.verifyOnce(b) })
		})
	}
}
