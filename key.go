package signet

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/subtle"
	"fmt"
	"hash"
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/signet-go/signet/internal/clip"
	"github.com/signet-go/signet/internal/keycache"
)

// Key is a signing or verification key bound, for its whole life, to exactly
// one Algorithm. A token never chooses how it is checked: verification uses
// the key's algorithm and rejects input that names another.
//
// A Key is immutable and safe for concurrent use. Per-key state (the keyed
// HMAC state, parsed public keys) is prepared once, when the key is made.
// Its material is its own: NewKey copies what it is given, and Secret,
// Material and PublicMaterial hand out copies, so nothing a caller holds
// can change what the key signs or verifies.
//
// A nil *Key and a zero Key are not keys: every method is safe to call on
// them, and every operation refuses them with an error wrapping
// ErrKeyUsage.
type Key struct {
	spec     *spec
	kid      string
	*keyData // shared by the copies WithKeyID makes
}

// keyData is a key's material and mutable state, shared by its WithKeyID
// copies, so that a Key itself is four words and a copy costs 32 bytes; a
// new key and its keyData are one allocation (keyBlock, or secretBlock
// with the secret too).
type keyData struct {
	cache  keycache.Store            // state formats derive from the key (internal/keycache)
	secret []byte                    // HMAC and PASETO local keys
	pool   atomic.Pointer[sync.Pool] // HMAC: of *hmacState keyed with secret, made at the first use
	rsaPri *rsa.PrivateKey
	rsaPub *rsa.PublicKey
	ecPri  *ecdsa.PrivateKey
	ecPub  *ecdsa.PublicKey
	edPri  *[ed25519.PrivateKeySize]byte // seed ‖ public key (RFC 8032)
	edPub  *[ed25519.PublicKeySize]byte  // edPri's second half when there is one
}

// The keys' caches are reached through internal/keycache, so that Key has
// no exported method for them (see that package for the invariants).
func init() {
	keycache.Register(func(key any) *keycache.Store {
		if k, ok := key.(*Key); ok && !k.isZero() {
			return &k.keyData.cache
		}
		return nil
	})
}

// hmacState is a keyed HMAC with room for one MAC, so that computing a MAC
// for comparison does not allocate.
type hmacState struct {
	h   hash.Hash
	sum [64]byte
}

// hmacState takes a keyed state of an HMAC key from its pool; put it back
// with k.putHMAC.
func (k *Key) hmacState() *hmacState {
	p := k.pool.Load()
	if p == nil {
		// The pool is made at the first use, not with the key: a key
		// that never signs (and every key that is not an HMAC key) is
		// 40 bytes smaller.
		k.pool.CompareAndSwap(nil, new(sync.Pool))
		p = k.pool.Load()
	}
	if v := p.Get(); v != nil {
		return v.(*hmacState)
	}
	return &hmacState{h: hmac.New(k.spec.hash.New, k.secret)}
}

// putHMAC returns a state hmacState gave to the key's pool.
func (k *Key) putHMAC(st *hmacState) { k.pool.Load().Put(st) }

// GenerateKey makes a new random key for alg: a secret of the hash size for
// HMAC, RSA-2048 for RS*/PS*, the algorithm's curve for ES*, Ed25519 for EdDSA.
func GenerateKey(alg Algorithm) (*Key, error) {
	return GenerateKeyWithID(alg, "")
}

// GenerateKeyWithID is GenerateKey with a key ID (JWK kid) set on the key.
func GenerateKeyWithID(alg Algorithm, kid string) (*Key, error) {
	sp, err := lookup(alg)
	if err != nil {
		return nil, err
	}
	if sp.isEncryption() && sp.family != famLocal {
		return nil, errNeedsEncryption(alg)
	}
	var material any
	switch sp.family {
	case famHMAC, famLocal:
		secret := make([]byte, sp.minKey)
		if _, err := rand.Read(secret); err != nil {
			return nil, fmt.Errorf("signet: generate %s: %w", alg, err)
		}
		material = secret
	case famRSA, famPSS:
		material, err = rsa.GenerateKey(rand.Reader, MinRSABits)
	case famECDSA:
		material, err = ecdsa.GenerateKey(sp.curve, rand.Reader)
	case famEd25519:
		_, material, err = ed25519.GenerateKey(rand.Reader)
	}
	if err != nil {
		return nil, fmt.Errorf("signet: generate %s: %w", alg, err)
	}
	return ownKey(sp, kid, material)
}

