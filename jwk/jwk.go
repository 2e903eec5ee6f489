package jwk

import (
	"bytes"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/b64"
	"github.com/signet-go/signet/internal/clip"
	"github.com/signet-go/signet/internal/jsonx"
	"github.com/signet-go/signet/internal/rsabound"
)

// MaxKeySize is the largest JWK ParseKey reads, and the largest single key
// ParseSet reads inside a set. An RSA-16384 private key fits several times.
const MaxKeySize = 64 << 10

// ParseKey reads one JSON Web Key (RFC 7517) and returns it as a signet key
// bound to the algorithm named by the JWK's "alg" member. A JWK without
// "alg" is refused (ErrUnsupported): read it with ParseKeyFor, which makes
// the caller state the algorithm.
//
// Supported key types: "oct" (HS256/384/512), "RSA" (RS* and PS*), "EC"
// with "P-256", "P-384", "P-521" (ES256, ES384, ES512) and "OKP" with
// "Ed25519" (EdDSA, RFC 8037; "alg" "EdDSA" or its RFC 9864 name
// "Ed25519", both read as signet.EdDSA), and the same key types for the
// RFC 9421 algorithms (hmac-sha256, rsa-pss-sha512, rsa-v1_5-sha256,
// ecdsa-p256-sha256, ecdsa-p384-sha384, ed25519), which a JWK names in
// "alg" as RFC 9421 does. The result can sign when the JWK holds the
// private members ("k", "d"), otherwise it can only verify. "kid" becomes
// the key ID. Members signet does not use ("x5c", "x5t", "x5u", "ext",
// extensions) are ignored, and certificates are not checked.
//
// Parsing is strict. Errors wrap, from package signet:
//   - ErrTooLarge: more than MaxKeySize bytes;
//   - ErrMalformed: not a JSON object, invalid UTF-8, a repeated member
//     name, a member of the wrong JSON type, base64url with padding or
//     stray characters, a coordinate of the wrong length for its curve,
//     partial RSA private parameters;
//   - ErrUnsupported: an unknown "kty", "alg" or "crv", no algorithm,
//     multi-prime RSA ("oth"), an RSA private key without its primes;
//   - ErrAlgorithmMismatch: "alg" does not fit "kty" or "crv";
//   - ErrKeyUsage: "use" other than "sig", "key_ops" other than
//     "sign" and "verify", or empty (the key is for no operation);
//   - ErrWeakKey: material signet.NewKey refuses (short HMAC secret, RSA
//     below 2048 bits, EC point off its curve), private members that do
//     not match the public ones, or RSA private integers out of proportion
//     to the modulus (refused before their costly validation).
//
// One exception to strictness: an RSA integer may carry the single leading
// zero octet RFC 7518 §6.3.1.1 warns some producers add (Java's
// BigInteger); its value is unchanged. EC coordinates must be exactly the
// curve's size (RFC 7518 §6.2.1.2).
func ParseKey(data []byte) (*signet.Key, error) {
	return ParseKeyFor(data, "")
}

// ParseKeyFor is ParseKey for a JWK whose algorithm the caller knows: the
// key is bound to alg. If the JWK has an "alg" member too, it must name alg
// (ErrAlgorithmMismatch otherwise). With alg "" it is ParseKey.
func ParseKeyFor(data []byte, alg signet.Algorithm) (*signet.Key, error) {
	if len(data) > MaxKeySize {
		return nil, fmt.Errorf("%w: JWK is %d bytes, limit %d", signet.ErrTooLarge, len(data), MaxKeySize)
	}
	m, err := decodeObject(data)
	if err != nil {
		return nil, err
	}
	return parseMembers(m, alg, false)
}

// members is a JWK object: member name to raw JSON value. Names are exact
// (encoding/json's struct decoding would match them case-insensitively).
type members map[string]string

