package jwk

import (
	"bytes"
	"crypto/ecdh"
	"crypto/elliptic"
	"fmt"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/clip"
)

// ParseEncryptionKey reads one JWK as a JWE key (package jwe) bound to the
// key-management algorithm its "alg" names and to the content encryption
// enc: a JWK names no content encryption, so the caller states it. The
// key types are "oct" for dir, A128KW, A256KW, A128GCMKW, A256GCMKW and
// the PBES2 algorithms ("k" is the key, or the password), "RSA" for
// RSA-OAEP and RSA-OAEP-256, "EC" on P-256 or P-384 and "OKP" on X25519
// (RFC 8037) for ECDH-ES and ECDH-ES+A128KW/A256KW. "use", when present,
// must be "enc", and "key_ops" only encrypt, decrypt, wrapKey, unwrapKey,
// deriveKey and deriveBits (signet.ErrKeyUsage otherwise). The rest is
// read as strictly as ParseKey reads signing keys, with the same errors;
// the material is checked as signet.NewEncryptionKey checks it. A dir key
// whose "alg" names its content encryption (as RFC 7520 §5.6's does) is
// read as a dir key for it.
func ParseEncryptionKey(data []byte, enc signet.Encryption) (*signet.Key, error) {
	return ParseEncryptionKeyFor(data, "", enc)
}

// ParseEncryptionKeyFor is ParseEncryptionKey for a JWK whose algorithm
// the caller knows; a JWK "alg" naming another is refused
// (signet.ErrAlgorithmMismatch). With alg "" it is ParseEncryptionKey.
func ParseEncryptionKeyFor(data []byte, alg signet.Algorithm, enc signet.Encryption) (*signet.Key, error) {
	if len(data) > MaxKeySize {
		return nil, fmt.Errorf("%w: JWK is %d bytes, limit %d", signet.ErrTooLarge, len(data), MaxKeySize)
	}
	m, err := decodeObject(data)
	if err != nil {
		return nil, err
	}
	kty, err := m.need("kty")
	if err != nil {
		return nil, err
	}
	if err := checkEncryptionUsage(m); err != nil {
		return nil, err
	}
	kid, named, hasAlg, err := m.kidAndAlg()
	if err != nil {
		return nil, err
	}
	// A content-encryption key may name its enc in "alg" (RFC 7520 §5.6
	// does): that is a dir key for that enc.
	if hasAlg && named == string(enc) && (alg == "" || alg == signet.Dir) {
		named, alg = string(signet.Dir), signet.Dir
	}
	if alg, err = algFor(alg, named, hasAlg, "ParseEncryptionKeyFor"); err != nil {
		return nil, err
	}
	if !alg.IsJWE() {
		if _, err := signet.ParseAlgorithm(string(alg)); err == nil {
			return nil, fmt.Errorf("%w: %s is not a JWE key-management algorithm (read signing keys with ParseKey)", signet.ErrAlgorithmMismatch, alg)
		}
		return nil, fmt.Errorf("%w: JWE algorithm %q", signet.ErrUnsupported, clip.String(string(alg)))
	}
	if _, err := signet.ParseEncryption(string(enc)); err != nil {
		return nil, err
	}
	mk := func(material any) (*signet.Key, error) { return signet.NewEncryptionKeyWithID(alg, enc, kid, material) }
	var material any
	switch kty {
	case "oct":
		if !alg.Symmetric() {
			return nil, mismatch(kty, alg)
		}
		material, err = m.bytes("k")
	case "RSA":
		if alg != signet.RSAOAEP && alg != signet.RSAOAEP256 {
			return nil, mismatch(kty, alg)
		}
		return parseRSA(m, alg, kind{kty: "RSA"}, kid, false, mk)
	case "EC":
		if !isECDH(alg) {
			return nil, mismatch(kty, alg)
		}
		var crv string
		if crv, err = m.need("crv"); err != nil {
			return nil, err
		}
		var want kind
		switch crv {
		case "P-256":
			want = kind{kty: "EC", crv: crv, curve: elliptic.P256(), size: 32}
		case "P-384":
			want = kind{kty: "EC", crv: crv, curve: elliptic.P384(), size: 48}
		default:
			return nil, fmt.Errorf("%w: ECDH-ES on curve %q", signet.ErrUnsupported, clip.String(crv))
		}
		material, err = parseEC(m, alg, want, false)
	case "OKP":
		if !isECDH(alg) {
			return nil, mismatch(kty, alg)
		}
		material, err = parseX25519(m)
	default:
		return nil, fmt.Errorf("%w: JWK key type %q", signet.ErrUnsupported, clip.String(kty))
	}
	if err != nil {
		return nil, err
	}
	return mk(material)
}

