package signet

import (
	"bytes"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/base64"
	"encoding/pem"
	"fmt"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/signet-go/signet/internal/clip"
	"github.com/signet-go/signet/internal/rsabound"
)

// MaxPEMSize is the largest PEM input ParsePEM reads. It holds an RSA-16384
// private key with room to spare.
const MaxPEMSize = 64 << 10

// ParsePEM reads one PEM-encoded key and binds it to alg. The accepted
// blocks are "PRIVATE KEY" (PKCS #8), "PUBLIC KEY" (SPKI), "RSA PRIVATE KEY"
// and "RSA PUBLIC KEY" (PKCS #1) and "EC PRIVATE KEY" (SEC 1, optionally
// preceded by the "EC PARAMETERS" block OpenSSL writes). Exactly one key
// block is read: a second one is refused rather than guessed between. Text
// outside the block (comments, "Bag Attributes") is ignored.
//
// When alg is "" the algorithm is inferred where the key allows only one:
// Ed25519 is EdDSA, an EC key is ES256, ES384 or ES512 by its curve. An RSA
// key fits six algorithms, so it needs alg; without it the error wraps
// ErrUnsupported.
//
// A PKCS #8 or SPKI key whose algorithm is id-RSASSA-PSS (OpenSSL's
// "genpkey -algorithm RSA-PSS") is for PSS only, and within its RFC 4055
// parameters when it has them: their hash, MGF1 with that same hash, and a
// salt (signet's is the hash's size) at least their salt length; other
// algorithms give ErrAlgorithmMismatch, and parameters signet's PSS cannot
// meet (SHA-1, MGF1 with another hash) ErrUnsupported. Without alg such a
// key is PS256 or PS384 when its parameters name SHA-256 or SHA-384, else
// rsa-pss-sha512.
//
// Errors wrap ErrTooLarge (more than MaxPEMSize bytes), ErrMalformed (no PEM
// block, bad DER), ErrUnsupported (encrypted or header-carrying blocks,
// other block types, key types and curves signet does not sign with),
// ErrAlgorithmMismatch (alg does not fit the key) or ErrWeakKey (as NewKey,
// and for RSA private keys whose primes are out of proportion to the
// modulus, refused before their costly validation).
// PEM carries no key ID: set one with Key.WithKeyID.
func ParsePEM(data []byte, alg Algorithm) (*Key, error) {
	return ParsePEMWithID(data, alg, "")
}

// ParsePEMWithID is ParsePEM with a key ID (JWK kid) set on the key, as
// ParsePEM and WithKeyID(kid) would, in one step.
func ParsePEMWithID(data []byte, alg Algorithm, kid string) (*Key, error) {
	if len(data) > MaxPEMSize {
		return nil, fmt.Errorf("%w: PEM input is %d bytes, limit %d", ErrTooLarge, len(data), MaxPEMSize)
	}
	if alg != "" {
		if _, err := lookup(alg); err != nil {
			return nil, err
		}
	}
	material, info, err := decodePEM(data, false)
	if err != nil {
		return nil, err
	}
	if info.is(oidRSAPSSDER) {
		// A key whose PKCS #8 or SPKI says id-RSASSA-PSS is for PSS only,
		// and within the limits of its parameters (RFC 4055 §3.1).
		if alg, err = pssAlgorithm(info.params, alg); err != nil {
			return nil, err
		}
	}
	if alg == "" {
		if alg, err = inferAlgorithm(material); err != nil {
			return nil, err
		}
	}
	sp, err := lookup(alg)
	if err != nil {
		return nil, err
	}
	return ownKey(sp, kid, material)
}