// decodeObject parses a JSON object strictly with the scanner every format
// of signet shares: valid UTF-8, no member name repeated at any depth,
// nesting bounded, nothing after the object. Its errors quote nothing of
// the input, which may hold secrets.
func decodeObject(data []byte) (members, error) {
	s := string(data)
	m := make(members)
	it := jsonx.NewMembers(s)
	for it.Next(s) {
		m[it.Name(s)] = it.Value(s)
	}
	if err := it.Err(); err != nil {
		return nil, fmt.Errorf("%w: JWK: %v", signet.ErrMalformed, err)
	}
	return m, nil
}

// str returns the string member name, and whether it is present. A present
// member that is not a JSON string (null included) is malformed.
func (m members) str(name string) (string, bool, error) {
	raw, ok := m[name]
	if !ok {
		return "", false, nil
	}
	if len(raw) == 0 || raw[0] != '"' {
		return "", true, fmt.Errorf("%w: member %q is not a string", signet.ErrMalformed, name)
	}
	s, err := jsonx.Unquote(raw)
	if err != nil {
		return "", true, fmt.Errorf("%w: member %q: %v", signet.ErrMalformed, name, err)
	}
	return s, true, nil
}

// need returns the string member name, which must be present.
// kidAndAlg returns the JWK's "kid" ("" when absent) and "alg" (named,
// when hasAlg).
func (m members) kidAndAlg() (kid, named string, hasAlg bool, err error) {
	if kid, _, err = m.str("kid"); err != nil {
		return "", "", false, err
	}
	named, hasAlg, err = m.str("alg")
	return kid, named, hasAlg, err
}

// algFor is the algorithm a JWK is read for: alg when given (the JWK's
// "alg", named when hasAlg, must then be the same), else the JWK's own;
// neither is an error that points to fn, the function that takes alg.
func algFor(alg signet.Algorithm, named string, hasAlg bool, fn string) (signet.Algorithm, error) {
	switch {
	case alg == "" && !hasAlg:
		return "", fmt.Errorf("%w: JWK has no \"alg\"; the algorithm must be given (%s)", signet.ErrUnsupported, fn)
	case alg == "":
		return signet.Algorithm(named), nil
	case hasAlg && named != string(alg):
		return "", fmt.Errorf("%w: JWK \"alg\" is %q, expected %s", signet.ErrAlgorithmMismatch, clip.String(named), alg)
	}
	return alg, nil
}

func (m members) need(name string) (string, error) {
	s, ok, err := m.str(name)
	if err == nil && !ok {
		err = fmt.Errorf("%w: missing member %q", signet.ErrMalformed, name)
	}
	return s, err
}

// bytes returns the base64url-decoded member name, which must be present.
func (m members) bytes(name string) ([]byte, error) {
	s, err := m.need(name)
	if err != nil {
		return nil, err
	}
	b, err := decodeB64(s)
	if err != nil {
		return nil, fmt.Errorf("%w: member %q: %v", signet.ErrMalformed, name, err)
	}
	return b, nil
}

// fixed returns the base64url-decoded member name, which must be present
// and exactly size bytes long.
func (m members) fixed(name string, size int) ([]byte, error) {
	b, err := m.bytes(name)
	if err != nil {
		return nil, err
	}
	if len(b) != size {
		return nil, fmt.Errorf("%w: member %q is %d bytes, must be %d", signet.ErrMalformed, name, len(b), size)
	}
	return b, nil
}

// uint returns the Base64urlUInt member name (RFC 7518 §2), which must be
// present. The minimal big-endian form is required, with one exception
// that RFC 7518 §6.3.1.1 itself warns of: a single zero octet ahead of a
// value whose top bit is set (a two's complement sign octet, written by
// Java's BigInteger and others). The value is the same either way.
func (m members) uint(name string) ([]byte, error) {
	b, err := m.bytes(name)
	if err != nil {
		return nil, err
	}
	switch {
	case len(b) == 0:
		return nil, fmt.Errorf("%w: member %q is empty", signet.ErrMalformed, name)
	case len(b) > 1 && b[0] == 0 && b[1]&0x80 != 0:
		return b[1:], nil
	case len(b) > 1 && b[0] == 0:
		return nil, fmt.Errorf("%w: member %q has leading zero octets", signet.ErrMalformed, name)
	}
	return b, nil
}

