package paseto

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha512"
	"testing"
	"time"

	"golang.org/x/crypto/blake2b"
	"golang.org/x/crypto/chacha20"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/pae"
	"github.com/signet-go/signet/internal/ratio"
)

// Each benchmark stands beside its floor, the spec's mandatory crypto on
// input of the same size:
//   - v4.local: both keyed BLAKE2b derivations (keyed states reused, as a
//     pooled implementation would), XChaCha20 over the claims, and the
//     BLAKE2b-256 MAC (a new digest: its key changes per token) over the
//     PAE of the token;
//   - v4.public: ed25519 over PAE(h, m, f, i); v3.public: ECDSA P-384 with
//     SHA-384 over PAE(pk, h, m, f, i).
//
//	go test -run '^$' -bench . -benchmem ./paseto

var benchNow = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// benchClaims is the reference claim set (docs/design.md), 151 bytes of JSON.
func benchClaims() Claims {
	return Claims{
		Audience:  "https://api.example.com",
		ExpiresAt: benchNow.Add(time.Hour),
		IssuedAt:  benchNow,
		Issuer:    "https://issuer.example.com",
		Subject:   "user@example.com",
	}
}

type v4Floor struct {
	enc, auth interface {
		Reset()
		Write([]byte) (int, error)
		Sum([]byte) []byte
	}
	m, c, pre []byte
	tmp       [56]byte
	ak        [32]byte
	tag       [32]byte
	n         [32]byte
}

func newV4Floor(b *testing.B, k *signet.Key, m []byte) *v4Floor {
	enc, _ := blake2b.New(56, k.Secret())
	auth, _ := blake2b.New(32, k.Secret())
	f := &v4Floor{enc: enc, auth: auth, m: m, c: make([]byte, len(m))}
	rand.Read(f.n[:])
	f.pre = pae.Append(nil, v4LocalHeader, f.n[:], f.c, nil, nil)
	return f
}

// runFresh is the floor as a plain implementation writes it: each keyed
// BLAKE2b made anew (blake2b.New with the key) per token.
func (f *v4Floor) runFresh(k []byte) {
	enc, _ := blake2b.New(56, k)
	enc.Write(encKeyInfo)
	enc.Write(f.n[:])
	enc.Sum(f.tmp[:0])
	auth, _ := blake2b.New(32, k)
	auth.Write(authKeyInfo)
	auth.Write(f.n[:])
	auth.Sum(f.ak[:0])
	s, _ := chacha20.NewUnauthenticatedCipher(f.tmp[:32], f.tmp[32:])
	s.XORKeyStream(f.c, f.m)
	mac, _ := blake2b.New(32, f.ak[:])
	mac.Write(f.pre)
	mac.Sum(f.tag[:0])
}

// run does the floor's crypto once.
func (f *v4Floor) run() {
	f.enc.Reset()
	f.enc.Write(encKeyInfo)
	f.enc.Write(f.n[:])
	f.enc.Sum(f.tmp[:0])
	f.auth.Reset()
	f.auth.Write(authKeyInfo)
	f.auth.Write(f.n[:])
	f.auth.Sum(f.ak[:0])
	s, _ := chacha20.NewUnauthenticatedCipher(f.tmp[:32], f.tmp[32:])
	s.XORKeyStream(f.c, f.m)
	mac, _ := blake2b.New(32, f.ak[:])
	mac.Write(f.pre)
	mac.Sum(f.tag[:0])
}

