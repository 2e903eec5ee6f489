package paserk

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"fmt"
	"strings"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/b64"
)

// MaxLength is the longest PASERK string any function of this package
// reads; longer input fails with signet.ErrTooLarge before it is parsed.
// The longest PASERK of versions k3 and k4 (k4.secret-pw) is 216 bytes.
const MaxLength = 1024

// version describes one PASERK version: the PASETO algorithms its keys are
// bound to and the sizes of its raw keys.
type version struct {
	name       string           // "k3", "k4"
	local      signet.Algorithm // the local (symmetric) algorithm
	public     signet.Algorithm // the public (signature) algorithm
	publicLen  int              // raw public key: Ed25519 point, or compressed P-384 point
	secretLen  int              // raw secret key: Ed25519 seed‖public key, or P-384 scalar
	wrapTagLen int              // pie tag: BLAKE2b-256 or HMAC-SHA-384
}

const localLen = 32 // every local key, both versions

var (
	k3 = &version{name: "k3", local: signet.V3Local, public: signet.V3Public, publicLen: 49, secretLen: 48, wrapTagLen: 48}
	k4 = &version{name: "k4", local: signet.V4Local, public: signet.V4Public, publicLen: 32, secretLen: 64, wrapTagLen: 32}
)

// rawLen is the length of the raw bytes of a key of kind kd.
func (v *version) rawLen(kd kind) int {
	switch kd {
	case kindLocal:
		return localLen
	case kindPublic:
		return v.publicLen
	}
	return v.secretLen
}

// kind is what a key is to PASERK: the PASERK type of its plain encoding.
type kind uint8

const (
	kindLocal kind = iota + 1
	kindPublic
	kindSecret
)

// The PASERK types, as they appear in the header.
const (
	typeLocal      = "local"
	typePublic     = "public"
	typeSecret     = "secret"
	typeLID        = "lid"
	typePID        = "pid"
	typeSID        = "sid"
	typeLocalWrap  = "local-wrap"
	typeSecretWrap = "secret-wrap"
	typeLocalPW    = "local-pw"
	typeSecretPW   = "secret-pw"
	typeSeal       = "seal"
)

// String returns the PASERK type of a key of kind k.
func (k kind) String() string {
	switch k {
	case kindLocal:
		return typeLocal
	case kindPublic:
		return typePublic
	}
	return typeSecret
}

// classify returns the PASERK version and kind of k. Keys of other
// algorithms than the PASETO v3 and v4 ones fail with ErrUnsupported.
func classify(k *signet.Key) (*version, kind, error) {
	if k.Algorithm() == "" { // a nil or zero Key
		return nil, 0, fmt.Errorf("%w: paserk: nil or zero key", signet.ErrKeyUsage)
	}
	var v *version
	switch alg := k.Algorithm(); alg {
	case signet.V4Local, signet.V4Public:
		v = k4
	case signet.V3Local, signet.V3Public:
		v = k3
	default:
		return nil, 0, fmt.Errorf("%w: paserk: %s keys have no PASERK encoding", signet.ErrUnsupported, alg)
	}
	switch {
	case k.Algorithm() == v.local:
		return v, kindLocal, nil
	case k.CanSign():
		return v, kindSecret, nil
	}
	return v, kindPublic, nil
}

// rawKey returns the version and kind of k and its raw PASERK bytes: the
// 32-byte secret of a local key, the Ed25519 public key or seed‖public key,
// the compressed P-384 point or the 48-byte P-384 scalar. The slice is a
// copy the caller may clear.
func rawKey(k *signet.Key) (*version, kind, []byte, error) {
	v, kd, err := classify(k)
	if err != nil {
		return nil, 0, nil, err
	}
	var raw []byte
	switch {
	case kd == kindLocal:
		raw = k.Secret() // a copy
	case v == k4 && kd == kindSecret:
		if priv, ok := k.Material().(ed25519.PrivateKey); ok {
			raw = priv // a copy
		}
	case v == k4:
		if pub, ok := k.PublicMaterial().(ed25519.PublicKey); ok {
			raw = pub // a copy
		}
	case kd == kindSecret:
		if priv, ok := k.Material().(*ecdsa.PrivateKey); ok {
			raw, err = priv.Bytes()
		}
	default:
		if pub, ok := k.PublicMaterial().(*ecdsa.PublicKey); ok {
			raw, err = compressP384(pub)
		}
	}
	if err != nil || len(raw) != v.rawLen(kd) {
		return nil, 0, nil, fmt.Errorf("%w: paserk: %s key material cannot be encoded", signet.ErrWeakKey, k.Algorithm())
	}
	return v, kd, raw, nil
}

