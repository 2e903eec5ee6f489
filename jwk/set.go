package jwk

import (
	"errors"
	"fmt"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/clip"
	"github.com/signet-go/signet/internal/jsonx"
)

// Limits on the JWK Sets ParseSet reads.
const (
	MaxSetSize = 1 << 20 // largest JWK Set, in bytes
	MaxSetKeys = 1000    // most keys in a JWK Set
)

// ParseSet reads a JWK Set (RFC 7517 §5), {"keys":[...]}, into a key set for
// verification. Each key is read as ParseKey reads it, with three
// differences.
//
// A verification set reads public halves only. The private members of an
// RSA, EC or OKP key ("d", "p", "q", "dp", "dq", "qi", "oth") are neither
// decoded nor checked, and the set holds the public key: nothing verifying
// with it can sign. A verifier has no use for them, and checking them is
// the costly part of reading a key (validating and precomputing a 1 MiB
// set of RSA-4096 private keys takes seconds). A private key in a set
// meant to be published is the issuer's problem to fix, not a reason to
// refuse the public halves. An "oct" key's "k" is read: for HMAC, the
// secret is what verifies.
//
// Keys that are not for signet are skipped, as RFC 7517 §5 asks of keys an
// implementation does not understand: a "kty", "alg" or "crv" signet does
// not support, a "use" other than "sig" (encryption keys often share a set
// with signing keys), a "key_ops" other than "sign"/"verify" or empty,
// and a key without "alg". A key that is for signet but is malformed, weak, or whose
// "alg" contradicts its material fails the whole set: a set that is partly
// broken is not trusted in part.
//
// A key without "alg" is skipped rather than guessed at because the
// algorithm is the security decision: an RSA key fits RS256 and PS256 (and
// four more), and letting each token's header choose among them is the
// algorithm confusion signet exists to prevent. To use such a key, read it
// with ParseKeyFor and build the set with signet.NewKeySet.
//
// Key IDs must be unique among the keys kept (signet selects by "kid"); a
// repeated one fails with ErrUnsupported. A set whose keys were all skipped
// is returned empty, not as an error. Errors wrap signet.ErrTooLarge (more
// than MaxSetSize bytes, MaxSetKeys keys, or a key over MaxKeySize) and the
// errors of ParseKey.
//
// A token without a "kid" is checked against at most
// signet.MaxAnonymousCandidates keys of the set: the keys without "kid"
// for its algorithm, or the set's only key for it (see
// signet.KeySet.Select). Publish keys with IDs, and have tokens name them.
func ParseSet(data []byte) (*signet.KeySet, error) {
	elems, err := setElements(data)
	if err != nil {
		return nil, err
	}
	keys := make([]*signet.Key, 0, len(elems))
	kids := make(map[string]bool, len(elems))
	for i, elem := range elems {
		if len(elem) > MaxKeySize {
			return nil, fmt.Errorf("%w: JWK Set key %d is %d bytes, limit %d", signet.ErrTooLarge, i, len(elem), MaxKeySize)
		}
		if elem[0] != '{' {
			return nil, fmt.Errorf("%w: JWK Set key %d is not an object", signet.ErrMalformed, i)
		}
		m, err := decodeObject([]byte(elem))
		if err != nil {
			return nil, fmt.Errorf("jwk: set key %d: %w", i, err)
		}
		k, err := parseMembers(m, "", true)
		if errors.Is(err, signet.ErrUnsupported) || errors.Is(err, signet.ErrKeyUsage) {
			continue // not a key signet can verify with
		}
		if err != nil {
			return nil, fmt.Errorf("jwk: set key %d: %w", i, err)
		}
		if kid := k.KeyID(); kid != "" {
			if kids[kid] {
				return nil, fmt.Errorf("%w: JWK Set repeats kid %q", signet.ErrUnsupported, clip.String(kid))
			}
			kids[kid] = true
		}
		keys = append(keys, k)
	}
	return signet.NewKeySet(keys...)
}

// setElements splits a JWK Set, {"keys":[...]}, into its raw elements,
// enforcing MaxSetSize and MaxSetKeys. The elements are not yet checked.
func setElements(data []byte) ([]string, error) {
	if len(data) > MaxSetSize {
		return nil, fmt.Errorf("%w: JWK Set is %d bytes, limit %d", signet.ErrTooLarge, len(data), MaxSetSize)
	}
	top, err := decodeObject(data)
	if err != nil {
		return nil, err
	}
	raw, ok := top["keys"]
	if !ok {
		return nil, fmt.Errorf("%w: JWK Set has no \"keys\"", signet.ErrMalformed)
	}
	if len(raw) == 0 || raw[0] != '[' {
		return nil, fmt.Errorf("%w: JWK Set \"keys\" is not an array", signet.ErrMalformed)
	}
	var elems []string
	it := jsonx.NewElements(raw)
	for it.Next(raw) {
		if len(elems) == MaxSetKeys {
			return nil, fmt.Errorf("%w: JWK Set has more than %d keys", signet.ErrTooLarge, MaxSetKeys)
		}
		elems = append(elems, it.Value(raw))
	}
	if it.Err() != nil {
		return nil, fmt.Errorf("%w: JWK Set \"keys\" is not an array", signet.ErrMalformed)
	}
	return elems, nil
}

// MarshalSet writes a JWK Set of the public halves of keys, in the order
// given, as MarshalPublic writes each: the form to publish, for instance at
// /.well-known/jwks.json. HMAC keys cannot be published (ErrKeyUsage), and
// key IDs must be unique (ErrUnsupported), as ParseSet requires.
func MarshalSet(keys ...*signet.Key) ([]byte, error) {
	set := struct {
		Keys []*jsonKey `json:"keys"`
	}{Keys: make([]*jsonKey, 0, len(keys))}
	kids := make(map[string]bool, len(keys))
	for i, k := range keys {
		jk, err := toJSON(k, false)
		if err != nil {
			return nil, fmt.Errorf("jwk: set key %d: %w", i, err)
		}
		if jk.Kid != "" {
			if kids[jk.Kid] {
				return nil, fmt.Errorf("%w: jwk: set repeats kid %q", signet.ErrUnsupported, clip.String(jk.Kid))
			}
			kids[jk.Kid] = true
		}
		set.Keys = append(set.Keys, jk)
	}
	return encodeJSON(set)
}
