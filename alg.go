package signet

import (
	"crypto"
	"crypto/elliptic"
	_ "crypto/sha256" // registers SHA-256 for crypto.Hash
	_ "crypto/sha512" // registers SHA-384 and SHA-512 for crypto.Hash
	"fmt"
)

// Algorithm names the one algorithm a Key is bound to. The JOSE names are
// used for the JWS algorithms (RFC 7518, RFC 8037).
type Algorithm string

// The JWS signature algorithms (RFC 7518 §3, RFC 8037 §3.1).
const (
	HS256 Algorithm = "HS256" // HMAC with SHA-256, key ≥ 256 bits
	HS384 Algorithm = "HS384" // HMAC with SHA-384, key ≥ 384 bits
	HS512 Algorithm = "HS512" // HMAC with SHA-512, key ≥ 512 bits
	RS256 Algorithm = "RS256" // RSASSA-PKCS1-v1_5 with SHA-256, modulus ≥ 2048 bits
	RS384 Algorithm = "RS384" // RSASSA-PKCS1-v1_5 with SHA-384
	RS512 Algorithm = "RS512" // RSASSA-PKCS1-v1_5 with SHA-512
	PS256 Algorithm = "PS256" // RSASSA-PSS with SHA-256, MGF1 SHA-256, salt = 32 bytes
	PS384 Algorithm = "PS384" // RSASSA-PSS with SHA-384, MGF1 SHA-384, salt = 48 bytes
	PS512 Algorithm = "PS512" // RSASSA-PSS with SHA-512, MGF1 SHA-512, salt = 64 bytes
	ES256 Algorithm = "ES256" // ECDSA P-256 with SHA-256, signature r‖s (64 bytes)
	ES384 Algorithm = "ES384" // ECDSA P-384 with SHA-384, signature r‖s (96 bytes)
	ES512 Algorithm = "ES512" // ECDSA P-521 with SHA-512, signature r‖s (132 bytes)
	EdDSA Algorithm = "EdDSA" // Ed25519 (RFC 8037), signature 64 bytes
)

// The PASETO versions and purposes (package paseto). A PASETO key is bound
// to one version and purpose: a local key never verifies a public token,
// and a v3 key never opens a v4 token.
const (
	V4Local  Algorithm = "v4.local"  // XChaCha20 + BLAKE2b-MAC, 32-byte key
	V4Public Algorithm = "v4.public" // Ed25519
	V3Local  Algorithm = "v3.local"  // AES-256-CTR + HMAC-SHA384, 32-byte key
	V3Public Algorithm = "v3.public" // ECDSA P-384 with SHA-384, low-S r‖s
)

// The HTTP Message Signatures algorithms (RFC 9421 §3.3, package httpsig).
// They use the same primitives as JWS algorithms but are distinct
// Algorithms: a key made for HS256 never checks an hmac-sha256 signature.
const (
	RSAPSSSHA512    Algorithm = "rsa-pss-sha512"    // RSASSA-PSS with SHA-512, MGF1 SHA-512, salt = 64 bytes
	RSAV15SHA256    Algorithm = "rsa-v1_5-sha256"   // RSASSA-PKCS1-v1_5 with SHA-256
	HMACSHA256      Algorithm = "hmac-sha256"       // HMAC with SHA-256, key ≥ 256 bits
	ECDSAP256SHA256 Algorithm = "ecdsa-p256-sha256" // ECDSA P-256 with SHA-256, signature r‖s (64 bytes)
	ECDSAP384SHA384 Algorithm = "ecdsa-p384-sha384" // ECDSA P-384 with SHA-384, signature r‖s (96 bytes)
	Ed25519         Algorithm = "ed25519"           // Ed25519 (RFC 8032), signature 64 bytes
)

// Minimum and maximum key sizes enforced when a key is made.
const (
	MinRSABits = 2048  // smallest RSA modulus accepted
	MaxRSABits = 16384 // largest RSA modulus accepted (bounds verification cost)
)

type family uint8

const (
	famHMAC family = iota + 1
	famRSA
	famPSS
	famECDSA
	famEd25519
	famLocal // PASETO local: a 32-byte symmetric key, no Sign or Verify
	// The JWE key-management families (alg_jwe.go): no Sign or Verify either.
	famDir     // the content-encryption key itself
	famAESKW   // an AES key-wrapping key (A*KW, A*GCMKW)
	famECDH    // an ECDH key (P-256, P-384, X25519)
	famRSAOAEP // an RSA key for RSAES-OAEP
	famPBES2   // a password
)

// spec is the fixed description of an algorithm.
type spec struct {
	name    Algorithm
	family  family
	hash    crypto.Hash
	curve   elliptic.Curve // ECDSA only
	sigSize int            // fixed signature size; 0 when it depends on the key (RSA)
	minKey  int            // HMAC: minimum secret bytes
	order   []byte         // ECDSA: the curve order n, big-endian, sigSize/2 bytes
	invalid error          // ErrSignatureInvalid with the algorithm named, made once
	enc     Encryption     // JWE keys: the content encryption (alg_jwe.go)
}