func BenchmarkPASETO(b *testing.B) {
	claims := benchClaims()
	m := claims.appendJSON(nil)
	p := Policy{Audience: []string{"https://api.example.com"}, Issuer: "https://issuer.example.com", Now: fixed(benchNow)}
	o := Options{Now: fixed(benchNow)}

	v4l, _ := signet.GenerateKey(signet.V4Local)
	tok, _ := Encrypt(v4l, claims, o)
	b.Run("v4.local/Encrypt/floor", func(b *testing.B) {
		f := newV4Floor(b, v4l, m)
		b.ReportAllocs()
		for b.Loop() {
			f.run()
		}
	})
	b.Run("v4.local/Encrypt/signet", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Encrypt(v4l, claims, o); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("v4.local/Decrypt/floor", func(b *testing.B) {
		f := newV4Floor(b, v4l, m)
		b.ReportAllocs()
		for b.Loop() {
			f.run()
		}
	})
	b.Run("v4.local/Decrypt/signet", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Decrypt[Claims](v4l, tok, p); err != nil {
				b.Fatal(err)
			}
		}
	})

	for _, alg := range []signet.Algorithm{signet.V4Public, signet.V3Public} {
		sk, pk, tok, floorSign, floorVerify := publicCase(alg, claims, m, o)
		b.Run(string(alg)+"/Sign/floor", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				floorSign()
			}
		})
		b.Run(string(alg)+"/Sign/signet", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Sign(sk, claims, o); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(string(alg)+"/Verify/floor", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				floorVerify()
			}
		})
		b.Run(string(alg)+"/Verify/signet", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Verify[Claims](pk, tok, p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// publicCase makes a key pair for alg, a token of claims (encoded as m),
// and the raw primitive's sign and verify on the same message.
func publicCase(alg signet.Algorithm, claims Claims, m []byte, o Options) (sk, pk *signet.Key, tok string, sign, verify func()) {
	sk, _ = signet.GenerateKey(alg)
	pk, _ = sk.Public()
	tok, _ = Sign(sk, claims, o)
	var msg []byte
	if alg == signet.V4Public {
		msg = messageV4(m, nil, nil)
	} else {
		msg, _ = messageV3(sk, m, nil, nil)
	}
	sig, _ := sk.Sign(nil, msg)
	sign, verify = publicFloor(sk, msg, sig)
	return sk, pk, tok, sign, verify
}

// publicFloor returns the raw primitive's sign and verify on msg.
func publicFloor(sk *signet.Key, msg, sig []byte) (sign, verify func()) {
	switch m := sk.Material().(type) {
	case ed25519.PrivateKey:
		pub := m.Public().(ed25519.PublicKey)
		return func() { ed25519.Sign(m, msg) }, func() { ed25519.Verify(pub, msg, sig) }
	case *ecdsa.PrivateKey:
		d := sha512.Sum384(msg)
		der, _ := ecdsa.SignASN1(rand.Reader, m, d[:])
		return func() {
				d := sha512.Sum384(msg)
				ecdsa.SignASN1(rand.Reader, m, d[:])
			}, func() {
				d := sha512.Sum384(msg)
				ecdsa.VerifyASN1(&m.PublicKey, d[:], der)
			}
	}
	panic("no floor")
}

// BenchmarkRatio reports signet/floor from interleaved slices (see
// internal/ratio): go test -run '^$' -bench Ratio -cpu 1 ./paseto
func BenchmarkRatio(b *testing.B) {
	claims := benchClaims()
	m := claims.appendJSON(nil)
	p := Policy{Audience: []string{"https://api.example.com"}, Issuer: "https://issuer.example.com", Now: fixed(benchNow)}
	o := Options{Now: fixed(benchNow)}
	v4l, _ := signet.GenerateKey(signet.V4Local)
	tok, _ := Encrypt(v4l, claims, o)
	b.Run("v4.local/Encrypt", func(b *testing.B) {
		f := newV4Floor(b, v4l, m)
		ratio.Run(b, f.run, func() {
			if _, err := Encrypt(v4l, claims, o); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("v4.local/Decrypt", func(b *testing.B) {
		f := newV4Floor(b, v4l, m)
		ratio.Run(b, f.run, func() {
			if _, err := Decrypt[Claims](v4l, tok, p); err != nil {
				b.Fatal(err)
			}
		})
	})
	// The same against the plain floor (keyed BLAKE2b made anew each time).
	// Secret returns a copy: taken once, outside the measured floor.
	secret := v4l.Secret()
	b.Run("v4.local/Encrypt/plain-floor", func(b *testing.B) {
		f := newV4Floor(b, v4l, m)
		ratio.Run(b, func() { f.runFresh(secret) }, func() {
			if _, err := Encrypt(v4l, claims, o); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("v4.local/Decrypt/plain-floor", func(b *testing.B) {
		f := newV4Floor(b, v4l, m)
		ratio.Run(b, func() { f.runFresh(secret) }, func() {
			if _, err := Decrypt[Claims](v4l, tok, p); err != nil {
				b.Fatal(err)
			}
		})
	})
	for _, alg := range []signet.Algorithm{signet.V4Public, signet.V3Public} {
		sk, pk, tok, fs, fv := publicCase(alg, claims, m, o)
		b.Run(string(alg)+"/Sign", func(b *testing.B) {
			ratio.Run(b, fs, func() {
				if _, err := Sign(sk, claims, o); err != nil {
					b.Fatal(err)
				}
			})
		})
		b.Run(string(alg)+"/Verify", func(b *testing.B) {
			ratio.Run(b, fv, func() {
				if _, err := Verify[Claims](pk, tok, p); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// customClaims is the lab's study type: a caller's claims that embed
// Claims beside a few fields of their own (a claimsjson.Plan codes them).
type customClaims struct {
	UserID   uint     `json:"user_id"`
	Username string   `json:"username"`
	Perms    []string `json:"perms,omitempty"`
	Claims
}

// BenchmarkCustomClaims puts Encrypt and Decrypt (v4.local) of a caller's
// type that embeds Claims beside the same of Claims alone, and beside
// Decrypt of its larger token into Claims.
//
//	GOMAXPROCS=1 go test -run '^$' -bench CustomClaims -benchmem ./paseto
func BenchmarkCustomClaims(b *testing.B) {
	claims := benchClaims()
	custom := customClaims{UserID: 42, Username: "alice", Perms: []string{"read", "write"}, Claims: claims}
	p := Policy{Audience: []string{"https://api.example.com"}, Issuer: "https://issuer.example.com", Now: fixed(benchNow)}
	o := Options{Now: fixed(benchNow)}
	k, _ := signet.GenerateKey(signet.V4Local)
	tok, err := Encrypt(k, claims, o)
	if err != nil {
		b.Fatal(err)
	}
	ctok, err := Encrypt(k, custom, o)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Encrypt/Claims", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Encrypt(k, claims, o); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Encrypt/custom", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Encrypt(k, custom, o); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Decrypt/Claims", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Decrypt[Claims](k, tok, p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Decrypt/custom-token-as-Claims", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Decrypt[Claims](k, ctok, p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Decrypt/custom", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Decrypt[customClaims](k, ctok, p); err != nil {
				b.Fatal(err)
			}
		}
	})
}