// decodeB64 decodes strict unpadded base64url (RFC 7515 §2): padding,
// line breaks and non-zero trailing bits are refused.
func decodeB64(s string) ([]byte, error) { return b64.DecodeString(s) }

func encodeB64(b []byte) string { return b64.EncodeToString(b) }

// kind is what a JWK for an algorithm looks like.
type kind struct {
	kty   string
	crv   string         // EC and OKP
	curve elliptic.Curve // EC
	size  int            // EC: coordinate and scalar size in bytes
}

func kindOf(alg signet.Algorithm) (kind, bool) {
	switch alg {
	case signet.HS256, signet.HS384, signet.HS512, signet.HMACSHA256:
		return kind{kty: "oct"}, true
	case signet.RS256, signet.RS384, signet.RS512, signet.PS256, signet.PS384, signet.PS512,
		signet.RSAPSSSHA512, signet.RSAV15SHA256:
		return kind{kty: "RSA"}, true
	case signet.ES256, signet.ECDSAP256SHA256:
		return kind{kty: "EC", crv: "P-256", curve: elliptic.P256(), size: 32}, true
	case signet.ES384, signet.ECDSAP384SHA384:
		return kind{kty: "EC", crv: "P-384", curve: elliptic.P384(), size: 48}, true
	case signet.ES512:
		return kind{kty: "EC", crv: "P-521", curve: elliptic.P521(), size: 66}, true
	case signet.EdDSA, signet.Ed25519:
		return kind{kty: "OKP", crv: "Ed25519"}, true
	}
	return kind{}, false
}

// parseMembers makes the key a JWK describes. With public, only the
// public members of an RSA, EC or OKP key are read: its private members
// ("d", "p", "q", "dp", "dq", "qi", "oth"; RFC 7518 §6.2.2, §6.3.2, RFC
// 8037 §2) are neither decoded nor checked, and the key is the public
// half.
func parseMembers(m members, alg signet.Algorithm, public bool) (*signet.Key, error) {
	kty, err := m.need("kty")
	if err != nil {
		return nil, err
	}
	switch kty {
	case "oct", "RSA", "EC", "OKP":
	default:
		return nil, fmt.Errorf("%w: JWK key type %q", signet.ErrUnsupported, clip.String(kty))
	}
	if err := checkUsage(m); err != nil {
		return nil, err
	}
	kid, named, hasAlg, err := m.kidAndAlg()
	if err != nil {
		return nil, err
	}
	if alg, err = algFor(alg, jwsName(named), hasAlg, "ParseKeyFor"); err != nil {
		return nil, err
	}
	if _, err := signet.ParseAlgorithm(string(alg)); err != nil {
		return nil, err
	}
	want, ok := kindOf(alg)
	if !ok {
		return nil, fmt.Errorf("%w: algorithm %s has no JWK form", signet.ErrUnsupported, alg)
	}

	var material any
	switch kty {
	case "oct":
		material, err = parseOct(m, alg, want)
	case "RSA":
		return parseRSA(m, alg, want, kid, public, func(material any) (*signet.Key, error) { return signet.NewKey(alg, material) })
	case "EC":
		material, err = parseEC(m, alg, want, public)
	case "OKP":
		material, err = parseOKP(m, alg, want, public)
	}
	if err != nil {
		return nil, err
	}
	k, err := signet.NewKey(alg, material)
	if err != nil {
		return nil, err
	}
	return k.WithKeyID(kid), nil
}

// jwsName maps a JWK "alg" to signet's name for it: "Ed25519", the
// fully-specified JOSE name RFC 9864 gives EdDSA on the Ed25519 curve, is
// signet.EdDSA (signet's EdDSA is Ed25519 only). The lowercase "ed25519"
// stays the RFC 9421 algorithm signet.Ed25519.
func jwsName(alg string) string {
	if alg == "Ed25519" {
		return string(signet.EdDSA)
	}
	return alg
}

// checkUsage enforces "use" (RFC 7517 §4.2) and "key_ops" (§4.3): a key
// marked for anything but signatures is not one.
func checkUsage(m members) error { return checkUse(m, "sig", "sign", "verify") }

