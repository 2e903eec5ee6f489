package signet

import (
	"crypto"
	"fmt"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"
)

// pssAlgorithm binds a key whose PKCS #8 or SPKI algorithm is
// id-RSASSA-PSS to alg, within what the key's parameters allow (params:
// the DER of RSASSA-PSS-params, nil when the key has none). RFC 4055 §3.1:
// a key without parameters may sign with any PSS; one with parameters only
// with their hash, MGF1 with that hash, and a salt at least their salt
// length. signet's PSS algorithms salt with the hash's size.
//
// With alg "" the algorithm is the one the parameters name: PS256 for
// SHA-256, PS384 for SHA-384, and RFC 9421's rsa-pss-sha512 for SHA-512
// and for a key without parameters (PS512 is the same scheme, by its JOSE
// name).
func pssAlgorithm(params []byte, alg Algorithm) (Algorithm, error) {
	p, err := readPSSParams(params)
	if err != nil {
		return "", err
	}
	if alg == "" {
		switch p.hash {
		case 0, crypto.SHA512:
			alg = RSAPSSSHA512
		case crypto.SHA256:
			alg = PS256
		case crypto.SHA384:
			alg = PS384
		default:
			return "", fmt.Errorf("%w: the RSASSA-PSS key's parameters allow only PSS with %s, which signet does not sign with", ErrUnsupported, p.hash)
		}
	}
	sp, err := lookup(alg)
	if err != nil {
		return "", err
	}
	switch {
	case sp.family != famPSS:
		return "", fmt.Errorf("%w: an RSASSA-PSS key signs only with PSS, not %s", ErrAlgorithmMismatch, alg)
	case p.hash != 0 && p.hash != sp.hash:
		return "", fmt.Errorf("%w: the RSASSA-PSS key's parameters allow only PSS with %s, not %s", ErrAlgorithmMismatch, p.hash, alg)
	case sp.hash.Size() < p.minSalt:
		return "", fmt.Errorf("%w: the RSASSA-PSS key's parameters ask for a salt of at least %d bytes, and %s salts with %d", ErrAlgorithmMismatch, p.minSalt, alg, sp.hash.Size())
	}
	return alg, nil
}

// pssParams is what an id-RSASSA-PSS key's parameters allow: one hash (for
// the message and for MGF1), 0 for any, and a salt of at least minSalt
// bytes.
type pssParams struct {
	hash    crypto.Hash
	minSalt int
}

// maxPSSSalt bounds the salt length read from a key. No RSA key signet
// reads (MaxRSABits) has room for a longer one with any hash.
const maxPSSSalt = MaxRSABits / 8

