package signet

import (
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"fmt"

	"github.com/signet-go/signet/internal/clip"
)

// maxPBES2Password bounds a PBES2 password: longer is no stronger (HMAC
// hashes it down) and only costs memory.
const maxPBES2Password = 1024

// GenerateEncryptionKey makes a new random JWE key for the key-management
// algorithm alg and the content encryption enc (package jwe), bound to both
// for life:
//   - Dir: a random content-encryption key of enc's KeySize;
//   - A128KW, A256KW, A128GCMKW, A256GCMKW: a random 16- or 32-byte AES key;
//   - ECDH-ES and ECDH-ES+A*KW: a P-256 key (the curve every JOSE library
//     has; for P-384 or X25519 generate an *ecdh.PrivateKey and use
//     NewEncryptionKey);
//   - RSA-OAEP-256: RSA-2048 (RSA-OAEP keys only decrypt: not generated);
//   - PBES2: a random password of 32 base64url characters (192 bits).
func GenerateEncryptionKey(alg Algorithm, enc Encryption) (*Key, error) {
	return GenerateEncryptionKeyWithID(alg, enc, "")
}

// GenerateEncryptionKeyWithID is GenerateEncryptionKey with a key ID (JWK
// kid) set on the key.
func GenerateEncryptionKeyWithID(alg Algorithm, enc Encryption, kid string) (*Key, error) {
	sp, err := jweLookup(alg, enc)
	if err != nil {
		return nil, err
	}
	var material any
	switch sp.family {
	case famDir, famAESKW:
		n := enc.KeySize()
		if sp.family == famAESKW {
			n = sp.minKey
		}
		secret := make([]byte, n)
		_, err = rand.Read(secret)
		material = secret
	case famPBES2:
		var raw [24]byte
		_, err = rand.Read(raw[:])
		material = []byte(base64.RawURLEncoding.EncodeToString(raw[:]))
	case famECDH:
		material, err = ecdh.P256().GenerateKey(rand.Reader)
	case famRSAOAEP:
		if alg == RSAOAEP {
			return nil, fmt.Errorf("%w: RSA-OAEP (SHA-1) keys only decrypt what others send; generate an RSA-OAEP-256 key", ErrKeyUsage)
		}
		material, err = rsa.GenerateKey(rand.Reader, MinRSABits)
	}
	if err != nil {
		return nil, fmt.Errorf("signet: generate %s key: %w", alg, err)
	}
	return newEncryptionKey(sp, kid, material)
}

// NewEncryptionKey binds existing key material to the JWE key-management
// algorithm alg and the content encryption enc (package jwe). material is:
//   - for Dir, a []byte of exactly enc.KeySize() bytes (the CEK);
//   - for A128KW and A128GCMKW a 16-byte []byte, for A256KW and A256GCMKW
//     a 32-byte one;
//   - for ECDH-ES and ECDH-ES+A*KW, an *ecdh.PrivateKey or *ecdh.PublicKey
//     on P-256, P-384 or X25519, or an *ecdsa.PrivateKey or
//     *ecdsa.PublicKey on P-256 or P-384 (X25519 public keys of small
//     order are refused);
//   - for RSA-OAEP and RSA-OAEP-256, an *rsa.PrivateKey or *rsa.PublicKey
//     of at least MinRSABits (an RSA-OAEP key decrypts only);
//   - for the PBES2 algorithms, the password as a []byte of at least
//     MinPBES2Password bytes.
//
// The key keeps a copy. A public key (ECDH, RSA) encrypts; the private key
// also decrypts. Weak material is refused with ErrWeakKey, material of
// the wrong kind with ErrAlgorithmMismatch, an alg or enc that is not a
// JWE one with ErrUnsupported.
func NewEncryptionKey(alg Algorithm, enc Encryption, material any) (*Key, error) {
	return NewEncryptionKeyWithID(alg, enc, "", material)
}

// NewEncryptionKeyWithID is NewEncryptionKey with a key ID (JWK kid) set
// on the key.
func NewEncryptionKeyWithID(alg Algorithm, enc Encryption, kid string, material any) (*Key, error) {
	sp, err := jweLookup(alg, enc)
	if err != nil {
		return nil, err
	}
	return newEncryptionKey(sp, kid, material)
}