// decodePEM reads the one key block of data (ParsePEM's rules) and its
// material; with ecdh, crypto/ecdh keys (X25519) are material too.
func decodePEM(data []byte, ecdhOK bool) (any, envelope, error) {
	block := &pem.Block{}
	if typ, der, ok := canonicalPEM(data); ok {
		block.Type, block.Bytes = typ, der
	} else {
		var rest []byte
		block, rest = pem.Decode(data)
		if block != nil && block.Type == "EC PARAMETERS" {
			block, rest = pem.Decode(rest)
		}
		if block == nil {
			return nil, envelope{}, fmt.Errorf("%w: no PEM block", ErrMalformed)
		}
		if next, _ := pem.Decode(rest); next != nil {
			return nil, envelope{}, fmt.Errorf("%w: more than one PEM block (%q after %q)", ErrMalformed, clip.String(next.Type), clip.String(block.Type))
		}
		if len(block.Headers) > 0 {
			return nil, envelope{}, fmt.Errorf("%w: PEM block with headers (encrypted keys are not read)", ErrUnsupported)
		}
	}
	var info envelope
	switch block.Type {
	case "PRIVATE KEY":
		if info = readPKCS8(block.Bytes); !info.ok {
			return nil, envelope{}, fmt.Errorf("%w: PRIVATE KEY: not a PKCS #8 structure (or bytes after it)", ErrMalformed)
		}
	case "PUBLIC KEY":
		if info = readSPKI(block.Bytes); !info.ok {
			return nil, envelope{}, fmt.Errorf("%w: PUBLIC KEY: not an SPKI structure (or bytes after it)", ErrMalformed)
		}
	}
	material, err := parsePEMBlock(block, info, ecdhOK)
	return material, info, err
}

// parsePEMBlock reads block's key; info is its envelope when it is a
// "PRIVATE KEY" (PKCS #8) or a "PUBLIC KEY" (SPKI). With ecdhOK,
// crypto/ecdh keys are accepted too.
func parsePEMBlock(block *pem.Block, info envelope, ecdhOK bool) (any, error) {
	var (
		material any
		err      error
	)
	if err := checkRSAPrivateDER(block.Type, block.Bytes, info); err != nil {
		return nil, err
	}
	switch block.Type {
	case "PRIVATE KEY":
		if info.is(oidRSAPSSDER) {
			// crypto/x509 refuses the id-RSASSA-PSS OID: the key inside is
			// plain PKCS #1.
			material, err = x509.ParsePKCS1PrivateKey(info.key)
			break
		}
		material, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	case "PUBLIC KEY":
		if info.is(oidRSAPSSDER) {
			// As for PKCS #8: the key inside is a PKCS #1 RSAPublicKey.
			material, err = x509.ParsePKCS1PublicKey(info.key)
			break
		}
		material, err = x509.ParsePKIXPublicKey(block.Bytes)
	case "RSA PRIVATE KEY":
		material, err = x509.ParsePKCS1PrivateKey(block.Bytes)
	case "RSA PUBLIC KEY":
		material, err = x509.ParsePKCS1PublicKey(block.Bytes)
	case "EC PRIVATE KEY":
		material, err = x509.ParseECPrivateKey(block.Bytes)
	case "ENCRYPTED PRIVATE KEY":
		return nil, fmt.Errorf("%w: encrypted PKCS #8 key", ErrUnsupported)
	default:
		return nil, fmt.Errorf("%w: PEM block type %q", ErrUnsupported, clip.String(block.Type))
	}
	if err != nil {
		// x509's messages are ASN.1 dumps; a short reason reads better.
		if unsupportedDER(block.Type, block.Bytes) {
			return nil, fmt.Errorf("%w: %s: a key type signet does not sign with", ErrUnsupported, block.Type)
		}
		return nil, fmt.Errorf("%w: %s: not a valid DER-encoded key", ErrMalformed, block.Type)
	}
	switch material.(type) {
	case *rsa.PrivateKey, *rsa.PublicKey, *ecdsa.PrivateKey, *ecdsa.PublicKey,
		ed25519.PrivateKey, ed25519.PublicKey:
		return material, nil
	case *ecdh.PrivateKey, *ecdh.PublicKey:
		if ecdhOK {
			return material, nil
		}
	}
	return nil, fmt.Errorf("%w: %T key in PEM", ErrUnsupported, material)
}

