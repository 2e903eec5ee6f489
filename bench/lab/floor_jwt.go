package lab

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	_ "crypto/sha256" // SHA-256 for crypto.Hash
	_ "crypto/sha512" // SHA-384 and SHA-512 for crypto.Hash
	"encoding/asn1"
	"encoding/base64"
	"fmt"
	"hash"
	"math/big"
	"strings"
)

// jwtFloor is the raw primitive on the signing input of the same token
// (header.payload as signet writes it for the payload): HMAC on a reused
// keyed state, RSA PKCS #1 v1.5 and PSS, ECDSA (the hash included; the
// token's r ‖ s converted to DER once, outside the loop), and Ed25519.
type jwtFloor struct {
	sign, verify, forged func()
}

func newJWTFloor(k KeySpec, p *Payload) (*jwtFloor, error) {
	j, err := signetJWT{}.New(k)
	if err != nil {
		return nil, err
	}
	tok, err := j.Sign(p)
	if err != nil {
		return nil, err
	}
	dot := strings.LastIndexByte(tok, '.')
	input := []byte(tok[:dot])
	sig, err := base64.RawURLEncoding.DecodeString(tok[dot+1:])
	if err != nil {
		return nil, err
	}
	bad := append([]byte(nil), sig...)
	bad[len(bad)/2] ^= 1
	h := jwsHash(k.Alg)
	f := &jwtFloor{}
	switch k.Alg[:2] {
	case "HS":
		mac := hmac.New(h.New, k.Secret)
		buf := make([]byte, 0, 64)
		f.sign = func() { mac.Reset(); mac.Write(input); buf = mac.Sum(buf[:0]) }
		check := func(s []byte) bool { mac.Reset(); mac.Write(input); buf = mac.Sum(buf[:0]); return hmac.Equal(buf, s) }
		f.verify = func() { must(check(sig)) }
		f.forged = func() { must(!check(bad)) }
		if p.Data != nil && p.Data.Blob != "" {
			// A payload with a blob of application data (medium and larger): the
			// floor codes the payload segment too, base64url, which no
			// library can skip and which costs as much as the HMAC.
			seg := input[bytes.IndexByte(input, '.')+1:]
			raw, err := base64.RawURLEncoding.DecodeString(string(seg))
			if err != nil {
				return nil, err
			}
			enc := make([]byte, len(seg))
			dec := make([]byte, len(raw))
			f.sign = func() {
				base64.RawURLEncoding.Encode(enc, raw)
				mac.Reset()
				mac.Write(input)
				buf = mac.Sum(buf[:0])
			}
			check := func(s []byte) bool {
				mac.Reset()
				mac.Write(input)
				buf = mac.Sum(buf[:0])
				_, err := base64.RawURLEncoding.Decode(dec, seg)
				return err == nil && hmac.Equal(buf, s)
			}
			f.verify = func() { must(check(sig)) }
			f.forged = func() { must(!check(bad)) }
		}
	case "RS", "PS":
		priv, pub := k.Private.(*rsa.PrivateKey), k.Public.(*rsa.PublicKey)
		pss := &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash}
		f.sign = func() {
			d := digest(h, input)
			var err error
			if k.Alg[0] == 'P' {
				_, err = rsa.SignPSS(rand.Reader, priv, h, d, pss)
			} else {
				_, err = rsa.SignPKCS1v15(nil, priv, h, d)
			}
			must(err == nil)
		}
		check := func(s []byte) bool {
			d := digest(h, input)
			if k.Alg[0] == 'P' {
				return rsa.VerifyPSS(pub, h, d, s, pss) == nil
			}
			return rsa.VerifyPKCS1v15(pub, h, d, s) == nil
		}
		f.verify = func() { must(check(sig)) }
		f.forged = func() { must(!check(bad)) }
	case "ES":
		priv, pub := k.Private.(*ecdsa.PrivateKey), k.Public.(*ecdsa.PublicKey)
		n := len(sig) / 2
		f.sign = func() {
			_, err := ecdsa.SignASN1(rand.Reader, priv, digest(h, input))
			must(err == nil)
		}
		// The token carries r ‖ s; crypto/ecdsa verifies DER. The
		// conversion is the library's work, so it is done here, once.
		der := func(s []byte) []byte {
			d, err := asn1.Marshal(struct{ R, S *big.Int }{new(big.Int).SetBytes(s[:n]), new(big.Int).SetBytes(s[n:])})
			if err != nil {
				panic(err)
			}
			return d
		}
		good, forged := der(sig), der(bad)
		f.verify = func() { must(ecdsa.VerifyASN1(pub, digest(h, input), good)) }
		f.forged = func() { must(!ecdsa.VerifyASN1(pub, digest(h, input), forged)) }
	case "Ed":
		priv, pub := k.Private.(ed25519.PrivateKey), k.Public.(ed25519.PublicKey)
		f.sign = func() { ed25519.Sign(priv, input) }
		f.verify = func() { must(ed25519.Verify(pub, input, sig)) }
		f.forged = func() { must(!ed25519.Verify(pub, input, bad)) }
	default:
		return nil, fmt.Errorf("lab: no floor for %s", k.Alg)
	}
	return f, nil
}

func jwsHash(alg string) crypto.Hash {
	switch alg[len(alg)-3:] {
	case "384":
		return crypto.SHA384
	case "512":
		return crypto.SHA512
	}
	return crypto.SHA256
}

func digest(h crypto.Hash, msg []byte) []byte {
	var hh hash.Hash = h.New()
	hh.Write(msg)
	return hh.Sum(nil)
}

// must panics when a floor's own check fails: the floor is broken, not
// the library.
func must(ok bool) {
	if !ok {
		panic("lab: floor self-check failed")
	}
}