// readPSSParams reads RFC 4055's
//
//	RSASSA-PSS-params ::= SEQUENCE {
//	    hashAlgorithm    [0] HashAlgorithm    DEFAULT sha1,
//	    maskGenAlgorithm [1] MaskGenAlgorithm DEFAULT mgf1SHA1,
//	    saltLength       [2] INTEGER          DEFAULT 20,
//	    trailerField     [3] TrailerField     DEFAULT trailerFieldBC }
//
// from der, nil meaning no parameters. Fields left out take their
// defaults, so a key with parameters that omit the hash is a SHA-1 key.
// Anything else (NULL, bytes after the SEQUENCE, an MGF other than MGF1
// or MGF1 with another hash than the message's, a trailer other than 1)
// is refused: the key's limits must be read exactly or not at all.
func readPSSParams(der []byte) (pssParams, error) {
	if der == nil {
		return pssParams{}, nil
	}
	bad := func(what string) (pssParams, error) {
		return pssParams{}, fmt.Errorf("%w: RSASSA-PSS key parameters: %s", ErrMalformed, what)
	}
	in := cryptobyte.String(der)
	var seq cryptobyte.String
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) || !in.Empty() {
		return bad("not a SEQUENCE")
	}
	var (
		field   cryptobyte.String
		present bool
		hash    = crypto.SHA1
		mgfHash = crypto.SHA1
		salt    = int64(20)
		trailer = int64(1)
		ok      bool
	)
	if !seq.ReadOptionalASN1(&field, &present, cbasn1.Tag(0).Constructed().ContextSpecific()) {
		return bad("hashAlgorithm")
	}
	if present {
		if hash, ok = readHashAlgorithm(&field); !ok || !field.Empty() {
			return bad("hashAlgorithm")
		}
	}
	if !seq.ReadOptionalASN1(&field, &present, cbasn1.Tag(1).Constructed().ContextSpecific()) {
		return bad("maskGenAlgorithm")
	}
	if present {
		var mgf, oid cryptobyte.String
		if !field.ReadASN1(&mgf, cbasn1.SEQUENCE) || !field.Empty() ||
			!mgf.ReadASN1(&oid, cbasn1.OBJECT_IDENTIFIER) || string(oid) != oidMGF1DER {
			return bad("maskGenAlgorithm is not MGF1")
		}
		if mgfHash, ok = readHashAlgorithm(&mgf); !ok || !mgf.Empty() {
			return bad("MGF1's hash")
		}
	}
	if !seq.ReadOptionalASN1(&field, &present, cbasn1.Tag(2).Constructed().ContextSpecific()) {
		return bad("saltLength")
	}
	if present && (!field.ReadASN1Integer(&salt) || !field.Empty() || salt < 0 || salt > maxPSSSalt) {
		return bad("saltLength")
	}
	if !seq.ReadOptionalASN1(&field, &present, cbasn1.Tag(3).Constructed().ContextSpecific()) {
		return bad("trailerField")
	}
	if present && (!field.ReadASN1Integer(&trailer) || !field.Empty()) {
		return bad("trailerField")
	}
	switch {
	case !seq.Empty():
		return bad("bytes after the last field")
	case trailer != 1:
		return bad("trailerField is not 1")
	case mgfHash != hash:
		return pssParams{}, fmt.Errorf("%w: the RSASSA-PSS key's parameters pair %s with MGF1-%s; signet's PSS uses one hash for both", ErrUnsupported, hash, mgfHash)
	}
	return pssParams{hash: hash, minSalt: int(salt)}, nil
}

// readHashAlgorithm reads a HashAlgorithm (an AlgorithmIdentifier of a
// hash, its parameters NULL or absent) from in.
func readHashAlgorithm(in *cryptobyte.String) (crypto.Hash, bool) {
	var algo, oid cryptobyte.String
	if !in.ReadASN1(&algo, cbasn1.SEQUENCE) || !algo.ReadASN1(&oid, cbasn1.OBJECT_IDENTIFIER) {
		return 0, false
	}
	if !algo.Empty() {
		var null cryptobyte.String
		if !algo.ReadASN1(&null, cbasn1.NULL) || !null.Empty() || !algo.Empty() {
			return 0, false
		}
	}
	for _, h := range pssHashes {
		if string(oid) == h.oid {
			return h.hash, true
		}
	}
	return 0, false
}

// The DER contents of the OIDs RSASSA-PSS-params may name: id-mgf1 (RFC
// 8017 A.2.3) and the hashes of RFC 8017 A.2.1.
const oidMGF1DER = "\x2a\x86\x48\x86\xf7\x0d\x01\x01\x08"

var pssHashes = [...]struct {
	oid  string
	hash crypto.Hash
}{
	{"\x2b\x0e\x03\x02\x1a", crypto.SHA1},                       // 1.3.14.3.2.26
	{"\x60\x86\x48\x01\x65\x03\x04\x02\x04", crypto.SHA224},     // 2.16.840.1.101.3.4.2.4
	{"\x60\x86\x48\x01\x65\x03\x04\x02\x01", crypto.SHA256},     // 2.16.840.1.101.3.4.2.1
	{"\x60\x86\x48\x01\x65\x03\x04\x02\x02", crypto.SHA384},     // 2.16.840.1.101.3.4.2.2
	{"\x60\x86\x48\x01\x65\x03\x04\x02\x03", crypto.SHA512},     // 2.16.840.1.101.3.4.2.3
	{"\x60\x86\x48\x01\x65\x03\x04\x02\x05", crypto.SHA512_224}, // 2.16.840.1.101.3.4.2.5
	{"\x60\x86\x48\x01\x65\x03\x04\x02\x06", crypto.SHA512_256}, // 2.16.840.1.101.3.4.2.6
}