// inferAlgorithm names the only algorithm material can be used with.
func inferAlgorithm(material any) (Algorithm, error) {
	var curve elliptic.Curve
	switch m := material.(type) {
	case ed25519.PrivateKey, ed25519.PublicKey:
		return EdDSA, nil
	case *ecdsa.PrivateKey:
		curve = m.Curve
	case *ecdsa.PublicKey:
		curve = m.Curve
	case *rsa.PrivateKey, *rsa.PublicKey:
		return "", fmt.Errorf("%w: an RSA key fits RS256/384/512 and PS256/384/512; name the algorithm", ErrUnsupported)
	}
	for i := range specs {
		if curve != nil && specs[i].curve == curve {
			return specs[i].name, nil
		}
	}
	return "", fmt.Errorf("%w: no algorithm for %T", ErrUnsupported, material)
}

// checkRSAPrivateDER bounds the integers of an RSA private key (PKCS #1,
// bare or inside PKCS #8) before crypto/x509 validates it. Validation
// computes q⁻¹ mod p by exponentiation before it checks that p·q = n, so a
// key with a 2048-bit n and a p of a few kilobytes costs seconds, and tens
// of kilobytes minutes (see internal/rsabound).
func checkRSAPrivateDER(typ string, der []byte, info envelope) error {
	switch typ {
	case "RSA PRIVATE KEY":
	case "PRIVATE KEY":
		if !info.is(oidRSADER) && !info.is(oidRSAPSSDER) {
			return nil
		}
		der = info.key
	default:
		return nil
	}
	// RSAPrivateKey ::= SEQUENCE { version, n, e, d, p, q, ... }, read
	// without reflection. DER that is not that shape is refused here: x509
	// would refuse it too, and a key this check cannot read must not reach
	// x509's validation unbounded.
	in := cryptobyte.String(der)
	var seq cryptobyte.String
	var ints [6][]byte
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) {
		return fmt.Errorf("%w: %s: not a DER RSAPrivateKey", ErrMalformed, typ)
	}
	for i := range ints {
		var v cryptobyte.String
		if !seq.ReadASN1(&v, cbasn1.INTEGER) {
			return fmt.Errorf("%w: %s: not a DER RSAPrivateKey", ErrMalformed, typ)
		}
		ints[i] = bytes.TrimLeft(v, "\x00")
	}
	n, d, p, q := ints[1], ints[3], ints[4], ints[5]
	if len(n) > MaxRSABits/8 {
		return fmt.Errorf("%w: RSA modulus is %d bytes, at most %d accepted", ErrWeakKey, len(n), MaxRSABits/8)
	}
	if !rsabound.PrimesOK(n, d, p, q) {
		return fmt.Errorf("%w: RSA private parameters are too large for the modulus", ErrWeakKey)
	}
	return nil
}

// OIDs of the key types and curves signet signs with.
var (
	oidRSA     = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 1}
	oidRSAPSS  = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 10}
	oidEC      = asn1.ObjectIdentifier{1, 2, 840, 10045, 2, 1}
	oidEd25519 = asn1.ObjectIdentifier{1, 3, 101, 112}
	oidCurves  = []asn1.ObjectIdentifier{
		{1, 2, 840, 10045, 3, 1, 7}, // P-256
		{1, 3, 132, 0, 34},          // P-384
		{1, 3, 132, 0, 35},          // P-521
	}
)

// unsupportedDER reports whether DER that crypto/x509 refused is a
// well-formed structure for a key type or curve signet does not support
// (Ed448, X25519, RSA-PSS keys, secp256k1, …), as opposed to garbage.
func unsupportedDER(typ string, der []byte) bool {
	var algo pkix.AlgorithmIdentifier
	switch typ {
	case "PRIVATE KEY":
		var p struct {
			Version    int
			Algo       pkix.AlgorithmIdentifier
			PrivateKey []byte
		}
		if rest, err := asn1.Unmarshal(der, &p); err != nil || len(rest) != 0 {
			return false
		}
		algo = p.Algo
	case "PUBLIC KEY":
		var p struct {
			Algo      pkix.AlgorithmIdentifier
			PublicKey asn1.BitString
		}
		if rest, err := asn1.Unmarshal(der, &p); err != nil || len(rest) != 0 {
			return false
		}
		algo = p.Algo
	case "EC PRIVATE KEY":
		var p struct {
			Version    int
			PrivateKey []byte
			Curve      asn1.ObjectIdentifier `asn1:"optional,explicit,tag:0"`
			PublicKey  asn1.BitString        `asn1:"optional,explicit,tag:1"`
		}
		if rest, err := asn1.Unmarshal(der, &p); err != nil || len(rest) != 0 {
			return false
		}
		return p.Curve != nil && !knownCurve(p.Curve)
	default:
		return false
	}
	switch {
	case algo.Algorithm.Equal(oidRSA), algo.Algorithm.Equal(oidEd25519):
		return false
	case algo.Algorithm.Equal(oidEC):
		var curve asn1.ObjectIdentifier
		if rest, err := asn1.Unmarshal(algo.Parameters.FullBytes, &curve); err != nil || len(rest) != 0 {
			return false
		}
		return !knownCurve(curve)
	}
	return true
}

