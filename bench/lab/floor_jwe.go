package lab

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
)

// jweFloor is the mandatory cryptography of one JWE, on the plaintext
// signet's token carries (the claims as signet writes them) with that
// token's header segment as the AAD, without encoding, JSON or drawing
// random values (the IV, the CEK and the PBES2 salt are drawn once). The
// definitions are package jwe's own benchmarks' (jwe/bench_test.go):
//
//   - dir + A256GCM: AES-256-GCM Seal or Open with a cipher made once and
//     reused, into a reused buffer (the issue's "AES-GCM on the same bytes
//     with a reused cipher");
//   - dir + A128CBC-HS256: AES-128-CBC with PKCS #7 padding and
//     HMAC-SHA-256 over AAD ‖ IV ‖ ciphertext ‖ AL, truncated to 16 bytes,
//     with the AES block and the keyed HMAC made once (decrypt checks the
//     tag before deciphering);
//   - A256KW + A256GCM: AES key wrap of the CEK under a reused KEK cipher,
//     then a GCM made for the CEK (unwrap, then open, to decrypt);
//   - ECDH-ES+A256KW + A256GCM (P-256): encrypt generates the ephemeral key,
//     agrees, runs the Concat KDF, makes the AES-256 key-wrapping cipher,
//     wraps the CEK and seals with a GCM made for it; decrypt parses the epk,
//     agrees, derives, unwraps and opens;
//   - RSA-OAEP-256 + A256GCM: RSA-OAEP (SHA-256) of the CEK and GCM;
//   - PBES2-HS256+A128KW + A128GCM: PBKDF2-HMAC-SHA-256 with JWEPBES2Count
//     iterations, AES-128 key wrap and GCM.
type jweFloor struct {
	encrypt, decrypt func()
}