// NewKey binds existing key material to alg. material is one of:
// []byte (HMAC secret or PASETO local key), *rsa.PrivateKey,
// *rsa.PublicKey, *ecdsa.PrivateKey, *ecdsa.PublicKey, ed25519.PrivateKey,
// ed25519.PublicKey. The key keeps a copy: changing material afterwards
// does not change the key. Weak or inconsistent material is refused with
// an error wrapping ErrWeakKey (among it Ed25519 public keys of small
// order, see the package documentation); material of the wrong type for
// alg with ErrAlgorithmMismatch.
func NewKey(alg Algorithm, material any) (*Key, error) {
	return NewKeyWithID(alg, "", material)
}

// NewKeyWithID is NewKey with a key ID (JWK kid) set on the key, as
// NewKey(alg, material) and WithKeyID(kid) would, in one step.
func NewKeyWithID(alg Algorithm, kid string, material any) (*Key, error) {
	sp, err := lookup(alg)
	if err != nil {
		return nil, err
	}
	if sp.isEncryption() && sp.family != famLocal {
		return nil, errNeedsEncryption(alg)
	}
	return newKey(sp, kid, material)
}

// newKey binds material, handed in by a caller, to sp: checked in full and
// copied, so that the caller keeps no handle on the key's state (and,
// kept nowhere, material stays where the caller made it: a []byte in an
// interface needs no box on the heap).
func newKey(sp *spec, kid string, material any) (*Key, error) {
	if m, ok := material.([]byte); ok {
		if err := checkSecret(sp, len(m)); err != nil {
			return nil, err
		}
		return allocSecretKey(sp, kid, m), nil
	}
	k := allocKey(sp, kid)
	mismatch := func() (*Key, error) {
		return nil, fmt.Errorf("%w: %s cannot be a %s key", ErrAlgorithmMismatch, typeName(material), sp.name)
	}
	switch m := material.(type) {
	case *rsa.PrivateKey, *rsa.PublicKey:
		if sp.family != famRSA && sp.family != famPSS {
			return mismatch()
		}
		if err := k.setRSA(m); err != nil {
			return nil, err
		}
	case *ecdsa.PrivateKey:
		if sp.family != famECDSA {
			return mismatch()
		}
		if m == nil || m.Curve != sp.curve {
			return nil, fmt.Errorf("%w: %s needs a %s key", ErrAlgorithmMismatch, sp.name, sp.curve.Params().Name)
		}
		//lint:ignore SA1019 a nil scalar would make ECDH panic; this is the check.
		if m.D == nil {
			return nil, fmt.Errorf("%w: EC private scalar missing", ErrWeakKey)
		}
		c := copyECPrivate(m)
		// ECDH validates the scalar; the public point must be its own.
		priv, err := c.ECDH()
		if err != nil {
			return nil, fmt.Errorf("%w: EC private key: %v", ErrWeakKey, err)
		}
		if err := checkECPublic(sp, &c.PublicKey); err != nil {
			return nil, err
		}
		pub, err := c.PublicKey.ECDH()
		if err != nil || !priv.PublicKey().Equal(pub) {
			return nil, fmt.Errorf("%w: EC public key does not match the private scalar", ErrWeakKey)
		}
		k.ecPri, k.ecPub = c, &c.PublicKey
	case *ecdsa.PublicKey:
		if sp.family != famECDSA {
			return mismatch()
		}
		if m == nil || m.Curve != sp.curve {
			return nil, fmt.Errorf("%w: %s needs a %s key", ErrAlgorithmMismatch, sp.name, sp.curve.Params().Name)
		}
		c := copyECPublic(m)
		if err := checkECPublic(sp, c); err != nil {
			return nil, err
		}
		k.ecPub = c
	case ed25519.PrivateKey:
		if sp.family != famEd25519 {
			return mismatch()
		}
		if len(m) != ed25519.PrivateKeySize {
			return nil, fmt.Errorf("%w: Ed25519 private key is %d bytes", ErrWeakKey, len(m))
		}
		// The seed's public half is a point of the prime-order subgroup:
		// it needs no small-order check.
		derived := ed25519.NewKeyFromSeed(m.Seed())
		if subtle.ConstantTimeCompare(derived, m) != 1 {
			return nil, fmt.Errorf("%w: Ed25519 public half does not match the seed", ErrWeakKey)
		}
		k.edPri = (*[ed25519.PrivateKeySize]byte)(derived)
		k.edPub = (*[ed25519.PublicKeySize]byte)(derived[ed25519.SeedSize:])
	case ed25519.PublicKey:
		if err := k.setEd25519Public(sp, m); err != nil {
			return nil, err
		}
	default:
		return mismatch()
	}
	return k, nil
}