func isECDH(alg signet.Algorithm) bool {
	return alg == signet.ECDHES || alg == signet.ECDHESA128KW || alg == signet.ECDHESA256KW
}

// parseX25519 reads an OKP X25519 key (RFC 8037 §2): "x", and "d" when
// private, which must give "x".
func parseX25519(m members) (any, error) {
	crv, err := m.need("crv")
	if err != nil {
		return nil, err
	}
	if crv != "X25519" {
		return nil, fmt.Errorf("%w: ECDH-ES on OKP curve %q (X25519 only)", signet.ErrUnsupported, clip.String(crv))
	}
	x, err := m.fixed("x", 32)
	if err != nil {
		return nil, err
	}
	pub, err := ecdh.X25519().NewPublicKey(x)
	if err != nil {
		return nil, fmt.Errorf("%w: JWK X25519 \"x\": %v", signet.ErrWeakKey, err)
	}
	if _, ok := m["d"]; !ok {
		return pub, nil
	}
	d, err := m.fixed("d", 32)
	if err != nil {
		return nil, err
	}
	pri, err := ecdh.X25519().NewPrivateKey(d)
	if err != nil {
		return nil, fmt.Errorf("%w: JWK X25519 \"d\": %v", signet.ErrWeakKey, err)
	}
	if !bytes.Equal(pri.PublicKey().Bytes(), x) {
		return nil, fmt.Errorf("%w: JWK X25519 \"d\" does not match \"x\"", signet.ErrWeakKey)
	}
	return pri, nil
}

// checkEncryptionUsage enforces "use" and "key_ops" for an encryption key.
func checkEncryptionUsage(m members) error {
	return checkUse(m, "enc", "encrypt", "decrypt", "wrapKey", "unwrapKey", "deriveKey", "deriveBits")
}

// encryptionKind is the JWK key type of a JWE key, from its material.
func encryptionKind(k *signet.Key) kind {
	switch {
	case k.Symmetric():
		return kind{kty: "oct"}
	case k.Algorithm() == signet.RSAOAEP || k.Algorithm() == signet.RSAOAEP256:
		return kind{kty: "RSA"}
	}
	pub, _ := k.PublicMaterial().(*ecdh.PublicKey)
	switch {
	case pub == nil:
		return kind{}
	case pub.Curve() == ecdh.X25519():
		return kind{kty: "OKP", crv: "X25519", size: 32}
	case pub.Curve() == ecdh.P384():
		return kind{kty: "EC", crv: "P-384", curve: elliptic.P384(), size: 48}
	}
	return kind{kty: "EC", crv: "P-256", curve: elliptic.P256(), size: 32}
}

// setECDHPublic writes an ECDH public key: "x" for X25519, "x" and "y"
// of size bytes for P-256 and P-384.
func setECDHPublic(jk *jsonKey, pub *ecdh.PublicKey, size int) {
	b := pub.Bytes()
	if pub.Curve() == ecdh.X25519() {
		jk.X = encodeB64(b)
		return
	}
	jk.X = encodeB64(b[1 : 1+size])
	jk.Y = encodeB64(b[1+size:])
}