// Encryption returns the content encryption a JWE key is bound to, or ""
// for other keys (and a nil or zero Key).
func (k *Key) Encryption() Encryption {
	if k.isZero() {
		return ""
	}
	return k.spec.enc
}

func jweLookup(alg Algorithm, enc Encryption) (*spec, error) {
	sp := jweSpec(alg)
	if sp == nil {
		if alg == "RSA1_5" {
			return nil, fmt.Errorf("%w: RSA1_5 (RSAES-PKCS1-v1_5 is a padding oracle); use RSA-OAEP-256", ErrUnsupported)
		}
		if _, err := lookup(alg); err == nil {
			return nil, fmt.Errorf("%w: %s is not a JWE key-management algorithm", ErrAlgorithmMismatch, alg)
		}
		return nil, fmt.Errorf("%w: JWE algorithm %q", ErrUnsupported, clip.String(string(alg)))
	}
	if enc.KeySize() == 0 {
		return nil, fmt.Errorf("%w: content encryption %q", ErrUnsupported, clip.String(string(enc)))
	}
	return jweKeySpec(alg, enc), nil
}

func errNeedsEncryption(alg Algorithm) error {
	return fmt.Errorf("%w: %s is a JWE key-management algorithm: make its keys with NewEncryptionKey or GenerateEncryptionKey", ErrUnsupported, alg)
}

// newEncryptionKey checks material for sp and enc and makes the key with a
// copy of it.
func newEncryptionKey(sp *spec, kid string, material any) (*Key, error) {
	enc := sp.enc
	mismatch := func() (*Key, error) {
		return nil, fmt.Errorf("%w: %s cannot be a %s key", ErrAlgorithmMismatch, typeName(material), sp.name)
	}
	if m, ok := material.([]byte); ok {
		var want, n = 0, len(m)
		switch sp.family {
		case famDir:
			want = enc.KeySize()
		case famAESKW:
			want = sp.minKey
		case famPBES2:
			if n < MinPBES2Password {
				return nil, fmt.Errorf("%w: %s password is %d bytes, need at least %d", ErrWeakKey, sp.name, n, MinPBES2Password)
			}
			if n > maxPBES2Password {
				return nil, fmt.Errorf("%w: %s password is %d bytes, at most %d", ErrWeakKey, sp.name, n, maxPBES2Password)
			}
			want = n
		default:
			return mismatch()
		}
		if n != want {
			return nil, fmt.Errorf("%w: %s key for %s is %d bytes, must be %d", ErrWeakKey, sp.name, enc, n, want)
		}
		return allocSecretKey(sp, kid, m), nil
	}
	k := allocKey(sp, kid)
	switch m := material.(type) {
	case *rsa.PrivateKey, *rsa.PublicKey:
		if sp.family != famRSAOAEP {
			return mismatch()
		}
		if err := k.setRSA(m); err != nil {
			return nil, err
		}
	case *ecdsa.PrivateKey, *ecdsa.PublicKey, *ecdh.PrivateKey, *ecdh.PublicKey:
		if sp.family != famECDH {
			return mismatch()
		}
		pri, pub, err := ecdhMaterial(material)
		if err != nil {
			return nil, err
		}
		if err := k.setECDH(pri, pub); err != nil {
			return nil, err
		}
	default:
		return mismatch()
	}
	return k, nil
}