// checkUse enforces "use" and "key_ops" for a key made for use: "use" must
// be it when present, and "key_ops" a non-empty array of distinct strings
// among ops.
func checkUse(m members, use string, ops ...string) error {
	got, ok, err := m.str("use")
	if err != nil {
		return err
	}
	if ok && got != use {
		return fmt.Errorf("%w: JWK \"use\" is %q, not %q", signet.ErrKeyUsage, clip.String(got), use)
	}
	raw, ok := m["key_ops"]
	if !ok {
		return nil
	}
	if len(raw) == 0 || raw[0] != '[' {
		return fmt.Errorf("%w: \"key_ops\" is not an array of strings", signet.ErrMalformed)
	}
	var seen uint64 // by index in ops; RFC 7517 §4.3: no operation twice
	it := jsonx.NewElements(raw)
	for it.Next(raw) {
		op, ok := it.String(raw)
		if !ok {
			return fmt.Errorf("%w: \"key_ops\" is not an array of strings", signet.ErrMalformed)
		}
		i := slices.Index(ops, op)
		if i < 0 {
			return fmt.Errorf("%w: JWK \"key_ops\" allows %q, not a %s operation", signet.ErrKeyUsage, clip.String(op), use)
		}
		if seen&(1<<i) != 0 {
			return fmt.Errorf("%w: \"key_ops\" repeats %q", signet.ErrMalformed, op)
		}
		seen |= 1 << i
	}
	if it.Err() != nil {
		return fmt.Errorf("%w: \"key_ops\" is not an array of strings", signet.ErrMalformed)
	}
	if seen == 0 { // RFC 7517 §4.3 lists what the key is for: here, nothing
		return fmt.Errorf("%w: JWK \"key_ops\" is empty: the key allows no operation", signet.ErrKeyUsage)
	}
	return nil
}

func mismatch(kty string, alg signet.Algorithm) error {
	return fmt.Errorf("%w: JWK key type %q cannot be a %s key", signet.ErrAlgorithmMismatch, kty, alg)
}

func parseOct(m members, alg signet.Algorithm, want kind) (any, error) {
	if want.kty != "oct" {
		return nil, mismatch("oct", alg)
	}
	return m.bytes("k")
}

// curveKind checks "crv" against the algorithm: a curve signet does not
// know is unsupported, a known one for another algorithm a mismatch.
func curveKind(m members, kty string, alg signet.Algorithm, want kind, known ...string) error {
	crv, err := m.need("crv")
	if err != nil {
		return err
	}
	isKnown := false
	for _, c := range known {
		isKnown = isKnown || crv == c
	}
	if !isKnown {
		return fmt.Errorf("%w: JWK %s curve %q", signet.ErrUnsupported, kty, clip.String(crv))
	}
	if want.kty != kty || want.crv != crv {
		return fmt.Errorf("%w: JWK %s key on %q cannot be a %s key", signet.ErrAlgorithmMismatch, kty, crv, alg)
	}
	return nil
}

func parseEC(m members, alg signet.Algorithm, want kind, public bool) (any, error) {
	if err := curveKind(m, "EC", alg, want, "P-256", "P-384", "P-521"); err != nil {
		return nil, err
	}
	x, err := m.fixed("x", want.size)
	if err != nil {
		return nil, err
	}
	y, err := m.fixed("y", want.size)
	if err != nil {
		return nil, err
	}
	point := append(append([]byte{4}, x...), y...)
	pub, err := ecdsa.ParseUncompressedPublicKey(want.curve, point)
	if err != nil {
		return nil, fmt.Errorf("%w: JWK %s point: %v", signet.ErrWeakKey, want.crv, err)
	}
	if _, ok := m["d"]; !ok || public {
		return pub, nil
	}
	d, err := m.fixed("d", want.size)
	if err != nil {
		return nil, err
	}
	priv, err := ecdsa.ParseRawPrivateKey(want.curve, d)
	if err != nil {
		return nil, fmt.Errorf("%w: JWK %s private scalar: %v", signet.ErrWeakKey, want.crv, err)
	}
	if !priv.PublicKey.Equal(pub) {
		return nil, fmt.Errorf("%w: JWK %s \"d\" does not match \"x\" and \"y\"", signet.ErrWeakKey, want.crv)
	}
	return priv, nil
}

