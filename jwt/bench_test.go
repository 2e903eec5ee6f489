package jwt

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/b64"
)

// The benchmarks put each operation beside its floor: the raw primitive on
// the same signing input (HMAC with a reused keyed state, ed25519, ecdsa,
// rsa, hashing included). Read them as ratios signet/floor from one run.
//
//	go test -run '^$' -bench . -benchmem ./jwt

type benchCase struct {
	alg   signet.Algorithm
	key   *signet.Key // private
	pub   *signet.Key // what verifies
	token string
	input []byte // header.payload of token
	sig   []byte // raw signature of token
}

var benchNow = time.Unix(1_800_000_000, 0)

func benchClaims() Claims {
	return Claims{
		Issuer:    "https://issuer.example",
		Subject:   "user@example.com",
		Audience:  Audience{"api"},
		ExpiresAt: At(benchNow.Add(time.Hour)),
		IssuedAt:  At(benchNow),
	}
}

var benchCases = map[signet.Algorithm]*benchCase{}

// newBenchCase makes (once per algorithm) the key and token of a benchmark,
// lazily, so that a filtered run generates only the keys it uses.
func newBenchCase(b *testing.B, alg signet.Algorithm) *benchCase {
	b.Helper()
	if c, ok := benchCases[alg]; ok {
		return c
	}
	k, err := signet.GenerateKey(alg)
	if err != nil {
		b.Fatal(err)
	}
	pub := k
	if !k.Symmetric() {
		if pub, err = k.Public(); err != nil {
			b.Fatal(err)
		}
	}
	tok, err := Sign(k, benchClaims())
	if err != nil {
		b.Fatal(err)
	}
	dot := strings.LastIndexByte(tok, '.')
	sig, err := b64Decode(tok[dot+1:])
	if err != nil {
		b.Fatal(err)
	}
	c := &benchCase{alg: alg, key: k, pub: pub, token: tok, input: []byte(tok[:dot]), sig: sig}
	benchCases[alg] = c
	return c
}

func hashOf(alg signet.Algorithm) crypto.Hash {
	switch alg[2:] {
	case "384":
		return crypto.SHA384
	case "512":
		return crypto.SHA512
	}
	return crypto.SHA256
}

