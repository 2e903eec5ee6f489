package paserk

import (
	"crypto/hmac"
	"fmt"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/b64"
)

// pieNonceLen is the length of the random nonce of a pie-wrapped key.
const pieNonceLen = 32

// Wrap encrypts k with wrappingKey, a local key of the same version, per
// the PASERK "pie" protocol: a v4.local wrapping key wraps v4 keys into
// k4.local-wrap.pie (a v4.local k) or k4.secret-wrap.pie (a v4.public
// private key); a v3.local wrapping key wraps v3 keys likewise.
//
// The result is encrypted and authenticated, and may be stored or sent
// where the wrapping key is not, such as a token footer's "wpk". Public keys
// need no wrapping: use Encode.
//
// Errors wrap signet.ErrKeyUsage (wrappingKey is not a PASETO local key, or
// k is a public key), signet.ErrAlgorithmMismatch (k is of another version
// than wrappingKey) or signet.ErrUnsupported (k is not a PASETO key).
func Wrap(k, wrappingKey *signet.Key) (string, error) {
	wv, err := wrappingVersion(wrappingKey)
	if err != nil {
		return "", err
	}
	v, kd, raw, err := rawKey(k)
	if err != nil {
		return "", err
	}
	defer clear(raw)
	if v != wv {
		return "", fmt.Errorf("%w: paserk: a %s wrapping key wraps only %s keys, not %s", signet.ErrAlgorithmMismatch, wrappingKey.Algorithm(), wv.name, k.Algorithm())
	}
	h := v.name + "." + typeLocalWrap + ".pie."
	switch kd {
	case kindPublic:
		return "", fmt.Errorf("%w: paserk: a public key is not wrapped: use Encode", signet.ErrKeyUsage)
	case kindSecret:
		h = v.name + "." + typeSecretWrap + ".pie."
	}
	n, err := random(pieNonceLen)
	if err != nil {
		return "", err
	}
	secret := wrappingKey.Secret() // a copy
	defer clear(secret)
	keys := newPieKeys(v, secret, n)
	c := keys.xor(raw)
	t := keys.tag(h, n, c)
	out := make([]byte, 0, len(t)+len(n)+len(c))
	out = append(append(append(out, t...), n...), c...)
	return h + b64.EncodeToString(out), nil
}

// Unwrap decrypts a k4.local-wrap.pie, k4.secret-wrap.pie, k3.local-wrap.pie
// or k3.secret-wrap.pie with wrappingKey, the local key of the same version
// that wrapped it. The authentication tag is checked, in constant time,
// before anything is decrypted; the unwrapped key is checked as Decode
// checks keys.
//
// Errors wrap signet.ErrSignatureInvalid (the tag does not verify: another
// wrapping key, or tampered data), signet.ErrAlgorithmMismatch (s is of
// another version than wrappingKey), signet.ErrKeyUsage (wrappingKey is
// not a PASETO local key), signet.ErrTooLarge, signet.ErrMalformed,
// signet.ErrUnsupported (s is not a pie-wrapped key) or signet.ErrWeakKey.
func Unwrap(s string, wrappingKey *signet.Key) (*signet.Key, error) {
	p, err := parse(s)
	if err != nil {
		return nil, err
	}
	kd := kindLocal
	switch p.typ {
	case typeLocalWrap:
	case typeSecretWrap:
		kd = kindSecret
	default:
		return nil, fmt.Errorf("%w: paserk: %s is not a wrapped key", signet.ErrUnsupported, p.header)
	}
	wv, err := wrappingVersion(wrappingKey)
	if err != nil {
		return nil, err
	}
	if p.v != wv {
		return nil, fmt.Errorf("%w: paserk: %s cannot be unwrapped with a %s key", signet.ErrAlgorithmMismatch, p.header, wrappingKey.Algorithm())
	}
	d, err := p.decodeData()
	if err != nil {
		return nil, err
	}
	tagLen := p.v.wrapTagLen
	// The ciphertext is as long as the key: check the plaintext length
	// before spending any work on the data.
	if want := tagLen + pieNonceLen + p.v.rawLen(kd); len(d) != want {
		return nil, fmt.Errorf("%w: paserk: %s data is %d bytes, must be %d", signet.ErrMalformed, p.header, len(d), want)
	}
	t, n, c := d[:tagLen], d[tagLen:tagLen+pieNonceLen], d[tagLen+pieNonceLen:]
	secret := wrappingKey.Secret() // a copy
	defer clear(secret)
	keys := newPieKeys(p.v, secret, n)
	if !hmac.Equal(t, keys.tag(p.header, n, c)) {
		return nil, fmt.Errorf("%w: paserk: %s tag does not verify", signet.ErrSignatureInvalid, p.header)
	}
	ptk := keys.xor(c)
	defer clear(ptk)
	return keyFromRaw(p.v, kd, ptk)
}

// wrappingVersion returns the version of a wrapping key, which must be a
// PASETO local key.
func wrappingVersion(wk *signet.Key) (*version, error) {
	if wk.Algorithm() == "" { // a nil or zero Key
		return nil, fmt.Errorf("%w: paserk: nil or zero wrapping key", signet.ErrKeyUsage)
	}
	switch wk.Algorithm() {
	case signet.V4Local:
		return k4, nil
	case signet.V3Local:
		return k3, nil
	}
	return nil, fmt.Errorf("%w: paserk: a wrapping key must be v4.local or v3.local, not %s", signet.ErrKeyUsage, wk.Algorithm())
}

// pieKeys are the keys the pie protocol derives from a wrapping key and
// a nonce.
type pieKeys struct {
	v      *version
	ek, n2 []byte // encryption key and stream nonce (XChaCha20 or AES-CTR)
	ak     []byte // authentication key
}

// newPieKeys derives the pie keys of version v from wrapping key wk and
// nonce n: BLAKE2b (k4) or HMAC-SHA-384 (k3) keyed with wk over 0x80‖n
// (encryption key and stream nonce) and 0x81‖n (authentication key). The
// k3 authentication key is the first 32 bytes of its HMAC: operations/
// Wrap/pie.md does not say so, but the official vectors are made that way
// (and pyseto, for one, does the same).
func newPieKeys(v *version, wk, n []byte) pieKeys {
	var x, ak []byte
	if v == k4 {
		x = blake2bSum(56, wk, []byte{0x80}, n)
		ak = blake2bSum(32, wk, []byte{0x81}, n)
	} else {
		x = hmacSHA384(wk, []byte{0x80}, n)
		ak = hmacSHA384(wk, []byte{0x81}, n)[:32]
	}
	return pieKeys{v: v, ek: x[:32], n2: x[32:], ak: ak}
}

// xor encrypts or decrypts src: XChaCha20 (k4) or AES-256-CTR (k3).
func (pk pieKeys) xor(src []byte) []byte {
	if pk.v == k4 {
		return xchacha20(pk.ek, pk.n2, src)
	}
	return aes256CTR(pk.ek, pk.n2, src)
}

// tag authenticates header h, nonce n and ciphertext c.
func (pk pieKeys) tag(h string, n, c []byte) []byte {
	if pk.v == k4 {
		return blake2bSum(32, pk.ak, []byte(h), n, c)
	}
	return hmacSHA384(pk.ak, []byte(h), n, c)
}
