package jwe

import (
	"crypto"
	_ "crypto/sha1"   // registers SHA-1 for RSA-OAEP (decryption only)
	_ "crypto/sha256" // registers SHA-256
	_ "crypto/sha512" // registers SHA-384 and SHA-512

	"github.com/signet-go/signet"
)

// kind is how a key-management algorithm gets the content-encryption key.
type kind uint8

const (
	kindDir    kind = iota + 1 // the key is the CEK
	kindKW                     // AES Key Wrap of a random CEK
	kindGCMKW                  // AES-GCM of a random CEK, iv and tag in the header
	kindECDH                   // ECDH-ES: the Concat KDF output is the CEK
	kindECDHKW                 // ECDH-ES+A*KW: the Concat KDF output wraps a random CEK
	kindRSA                    // RSAES-OAEP of a random CEK
	kindPBES2                  // PBKDF2 from a password wraps a random CEK
)

// km describes a key-management algorithm.
type km struct {
	alg     signet.Algorithm
	kind    kind
	kekSize int         // AES key-wrapping key bytes (KW, GCMKW, ECDH+KW, PBES2)
	hash    crypto.Hash // RSA-OAEP and PBES2
}

var kms = [...]km{
	{alg: signet.Dir, kind: kindDir},
	{alg: signet.A128KW, kind: kindKW, kekSize: 16},
	{alg: signet.A256KW, kind: kindKW, kekSize: 32},
	{alg: signet.A128GCMKW, kind: kindGCMKW, kekSize: 16},
	{alg: signet.A256GCMKW, kind: kindGCMKW, kekSize: 32},
	{alg: signet.ECDHES, kind: kindECDH},
	{alg: signet.ECDHESA128KW, kind: kindECDHKW, kekSize: 16},
	{alg: signet.ECDHESA256KW, kind: kindECDHKW, kekSize: 32},
	{alg: signet.RSAOAEP, kind: kindRSA, hash: crypto.SHA1},
	{alg: signet.RSAOAEP256, kind: kindRSA, hash: crypto.SHA256},
	{alg: signet.PBES2HS256A128KW, kind: kindPBES2, kekSize: 16, hash: crypto.SHA256},
	{alg: signet.PBES2HS512A256KW, kind: kindPBES2, kekSize: 32, hash: crypto.SHA512},
}

func kmOf(alg signet.Algorithm) *km {
	for i := range kms {
		if kms[i].alg == alg {
			return &kms[i]
		}
	}
	return nil
}

// ce describes a content encryption.
type ce struct {
	enc     signet.Encryption
	cekSize int
	cbc     bool
	ivSize  int
	tagSize int
	hash    crypto.Hash // CBC-HS: the HMAC's
}

var ces = [...]ce{
	{enc: signet.A128GCM, cekSize: 16, ivSize: 12, tagSize: 16},
	{enc: signet.A192GCM, cekSize: 24, ivSize: 12, tagSize: 16},
	{enc: signet.A256GCM, cekSize: 32, ivSize: 12, tagSize: 16},
	{enc: signet.A128CBCHS256, cekSize: 32, cbc: true, ivSize: 16, tagSize: 16, hash: crypto.SHA256},
	{enc: signet.A192CBCHS384, cekSize: 48, cbc: true, ivSize: 16, tagSize: 24, hash: crypto.SHA384},
	{enc: signet.A256CBCHS512, cekSize: 64, cbc: true, ivSize: 16, tagSize: 32, hash: crypto.SHA512},
}

func ceOf(enc signet.Encryption) *ce {
	for i := range ces {
		if ces[i].enc == enc {
			return &ces[i]
		}
	}
	return nil
}

// ceOfName is ceOf for a header's enc, without converting the string.
func ceOfName(enc string) *ce {
	for i := range ces {
		if string(ces[i].enc) == enc {
			return &ces[i]
		}
	}
	return nil
}

// kmOfName is kmOf for a header's alg.
func kmOfName(alg string) *km {
	for i := range kms {
		if string(kms[i].alg) == alg {
			return &kms[i]
		}
	}
	return nil
}

// ctSize is the ciphertext size for a plaintext of n bytes.
func (c *ce) ctSize(n int) int {
	if c.cbc {
		return (n/16 + 1) * 16
	}
	return n
}