func newJWEFloor(k KeySpec, p *Payload) (*jweFloor, error) {
	x, err := signetJWE{}.New(k)
	if err != nil {
		return nil, err
	}
	tok, err := x.Encrypt(p)
	if err != nil {
		return nil, err
	}
	pt, err := x.(JWEDecrypterBytes).DecryptBytes(tok)
	if err != nil {
		return nil, err
	}
	aad := []byte(tok[:strings.IndexByte(tok, '.')])
	algName, encName := SplitJWE(k.Alg)
	f := &jweFloor{}
	iv := make([]byte, 16)
	rand.Read(iv)

	if encName == "A128CBC-HS256" {
		if algName != "dir" || len(k.Secret) != 32 {
			return nil, fmt.Errorf("lab: no floor for %s", k.Alg)
		}
		macKey, encKey := k.Secret[:16], k.Secret[16:]
		blk, err := aes.NewCipher(encKey)
		if err != nil {
			return nil, err
		}
		mac := hmac.New(sha256.New, macKey)
		var al [8]byte
		binary.BigEndian.PutUint64(al[:], uint64(len(aad))*8)
		n := len(pt) + 16 - len(pt)%16
		padded := make([]byte, n)
		copy(padded, pt)
		ct := make([]byte, n)
		var sum [32]byte
		tag := func(ct []byte) []byte {
			mac.Reset()
			mac.Write(aad)
			mac.Write(iv)
			mac.Write(ct)
			mac.Write(al[:])
			return mac.Sum(sum[:0])[:16]
		}
		f.encrypt = func() {
			pad := byte(n - len(pt))
			copy(padded, pt)
			for i := len(pt); i < n; i++ {
				padded[i] = pad
			}
			cipher.NewCBCEncrypter(blk, iv).CryptBlocks(ct, padded)
			tag(ct)
		}
		f.encrypt()
		good := append([]byte(nil), tag(ct)...)
		sealed := append([]byte(nil), ct...)
		out := make([]byte, n)
		f.decrypt = func() {
			jweMust(subtle.ConstantTimeCompare(tag(sealed), good) == 1)
			cipher.NewCBCDecrypter(blk, iv).CryptBlocks(out, sealed)
			pad := int(out[n-1])
			jweMust(pad >= 1 && pad <= 16)
		}
		return f, nil
	}

	nonce := iv[:12]
	buf := make([]byte, 0, len(pt)+16)
	if algName == "dir" {
		g, err := newGCM(k.Secret)
		if err != nil {
			return nil, err
		}
		sealed := g.Seal(nil, nonce, pt, aad)
		f.encrypt = func() { g.Seal(buf[:0], nonce, pt, aad) }
		f.decrypt = func() {
			_, err := g.Open(buf[:0], nonce, sealed, aad)
			jweMust(err == nil)
		}
		return f, nil
	}

	// Key wrapping: a fresh CEK per token, sealed with a GCM made for it.
	cek := make([]byte, map[string]int{"A256GCM": 32, "A128GCM": 16}[encName])
	if len(cek) == 0 {
		return nil, fmt.Errorf("lab: no floor for %s", k.Alg)
	}
	rand.Read(cek)
	g, err := newGCM(cek)
	if err != nil {
		return nil, err
	}
	sealed := g.Seal(nil, nonce, pt, aad)
	seal := func(cek []byte) {
		g, _ := newGCM(cek)
		g.Seal(buf[:0], nonce, pt, aad)
	}
	open := func(cek []byte) {
		g, err := newGCM(cek)
		jweMust(err == nil)
		_, err = g.Open(buf[:0], nonce, sealed, aad)
		jweMust(err == nil)
	}
	var wbuf, ubuf [48]byte
	switch algName {
	case "A256KW":
		kek, err := aes.NewCipher(k.Secret)
		if err != nil {
			return nil, err
		}
		wrapped := aesKeyWrap(nil, kek, cek)
		f.encrypt = func() { aesKeyWrap(wbuf[:0], kek, cek); seal(cek) }
		f.decrypt = func() {
			c, err := aesKeyUnwrap(ubuf[:0], kek, wrapped)
			jweMust(err == nil)
			open(c)
		}
	case "ECDH-ES+A256KW":
		priv, ok := k.Private.(*ecdsa.PrivateKey)
		if !ok {
			return nil, errors.New("lab: ECDH-ES floor wants a P-256 key")
		}
		epriv, err := priv.ECDH()
		if err != nil {
			return nil, err
		}
		pub := epriv.PublicKey()
		eph, err := ecdh.P256().GenerateKey(rand.Reader)
		if err != nil {
			return nil, err
		}
		epk := eph.PublicKey().Bytes()
		z, err := eph.ECDH(pub)
		if err != nil {
			return nil, err
		}
		var kb [32]byte
		kek, _ := aes.NewCipher(concatKDF(kb[:0], z, algName, 32))
		wrapped := aesKeyWrap(nil, kek, cek)
		f.encrypt = func() {
			eph, _ := ecdh.P256().GenerateKey(rand.Reader)
			z, _ := eph.ECDH(pub)
			_ = eph.PublicKey().Bytes()
			var kb [32]byte
			kek, _ := aes.NewCipher(concatKDF(kb[:0], z, algName, 32))
			aesKeyWrap(wbuf[:0], kek, cek)
			seal(cek)
		}
		f.decrypt = func() {
			e, err := ecdh.P256().NewPublicKey(epk)
			jweMust(err == nil)
			z, err := epriv.ECDH(e)
			jweMust(err == nil)
			var kb [32]byte
			kek, _ := aes.NewCipher(concatKDF(kb[:0], z, algName, 32))
			c, err := aesKeyUnwrap(ubuf[:0], kek, wrapped)
			jweMust(err == nil)
			open(c)
		}
	case "RSA-OAEP-256":
		priv, ok := k.Private.(*rsa.PrivateKey)
		if !ok {
			return nil, errors.New("lab: RSA-OAEP-256 floor wants an RSA key")
		}
		pub := &priv.PublicKey
		wrapped, err := rsa.EncryptOAEP(sha256.New(), rand.Reader, pub, cek, nil)
		if err != nil {
			return nil, err
		}
		f.encrypt = func() {
			_, err := rsa.EncryptOAEP(sha256.New(), rand.Reader, pub, cek, nil)
			jweMust(err == nil)
			seal(cek)
		}
		f.decrypt = func() {
			c, err := rsa.DecryptOAEP(sha256.New(), nil, priv, wrapped, nil)
			jweMust(err == nil)
			open(c)
		}
	case "PBES2-HS256+A128KW":
		// The salt is UTF8(alg) ‖ 0x00 ‖ p2s (RFC 7518 §4.8.1.1).
		p2s := make([]byte, 16)
		rand.Read(p2s)
		salt := append(append([]byte(algName), 0), p2s...)
		derive := func() cipher.Block {
			dk, err := pbkdf2.Key(sha256.New, string(k.Secret), salt, JWEPBES2Count, 16)
			jweMust(err == nil)
			kek, _ := aes.NewCipher(dk)
			return kek
		}
		wrapped := aesKeyWrap(nil, derive(), cek)
		f.encrypt = func() { aesKeyWrap(wbuf[:0], derive(), cek); seal(cek) }
		f.decrypt = func() {
			c, err := aesKeyUnwrap(ubuf[:0], derive(), wrapped)
			jweMust(err == nil)
			open(c)
		}
	default:
		return nil, fmt.Errorf("lab: no floor for %s", k.Alg)
	}
	return f, nil
}

