package paseto

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha512"
	"fmt"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/b64"
	"github.com/signet-go/signet/internal/keycache"
	"github.com/signet-go/signet/internal/pae"
)

// v3.local (PASETO Version3.md): AES-256-CTR, keys split from the 32-byte
// key with HKDF-SHA384 (the nonce in the info), encrypt-then-MAC with
// HMAC-SHA384 over PAE.

var (
	v3LocalHeader  = []byte("v3.local.")
	v3PublicHeader = []byte("v3.public.")
)

const v3TagSize = 48

// v3Keys derives Ek ‖ n2 (32 + 16 bytes) and Ak (48 bytes) for nonce n.
func v3Keys(key *signet.Key, n []byte) (ek, n2, ak []byte, err error) {
	info := make([]byte, 0, len(authKeyInfo)+nonceSize)
	secret := key.Secret() // a copy: taken once, cleared after use
	defer clear(secret)
	tmp, err := hkdf.Key(sha512.New384, secret, nil, string(append(append(info, encKeyInfo...), n...)), 48)
	if err != nil {
		return nil, nil, nil, err
	}
	ak, err = hkdf.Key(sha512.New384, secret, nil, string(append(append(info[:0], authKeyInfo...), n...)), 48)
	if err != nil {
		return nil, nil, nil, err
	}
	return tmp[:32], tmp[32:], ak, nil
}

func v3Tag(ak, n, c, f, i []byte) []byte {
	m := hmac.New(sha512.New384, ak)
	pae.Write(m, nil, v3LocalHeader, n, c, f, i)
	return m.Sum(nil)
}

func encryptV3(key *signet.Key, m, f, i, nonce []byte) (string, error) {
	rawLen := nonceSize + len(m) + v3TagSize
	tokLen := len(v3LocalHeader) + b64.EncodedLen(rawLen)
	if len(f) > 0 {
		tokLen += 1 + b64.EncodedLen(len(f))
	}
	out := make([]byte, tokLen, tokLen+rawLen)
	raw := out[tokLen : tokLen+rawLen]
	n := raw[:nonceSize]
	if nonce != nil {
		copy(n, nonce)
	} else if _, err := rand.Read(n); err != nil {
		return "", fmt.Errorf("paseto: nonce: %w", err)
	}
	ek, n2, ak, err := v3Keys(key, n)
	if err != nil {
		return "", err
	}
	block, err := aes.NewCipher(ek)
	if err != nil {
		return "", err
	}
	c := raw[nonceSize : nonceSize+len(m)]
	copy(c, m) // encrypted in place, so that m does not escape
	cipher.NewCTR(block, n2).XORKeyStream(c, c)
	copy(raw[nonceSize+len(m):], v3Tag(ak, n, c, f, i))
	return assemble(out[:0], v3LocalHeader, raw, f), nil
}

func decryptV3(key *signet.Key, raw, f, i []byte) ([]byte, error) {
	if len(raw) < nonceSize+v3TagSize {
		return nil, fmt.Errorf("%w: v3.local token too short", signet.ErrMalformed)
	}
	n, c, t := raw[:nonceSize], raw[nonceSize:len(raw)-v3TagSize], raw[len(raw)-v3TagSize:]
	ek, n2, ak, err := v3Keys(key, n)
	if err != nil {
		return nil, err
	}
	if !hmac.Equal(t, v3Tag(ak, n, c, f, i)) {
		return nil, errAuth
	}
	block, err := aes.NewCipher(ek)
	if err != nil {
		return nil, err
	}
	cipher.NewCTR(block, n2).XORKeyStream(c, c)
	return c, nil
}

// compressedPoint is the 49-byte SEC 1 compressed form of a v3.public key,
// which v3.public signs along with the token (exclusive ownership). It is
// computed once per key and kept with it (the slice is shared: never
// written).
func compressedPoint(key *signet.Key) ([]byte, error) {
	r := keycache.Get(key, v3PointID{}, func(k *signet.Key) any {
		p, err := makeCompressedPoint(k)
		return v3Point{p, err}
	}).(v3Point)
	return r.point, r.err
}

// v3PointID keys a v3.public key's compressed point in its cache.
type v3PointID struct{}

// v3Point is the cached compressed point, or why there is none.
type v3Point struct {
	point []byte
	err   error
}

func makeCompressedPoint(key *signet.Key) ([]byte, error) {
	pub, ok := key.PublicMaterial().(interface{ Bytes() ([]byte, error) })
	if !ok {
		return nil, fmt.Errorf("%w: v3.public needs a P-384 key", signet.ErrAlgorithmMismatch)
	}
	u, err := pub.Bytes() // 0x04 ‖ X ‖ Y
	if err != nil || len(u) != 97 {
		return nil, fmt.Errorf("%w: v3.public key: %v", signet.ErrWeakKey, err)
	}
	out := make([]byte, 49)
	out[0] = 0x02 | u[96]&1
	copy(out[1:], u[1:49])
	return out, nil
}

// messageV3 is what v3.public signs: PAE(pk, h, m, f, i).
func messageV3(key *signet.Key, m, f, i []byte) ([]byte, error) {
	pk, err := compressedPoint(key)
	if err != nil {
		return nil, err
	}
	return pae.Append(make([]byte, 0, pae.Len(len(pk), len(v3PublicHeader), len(m), len(f), len(i))), pk, v3PublicHeader, m, f, i), nil
}
