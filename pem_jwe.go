package signet

import "fmt"

// ParseEncryptionPEM reads one PEM-encoded key, as ParsePEM does, for the
// JWE key-management algorithm alg and content encryption enc (package
// jwe): an RSA key (PKCS #8, SPKI, PKCS #1) for RSA-OAEP and RSA-OAEP-256,
// an EC key on P-256 or P-384 (PKCS #8, SPKI, SEC 1) or an X25519 key
// (PKCS #8, SPKI) for the ECDH-ES algorithms. Symmetric JWE keys have no
// PEM form. The material is checked as NewEncryptionKey checks it; errors
// are ParsePEM's and NewEncryptionKey's. MarshalPEM writes these keys.
func ParseEncryptionPEM(data []byte, alg Algorithm, enc Encryption) (*Key, error) {
	return ParseEncryptionPEMWithID(data, alg, enc, "")
}

// ParseEncryptionPEMWithID is ParseEncryptionPEM with a key ID set on the
// key.
func ParseEncryptionPEMWithID(data []byte, alg Algorithm, enc Encryption, kid string) (*Key, error) {
	if len(data) > MaxPEMSize {
		return nil, fmt.Errorf("%w: PEM input is %d bytes, limit %d", ErrTooLarge, len(data), MaxPEMSize)
	}
	sp, err := jweLookup(alg, enc)
	if err != nil {
		return nil, err
	}
	if sp.family != famRSAOAEP && sp.family != famECDH {
		return nil, fmt.Errorf("%w: a %s key has no PEM form", ErrKeyUsage, alg)
	}
	material, info, err := decodePEM(data, true)
	if err != nil {
		return nil, err
	}
	if info.is(oidRSAPSSDER) {
		return nil, fmt.Errorf("%w: an RSASSA-PSS key signs only with PSS, not %s", ErrAlgorithmMismatch, alg)
	}
	return newEncryptionKey(sp, kid, material)
}
