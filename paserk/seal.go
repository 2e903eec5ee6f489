package paserk

import (
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha512"
	"fmt"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/b64"
)

// Sizes of the sealed data: tag, ephemeral public key, encrypted key.
const (
	sealTagLen4 = 32
	sealEPKLen4 = 32 // X25519 public key
	sealTagLen3 = 48
	sealEPKLen3 = 49 // compressed P-384 point
)

// Seal encrypts the local key localKey to the holder of recipient's
// private key: a v4.local key to a v4.public (Ed25519) key as k4.seal, a
// v3.local key to a v3.public (P-384) key as k3.seal. recipient may be the
// public key or a private key, of which only the public half is used.
//
// k4 converts the Ed25519 key to X25519 and uses an ephemeral X25519 key,
// k3 an ephemeral P-384 ECDH key; both then derive the keys as PASERK's PKE
// operation says and encrypt and authenticate localKey. The result may be
// sent in the clear, for instance as a token footer's "wpk".
//
// Errors wrap signet.ErrKeyUsage (localKey is not a local key, or
// recipient not a PASETO public-key key), signet.ErrAlgorithmMismatch
// (the two keys are of different versions) or signet.ErrWeakKey (the
// recipient's key is not a usable point).
func Seal(localKey, recipient *signet.Key) (string, error) {
	v, kd, raw, err := rawKey(localKey)
	if err != nil {
		return "", err
	}
	defer clear(raw)
	if kd != kindLocal {
		return "", fmt.Errorf("%w: paserk: only local keys are sealed, not %s keys", signet.ErrKeyUsage, localKey.Algorithm())
	}
	rv, _, err := classify(recipient)
	if err != nil {
		return "", err
	}
	if recipient.Algorithm() != rv.public {
		return "", fmt.Errorf("%w: paserk: keys are sealed to a v4.public or v3.public key, not %s", signet.ErrKeyUsage, recipient.Algorithm())
	}
	if rv != v {
		return "", fmt.Errorf("%w: paserk: a %s key cannot be sealed to a %s key", signet.ErrAlgorithmMismatch, localKey.Algorithm(), recipient.Algorithm())
	}
	h := v.name + "." + typeSeal + "."
	var out []byte
	if v == k4 {
		edPub, _ := recipient.PublicMaterial().(ed25519.PublicKey)
		xpk, err := edwardsToMontgomery(edPub)
		if err != nil {
			return "", err
		}
		pub, err := ecdh.X25519().NewPublicKey(xpk)
		if err != nil {
			return "", fmt.Errorf("%w: paserk: recipient key: %v", signet.ErrWeakKey, err)
		}
		esk, err := ecdh.X25519().GenerateKey(rand.Reader)
		if err != nil {
			return "", fmt.Errorf("paserk: seal: %w", err)
		}
		xk, err := esk.ECDH(pub)
		if err != nil { // a low-order point
			return "", fmt.Errorf("%w: paserk: recipient key: %v", signet.ErrWeakKey, err)
		}
		epk := esk.PublicKey().Bytes()
		sk := newSealKeys4(h, xk, epk, xpk)
		clear(xk)
		edk := xchacha20(sk.ek, sk.n, raw)
		out = append(append(blake2bSum(sealTagLen4, sk.ak, []byte(h), epk, edk), epk...), edk...)
	} else {
		ecPub, _ := recipient.PublicMaterial().(*ecdsa.PublicKey)
		if ecPub == nil {
			return "", fmt.Errorf("%w: paserk: recipient key", signet.ErrWeakKey)
		}
		pub, err := ecPub.ECDH()
		if err != nil {
			return "", fmt.Errorf("%w: paserk: recipient key: %v", signet.ErrWeakKey, err)
		}
		pk, err := compressP384(ecPub)
		if err != nil {
			return "", err
		}
		esk, err := ecdh.P384().GenerateKey(rand.Reader)
		if err != nil {
			return "", fmt.Errorf("paserk: seal: %w", err)
		}
		xk, err := esk.ECDH(pub)
		if err != nil {
			return "", fmt.Errorf("%w: paserk: recipient key: %v", signet.ErrWeakKey, err)
		}
		epk := compressPoint(esk.PublicKey().Bytes())
		sk := newSealKeys3(h, xk, epk, pk)
		clear(xk)
		edk := aes256CTR(sk.ek, sk.n, raw)
		out = append(append(hmacSHA384(sk.ak, []byte(h), epk, edk), epk...), edk...)
	}
	return h + b64.EncodeToString(out), nil
}