// floorSign and floorVerify are the raw primitives on the same input.
func floorSign(b *testing.B, c *benchCase) func() {
	input := c.input
	switch m := c.key.Material().(type) {
	case []byte:
		h := hmac.New(hashOf(c.alg).New, m)
		buf := make([]byte, 0, 64)
		return func() { h.Reset(); h.Write(input); buf = h.Sum(buf[:0]) }
	case ed25519.PrivateKey:
		return func() { ed25519.Sign(m, input) }
	case *ecdsa.PrivateKey:
		hf := hashOf(c.alg)
		return func() {
			h := hf.New()
			h.Write(input)
			if _, err := ecdsa.SignASN1(rand.Reader, m, h.Sum(nil)); err != nil {
				b.Fatal(err)
			}
		}
	case *rsa.PrivateKey:
		hf := hashOf(c.alg)
		pss := c.alg[0] == 'P'
		return func() {
			h := hf.New()
			h.Write(input)
			var err error
			if pss {
				_, err = rsa.SignPSS(rand.Reader, m, hf, h.Sum(nil), &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash})
			} else {
				_, err = rsa.SignPKCS1v15(nil, m, hf, h.Sum(nil))
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Fatalf("no floor for %s", c.alg)
	return nil
}

func floorVerify(b *testing.B, c *benchCase, sig []byte) func() bool {
	input := c.input
	switch m := c.key.Material().(type) {
	case []byte:
		h := hmac.New(hashOf(c.alg).New, m)
		buf := make([]byte, 0, 64)
		return func() bool { h.Reset(); h.Write(input); buf = h.Sum(buf[:0]); return hmac.Equal(buf, sig) }
	case ed25519.PrivateKey:
		pub := m.Public().(ed25519.PublicKey)
		return func() bool { return ed25519.Verify(pub, input, sig) }
	case *ecdsa.PrivateKey:
		hf := hashOf(c.alg)
		der, err := ecdsa.SignASN1(rand.Reader, m, func() []byte { h := hf.New(); h.Write(input); return h.Sum(nil) }())
		if err != nil {
			b.Fatal(err)
		}
		if len(sig) != len(c.sig) || string(sig) != string(c.sig) {
			der[len(der)-1] ^= 1 // the forged variant
		}
		return func() bool { h := hf.New(); h.Write(input); return ecdsa.VerifyASN1(&m.PublicKey, h.Sum(nil), der) }
	case *rsa.PrivateKey:
		hf := hashOf(c.alg)
		pss := c.alg[0] == 'P'
		return func() bool {
			h := hf.New()
			h.Write(input)
			if pss {
				return rsa.VerifyPSS(&m.PublicKey, hf, h.Sum(nil), sig, &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash}) == nil
			}
			return rsa.VerifyPKCS1v15(&m.PublicKey, hf, h.Sum(nil), sig) == nil
		}
	}
	b.Fatalf("no floor for %s", c.alg)
	return nil
}

// forge flips one bit of the token's signature (keeping it canonical base64url).
func forge(tok string) string {
	dot := strings.LastIndexByte(tok, '.')
	sig, _ := b64Decode(tok[dot+1:])
	sig[0] ^= 1
	return tok[:dot+1] + b64.EncodeToString(sig)
}

func BenchmarkSign(b *testing.B) {
	claims := benchClaims()
	for _, alg := range signet.JWSAlgorithms() {
		b.Run(string(alg)+"/floor", func(b *testing.B) {
			f := floorSign(b, newBenchCase(b, alg))
			b.ReportAllocs()
			for b.Loop() {
				f()
			}
		})
		b.Run(string(alg)+"/signet", func(b *testing.B) {
			c := newBenchCase(b, alg)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Sign(c.key, claims); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkVerify(b *testing.B) {
	p := Policy{Issuer: "https://issuer.example", Audience: []string{"api"}, Now: fixed(benchNow)}
	for _, alg := range signet.JWSAlgorithms() {
		b.Run(string(alg)+"/floor", func(b *testing.B) {
			c := newBenchCase(b, alg)
			f := floorVerify(b, c, c.sig)
			b.ReportAllocs()
			for b.Loop() {
				if !f() {
					b.Fatal("floor rejected")
				}
			}
		})
		b.Run(string(alg)+"/signet", func(b *testing.B) {
			c := newBenchCase(b, alg)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Verify[Claims](c.pub, c.token, p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkForged measures the cost of rejecting a token whose signature
// is wrong, beside the floor's failed check.
func BenchmarkForged(b *testing.B) {
	p := Policy{Now: fixed(benchNow)}
	for _, alg := range signet.JWSAlgorithms() {
		b.Run(string(alg)+"/floor", func(b *testing.B) {
			c := newBenchCase(b, alg)
			f := floorVerify(b, c, sigOf(forge(c.token)))
			b.ReportAllocs()
			for b.Loop() {
				if f() {
					b.Fatal("floor accepted a forgery")
				}
			}
		})
		b.Run(string(alg)+"/signet", func(b *testing.B) {
			c := newBenchCase(b, alg)
			bad := forge(c.token)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Verify[Claims](c.pub, bad, p); err == nil {
					b.Fatal("accepted a forgery")
				}
			}
		})
	}
}

func b64Decode(s string) ([]byte, error) { return b64.DecodeString(s) }

// customClaims is the lab's study type: a caller's claims that embed
// Claims beside a few fields of their own (a claimsjson.Plan codes them).
type customClaims struct {
	UserID   uint     `json:"user_id"`
	Username string   `json:"username"`
	Perms    []string `json:"perms,omitempty"`
	Claims
}

// BenchmarkCustomClaims puts Sign and Verify of a caller's type that
// embeds Claims beside the same of Claims alone (HS256), and beside the
// work its larger token costs anyway: SignBytes of its payload, and
// Verify of its token into Claims.
//
//	GOMAXPROCS=1 go test -run '^$' -bench CustomClaims -benchmem ./jwt
func BenchmarkCustomClaims(b *testing.B) {
	c := newBenchCase(b, signet.HS256)
	claims := benchClaims()
	custom := customClaims{UserID: 42, Username: "alice", Perms: []string{"read", "write"}, Claims: claims}
	p := Policy{Issuer: "https://issuer.example", Audience: []string{"api"}, Now: fixed(benchNow)}
	tok, err := Sign(c.key, custom)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Sign/Claims", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Sign(c.key, claims); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Sign/custom", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Sign(c.key, custom); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Sign/custom-payload-bytes", func(b *testing.B) {
		_, payload, err := VerifyPayload[Claims](c.pub, tok, p)
		if err != nil {
			b.Fatal(err)
		}
		pb := []byte(payload)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := SignBytes(c.key, pb, "JWT"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Verify/Claims", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Verify[Claims](c.pub, c.token, p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Verify/custom-token-as-Claims", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Verify[Claims](c.pub, tok, p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Verify/custom", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Verify[customClaims](c.pub, tok, p); err != nil {
				b.Fatal(err)
			}
		}
	})
}