func parseOKP(m members, alg signet.Algorithm, want kind, public bool) (any, error) {
	if err := curveKind(m, "OKP", alg, want, "Ed25519"); err != nil {
		return nil, err
	}
	x, err := m.fixed("x", ed25519.PublicKeySize)
	if err != nil {
		return nil, err
	}
	if _, ok := m["d"]; !ok || public {
		return ed25519.PublicKey(x), nil
	}
	seed, err := m.fixed("d", ed25519.SeedSize)
	if err != nil {
		return nil, err
	}
	priv := ed25519.NewKeyFromSeed(seed)
	if !bytes.Equal(priv[ed25519.SeedSize:], x) {
		return nil, fmt.Errorf("%w: JWK Ed25519 \"d\" does not match \"x\"", signet.ErrWeakKey)
	}
	return priv, nil
}

// maxExponentBytes bounds the RSA public exponent: it must fit an int32.
const maxExponentBytes = 4

// parseRSA makes the key with mk (signet.NewKey or NewEncryptionKey for
// the algorithm).
func parseRSA(m members, alg signet.Algorithm, want kind, kid string, public bool, mk func(any) (*signet.Key, error)) (*signet.Key, error) {
	if want.kty != "RSA" {
		return nil, mismatch("RSA", alg)
	}
	if _, ok := m["oth"]; ok && !public {
		return nil, fmt.Errorf("%w: multi-prime RSA JWK (\"oth\")", signet.ErrUnsupported)
	}
	n, err := m.uint("n")
	if err != nil {
		return nil, err
	}
	eb, err := m.uint("e")
	if err != nil {
		return nil, err
	}
	if len(eb) > maxExponentBytes || len(eb) == maxExponentBytes && eb[0]&0x80 != 0 {
		return nil, fmt.Errorf("%w: RSA public exponent is too large", signet.ErrWeakKey)
	}
	e := 0
	for _, c := range eb {
		e = e<<8 | int(c)
	}
	pub := rsa.PublicKey{N: new(big.Int).SetBytes(n), E: e}
	if public {
		return newRSAPublic(mk, &pub, kid)
	}

	// RFC 7518 §6.3.2: "d" makes the key private; p, q, dp, dq, qi should
	// come with it and, if any does, all must.
	_, hasD := m["d"]
	var present []string
	for _, name := range []string{"p", "q", "dp", "dq", "qi"} {
		if _, ok := m[name]; ok {
			present = append(present, name)
		}
	}
	switch {
	case !hasD && len(present) > 0:
		return nil, fmt.Errorf("%w: RSA JWK has %q but no \"d\"", signet.ErrMalformed, present[0])
	case !hasD:
		return newRSAPublic(mk, &pub, kid)
	case len(present) == 0:
		return nil, fmt.Errorf("%w: RSA private JWK without the primes \"p\" and \"q\"", signet.ErrUnsupported)
	case len(present) != 5 && !(len(present) == 2 && present[0] == "p" && present[1] == "q"):
		// Either p and q alone (the CRT values are then computed) or all five.
		return nil, fmt.Errorf("%w: RSA private JWK has some of p, q, dp, dq, qi but not all", signet.ErrMalformed)
	}
	var ints [6][]byte
	for i, name := range []string{"d", "p", "q", "dp", "dq", "qi"} {
		if i > 2 && len(present) == 2 {
			break
		}
		if ints[i], err = m.uint(name); err != nil {
			return nil, err
		}
	}
	if err := checkRSASizes(n, ints[0], ints[1], ints[2]); err != nil {
		return nil, err
	}
	d, p, q := new(big.Int).SetBytes(ints[0]), new(big.Int).SetBytes(ints[1]), new(big.Int).SetBytes(ints[2])
	priv := &rsa.PrivateKey{PublicKey: pub, D: d, Primes: []*big.Int{p, q}}
	// NewKey validates n = pq and e·d ≡ 1 mod p-1, q-1 (and computes its
	// own CRT values); the JWK's, if given, must be the ones d, p and q
	// make.
	k, err := mk(priv)
	if err != nil {
		return nil, err
	}
	if len(present) == 5 && !crtMatches(d, p, q, ints[3], ints[4], ints[5]) {
		return nil, fmt.Errorf("%w: RSA JWK \"dp\", \"dq\" or \"qi\" is inconsistent with the key", signet.ErrWeakKey)
	}
	return k.WithKeyID(kid), nil
}