// The contents of the DER encodings of oidRSA and oidRSAPSS, compared with
// a PKCS #8 envelope's algorithm without decoding it.
const (
	oidRSADER    = "\x2a\x86\x48\x86\xf7\x0d\x01\x01\x01"
	oidRSAPSSDER = "\x2a\x86\x48\x86\xf7\x0d\x01\x01\x0a"
)

// envelope is the outer structure of a PKCS #8 private key or an SPKI
// public key: the contents of its algorithm's OID, the algorithm's
// parameters (the whole DER element, nil when absent) and the key inside
// (PKCS #8's OCTET STRING, SPKI's BIT STRING); ok is false when the DER is
// not one.
type envelope struct {
	ok     bool
	oid    []byte
	params []byte
	key    []byte
}

// is reports whether the envelope's algorithm is the OID whose DER
// contents are oid.
func (p envelope) is(oid string) bool { return p.ok && string(p.oid) == oid }

// readPKCS8 reads PrivateKeyInfo ::= SEQUENCE { version, algorithm
// AlgorithmIdentifier, privateKey OCTET STRING, ... } without reflection.
// Bytes after the SEQUENCE, or algorithm parameters that are not one
// well-formed element, make it not one: crypto/x509 would ignore what
// follows, and the checks made on info (the RSA bounds among them) must
// see the key x509 will parse.
func readPKCS8(der []byte) envelope {
	in := cryptobyte.String(der)
	var seq, key cryptobyte.String
	var version int64
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) || !in.Empty() || !seq.ReadASN1Integer(&version) {
		return envelope{}
	}
	info, ok := readAlgorithm(&seq)
	if !ok || !seq.ReadASN1(&key, cbasn1.OCTET_STRING) {
		return envelope{}
	}
	info.key = key
	return info
}

// readSPKI reads SubjectPublicKeyInfo ::= SEQUENCE { algorithm
// AlgorithmIdentifier, subjectPublicKey BIT STRING } without reflection,
// with nothing after it (as crypto/x509 requires). The key is the BIT
// STRING's bytes, which must be whole octets.
func readSPKI(der []byte) envelope {
	in := cryptobyte.String(der)
	var seq cryptobyte.String
	var key asn1.BitString
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) || !in.Empty() {
		return envelope{}
	}
	info, ok := readAlgorithm(&seq)
	if !ok || !seq.ReadASN1BitString(&key) || !seq.Empty() || key.BitLength%8 != 0 {
		return envelope{}
	}
	info.key = key.Bytes
	return info
}

// readAlgorithm reads AlgorithmIdentifier ::= SEQUENCE { algorithm OBJECT
// IDENTIFIER, parameters ANY OPTIONAL } from in: parameters that are not
// one well-formed element make it fail.
func readAlgorithm(in *cryptobyte.String) (envelope, bool) {
	var algo, oid, params cryptobyte.String
	var tag cbasn1.Tag
	if !in.ReadASN1(&algo, cbasn1.SEQUENCE) || !algo.ReadASN1(&oid, cbasn1.OBJECT_IDENTIFIER) {
		return envelope{}, false
	}
	if !algo.Empty() && (!algo.ReadAnyASN1Element(&params, &tag) || !algo.Empty()) {
		return envelope{}, false
	}
	return envelope{ok: true, oid: oid, params: params}, true
}

func knownCurve(oid asn1.ObjectIdentifier) bool {
	for _, c := range oidCurves {
		if oid.Equal(c) {
			return true
		}
	}
	return false
}