// ownKey binds to sp material that is the standard library's own making,
// not a caller's: what crypto/x509 made of a key's DER (an RSA key it
// validated and precomputed, an EC or Ed25519 public half it derived from
// the private scalar or seed) or a key GenerateKey just generated (a fresh
// secret). The key keeps it as it is, and those checks are not repeated;
// the sizes and curves are, and an Ed25519 public key is checked (crypto/x509
// does not check the points it reads).
func ownKey(sp *spec, kid string, material any) (*Key, error) {
	k := allocKey(sp, kid)
	switch m := material.(type) {
	case []byte:
		if err := checkSecret(sp, len(m)); err != nil {
			return nil, err
		}
		k.secret = m
	case *rsa.PrivateKey:
		if sp.family != famRSA && sp.family != famPSS {
			return nil, fmt.Errorf("%w: %T cannot be a %s key", ErrAlgorithmMismatch, material, sp.name)
		}
		if m == nil {
			return nil, fmt.Errorf("%w: nil RSA key", ErrWeakKey)
		}
		if err := checkRSAPublic(&m.PublicKey); err != nil {
			return nil, err
		}
		if err := checkRSASizes(m); err != nil {
			return nil, err
		}
		k.rsaPri, k.rsaPub = m, &m.PublicKey
	case *rsa.PublicKey:
		if sp.family != famRSA && sp.family != famPSS {
			return nil, fmt.Errorf("%w: %T cannot be a %s key", ErrAlgorithmMismatch, material, sp.name)
		}
		if m == nil {
			return nil, fmt.Errorf("%w: nil RSA key", ErrWeakKey)
		}
		if err := checkRSAPublic(m); err != nil {
			return nil, err
		}
		k.rsaPub = m
	case *ecdsa.PrivateKey:
		if m == nil {
			return nil, fmt.Errorf("%w: nil EC key", ErrWeakKey)
		}
		if err := checkCurve(sp, material, m.Curve); err != nil {
			return nil, err
		}
		k.ecPri, k.ecPub = m, &m.PublicKey
	case *ecdsa.PublicKey:
		if m == nil {
			return nil, fmt.Errorf("%w: nil EC key", ErrWeakKey)
		}
		if err := checkCurve(sp, material, m.Curve); err != nil {
			return nil, err
		}
		if err := checkECPublic(sp, m); err != nil {
			return nil, err
		}
		k.ecPub = m
	case ed25519.PrivateKey:
		if sp.family != famEd25519 {
			return nil, fmt.Errorf("%w: %T cannot be a %s key", ErrAlgorithmMismatch, material, sp.name)
		}
		if len(m) != ed25519.PrivateKeySize {
			return nil, fmt.Errorf("%w: Ed25519 private key is %d bytes", ErrWeakKey, len(m))
		}
		// The public half is the key's second 32 bytes (RFC 8032).
		k.edPri = (*[ed25519.PrivateKeySize]byte)(m)
		k.edPub = (*[ed25519.PublicKeySize]byte)(m[ed25519.SeedSize:])
	case ed25519.PublicKey:
		if err := k.setEd25519Public(sp, m); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("%w: %T cannot be a %s key", ErrAlgorithmMismatch, material, sp.name)
	}
	return k, nil
}

// checkSecret checks a secret's length for sp: a PASETO local key's is
// fixed, an HMAC secret's at least the minimum.
func checkSecret(sp *spec, n int) error {
	switch sp.family {
	case famLocal:
		if n != sp.minKey {
			return fmt.Errorf("%w: %s key is %d bytes, must be %d", ErrWeakKey, sp.name, n, sp.minKey)
		}
	case famHMAC:
		if n < sp.minKey {
			return fmt.Errorf("%w: %s secret is %d bits, need at least %d", ErrWeakKey, sp.name, 8*n, 8*sp.minKey)
		}
	default:
		return fmt.Errorf("%w: []uint8 cannot be a %s key", ErrAlgorithmMismatch, sp.name)
	}
	return nil
}