func newRSAPublic(mk func(any) (*signet.Key, error), pub *rsa.PublicKey, kid string) (*signet.Key, error) {
	k, err := mk(pub)
	if err != nil {
		return nil, err
	}
	return k.WithKeyID(kid), nil
}

// crtMatches reports whether dp, dq and qi (big-endian, minimal) are the
// CRT values of a validated key: d mod p-1, d mod q-1 and q⁻¹ mod p.
func crtMatches(d, p, q *big.Int, dp, dq, qi []byte) bool {
	one := big.NewInt(1)
	wantDp := new(big.Int).Mod(d, new(big.Int).Sub(p, one))
	wantDq := new(big.Int).Mod(d, new(big.Int).Sub(q, one))
	wantQi := new(big.Int).ModInverse(q, p)
	if wantQi == nil {
		return false
	}
	return subtle.ConstantTimeCompare(wantDp.Bytes(), dp)&
		subtle.ConstantTimeCompare(wantDq.Bytes(), dq)&
		subtle.ConstantTimeCompare(wantQi.Bytes(), qi) == 1
}

// checkRSASizes bounds the private integers before crypto/rsa sees them.
// Validation computes q⁻¹ mod p by exponentiation before it checks that
// p·q = n, so a JWK with a 2048-bit n and a p of a few kilobytes would cost
// seconds, and tens of kilobytes minutes. A prime of more than about half
// the modulus cannot be part of a balanced key, the only kind generated.
func checkRSASizes(n, d, p, q []byte) error {
	if len(n) > signet.MaxRSABits/8 {
		return fmt.Errorf("%w: RSA modulus is %d bytes, at most %d accepted", signet.ErrWeakKey, len(n), signet.MaxRSABits/8)
	}
	if !rsabound.PrimesOK(n, d, p, q) {
		return fmt.Errorf("%w: RSA private parameters are too large for the modulus", signet.ErrWeakKey)
	}
	return nil
}

// jsonKey is a JWK as written, members in a fixed order.
type jsonKey struct {
	Kty string `json:"kty"`
	Kid string `json:"kid,omitempty"`
	Use string `json:"use,omitempty"`
	Alg string `json:"alg,omitempty"`
	Crv string `json:"crv,omitempty"`
	X   string `json:"x,omitempty"`
	Y   string `json:"y,omitempty"`
	N   string `json:"n,omitempty"`
	E   string `json:"e,omitempty"`
	K   string `json:"k,omitempty"`
	D   string `json:"d,omitempty"`
	P   string `json:"p,omitempty"`
	Q   string `json:"q,omitempty"`
	DP  string `json:"dp,omitempty"`
	DQ  string `json:"dq,omitempty"`
	QI  string `json:"qi,omitempty"`
}

// Marshal writes k as a JWK, as it is: with its private members ("d", or
// "k" for HMAC) when k can sign, so the output is secret for such keys. Use
// MarshalPublic for what may be published. The members are "kty", "kid"
// (when set), "use":"sig", "alg" and the key's own, always in that order.
func Marshal(k *signet.Key) ([]byte, error) {
	jk, err := toJSON(k, true)
	if err != nil {
		return nil, err
	}
	return encodeJSON(jk)
}

// MarshalPublic writes the public half of k as a JWK. An HMAC key has no
// public half: the error wraps signet.ErrKeyUsage.
func MarshalPublic(k *signet.Key) ([]byte, error) {
	jk, err := toJSON(k, false)
	if err != nil {
		return nil, err
	}
	return encodeJSON(jk)
}