// keyFromRaw makes the signet key of version v and kind kd from its raw
// PASERK bytes, checking them as strictly as Decode promises.
func keyFromRaw(v *version, kd kind, raw []byte) (*signet.Key, error) {
	if want := v.rawLen(kd); len(raw) != want {
		return nil, fmt.Errorf("%w: paserk: %s.%s key is %d bytes, must be %d", signet.ErrMalformed, v.name, kd, len(raw), want)
	}
	var (
		k   *signet.Key
		err error
	)
	switch {
	case kd == kindLocal:
		k, err = signet.NewKey(v.local, raw)
	case v == k4 && kd == kindSecret:
		// NewKey checks that the public half is the one the seed makes.
		k, err = signet.NewKey(v.public, ed25519.PrivateKey(append([]byte(nil), raw...)))
	case v == k4:
		k, err = signet.NewKey(v.public, ed25519.PublicKey(raw))
	case kd == kindSecret:
		priv, perr := ecdsa.ParseRawPrivateKey(elliptic.P384(), raw)
		if perr != nil {
			return nil, fmt.Errorf("%w: paserk: k3.secret scalar is not in [1, n-1]", signet.ErrWeakKey)
		}
		k, err = signet.NewKey(v.public, priv)
	default:
		pub, perr := decompressP384(raw)
		if perr != nil {
			return nil, perr
		}
		k, err = signet.NewKey(v.public, pub)
	}
	if err != nil {
		return nil, fmt.Errorf("paserk: %s.%s: %w", v.name, kd, err)
	}
	return k, nil
}

// Encode returns the plain PASERK of k: k4.local, k4.public or k4.secret
// for the v4.local and v4.public algorithms, k3.local, k3.public or
// k3.secret for v3.local and v3.public. A key that can sign encodes as
// "secret"; to encode its public half, pass k.Public().
//
// Only k?.public is meant to be shared. The local and secret encodings hold
// the key itself in the clear: store them like passwords, and never put
// them in a token footer (use ID for that).
//
// Keys of other algorithms fail with an error wrapping signet.ErrUnsupported.
func Encode(k *signet.Key) (string, error) {
	v, kd, raw, err := rawKey(k)
	if err != nil {
		return "", err
	}
	defer clear(raw)
	return v.name + "." + kd.String() + "." + b64.EncodeToString(raw), nil
}

// Decode reads a plain PASERK (k3 or k4; local, public or secret) and
// returns the key it encodes, bound to the algorithm the PASERK names:
// k4.local gives a v4.local key, k4.public and k4.secret a v4.public key
// (public or private), and likewise for k3. Check the key's Algorithm when
// only one is acceptable; a key of the wrong version or purpose is refused
// later by every operation it is used for.
//
// Decoding is strict: exact header, strict unpadded base64url, exact key
// lengths, a k4.secret whose public half matches its seed, a k4.public
// that is neither a point of small order nor non-canonically encoded (as
// signet.NewKey refuses), a k3.public point on the curve, a k3.secret
// scalar in [1, n-1].
//
// Errors wrap signet.ErrTooLarge (over MaxLength), signet.ErrMalformed,
// signet.ErrUnsupported (another version, an unknown type, or a type that
// needs a key or password: use Unwrap, UnwrapPassword or Unseal; an ID is
// not a key) or signet.ErrWeakKey (an invalid key).
func Decode(s string) (*signet.Key, error) {
	p, err := parse(s)
	if err != nil {
		return nil, err
	}
	var kd kind
	switch p.typ {
	case typeLocal:
		kd = kindLocal
	case typePublic:
		kd = kindPublic
	case typeSecret:
		kd = kindSecret
	case typeLID, typePID, typeSID:
		return nil, fmt.Errorf("%w: paserk: %s is a key ID, not a key", signet.ErrUnsupported, p.header)
	case typeLocalWrap, typeSecretWrap:
		return nil, fmt.Errorf("%w: paserk: %s needs the wrapping key: use Unwrap", signet.ErrUnsupported, p.header)
	case typeLocalPW, typeSecretPW:
		return nil, fmt.Errorf("%w: paserk: %s needs the password: use UnwrapPassword", signet.ErrUnsupported, p.header)
	default: // typeSeal
		return nil, fmt.Errorf("%w: paserk: %s needs the recipient's secret key: use Unseal", signet.ErrUnsupported, p.header)
	}
	raw, err := p.decodeData()
	if err != nil {
		return nil, err
	}
	defer clear(raw)
	return keyFromRaw(p.v, kd, raw)
}