func newGCM(key []byte) (cipher.AEAD, error) {
	blk, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(blk)
}

// aesKeyWrapIV is RFC 3394's default initial value.
const aesKeyWrapIV = 0xA6A6A6A6A6A6A6A6

// aesKeyWrap appends to dst the RFC 3394 wrapping of key (a multiple of 8
// bytes) under kek.
func aesKeyWrap(dst []byte, kek cipher.Block, key []byte) []byte {
	n := len(key) / 8
	start := len(dst)
	dst = append(dst, make([]byte, 8)...)
	dst = append(dst, key...)
	out := dst[start:]
	a := uint64(aesKeyWrapIV)
	var b [16]byte
	for j := range 6 {
		for i := 1; i <= n; i++ {
			binary.BigEndian.PutUint64(b[:8], a)
			copy(b[8:], out[8*i:8*i+8])
			kek.Encrypt(b[:], b[:])
			a = binary.BigEndian.Uint64(b[:8]) ^ uint64(n*j+i)
			copy(out[8*i:], b[8:])
		}
	}
	binary.BigEndian.PutUint64(out[:8], a)
	return dst
}

// aesKeyUnwrap appends to dst the key wrapped in wrapped under kek, or
// fails when the integrity check does not hold.
func aesKeyUnwrap(dst []byte, kek cipher.Block, wrapped []byte) ([]byte, error) {
	n := len(wrapped)/8 - 1
	if n < 1 || len(wrapped)%8 != 0 {
		return nil, errors.New("lab: bad wrapped key")
	}
	start := len(dst)
	dst = append(dst, wrapped[8:]...)
	r := dst[start:]
	a := binary.BigEndian.Uint64(wrapped[:8])
	var b [16]byte
	for j := 5; j >= 0; j-- {
		for i := n; i >= 1; i-- {
			binary.BigEndian.PutUint64(b[:8], a^uint64(n*j+i))
			copy(b[8:], r[8*(i-1):8*i])
			kek.Decrypt(b[:], b[:])
			a = binary.BigEndian.Uint64(b[:8])
			copy(r[8*(i-1):], b[8:])
		}
	}
	if a != aesKeyWrapIV {
		return nil, errors.New("lab: key unwrap failed")
	}
	return dst, nil
}

// concatKDF appends to dst the Concat KDF (NIST SP 800-56A, RFC 7518
// §4.6.2) output of size bytes (at most 32: one SHA-256 round) for the
// shared secret z and algorithm alg, with empty apu and apv.
func concatKDF(dst, z []byte, alg string, size int) []byte {
	var in [160]byte
	b := binary.BigEndian.AppendUint32(in[:0], 1)
	b = append(b, z...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(alg)))
	b = append(b, alg...)
	b = binary.BigEndian.AppendUint32(b, 0) // apu
	b = binary.BigEndian.AppendUint32(b, 0) // apv
	b = binary.BigEndian.AppendUint32(b, uint32(size*8))
	sum := sha256.Sum256(b)
	return append(dst, sum[:size]...)
}

// jweMust panics when a floor's own check fails.
func jweMust(ok bool) {
	if !ok {
		panic("lab: JWE floor self-check failed")
	}
}