func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("%w: jwk: encode: %v", signet.ErrUnsupported, err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// toJSON lays out k's members; private ones only when private is set.
func toJSON(k *signet.Key, private bool) (*jsonKey, error) {
	if k.Algorithm() == "" { // a nil or zero Key
		return nil, fmt.Errorf("%w: nil or zero key", signet.ErrKeyUsage)
	}
	if !private && k.Symmetric() {
		return nil, fmt.Errorf("%w: %s secret has no public half", signet.ErrKeyUsage, k.Algorithm())
	}
	alg := k.Algorithm()
	want, ok := kindOf(alg)
	use := "sig"
	if alg.IsJWE() {
		want, ok, use = encryptionKind(k), true, "enc"
	}
	if !ok {
		return nil, fmt.Errorf("%w: algorithm %s has no JWK form", signet.ErrUnsupported, alg)
	}
	jk := &jsonKey{Kty: want.kty, Kid: k.KeyID(), Use: use, Alg: string(alg), Crv: want.crv}
	// Only what is written is copied out of the key: its public material
	// for a public JWK (a private key's secrets are not copied to publish
	// its public half), its material, whose public half is part of it,
	// for a private one.
	var material any
	if private = private && k.CanSign(); private {
		material = k.Material()
	} else {
		material = k.PublicMaterial()
	}
	switch m := material.(type) {
	case []byte:
		jk.K = encodeB64(m)
	case *rsa.PublicKey:
		setRSAPublic(jk, m)
	case *rsa.PrivateKey:
		setRSAPublic(jk, &m.PublicKey)
		pc := m.Precomputed
		if len(m.Primes) != 2 || pc.Dp == nil || pc.Dq == nil || pc.Qinv == nil {
			return nil, fmt.Errorf("%w: RSA key with %d primes has no JWK form here", signet.ErrUnsupported, len(m.Primes))
		}
		jk.D = encodeB64(m.D.Bytes())
		jk.P = encodeB64(m.Primes[0].Bytes())
		jk.Q = encodeB64(m.Primes[1].Bytes())
		jk.DP = encodeB64(pc.Dp.Bytes())
		jk.DQ = encodeB64(pc.Dq.Bytes())
		jk.QI = encodeB64(pc.Qinv.Bytes())
	case *ecdsa.PublicKey:
		if err := setECPublic(jk, m, alg, want.size); err != nil {
			return nil, err
		}
	case *ecdsa.PrivateKey:
		if err := setECPublic(jk, &m.PublicKey, alg, want.size); err != nil {
			return nil, err
		}
		d, err := m.Bytes()
		if err != nil {
			return nil, fmt.Errorf("%w: jwk: encode %s scalar: %v", signet.ErrWeakKey, alg, err)
		}
		jk.D = encodeB64(d)
	case ed25519.PublicKey:
		jk.X = encodeB64(m)
	case ed25519.PrivateKey:
		jk.X = encodeB64(m[ed25519.SeedSize:]) // RFC 8032: the public half follows the seed
		jk.D = encodeB64(m.Seed())
	case *ecdh.PublicKey:
		setECDHPublic(jk, m, want.size)
	case *ecdh.PrivateKey:
		setECDHPublic(jk, m.PublicKey(), want.size)
		jk.D = encodeB64(m.Bytes())
	default:
		return nil, fmt.Errorf("%w: %T key", signet.ErrUnsupported, m)
	}
	return jk, nil
}

// setRSAPublic writes the members of an RSA public key, "n" and "e".
func setRSAPublic(jk *jsonKey, pub *rsa.PublicKey) {
	jk.N = encodeB64(pub.N.Bytes())
	jk.E = encodeB64(big.NewInt(int64(pub.E)).Bytes())
}

// setECPublic writes the members of an EC public key, "x" and "y", each
// size bytes.
func setECPublic(jk *jsonKey, pub *ecdsa.PublicKey, alg signet.Algorithm, size int) error {
	point, err := pub.Bytes()
	if err != nil || len(point) != 1+2*size {
		return fmt.Errorf("%w: jwk: encode %s point: %v", signet.ErrWeakKey, alg, err)
	}
	jk.X = encodeB64(point[1 : 1+size])
	jk.Y = encodeB64(point[1+size:])
	return nil
}