// setEd25519Public checks an Ed25519 public key and keeps a copy.
func (d *keyData) setEd25519Public(sp *spec, m ed25519.PublicKey) error {
	if sp.family != famEd25519 {
		return fmt.Errorf("%w: ed25519.PublicKey cannot be a %s key", ErrAlgorithmMismatch, sp.name)
	}
	if len(m) != ed25519.PublicKeySize {
		return fmt.Errorf("%w: Ed25519 public key is %d bytes", ErrWeakKey, len(m))
	}
	if err := checkEd25519Public(m); err != nil {
		return err
	}
	d.edPub = new([ed25519.PublicKeySize]byte)
	copy(d.edPub[:], m)
	return nil
}

// checkCurve checks that an EC key, material, on curve c is one sp takes.
func checkCurve(sp *spec, material any, c elliptic.Curve) error {
	if c == nil {
		return fmt.Errorf("%w: EC key without a curve", ErrWeakKey)
	}
	if sp.family != famECDSA {
		return fmt.Errorf("%w: %T cannot be a %s key", ErrAlgorithmMismatch, material, sp.name)
	}
	if c != sp.curve {
		return fmt.Errorf("%w: %s needs a %s key", ErrAlgorithmMismatch, sp.name, sp.curve.Params().Name)
	}
	return nil
}

// keyBlock is a key and its data, made in one allocation.
type keyBlock struct {
	k Key
	d keyData
}

// allocKey returns a new key of sp and kid with its data.
func allocKey(sp *spec, kid string) *Key {
	b := new(keyBlock)
	b.k = Key{spec: sp, kid: kid, keyData: &b.d}
	return &b.k
}

// secretBlock is a key, its data and room for its secret.
type secretBlock struct {
	keyBlock
	inline [64]byte
}

// allocSecretKey returns a new key of sp holding a copy of a caller's
// secret, which the caller cannot change: in one allocation when the
// secret fits (a secret is usually 32 to 64 bytes).
func allocSecretKey(sp *spec, kid string, secret []byte) *Key {
	if len(secret) > len(secretBlock{}.inline) {
		k := allocKey(sp, kid)
		k.secret = append([]byte(nil), secret...)
		return k
	}
	b := new(secretBlock)
	b.k = Key{spec: sp, kid: kid, keyData: &b.d}
	// Capacity the secret's length: an append to it never writes past it.
	b.d.secret = b.inline[:len(secret):len(secret)]
	copy(b.d.secret, secret)
	return &b.k
}

// setRSA sets k's RSA material to a checked copy (checkedRSAPrivate,
// checkedRSAPublic) of a caller's *rsa.PrivateKey or *rsa.PublicKey.
func (k *Key) setRSA(material any) error {
	switch m := material.(type) {
	case *rsa.PrivateKey:
		c, err := checkedRSAPrivate(m)
		if err != nil {
			return err
		}
		k.rsaPri, k.rsaPub = c, &c.PublicKey
	case *rsa.PublicKey:
		c, err := checkedRSAPublic(m)
		if err != nil {
			return err
		}
		k.rsaPub = c
	default:
		return fmt.Errorf("%w: %s is not an RSA key", ErrAlgorithmMismatch, typeName(material))
	}
	return nil
}

// checkedRSAPrivate returns a checked, precomputed copy of a caller's RSA
// private key, which the key keeps: the caller's value is neither read
// again nor changed.
func checkedRSAPrivate(m *rsa.PrivateKey) (*rsa.PrivateKey, error) {
	if m == nil {
		return nil, fmt.Errorf("%w: nil RSA key", ErrWeakKey)
	}
	c := copyRSAPrivate(m, false)
	if err := checkRSAPublic(&c.PublicKey); err != nil {
		return nil, err
	}
	if err := checkRSASizes(c); err != nil {
		return nil, err
	}
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("%w: RSA private key: %v", ErrWeakKey, err)
	}
	c.Precompute()
	return c, nil
}

// checkedRSAPublic returns a checked copy of a caller's RSA public key.
func checkedRSAPublic(m *rsa.PublicKey) (*rsa.PublicKey, error) {
	if m == nil {
		return nil, fmt.Errorf("%w: nil RSA key", ErrWeakKey)
	}
	c := copyRSAPublic(m)
	if err := checkRSAPublic(c); err != nil {
		return nil, err
	}
	return c, nil
}

