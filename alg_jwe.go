package signet

import (
	"fmt"

	"github.com/signet-go/signet/internal/clip"
)

// The JWE key-management algorithms (RFC 7518 §4, RFC 8037 §3.2), for
// package jwe. A key for one of them is made with NewEncryptionKey or
// GenerateEncryptionKey, which also bind it to one content encryption
// (Encryption): it never signs or verifies, and NewKey refuses these names.
// "RSA1_5" is not among them: RSAES-PKCS1-v1_5 decryption is a padding
// oracle (Bleichenbacher), and package jwe refuses it.
const (
	Dir              Algorithm = "dir"                // the key is the content-encryption key (CEK)
	A128KW           Algorithm = "A128KW"             // AES-128 Key Wrap (RFC 3394) of a random CEK
	A256KW           Algorithm = "A256KW"             // AES-256 Key Wrap of a random CEK
	A128GCMKW        Algorithm = "A128GCMKW"          // AES-128-GCM wrap of a random CEK (header iv, tag)
	A256GCMKW        Algorithm = "A256GCMKW"          // AES-256-GCM wrap of a random CEK
	ECDHES           Algorithm = "ECDH-ES"            // ECDH-ES on P-256, P-384 or X25519, Concat KDF gives the CEK
	ECDHESA128KW     Algorithm = "ECDH-ES+A128KW"     // ECDH-ES, Concat KDF gives an A128KW key-wrapping key
	ECDHESA256KW     Algorithm = "ECDH-ES+A256KW"     // ECDH-ES, Concat KDF gives an A256KW key-wrapping key
	RSAOAEP          Algorithm = "RSA-OAEP"           // RSAES-OAEP with SHA-1: decryption only (reading what others send)
	RSAOAEP256       Algorithm = "RSA-OAEP-256"       // RSAES-OAEP with SHA-256 and MGF1 SHA-256
	PBES2HS256A128KW Algorithm = "PBES2-HS256+A128KW" // PBKDF2-HMAC-SHA-256 from a password, A128KW
	PBES2HS512A256KW Algorithm = "PBES2-HS512+A256KW" // PBKDF2-HMAC-SHA-512 from a password, A256KW
)

// MinPBES2Password is the shortest password, in bytes, a PBES2 key is made
// with. PBKDF2 slows a guess down by its iteration count, no more: a short
// password is found by search all the same. Prefer A256KW with a random
// key where both sides can share one.
const MinPBES2Password = 16

// Encryption names the content encryption (JWE "enc", RFC 7518 §5) an
// encryption key is bound to with its key-management algorithm.
type Encryption string

// The JWE content encryptions (RFC 7518 §5).
const (
	A128GCM      Encryption = "A128GCM"       // AES-128-GCM, 12-byte IV, 16-byte tag
	A192GCM      Encryption = "A192GCM"       // AES-192-GCM
	A256GCM      Encryption = "A256GCM"       // AES-256-GCM
	A128CBCHS256 Encryption = "A128CBC-HS256" // AES-128-CBC + HMAC-SHA-256 (truncated to 16 bytes), 32-byte CEK
	A192CBCHS384 Encryption = "A192CBC-HS384" // AES-192-CBC + HMAC-SHA-384 (24 bytes), 48-byte CEK
	A256CBCHS512 Encryption = "A256CBC-HS512" // AES-256-CBC + HMAC-SHA-512 (32 bytes), 64-byte CEK
)

var encryptions = [...]Encryption{A128GCM, A192GCM, A256GCM, A128CBCHS256, A192CBCHS384, A256CBCHS512}

// Encryptions lists the content encryptions, in a fixed order.
func Encryptions() []Encryption { return append([]Encryption(nil), encryptions[:]...) }

// ParseEncryption returns the Encryption named s, or an error wrapping
// ErrUnsupported.
func ParseEncryption(s string) (Encryption, error) {
	for _, e := range encryptions {
		if string(e) == s {
			return e, nil
		}
	}
	return "", fmt.Errorf("%w: content encryption %q", ErrUnsupported, clip.String(s))
}

// KeySize is the size in bytes of the content-encryption key (CEK) of e
// (the key of a "dir" key), or 0 for an unknown Encryption.
func (e Encryption) KeySize() int {
	switch e {
	case A128GCM:
		return 16
	case A192GCM:
		return 24
	case A256GCM, A128CBCHS256:
		return 32
	case A192CBCHS384:
		return 48
	case A256CBCHS512:
		return 64
	}
	return 0
}

// String returns the encryption's registered name.
func (e Encryption) String() string { return string(e) }

// jweSpecs are the key-management algorithms, apart from specs: Algorithms
// and NewKey stay what they were, for the signature formats.
var jweSpecs = [...]spec{
	{name: Dir, family: famDir},
	{name: A128KW, family: famAESKW, minKey: 16},
	{name: A256KW, family: famAESKW, minKey: 32},
	{name: A128GCMKW, family: famAESKW, minKey: 16},
	{name: A256GCMKW, family: famAESKW, minKey: 32},
	{name: ECDHES, family: famECDH},
	{name: ECDHESA128KW, family: famECDH},
	{name: ECDHESA256KW, family: famECDH},
	{name: RSAOAEP, family: famRSAOAEP},
	{name: RSAOAEP256, family: famRSAOAEP},
	{name: PBES2HS256A128KW, family: famPBES2, minKey: MinPBES2Password},
	{name: PBES2HS512A256KW, family: famPBES2, minKey: MinPBES2Password},
}

// JWEAlgorithms lists the JWE key-management algorithms, in a fixed order.
func JWEAlgorithms() []Algorithm {
	out := make([]Algorithm, len(jweSpecs))
	for i := range jweSpecs {
		out[i] = jweSpecs[i].name
	}
	return out
}

// IsJWE reports whether a is a JWE key-management algorithm.
func (a Algorithm) IsJWE() bool { return jweSpec(a) != nil }

// jweKeySpecs are the specs keys are made with: one per key-management
// algorithm and content encryption, so that a key's spec names both (and
// Key stays the size it was).
var jweKeySpecs [len(jweSpecs)][len(encryptions)]spec

func init() {
	for i := range jweSpecs {
		for j, e := range encryptions {
			sp := jweSpecs[i]
			sp.enc = e
			jweKeySpecs[i][j] = sp
		}
	}
}

// jweKeySpec is the spec of keys for alg and enc, or nil.
func jweKeySpec(alg Algorithm, enc Encryption) *spec {
	for i := range jweSpecs {
		if jweSpecs[i].name == alg {
			for j, e := range encryptions {
				if e == enc {
					return &jweKeySpecs[i][j]
				}
			}
		}
	}
	return nil
}

func jweSpec(a Algorithm) *spec {
	for i := range jweSpecs {
		if jweSpecs[i].name == a {
			return &jweSpecs[i]
		}
	}
	return nil
}

// isEncryption reports whether sp is a family that neither signs nor
// verifies (PASETO local and the JWE key management).
func (sp *spec) isEncryption() bool { return sp.family >= famLocal }