func init() {
	for i := range specs {
		specs[i].invalid = fmt.Errorf("%w (%s)", ErrSignatureInvalid, specs[i].name)
		if c := specs[i].curve; c != nil {
			specs[i].order = c.Params().N.FillBytes(make([]byte, specs[i].sigSize/2))
		}
	}
}

var specs = [...]spec{
	{name: HS256, family: famHMAC, hash: crypto.SHA256, sigSize: 32, minKey: 32},
	{name: HS384, family: famHMAC, hash: crypto.SHA384, sigSize: 48, minKey: 48},
	{name: HS512, family: famHMAC, hash: crypto.SHA512, sigSize: 64, minKey: 64},
	{name: RS256, family: famRSA, hash: crypto.SHA256},
	{name: RS384, family: famRSA, hash: crypto.SHA384},
	{name: RS512, family: famRSA, hash: crypto.SHA512},
	{name: PS256, family: famPSS, hash: crypto.SHA256},
	{name: PS384, family: famPSS, hash: crypto.SHA384},
	{name: PS512, family: famPSS, hash: crypto.SHA512},
	{name: ES256, family: famECDSA, hash: crypto.SHA256, curve: elliptic.P256(), sigSize: 64},
	{name: ES384, family: famECDSA, hash: crypto.SHA384, curve: elliptic.P384(), sigSize: 96},
	{name: ES512, family: famECDSA, hash: crypto.SHA512, curve: elliptic.P521(), sigSize: 132},
	{name: EdDSA, family: famEd25519, sigSize: 64},
	{name: V4Local, family: famLocal, minKey: 32},
	{name: V4Public, family: famEd25519, sigSize: 64},
	{name: V3Local, family: famLocal, minKey: 32},
	{name: V3Public, family: famECDSA, hash: crypto.SHA384, curve: elliptic.P384(), sigSize: 96},
	{name: RSAPSSSHA512, family: famPSS, hash: crypto.SHA512},
	{name: RSAV15SHA256, family: famRSA, hash: crypto.SHA256},
	{name: HMACSHA256, family: famHMAC, hash: crypto.SHA256, sigSize: 32, minKey: 32},
	{name: ECDSAP256SHA256, family: famECDSA, hash: crypto.SHA256, curve: elliptic.P256(), sigSize: 64},
	{name: ECDSAP384SHA384, family: famECDSA, hash: crypto.SHA384, curve: elliptic.P384(), sigSize: 96},
	{name: Ed25519, family: famEd25519, sigSize: 64},
}

// jwsCount is how many of specs are JWS algorithms (the first ones).
const jwsCount = 13

func lookup(alg Algorithm) (*spec, error) {
	for i := range specs {
		if specs[i].name == alg {
			return &specs[i], nil
		}
	}
	if sp := jweSpec(alg); sp != nil {
		return sp, nil
	}
	return nil, fmt.Errorf("%w: algorithm %q", ErrUnsupported, string(alg))
}

// Algorithms lists every algorithm NewKey and GenerateKey bind a key to,
// in a fixed order: the JWS algorithms, the PASETO ones, then the HTTP
// Message Signatures ones. The JWE key-management algorithms, whose keys
// NewEncryptionKey makes, are listed by JWEAlgorithms.
func Algorithms() []Algorithm {
	out := make([]Algorithm, len(specs))
	for i := range specs {
		out[i] = specs[i].name
	}
	return out
}

// JWSAlgorithms lists the JWS (JOSE) signature algorithms, in a fixed order.
func JWSAlgorithms() []Algorithm { return Algorithms()[:jwsCount] }

// IsJWS reports whether a is a JWS signature algorithm.
func (a Algorithm) IsJWS() bool {
	switch a {
	case HS256, HS384, HS512, RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512, EdDSA:
		return true
	}
	return false
}

// HTTPSigAlgorithms lists the HTTP Message Signatures algorithms (RFC 9421
// §3.3), in a fixed order.
func HTTPSigAlgorithms() []Algorithm { return Algorithms()[jwsCount+4:] }

// IsHTTPSig reports whether a is an HTTP Message Signatures algorithm.
func (a Algorithm) IsHTTPSig() bool {
	switch a {
	case RSAPSSSHA512, RSAV15SHA256, HMACSHA256, ECDSAP256SHA256, ECDSAP384SHA384, Ed25519:
		return true
	}
	return false
}

// ParseAlgorithm returns the Algorithm named s (one of Algorithms or of
// JWEAlgorithms), or an error wrapping ErrUnsupported. The name "none" is
// never an algorithm, nor is "RSA1_5".
func ParseAlgorithm(s string) (Algorithm, error) {
	sp, err := lookup(Algorithm(s))
	if err != nil {
		return "", err
	}
	return sp.name, nil
}

// Symmetric reports whether alg uses a shared secret (HMAC, PASETO local,
// JWE dir, AES key wrap and PBES2).
func (a Algorithm) Symmetric() bool {
	sp, err := lookup(a)
	if err != nil {
		return false
	}
	switch sp.family {
	case famHMAC, famLocal, famDir, famAESKW, famPBES2:
		return true
	}
	return false
}

// String returns the algorithm's registered name.
func (a Algorithm) String() string { return string(a) }