// typeName is the name %T gives v's type.
func typeName(v any) string {
	if v == nil {
		return "<nil>"
	}
	return reflect.TypeOf(v).String()
}

func checkRSAPublic(p *rsa.PublicKey) error {
	if p.N == nil {
		return fmt.Errorf("%w: RSA modulus missing", ErrWeakKey)
	}
	bits := p.N.BitLen()
	if bits < MinRSABits {
		return fmt.Errorf("%w: RSA modulus is %d bits, need at least %d", ErrWeakKey, bits, MinRSABits)
	}
	if bits > MaxRSABits {
		return fmt.Errorf("%w: RSA modulus is %d bits, at most %d accepted", ErrWeakKey, bits, MaxRSABits)
	}
	if p.N.Bit(0) == 0 {
		return fmt.Errorf("%w: RSA modulus is even", ErrWeakKey)
	}
	if p.E < 3 || p.E&1 == 0 {
		return fmt.Errorf("%w: RSA public exponent %d", ErrWeakKey, p.E)
	}
	return nil
}

// checkRSASizes bounds the private values before rsa.PrivateKey.Validate,
// whose arithmetic on an oversized prime or exponent would take minutes.
func checkRSASizes(m *rsa.PrivateKey) error {
	bits := m.N.BitLen()
	if len(m.Primes) != 2 {
		return fmt.Errorf("%w: RSA keys with %d primes", ErrUnsupported, len(m.Primes))
	}
	if m.D == nil || m.D.Sign() <= 0 || m.D.BitLen() > bits {
		return fmt.Errorf("%w: RSA private exponent out of range", ErrWeakKey)
	}
	for _, p := range m.Primes {
		if p == nil || p.Sign() <= 0 || p.BitLen() > bits*3/4+8 { // see internal/rsabound
			return fmt.Errorf("%w: RSA prime out of range", ErrWeakKey)
		}
	}
	return nil
}

func checkECPublic(sp *spec, p *ecdsa.PublicKey) error {
	//lint:ignore SA1019 a nil coordinate would make ECDH panic; this is the check.
	if p.X == nil || p.Y == nil {
		return fmt.Errorf("%w: EC point missing", ErrWeakKey)
	}
	// ECDH rejects the point at infinity and points off the curve.
	if _, err := p.ECDH(); err != nil {
		return fmt.Errorf("%w: EC public key for %s: %v", ErrWeakKey, sp.name, err)
	}
	return nil
}

// WithKeyID returns a copy of k carrying the key ID kid (JWK "kid"). The
// copy shares k's material. A nil k gives nil.
func (k *Key) WithKeyID(kid string) *Key {
	if k == nil {
		return nil
	}
	c := *k
	c.kid = kid
	return &c
}

// Algorithm returns the one algorithm the key is bound to, or "" for a nil
// or zero Key.
func (k *Key) Algorithm() Algorithm {
	if k.isZero() {
		return ""
	}
	return k.spec.name
}

// isZero reports whether k is nil or a zero Key (not made by this
// package's constructors): it has no algorithm or material, and every
// operation refuses it with errZeroKey.
func (k *Key) isZero() bool { return k == nil || k.spec == nil || k.keyData == nil }

var errZeroKey = fmt.Errorf("%w: a nil or zero Key (make keys with NewKey, GenerateKey or ParsePEM)", ErrKeyUsage)

// KeyID returns the key ID, or "" when the key has none.
func (k *Key) KeyID() string {
	if k == nil {
		return ""
	}
	return k.kid
}

// CanSign reports whether the key holds private (or secret) material: it
// can sign, or for a PASETO local key, encrypt, or for a JWE key, decrypt.
func (k *Key) CanSign() bool {
	return !k.isZero() && (k.secret != nil || k.rsaPri != nil || k.ecPri != nil || k.edPri != nil)
}

// Symmetric reports whether the key is a shared secret (HMAC, PASETO local).
func (k *Key) Symmetric() bool { return !k.isZero() && k.secret != nil }

// Secret returns a copy of the secret of a symmetric key (HMAC or PASETO
// local), or nil for other keys. Changing the copy does not change the
// key; clear it once used.
func (k *Key) Secret() []byte {
	if !k.Symmetric() {
		return nil
	}
	return append([]byte(nil), k.secret...)
}

