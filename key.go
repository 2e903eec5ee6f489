package signet

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/subtle"
	"fmt"
	"hash"
	"sync"
	"sync/atomic"

	"github.com/signet-go/signet/internal/clip"
)

// Key is a signing or verification key bound, for its whole life, to exactly
// one Algorithm. A token never chooses how it is checked: verification uses
// the key's algorithm and rejects input that names another.
//
// A Key is immutable and safe for concurrent use. Per-key state (the keyed
// HMAC state, parsed public keys) is prepared once, when the key is made.
type Key struct {
	spec     *spec
	kid      string
	*keyData // shared by the copies WithKeyID makes
}

// keyData is a key's material and mutable state: one allocation per key,
// shared by its WithKeyID copies, so that a Key itself is four words and a
// copy costs 32 bytes.
type keyData struct {
	mu     sync.Mutex                  // serialises additions to cache
	cache  atomic.Pointer[[]cacheItem] // copy on write: a key holds a handful
	secret []byte                      // HMAC and PASETO local keys
	pool   sync.Pool                   // HMAC: of *hmacState keyed with secret
	rsaPri *rsa.PrivateKey
	rsaPub *rsa.PublicKey
	ecPri  *ecdsa.PrivateKey
	ecPub  *ecdsa.PublicKey
	edPri  *[ed25519.PrivateKeySize]byte // seed ‖ public key (RFC 8032)
	edPub  *[ed25519.PublicKeySize]byte  // edPri's second half when there is one
}

// cacheItem is one value kept by Key.Cache.
type cacheItem struct {
	id, v any
}

// hmacState is a keyed HMAC with room for one MAC, so that computing a MAC
// for comparison does not allocate.
type hmacState struct {
	h   hash.Hash
	sum [64]byte
}

// hmacState takes a keyed state of an HMAC key from its pool; put it back
// with k.pool.Put.
func (k *Key) hmacState() *hmacState {
	if v := k.pool.Get(); v != nil {
		return v.(*hmacState)
	}
	return &hmacState{h: hmac.New(k.spec.hash.New, k.secret)}
}

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
	return newKey(sp, kid, material, true)
}

// NewKey binds existing key material to alg. material is one of:
// []byte (HMAC secret, copied), *rsa.PrivateKey, *rsa.PublicKey,
// *ecdsa.PrivateKey, *ecdsa.PublicKey, ed25519.PrivateKey, ed25519.PublicKey.
// Weak or inconsistent material is refused with an error wrapping ErrWeakKey;
// material of the wrong type for alg with ErrAlgorithmMismatch.
func NewKey(alg Algorithm, material any) (*Key, error) {
	sp, err := lookup(alg)
	if err != nil {
		return nil, err
	}
	return newKey(sp, "", material, false)
}

