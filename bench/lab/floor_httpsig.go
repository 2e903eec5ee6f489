package lab

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"fmt"

	"github.com/signet-go/signet/httpsig"
)

// httpsigFloor is the raw primitive over a signature base of the length
// signet builds for the reference request, with the JWT floor's
// definitions: HMAC-SHA256 on a reused keyed state (Reset, Write, Sum),
// ECDSA with its hash, RSA-PSS with SHA-512 and a 64-byte salt,
// RSA PKCS #1 v1.5 with SHA-256, and Ed25519. The HMAC state is the
// floor's own: one floor per goroutine.
type httpsigFloor struct {
	sign, verify func()
}

// httpsigBase is the signature base signet signs for the reference request
// with k.
func httpsigBase(k KeySpec) ([]byte, error) {
	s, err := signetHTTPSig{}.New(k)
	if err != nil {
		return nil, err
	}
	r := httpsigRequest()
	if err := s.Sign(r); err != nil {
		return nil, err
	}
	base, err := httpsig.RequestBase(r, httpsigLabel, nil)
	return []byte(base), err
}

func newHTTPSigFloor(k KeySpec) (*httpsigFloor, error) {
	base, err := httpsigBase(k)
	if err != nil {
		return nil, err
	}
	var sign func() ([]byte, error)
	var check func(sig []byte) bool
	switch k.Alg {
	case "hmac-sha256":
		mac := hmac.New(sha256.New, k.Secret)
		buf := make([]byte, 0, sha256.Size)
		sign = func() ([]byte, error) {
			mac.Reset()
			mac.Write(base)
			buf = mac.Sum(buf[:0])
			return buf, nil
		}
		check = func(sig []byte) bool {
			mac.Reset()
			mac.Write(base)
			buf = mac.Sum(buf[:0])
			return hmac.Equal(buf, sig)
		}
	case "ed25519":
		priv, ok1 := k.Private.(ed25519.PrivateKey)
		pub, ok2 := k.Public.(ed25519.PublicKey)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("lab: %s floor wants an Ed25519 key", k.Alg)
		}
		sign = func() ([]byte, error) { return ed25519.Sign(priv, base), nil }
		check = func(sig []byte) bool { return ed25519.Verify(pub, base, sig) }
	case "ecdsa-p256-sha256", "ecdsa-p384-sha384":
		priv, ok1 := k.Private.(*ecdsa.PrivateKey)
		pub, ok2 := k.Public.(*ecdsa.PublicKey)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("lab: %s floor wants an ECDSA key", k.Alg)
		}
		h := crypto.SHA256
		if k.Alg == "ecdsa-p384-sha384" {
			h = crypto.SHA384
		}
		sign = func() ([]byte, error) { return ecdsa.SignASN1(rand.Reader, priv, digest(h, base)) }
		check = func(sig []byte) bool { return ecdsa.VerifyASN1(pub, digest(h, base), sig) }
	case "rsa-pss-sha512":
		priv, ok1 := k.Private.(*rsa.PrivateKey)
		pub, ok2 := k.Public.(*rsa.PublicKey)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("lab: %s floor wants an RSA key", k.Alg)
		}
		pss := &rsa.PSSOptions{SaltLength: 64}
		sign = func() ([]byte, error) {
			d := sha512.Sum512(base)
			return rsa.SignPSS(rand.Reader, priv, crypto.SHA512, d[:], pss)
		}
		check = func(sig []byte) bool {
			d := sha512.Sum512(base)
			return rsa.VerifyPSS(pub, crypto.SHA512, d[:], sig, pss) == nil
		}
	case "rsa-v1_5-sha256":
		priv, ok1 := k.Private.(*rsa.PrivateKey)
		pub, ok2 := k.Public.(*rsa.PublicKey)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("lab: %s floor wants an RSA key", k.Alg)
		}
		sign = func() ([]byte, error) {
			d := sha256.Sum256(base)
			return rsa.SignPKCS1v15(nil, priv, crypto.SHA256, d[:])
		}
		check = func(sig []byte) bool {
			d := sha256.Sum256(base)
			return rsa.VerifyPKCS1v15(pub, crypto.SHA256, d[:], sig) == nil
		}
	default:
		return nil, fmt.Errorf("lab: no floor for %s", k.Alg)
	}
	sig, err := sign()
	if err != nil {
		return nil, err
	}
	sig = append([]byte(nil), sig...) // the HMAC floor's buffer is reused
	bad := append([]byte(nil), sig...)
	bad[len(bad)-1] ^= 1
	if !check(sig) || check(bad) {
		return nil, fmt.Errorf("lab: %s floor fails its own check", k.Alg)
	}
	return &httpsigFloor{
		sign: func() {
			if _, err := sign(); err != nil {
				panic(fmt.Sprintf("lab: %s floor: %v", k.Alg, err))
			}
		},
		verify: func() {
			if !check(sig) {
				panic("lab: HTTPSig floor self-check failed")
			}
		},
	}, nil
}