// ecdhMaterial checks an EC key for ECDH-ES and returns copies of its
// private (if any) and public halves as crypto/ecdh keys.
func ecdhMaterial(material any) (*ecdh.PrivateKey, *ecdh.PublicKey, error) {
	var pri *ecdh.PrivateKey
	var pub *ecdh.PublicKey
	var err error
	switch m := material.(type) {
	case *ecdsa.PrivateKey:
		//lint:ignore SA1019 a nil scalar would make ECDH panic; this is the check.
		if m == nil || m.D == nil || m.Curve == nil {
			return nil, nil, fmt.Errorf("%w: incomplete EC private key", ErrWeakKey)
		}
		if pri, err = m.ECDH(); err != nil {
			return nil, nil, fmt.Errorf("%w: EC private key: %v", ErrWeakKey, err)
		}
		p, err := m.PublicKey.ECDH()
		if err != nil || !pri.PublicKey().Equal(p) {
			return nil, nil, fmt.Errorf("%w: EC public key does not match the private scalar", ErrWeakKey)
		}
	case *ecdsa.PublicKey:
		//lint:ignore SA1019 a nil coordinate would make ECDH panic; this is the check.
		if m == nil || m.X == nil || m.Y == nil || m.Curve == nil {
			return nil, nil, fmt.Errorf("%w: incomplete EC public key", ErrWeakKey)
		}
		if pub, err = m.ECDH(); err != nil {
			return nil, nil, fmt.Errorf("%w: EC public key: %v", ErrWeakKey, err)
		}
	case *ecdh.PrivateKey:
		if m == nil || m.Curve() == nil { // a zero ecdh.PrivateKey panics in PublicKey
			return nil, nil, fmt.Errorf("%w: nil or zero ECDH key", ErrWeakKey)
		}
		pri = m
	case *ecdh.PublicKey:
		if m == nil || m.Curve() == nil {
			return nil, nil, fmt.Errorf("%w: nil or zero ECDH key", ErrWeakKey)
		}
		pub = m
	}
	if pri != nil {
		pub = pri.PublicKey()
	}
	switch pub.Curve() {
	case ecdh.P256(), ecdh.P384(), ecdh.X25519():
	default:
		return nil, nil, fmt.Errorf("%w: ECDH-ES takes P-256, P-384 or X25519 keys", ErrUnsupported)
	}
	if pub.Curve() == ecdh.X25519() {
		// A point of small order gives the all-zero secret whatever the
		// sender's scalar: nothing would be kept from anyone. crypto/ecdh
		// refuses that output; find it now, not at the first encryption.
		probe, err := ecdh.X25519().NewPrivateKey(x25519Probe[:])
		if err == nil {
			_, err = probe.ECDH(pub)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%w: X25519 public key of small order", ErrWeakKey)
		}
	}
	return pri, pub, nil
}

// x25519Probe is a fixed scalar for the small-order check.
var x25519Probe = [32]byte{1: 0x5a, 7: 0x11, 31: 0x40}

// setECDH keeps an ECDH key in the key's fields: a NIST one as an ECDSA
// key (ecPri, ecPub), an X25519 one as scalar ‖ public (edPri, edPub),
// so that Key needs no field of its own for it.
func (d *keyData) setECDH(pri *ecdh.PrivateKey, pub *ecdh.PublicKey) error {
	if pub.Curve() == ecdh.X25519() {
		d.edPub = new([32]byte)
		copy(d.edPub[:], pub.Bytes())
		if pri != nil {
			d.edPri = new([64]byte)
			copy(d.edPri[:32], pri.Bytes())
			copy(d.edPri[32:], d.edPub[:])
			d.edPub = (*[32]byte)(d.edPri[32:])
		}
		return nil
	}
	c := elliptic.P256()
	if pub.Curve() == ecdh.P384() {
		c = elliptic.P384()
	}
	var err error
	if pri != nil {
		if d.ecPri, err = ecdsa.ParseRawPrivateKey(c, pri.Bytes()); err != nil {
			return fmt.Errorf("%w: EC private key: %v", ErrWeakKey, err)
		}
		d.ecPub = &d.ecPri.PublicKey
		return nil
	}
	if d.ecPub, err = ecdsa.ParseUncompressedPublicKey(c, pub.Bytes()); err != nil {
		return fmt.Errorf("%w: EC public key: %v", ErrWeakKey, err)
	}
	return nil
}

// ecdhMaterial returns a new copy of an ECDH-ES key's private half (when
// private and it has one), else of its public half, as crypto/ecdh keys.
func (k *Key) ecdhMaterial(private bool) any {
	switch {
	case private && k.ecPri != nil:
		if p, err := k.ecPri.ECDH(); err == nil {
			return p
		}
	case private && k.edPri != nil:
		if p, err := ecdh.X25519().NewPrivateKey(k.edPri[:32]); err == nil {
			return p
		}
	case k.ecPub != nil:
		if p, err := k.ecPub.ECDH(); err == nil {
			return p
		}
	case k.edPub != nil:
		if p, err := ecdh.X25519().NewPublicKey(k.edPub[:]); err == nil {
			return p
		}
	}
	return nil // cannot happen: the key was checked when made
}