// Unseal decrypts a k4.seal or k3.seal with the recipient's private key
// (v4.public for k4, v3.public for k3) and returns the local key. The tag
// is checked, in constant time, before the key is decrypted.
//
// Errors wrap signet.ErrSignatureInvalid (the tag does not verify: sealed
// to another key, or tampered data), signet.ErrAlgorithmMismatch (s is of
// another version than the key), signet.ErrKeyUsage (the key is not a
// PASETO private key), signet.ErrTooLarge, signet.ErrMalformed (including
// an ephemeral key that is not a valid point) or signet.ErrUnsupported
// (s is not a sealed key).
func Unseal(s string, recipient *signet.Key) (*signet.Key, error) {
	p, err := parse(s)
	if err != nil {
		return nil, err
	}
	if p.typ != typeSeal {
		return nil, fmt.Errorf("%w: paserk: %s is not a sealed key", signet.ErrUnsupported, p.header)
	}
	rv, kd, err := classify(recipient)
	if err != nil {
		return nil, err
	}
	if kd != kindSecret {
		return nil, fmt.Errorf("%w: paserk: unsealing needs a v4.public or v3.public private key, not a %s %s key", signet.ErrKeyUsage, recipient.Algorithm(), kd)
	}
	if rv != p.v {
		return nil, fmt.Errorf("%w: paserk: %s cannot be unsealed with a %s key", signet.ErrAlgorithmMismatch, p.header, recipient.Algorithm())
	}
	d, err := p.decodeData()
	if err != nil {
		return nil, err
	}
	tagLen, epkLen := sealTagLen3, sealEPKLen3
	if p.v == k4 {
		tagLen, epkLen = sealTagLen4, sealEPKLen4
	}
	if want := tagLen + epkLen + localLen; len(d) != want {
		return nil, fmt.Errorf("%w: paserk: %s data is %d bytes, must be %d", signet.ErrMalformed, p.header, len(d), want)
	}
	t, epk, edk := d[:tagLen], d[tagLen:tagLen+epkLen], d[tagLen+epkLen:]
	badEPK := fmt.Errorf("%w: paserk: %s ephemeral key is not a valid point", signet.ErrMalformed, p.header)
	badTag := fmt.Errorf("%w: paserk: %s tag does not verify", signet.ErrSignatureInvalid, p.header)
	var pdk []byte
	if p.v == k4 {
		edPriv, _ := recipient.Material().(ed25519.PrivateKey)
		if len(edPriv) != ed25519.PrivateKeySize {
			return nil, fmt.Errorf("%w: paserk: recipient key", signet.ErrKeyUsage)
		}
		xsk, err := x25519FromEd25519(edPriv)
		if err != nil {
			return nil, err
		}
		xpk := xsk.PublicKey().Bytes()
		epub, err := ecdh.X25519().NewPublicKey(epk)
		if err != nil {
			return nil, badEPK
		}
		xk, err := xsk.ECDH(epub)
		if err != nil { // a low-order point
			return nil, badEPK
		}
		sk := newSealKeys4(p.header, xk, epk, xpk)
		clear(xk)
		if !hmac.Equal(t, blake2bSum(sealTagLen4, sk.ak, []byte(p.header), epk, edk)) {
			return nil, badTag
		}
		pdk = xchacha20(sk.ek, sk.n, edk)
	} else {
		ecPriv, _ := recipient.Material().(*ecdsa.PrivateKey)
		if ecPriv == nil {
			return nil, fmt.Errorf("%w: paserk: recipient key", signet.ErrKeyUsage)
		}
		priv, err := ecPriv.ECDH()
		if err != nil {
			return nil, fmt.Errorf("%w: paserk: recipient key: %v", signet.ErrWeakKey, err)
		}
		pk, err := compressP384(&ecPriv.PublicKey)
		if err != nil {
			return nil, err
		}
		epoint, err := decompressP384(epk)
		if err != nil {
			return nil, badEPK
		}
		epub, err := epoint.ECDH()
		if err != nil {
			return nil, badEPK
		}
		xk, err := priv.ECDH(epub)
		if err != nil {
			return nil, badEPK
		}
		sk := newSealKeys3(p.header, xk, epk, pk)
		clear(xk)
		if !hmac.Equal(t, hmacSHA384(sk.ak, []byte(p.header), epk, edk)) {
			return nil, badTag
		}
		pdk = aes256CTR(sk.ek, sk.n, edk)
	}
	defer clear(pdk)
	return keyFromRaw(p.v, kindLocal, pdk)
}

// sealKeys are the keys PKE derives from the shared secret.
type sealKeys struct {
	ek, n, ak []byte // encryption key, stream nonce, authentication key
}

// newSealKeys4 derives the k4 keys: Ek = BLAKE2b-256(0x01‖h‖xk‖epk‖xpk),
// Ak = BLAKE2b-256(0x02‖h‖xk‖epk‖xpk), n = BLAKE2b-192(epk‖xpk), where xpk
// is the recipient's X25519 public key (one step of operations/PKE.md's
// decryption writes pk; the vectors use xpk throughout).
//
// The header h is "k4.seal." (and "k3.seal." for k3): operations/PKE.md
// says "k4.local." in places, but the official vectors (fixed in 2022)
// are made with the seal header.
func newSealKeys4(h string, xk, epk, xpk []byte) sealKeys {
	return sealKeys{
		ek: blake2bSum(32, nil, []byte{0x01}, []byte(h), xk, epk, xpk),
		ak: blake2bSum(32, nil, []byte{0x02}, []byte(h), xk, epk, xpk),
		n:  blake2bSum(24, nil, epk, xpk),
	}
}

// newSealKeys3 derives the k3 keys: Ek‖n = SHA-384(0x01‖h‖xk‖epk‖pk),
// Ak = SHA-384(0x02‖h‖xk‖epk‖pk), with epk and pk compressed points.
func newSealKeys3(h string, xk, epk, pk []byte) sealKeys {
	x := sha384([]byte{0x01}, []byte(h), xk, epk, pk)
	return sealKeys{ek: x[:32], n: x[32:], ak: sha384([]byte{0x02}, []byte(h), xk, epk, pk)}
}

// x25519FromEd25519 returns the X25519 private key of an Ed25519 private
// key: the first half of SHA-512 of its seed (the X25519 function clamps
// it as Ed25519 does), as libsodium's crypto_sign_ed25519_sk_to_curve25519.
func x25519FromEd25519(priv ed25519.PrivateKey) (*ecdh.PrivateKey, error) {
	hs := sha512.Sum512(priv.Seed())
	defer clear(hs[:])
	hs[0] &= 248
	hs[31] &= 127
	hs[31] |= 64
	k, err := ecdh.X25519().NewPrivateKey(hs[:32])
	if err != nil {
		return nil, fmt.Errorf("%w: paserk: X25519 key: %v", signet.ErrWeakKey, err)
	}
	return k, nil
}
