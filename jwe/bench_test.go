package jwe

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/rand"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/ratio"
	"github.com/signet-go/signet/jwt"
)

// Each benchmark stands beside its floor, the mandatory cryptography on
// input of the same size:
//   - dir + A256GCM: AES-256-GCM Seal or Open of the claims' bytes with the
//     token's header as AAD, with a cipher made once and reused, into a
//     reused buffer, with a fixed nonce (drawing one is Encrypt's cost);
//   - ECDH-ES+A256KW + A256GCM (P-256): encrypt generates the ephemeral
//     key, agrees, runs the Concat KDF, makes the AES-256 key-wrapping
//     cipher, wraps a CEK (drawn once: drawing it is Encrypt's cost) and
//     seals with it (a GCM made for the CEK); decrypt parses the epk,
//     agrees, derives, unwraps and opens.
//
//	go test -run '^$' -bench . -benchmem ./jwe
//	go test -run '^$' -bench Ratio -benchtime 1s -count 3 ./jwe

var benchNow = time.Unix(1_800_000_000, 0)

// benchClaims is jwt's reference claim set.
func benchClaims() jwt.Claims {
	return jwt.Claims{
		Issuer:    "https://issuer.example",
		Subject:   "user@example.com",
		Audience:  jwt.Audience{"api"},
		ExpiresAt: jwt.At(benchNow.Add(time.Hour)),
		IssuedAt:  jwt.At(benchNow),
	}
}

func benchPolicy() Policy {
	return Policy{Issuer: "https://issuer.example", Audience: []string{"api"}, Now: func() time.Time { return benchNow }}
}

// dirFloor is AES-256-GCM on the claims, cipher and buffer reused.
type dirFloor struct {
	gcm         cipher.AEAD
	nonce       []byte
	pt, aad     []byte
	buf, sealed []byte
}

func newDirFloor(b *testing.B, key *signet.Key, tok string) *dirFloor {
	payload, err := jwt.AppendClaims(nil, benchClaims())
	if err != nil {
		b.Fatal(err)
	}
	blk, _ := aes.NewCipher(key.Secret())
	g, _ := cipher.NewGCM(blk)
	f := &dirFloor{gcm: g, nonce: make([]byte, 12), pt: payload, aad: []byte(tok[:indexDot(tok)])}
	f.buf = make([]byte, 0, len(payload)+16)
	f.sealed = g.Seal(nil, f.nonce, payload, f.aad)
	return f
}

func indexDot(s string) int {
	for i := range len(s) {
		if s[i] == '.' {
			return i
		}
	}
	return len(s)
}

func (f *dirFloor) seal() { f.gcm.Seal(f.buf[:0], f.nonce, f.pt, f.aad) }
func (f *dirFloor) open() {
	if _, err := f.gcm.Open(f.buf[:0], f.nonce, f.sealed, f.aad); err != nil {
		panic(err)
	}
}

// ecdhFloor is ECDH-ES+A256KW with A256GCM from the primitives.
type ecdhFloor struct {
	pri     *ecdh.PrivateKey
	pub     *ecdh.PublicKey
	epk     []byte // an ephemeral public key, uncompressed
	cek     []byte
	wrapped []byte
	pt, aad []byte
	nonce   []byte
	buf     []byte
	sealed  []byte
}

func newECDHFloor(b *testing.B, tok string) *ecdhFloor {
	pri, _ := ecdh.P256().GenerateKey(rand.Reader)
	payload, _ := jwt.AppendClaims(nil, benchClaims())
	f := &ecdhFloor{pri: pri, pub: pri.PublicKey(), cek: make([]byte, 32), pt: payload, aad: []byte(tok[:indexDot(tok)]), nonce: make([]byte, 12)}
	rand.Read(f.cek)
	f.buf = make([]byte, 0, len(payload)+16)
	eph, _ := ecdh.P256().GenerateKey(rand.Reader)
	f.epk = eph.PublicKey().Bytes()
	z, _ := eph.ECDH(f.pub)
	kek, _ := aes.NewCipher(concatKDF(nil, z, "ECDH-ES+A256KW", nil, nil, 32))
	f.wrapped = kwWrap(nil, kek, f.cek)
	blk, _ := aes.NewCipher(f.cek)
	g, _ := cipher.NewGCM(blk)
	f.sealed = g.Seal(nil, f.nonce, payload, f.aad)
	return f
}

func (f *ecdhFloor) encrypt() {
	eph, _ := ecdh.P256().GenerateKey(rand.Reader)
	z, _ := eph.ECDH(f.pub)
	_ = eph.PublicKey().Bytes()
	var kb [32]byte
	kek, _ := aes.NewCipher(concatKDF(kb[:0], z, "ECDH-ES+A256KW", nil, nil, 32))
	_ = kwWrap(f.buf[:0], kek, f.cek)
	blk, _ := aes.NewCipher(f.cek)
	g, _ := cipher.NewGCM(blk)
	g.Seal(f.buf[:0], f.nonce, f.pt, f.aad)
}