// newKey binds material to sp. trusted says the material is the standard
// library's own making, not a caller's: what crypto/x509 made of a private
// key's DER (an RSA key it validated and precomputed, an EC or Ed25519
// public half it derived from the private scalar or seed) or a key
// GenerateKey just generated (a fresh secret, which the key then owns).
// Those checks are not repeated, nor the secret copied; material handed in
// by a caller is checked in full and copied.
func newKey(sp *spec, kid string, material any, trusted bool) (*Key, error) {
	k := &Key{spec: sp, kid: kid, keyData: new(keyData)}
	mismatch := func() (*Key, error) {
		return nil, fmt.Errorf("%w: %T cannot be a %s key", ErrAlgorithmMismatch, material, sp.name)
	}
	switch m := material.(type) {
	case []byte:
		if sp.family == famLocal {
			if len(m) != sp.minKey {
				return nil, fmt.Errorf("%w: %s key is %d bytes, must be %d", ErrWeakKey, sp.name, len(m), sp.minKey)
			}
			k.secret = own(m, trusted)
			break
		}
		if sp.family != famHMAC {
			return mismatch()
		}
		if len(m) < sp.minKey {
			return nil, fmt.Errorf("%w: %s secret is %d bits, need at least %d", ErrWeakKey, sp.name, 8*len(m), 8*sp.minKey)
		}
		k.secret = own(m, trusted)
	case *rsa.PrivateKey:
		if sp.family != famRSA && sp.family != famPSS {
			return mismatch()
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
		if !trusted {
			if err := m.Validate(); err != nil {
				return nil, fmt.Errorf("%w: RSA private key: %v", ErrWeakKey, err)
			}
			m.Precompute()
		}
		k.rsaPri, k.rsaPub = m, &m.PublicKey
	case *rsa.PublicKey:
		if sp.family != famRSA && sp.family != famPSS {
			return mismatch()
		}
		if m == nil {
			return nil, fmt.Errorf("%w: nil RSA key", ErrWeakKey)
		}
		if err := checkRSAPublic(m); err != nil {
			return nil, err
		}
		k.rsaPub = m
	case *ecdsa.PrivateKey:
		if sp.family != famECDSA {
			return mismatch()
		}
		if m == nil || m.Curve != sp.curve {
			return nil, fmt.Errorf("%w: %s needs a %s key", ErrAlgorithmMismatch, sp.name, sp.curve.Params().Name)
		}
		if trusted {
			k.ecPri, k.ecPub = m, &m.PublicKey
			break
		}
		// ECDH validates the scalar; the public point must be its own.
		priv, err := m.ECDH()
		if err != nil {
			return nil, fmt.Errorf("%w: EC private key: %v", ErrWeakKey, err)
		}
		if err := checkECPublic(sp, &m.PublicKey); err != nil {
			return nil, err
		}
		pub, err := m.PublicKey.ECDH()
		if err != nil || !priv.PublicKey().Equal(pub) {
			return nil, fmt.Errorf("%w: EC public key does not match the private scalar", ErrWeakKey)
		}
		k.ecPri, k.ecPub = m, &m.PublicKey
	case *ecdsa.PublicKey:
		if sp.family != famECDSA {
			return mismatch()
		}
		if m == nil || m.Curve != sp.curve {
			return nil, fmt.Errorf("%w: %s needs a %s key", ErrAlgorithmMismatch, sp.name, sp.curve.Params().Name)
		}
		if err := checkECPublic(sp, m); err != nil {
			return nil, err
		}
		k.ecPub = m
	case ed25519.PrivateKey:
		if sp.family != famEd25519 {
			return mismatch()
		}
		if len(m) != ed25519.PrivateKeySize {
			return nil, fmt.Errorf("%w: Ed25519 private key is %d bytes", ErrWeakKey, len(m))
		}
		if trusted {
			// The public half is the key's second 32 bytes (RFC 8032).
			k.edPri = (*[ed25519.PrivateKeySize]byte)(m)
			k.edPub = (*[ed25519.PublicKeySize]byte)(m[ed25519.SeedSize:])
			break
		}
		derived := ed25519.NewKeyFromSeed(m.Seed())
		if subtle.ConstantTimeCompare(derived, m) != 1 {
			return nil, fmt.Errorf("%w: Ed25519 public half does not match the seed", ErrWeakKey)
		}
		k.edPri = (*[ed25519.PrivateKeySize]byte)(derived)
		k.edPub = (*[ed25519.PublicKeySize]byte)(derived[ed25519.SeedSize:])
	case ed25519.PublicKey:
		if sp.family != famEd25519 {
			return mismatch()
		}
		if len(m) != ed25519.PublicKeySize {
			return nil, fmt.Errorf("%w: Ed25519 public key is %d bytes", ErrWeakKey, len(m))
		}
		k.edPub = new([ed25519.PublicKeySize]byte)
		copy(k.edPub[:], m)
	default:
		return mismatch()
	}
	return k, nil
}

// own returns secret itself when the key may keep it (trusted: GenerateKey's
// fresh bytes), else a copy the caller cannot change.
func own(secret []byte, trusted bool) []byte {
	if trusted {
		return secret
	}
	return append([]byte(nil), secret...)
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

// WithKeyID returns a copy of k carrying the key ID kid (JWK "kid").
func (k *Key) WithKeyID(kid string) *Key {
	c := *k
	c.kid = kid
	return &c
}

// Algorithm returns the one algorithm the key is bound to.
func (k *Key) Algorithm() Algorithm {
	if k.spec == nil {
		return ""
	}
	return k.spec.name
}

// isZero reports whether k is a zero Key (not made by this package's
// constructors): it has no algorithm or material, and every operation
// refuses it with errZeroKey.
func (k *Key) isZero() bool { return k.spec == nil || k.keyData == nil }

var errZeroKey = fmt.Errorf("%w: a zero Key (make keys with NewKey, GenerateKey or ParsePEM)", ErrKeyUsage)

// KeyID returns the key ID, or "" when the key has none.
func (k *Key) KeyID() string { return k.kid }

// CanSign reports whether the key holds private (or secret) material: it
// can sign, or for a PASETO local key, encrypt.
func (k *Key) CanSign() bool {
	return !k.isZero() && (k.secret != nil || k.rsaPri != nil || k.ecPri != nil || k.edPri != nil)
}

// Symmetric reports whether the key is a shared secret (HMAC, PASETO local).
func (k *Key) Symmetric() bool { return !k.isZero() && k.secret != nil }

// Secret returns the secret of a symmetric key (HMAC or PASETO local) or
// nil. The slice is the key's own and must not be modified: it is for
// packages that derive cryptographic state from the key. To export a key,
// use Material.
func (k *Key) Secret() []byte {
	if k.isZero() {
		return nil
	}
	return k.secret
}

// Cache returns the value kept with the key under id, made by make on
// first use. Packages keep state derived from a key there (a pool of keyed
// hash states, say) for the key's lifetime, instead of in a global table.
// id should be a value of an unexported type of the calling package (a
// comparable one: an empty struct, say); the cache is meant for a handful of
// entries per key, found without hashing or locking. A zero Key keeps
// nothing: each call returns a fresh make(k).
func (k *Key) Cache(id any, make func(*Key) any) any {
	if k.isZero() {
		return make(k)
	}
	if v, ok := k.keyData.lookup(id); ok {
		return v
	}
	v := make(k) // outside the lock: make may use the cache itself
	k.keyData.mu.Lock()
	defer k.keyData.mu.Unlock()
	if old, ok := k.keyData.lookup(id); ok {
		return old
	}
	var items []cacheItem
	if p := k.keyData.cache.Load(); p != nil {
		items = append(items, *p...)
	}
	items = append(items, cacheItem{id, v})
	k.keyData.cache.Store(&items)
	return v
}

// lookup finds id's value in the cache: a scan of a few entries, without
// hashing or locking.
func (s *keyData) lookup(id any) (any, bool) {
	if p := s.cache.Load(); p != nil {
		for i := range *p {
			if (*p)[i].id == id {
				return (*p)[i].v, true
			}
		}
	}
	return nil, false
}

// Public returns the public half of k, with the same algorithm and key ID.
// A public key returns itself. An HMAC key has no public half: the error
// wraps ErrKeyUsage.
func (k *Key) Public() (*Key, error) {
	switch {
	case k.Symmetric():
		return nil, fmt.Errorf("%w: %s key has no public half", ErrKeyUsage, k.spec.name)
	case !k.CanSign():
		return k, nil
	}
	p := &Key{spec: k.spec, kid: k.kid, keyData: &keyData{rsaPub: k.rsaPub, ecPub: k.ecPub, edPub: k.edPub}}
	return p, nil
}

// Material returns the key's underlying material, of the types NewKey
// accepts: a copy of the secret for HMAC, the private key when the key has
// one, otherwise the public key (Ed25519 keys as copies). It exposes
// secrets; use it for export only. A zero Key has none: nil.
func (k *Key) Material() any {
	switch {
	case k.isZero():
		return nil
	case k.Symmetric():
		return append([]byte(nil), k.Secret()...)
	case k.rsaPri != nil:
		return k.rsaPri
	case k.rsaPub != nil:
		return k.rsaPub
	case k.ecPri != nil:
		return k.ecPri
	case k.ecPub != nil:
		return k.ecPub
	case k.edPri != nil:
		return ed25519.PrivateKey(bytes.Clone(k.edPri[:]))
	default:
		return ed25519.PublicKey(bytes.Clone(k.edPub[:]))
	}
}

// PublicMaterial returns the public key (*rsa.PublicKey, *ecdsa.PublicKey or
// a copy of the ed25519.PublicKey), or nil for an HMAC key. An Ed25519
// private key's public half is part of it (RFC 8032), and a changed one
// would sign under a wrong public key: it is never handed out itself.
func (k *Key) PublicMaterial() crypto.PublicKey {
	switch {
	case k.isZero():
		return nil
	case k.rsaPub != nil:
		return k.rsaPub
	case k.ecPub != nil:
		return k.ecPub
	case k.edPub != nil:
		return ed25519.PublicKey(bytes.Clone(k.edPub[:]))
	}
	return nil
}

// Equal reports whether k and o hold the same material for the same
// algorithm (key IDs are not compared). Secrets are compared in constant time.
func (k *Key) Equal(o *Key) bool {
	if k == nil || o == nil || k.isZero() || o.isZero() || k.spec != o.spec || k.CanSign() != o.CanSign() {
		return false
	}
	switch {
	case k.Symmetric():
		return o.Symmetric() && hmac.Equal(k.Secret(), o.Secret())
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
// accepts any kid).
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