// parsed is a PASERK string split at its header.
type parsed struct {
	v      *version
	typ    string // one of the type constants
	header string // everything before the data, with its final '.': "k4.local-wrap.pie."
	data   string // the base64url data
}

// parse splits s into version, type and data, checking the header
// strictly. It does not decode the data.
func parse(s string) (parsed, error) {
	if len(s) > MaxLength {
		return parsed{}, fmt.Errorf("%w: paserk: %d bytes, at most %d accepted", signet.ErrTooLarge, len(s), MaxLength)
	}
	ver, rest, ok := strings.Cut(s, ".")
	if !ok {
		return parsed{}, fmt.Errorf("%w: paserk: no header", signet.ErrMalformed)
	}
	var p parsed
	switch ver {
	case "k4":
		p.v = k4
	case "k3":
		p.v = k3
	default:
		if len(ver) >= 2 && ver[0] == 'k' && strings.Trim(ver[1:], "0123456789") == "" {
			return parsed{}, fmt.Errorf("%w: paserk: version %s", signet.ErrUnsupported, quote(ver))
		}
		return parsed{}, fmt.Errorf("%w: paserk: not a PASERK", signet.ErrMalformed)
	}
	typ, data, ok := strings.Cut(rest, ".")
	if !ok {
		return parsed{}, fmt.Errorf("%w: paserk: no type", signet.ErrMalformed)
	}
	switch typ {
	case typeLocal, typePublic, typeSecret, typeLID, typePID, typeSID,
		typeLocalPW, typeSecretPW, typeSeal:
	case typeLocalWrap, typeSecretWrap:
		prefix, d, ok := strings.Cut(data, ".")
		if !ok {
			return parsed{}, fmt.Errorf("%w: paserk: %s.%s has no protocol", signet.ErrMalformed, ver, typ)
		}
		if prefix != "pie" {
			return parsed{}, fmt.Errorf("%w: paserk: %s.%s protocol %s (only pie)", signet.ErrUnsupported, ver, typ, quote(prefix))
		}
		data = d
	default:
		return parsed{}, fmt.Errorf("%w: paserk: type %s", signet.ErrUnsupported, quote(typ))
	}
	if data == "" || strings.IndexByte(data, '.') >= 0 {
		return parsed{}, fmt.Errorf("%w: paserk: %s.%s data", signet.ErrMalformed, ver, typ)
	}
	p.typ = typ
	p.data = data
	p.header = s[:len(s)-len(data)]
	return p, nil
}

// decodeData returns the bytes p's data encodes.
func (p parsed) decodeData() ([]byte, error) {
	raw, err := b64.DecodeString(p.data)
	if err != nil {
		return nil, fmt.Errorf("%w: paserk: %s data is not strict base64url", signet.ErrMalformed, p.header)
	}
	return raw, nil
}

// quote bounds attacker-controlled text quoted in an error message and
// copies it, so that the input never escapes through the error.
func quote(s string) string {
	if len(s) > 24 {
		return fmt.Sprintf("%q…", s[:24])
	}
	return fmt.Sprintf("%q", s)
}