// MarshalPEM encodes k as PEM: a private key as PKCS #8 ("PRIVATE KEY"), a
// public key as SPKI ("PUBLIC KEY"). An HMAC secret has no PEM form: the
// error wraps ErrKeyUsage. The key ID is not written; PEM has no place for
// it. RSA keys are written as rsaEncryption, also a key read from an
// id-RSASSA-PSS file: the signet key stays bound to its one algorithm, but
// the file no longer says "PSS only" to other readers.
func MarshalPEM(k *Key) ([]byte, error) {
	if k.isZero() {
		return nil, errZeroKey
	}
	if k.Symmetric() {
		return nil, fmt.Errorf("%w: %s secret has no PEM encoding", ErrKeyUsage, k.Algorithm())
	}
	var (
		block = &pem.Block{Type: "PUBLIC KEY"}
		err   error
	)
	if k.CanSign() {
		block.Type = "PRIVATE KEY"
		block.Bytes, err = x509.MarshalPKCS8PrivateKey(k.Material())
	} else {
		block.Bytes, err = x509.MarshalPKIXPublicKey(k.PublicMaterial())
	}
	if err != nil {
		return nil, fmt.Errorf("%w: PEM encode %s key: %v", ErrUnsupported, k.Algorithm(), err)
	}
	var buf bytes.Buffer
	if err := pem.Encode(&buf, block); err != nil {
		return nil, fmt.Errorf("%w: PEM encode: %v", ErrUnsupported, err)
	}
	return buf.Bytes(), nil
}

// canonicalPEM reads data when it is one block of a key type ParsePEM
// reads, in the form encoding/pem writes it: "-----BEGIN T-----", lines
// of base64 (its alphabet and "=" only: no headers, no spaces), "-----END
// T-----", then nothing but white space. It gives what pem.Decode gives
// for such input, without pem.Decode's copies of the text and its header
// map; ok false sends ParsePEM to pem.Decode (any other layout, and every
// error).
func canonicalPEM(data []byte) (typ string, der []byte, ok bool) {
	const begin, end, dashes = "-----BEGIN ", "-----END ", "-----"
	if !bytes.HasPrefix(data, []byte(begin)) {
		return "", nil, false
	}
	line, body, found := bytes.Cut(data[len(begin):], []byte("\n"))
	if !found || !bytes.HasSuffix(line, []byte(dashes)) {
		return "", nil, false
	}
	t := line[:len(line)-len(dashes)]
	switch string(t) {
	case "PRIVATE KEY":
		typ = "PRIVATE KEY"
	case "PUBLIC KEY":
		typ = "PUBLIC KEY"
	case "RSA PRIVATE KEY":
		typ = "RSA PRIVATE KEY"
	case "RSA PUBLIC KEY":
		typ = "RSA PUBLIC KEY"
	case "EC PRIVATE KEY":
		typ = "EC PRIVATE KEY"
	default:
		return "", nil, false
	}
	i := bytes.Index(body, []byte(end))
	if i < 0 || i > 0 && body[i-1] != '\n' {
		return "", nil, false
	}
	trailer := body[i+len(end):]
	if !bytes.HasPrefix(trailer, t) || !bytes.HasPrefix(trailer[len(t):], []byte(dashes)) {
		return "", nil, false
	}
	// After it only the white space pem.Decode passes over: spaces and
	// tabs to the end of the line (a \r only just before its \n), then
	// blank lines (not \v or \f, which bytes.TrimSpace would pass over).
	after := trailer[len(t)+len(dashes):]
	line, next, _ := bytes.Cut(after, []byte("\n"))
	if len(next) > 0 || len(line) < len(after) {
		line = bytes.TrimSuffix(line, []byte("\r"))
	}
	if len(bytes.Trim(line, " \t")) != 0 {
		return "", nil, false
	}
	for _, c := range next {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return "", nil, false
		}
	}
	text := body[:i]
	for _, c := range text {
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '=' || c == '\n') {
			return "", nil, false
		}
	}
	der = make([]byte, base64.StdEncoding.DecodedLen(len(text)))
	n, err := base64.StdEncoding.Decode(der, text)
	if err != nil {
		return "", nil, false
	}
	return typ, der[:n], true
}