// Public returns the public half of k, with the same algorithm and key ID.
// A public key returns itself. An HMAC key has no public half, and a nil
// or zero Key none either: the error wraps ErrKeyUsage.
func (k *Key) Public() (*Key, error) {
	switch {
	case k.isZero():
		return nil, errZeroKey
	case k.Symmetric():
		return nil, fmt.Errorf("%w: %s key has no public half", ErrKeyUsage, k.spec.name)
	case !k.CanSign():
		return k, nil
	}
	p := &Key{spec: k.spec, kid: k.kid, keyData: &keyData{rsaPub: k.rsaPub, ecPub: k.ecPub, edPub: k.edPub}}
	return p, nil
}

// Material returns a copy of the key's material, of the types NewKey (or
// NewEncryptionKey) accepts: the secret for HMAC, PASETO local and JWE
// symmetric keys (a PBES2 key's password), the private key when
// the key has one, otherwise the public key. The copy shares nothing with
// the key: changing it changes neither what the key signs nor what it
// verifies. It exposes secrets; use it for export only. A nil or zero Key
// has none: nil.
func (k *Key) Material() any {
	switch {
	case k.isZero():
		return nil
	case k.spec.family == famECDH:
		return k.ecdhMaterial(true)
	case k.Symmetric():
		return k.Secret()
	case k.rsaPri != nil:
		return copyRSAPrivate(k.rsaPri, true)
	case k.ecPri != nil:
		return copyECPrivate(k.ecPri)
	case k.edPri != nil:
		return ed25519.PrivateKey(bytes.Clone(k.edPri[:]))
	}
	return k.PublicMaterial()
}

// PublicMaterial returns a copy of the public key (*rsa.PublicKey,
// *ecdsa.PublicKey, ed25519.PublicKey, or *ecdh.PublicKey for a JWE
// ECDH-ES key), or nil for a symmetric key and
// for a nil or zero Key. As with Material, changing the copy does not
// change the key.
func (k *Key) PublicMaterial() crypto.PublicKey {
	switch {
	case k.isZero():
		return nil
	case k.spec.family == famECDH:
		return k.ecdhMaterial(false)
	case k.rsaPub != nil:
		return copyRSAPublic(k.rsaPub)
	case k.ecPub != nil:
		return copyECPublic(k.ecPub)
	case k.edPub != nil:
		return ed25519.PublicKey(bytes.Clone(k.edPub[:]))
	}
	return nil
}

// Equal reports whether k and o hold the same material for the same
// algorithm (key IDs are not compared). Secrets are compared in constant
// time. A nil or zero Key equals nothing, not even itself.
func (k *Key) Equal(o *Key) bool {
	if k.isZero() || o.isZero() || k.spec != o.spec || k.CanSign() != o.CanSign() {
		return false
	}
	switch {
	case k.Symmetric():
		return o.Symmetric() && hmac.Equal(k.secret, o.secret)
	case k.rsaPri != nil:
		return k.rsaPri.Equal(o.rsaPri)
	case k.rsaPub != nil:
		return k.rsaPub.Equal(o.rsaPub)
	case k.ecPri != nil:
		return k.ecPri.Equal(o.ecPri)
	case k.ecPub != nil:
		return k.ecPub.Equal(o.ecPub)
	case k.edPri != nil:
		return o.edPri != nil && subtle.ConstantTimeCompare(k.edPri[:], o.edPri[:]) == 1
	default:
		return k.edPub != nil && o.edPub != nil && *k.edPub == *o.edPub
	}
}

// Select implements Keys for a single key: it returns k when alg is k's
// algorithm and kid is empty or equal to k's key ID (a key without an ID
// accepts any kid). A nil or zero Key selects nothing: ErrKeyUsage.
func (k *Key) Select(kid string, alg Algorithm) (Candidates, error) {
	if k.isZero() {
		return Candidates{}, errZeroKey
	}
	if alg != k.spec.name {
		return Candidates{}, fmt.Errorf("%w: input names %q, key is %s", ErrAlgorithmMismatch, clip.String(string(alg)), k.spec.name)
	}
	if kid != "" && k.kid != "" && kid != k.kid {
		return Candidates{}, fmt.Errorf("%w: kid %q", ErrKeyNotFound, clip.String(kid))
	}
	return Candidates{one: k}, nil
}
