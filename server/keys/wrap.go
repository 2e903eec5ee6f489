package keys

import (
	"fmt"
	"strings"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/paserk"
	"github.com/signet-go/signet/paseto"
	"github.com/signet-go/signet/server/storage"
)

// The prefixes of the two wrapped forms a stored key has.
const (
	wrappedJWS  = "v4.local."           // a private JWK in a v4.local token
	wrappedPIE  = "k4.secret-wrap.pie." // a v4.public key, PASERK pie
	implicitTag = "signet server key\x00"
	maxWrapped  = 64 << 10
)

// implicit is the implicit assertion a wrapped JWK is sealed with: it binds
// the record's kid and algorithm, so that a wrapped key moved into another
// record no longer opens.
func implicit(kid string, alg signet.Algorithm) []byte {
	return []byte(implicitTag + string(alg) + "\x00" + kid)
}

// generate makes a new private key of alg and its stored record (state and
// times left to the caller), the private key wrapped under kek.
func generate(alg signet.Algorithm, kek *signet.Key, now time.Time) (*signet.Key, storage.Key, error) {
	k, err := signet.GenerateKey(alg)
	if err != nil {
		return nil, storage.Key{}, fmt.Errorf("keys: generating a %s key: %w", alg, err)
	}
	kid, err := keyID(k)
	if err != nil {
		return nil, storage.Key{}, err
	}
	k = k.WithKeyID(kid)
	pub, err := publicForm(k)
	if err != nil {
		return nil, storage.Key{}, err
	}
	w, err := wrap(k, kek)
	if err != nil {
		return nil, storage.Key{}, err
	}
	return k, storage.Key{ID: kid, Algorithm: string(alg), Wrapped: w, Public: pub, Created: now}, nil
}

// keyID is the kid of k: its RFC 7638 thumbprint for a JWS key, the PASERK
// pid of its public half for a v4.public key.
func keyID(k *signet.Key) (string, error) {
	if k.Algorithm() == signet.V4Public {
		pub, err := k.Public()
		if err != nil {
			return "", fmt.Errorf("keys: %w", err)
		}
		id, err := paserk.ID(pub)
		if err != nil {
			return "", fmt.Errorf("keys: %w", err)
		}
		return id, nil
	}
	tp, err := jwk.Thumbprint(k)
	if err != nil {
		return "", fmt.Errorf("keys: %w", err)
	}
	return tp, nil
}

// publicForm is what the record stores as Public: the public JWK (with
// kid, alg and use), the PASERK k4.public, or "" for an HMAC key.
func publicForm(k *signet.Key) (string, error) {
	if k.Symmetric() {
		return "", nil
	}
	pub, err := k.Public()
	if err != nil {
		return "", fmt.Errorf("keys: %w", err)
	}
	if k.Algorithm() == signet.V4Public {
		s, err := paserk.Encode(pub)
		if err != nil {
			return "", fmt.Errorf("keys: %w", err)
		}
		return s, nil
	}
	b, err := jwk.MarshalPublic(pub)
	if err != nil {
		return "", fmt.Errorf("keys: %w", err)
	}
	return string(b), nil
}

// wrap encrypts the private key k (its kid set) under kek.
func wrap(k *signet.Key, kek *signet.Key) (string, error) {
	if k.Algorithm() == signet.V4Public {
		s, err := paserk.Wrap(k, kek)
		if err != nil {
			return "", fmt.Errorf("keys: wrapping key %s: %w", k.KeyID(), err)
		}
		return s, nil
	}
	j, err := jwk.Marshal(k)
	if err != nil {
		return "", fmt.Errorf("keys: wrapping key %s: %w", k.KeyID(), err)
	}
	defer clear(j)
	s, err := paseto.EncryptBytes(kek, j, paseto.Options{Implicit: implicit(k.KeyID(), k.Algorithm())})
	if err != nil {
		return "", fmt.Errorf("keys: wrapping key %s: %w", k.KeyID(), err)
	}
	return s, nil
}

// unwrap opens the private key of rec under kek and checks that it is the
// key rec describes: its algorithm, its kid (recomputed from the key) and
// its public form. Errors wrap signet.ErrSignatureInvalid (another KEK, a
// tampered record, or a wrapped key moved from another record),
// signet.ErrMalformed, signet.ErrTooLarge or signet.ErrUnsupported.
func unwrap(rec storage.Key, kek *signet.Key) (*signet.Key, error) {
	alg := signet.Algorithm(rec.Algorithm)
	if !alg.IsJWS() && alg != signet.V4Public {
		return nil, fmt.Errorf("%w: keys: key %q of algorithm %q", signet.ErrUnsupported, rec.ID, rec.Algorithm)
	}
	if len(rec.Wrapped) > maxWrapped {
		return nil, fmt.Errorf("%w: keys: wrapped key %q of %d bytes", signet.ErrTooLarge, rec.ID, len(rec.Wrapped))
	}
	var k *signet.Key
	switch {
	case alg == signet.V4Public && strings.HasPrefix(rec.Wrapped, wrappedPIE):
		u, err := paserk.Unwrap(rec.Wrapped, kek)
		if err != nil {
			return nil, fmt.Errorf("keys: unwrapping key %q: %w", rec.ID, err)
		}
		k = u
	case alg != signet.V4Public && strings.HasPrefix(rec.Wrapped, wrappedJWS):
		j, err := paseto.DecryptBytes(kek, rec.Wrapped, paseto.Policy{Implicit: implicit(rec.ID, alg), MaxSize: maxWrapped})
		if err != nil {
			return nil, fmt.Errorf("keys: unwrapping key %q: %w", rec.ID, err)
		}
		u, err := jwk.ParseKeyFor(j, alg)
		clear(j)
		if err != nil {
			return nil, fmt.Errorf("keys: unwrapping key %q: %w", rec.ID, err)
		}
		k = u
	default:
		return nil, fmt.Errorf("%w: keys: key %q: not a wrapped %s key", signet.ErrMalformed, rec.ID, alg)
	}
	if k.Algorithm() != alg || !k.CanSign() {
		return nil, fmt.Errorf("%w: keys: key %q unwraps to a %s key that cannot sign", signet.ErrSignatureInvalid, rec.ID, k.Algorithm())
	}
	kid, err := keyID(k)
	if err != nil {
		return nil, err
	}
	if kid != rec.ID {
		return nil, fmt.Errorf("%w: keys: record %q holds the wrapped key %q", signet.ErrSignatureInvalid, rec.ID, kid)
	}
	k = k.WithKeyID(kid)
	pub, err := publicForm(k)
	if err != nil {
		return nil, err
	}
	if pub != rec.Public {
		return nil, fmt.Errorf("%w: keys: record %q: public key does not match its private key", signet.ErrSignatureInvalid, rec.ID)
	}
	return k, nil
}