func (f *ecdhFloor) decrypt() {
	epk, _ := ecdh.P256().NewPublicKey(f.epk)
	z, _ := f.pri.ECDH(epk)
	var kb [32]byte
	kek, _ := aes.NewCipher(concatKDF(kb[:0], z, "ECDH-ES+A256KW", nil, nil, 32))
	cek, _ := kwUnwrap(f.buf[:0], kek, f.wrapped)
	blk, _ := aes.NewCipher(cek)
	g, _ := cipher.NewGCM(blk)
	if _, err := g.Open(f.buf[:0], f.nonce, f.sealed, f.aad); err != nil {
		panic(err)
	}
}

type benchCase struct {
	name     string
	key, pub *signet.Key
	tok      string
}

func benchCases(b *testing.B) []benchCase {
	opts := Options{Now: func() time.Time { return benchNow }}
	dir, _ := signet.GenerateEncryptionKey(signet.Dir, signet.A256GCM)
	ec, _ := signet.GenerateEncryptionKey(signet.ECDHESA256KW, signet.A256GCM)
	ecPub, _ := ec.Public()
	var cs []benchCase
	for _, c := range []benchCase{{name: "dir+A256GCM", key: dir, pub: dir}, {name: "ECDH-ES+A256KW+A256GCM", key: ec, pub: ecPub}} {
		tok, err := Encrypt(c.pub, benchClaims(), opts)
		if err != nil {
			b.Fatal(err)
		}
		c.tok = tok
		cs = append(cs, c)
	}
	return cs
}

// BenchmarkJWE: Encrypt and Decrypt of the reference claims, each beside
// its floor (see the top of this file).
func BenchmarkJWE(b *testing.B) {
	opts := Options{Now: func() time.Time { return benchNow }}
	p := benchPolicy()
	cs := benchCases(b)
	dir, ec := cs[0], cs[1]
	for _, fl := range []struct {
		name string
		op   func(b *testing.B) func() // sets the floor up, returns its operation
	}{
		{dir.name + "/Encrypt/floor", func(b *testing.B) func() { return newDirFloor(b, dir.key, dir.tok).seal }},
		{dir.name + "/Decrypt/floor", func(b *testing.B) func() { return newDirFloor(b, dir.key, dir.tok).open }},
		{ec.name + "/Encrypt/floor", func(b *testing.B) func() { return newECDHFloor(b, ec.tok).encrypt }},
		{ec.name + "/Decrypt/floor", func(b *testing.B) func() { return newECDHFloor(b, ec.tok).decrypt }},
	} {
		b.Run(fl.name, func(b *testing.B) {
			op := fl.op(b)
			b.ReportAllocs()
			for b.Loop() {
				op()
			}
		})
	}
	for _, c := range cs {
		b.Run(c.name+"/Encrypt/signet", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Encrypt(c.pub, benchClaims(), opts); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/Decrypt/signet", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Decrypt[jwt.Claims](c.key, c.tok, p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRatio runs signet and its floor in alternating slices of one
// loop and reports their time ratio (x-floor), as jwt's and paseto's do.
func BenchmarkRatio(b *testing.B) {
	opts := Options{Now: func() time.Time { return benchNow }}
	p := benchPolicy()
	cs := benchCases(b)
	dir, ec := cs[0], cs[1]
	b.Run(dir.name+"/Encrypt", func(b *testing.B) {
		f := newDirFloor(b, dir.key, dir.tok)
		ratio.Run(b, f.seal, func() {
			if _, err := Encrypt(dir.key, benchClaims(), opts); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run(dir.name+"/Decrypt", func(b *testing.B) {
		f := newDirFloor(b, dir.key, dir.tok)
		ratio.Run(b, f.open, func() {
			if _, err := Decrypt[jwt.Claims](dir.key, dir.tok, p); err != nil {
				b.Fatal(err)
			}
		})
	})
	// The same without the claims: the JWE layer alone over the bytes.
	b.Run(dir.name+"/EncryptBytes", func(b *testing.B) {
		f := newDirFloor(b, dir.key, dir.tok)
		ratio.Run(b, f.seal, func() {
			if _, err := EncryptBytes(dir.key, f.pt, ""); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run(dir.name+"/DecryptBytes", func(b *testing.B) {
		f := newDirFloor(b, dir.key, dir.tok)
		ratio.Run(b, f.open, func() {
			if _, _, err := DecryptBytes(dir.key, dir.tok, Policy{}); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run(ec.name+"/Encrypt", func(b *testing.B) {
		f := newECDHFloor(b, ec.tok)
		ratio.Run(b, f.encrypt, func() {
			if _, err := Encrypt(ec.pub, benchClaims(), opts); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run(ec.name+"/Decrypt", func(b *testing.B) {
		f := newECDHFloor(b, ec.tok)
		ratio.Run(b, f.decrypt, func() {
			if _, err := Decrypt[jwt.Claims](ec.key, ec.tok, p); err != nil {
				b.Fatal(err)
			}
		})
	})
}
