package jwk

import (
	"fmt"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/clip"
)

// SetReport says what ReadSet did with each key of a JWK Set: how many it
// kept, and which it skipped and why.
type SetReport struct {
	// Keys is the number of keys in the set ReadSet returned.
	Keys int
	// Skipped lists the keys left out, in the order of the document.
	Skipped []SkippedKey
}

// SkippedKey is a key of a JWK Set that ReadSet left out.
type SkippedKey struct {
	// Index is the key's position in the "keys" array, from 0.
	Index int
	// KeyID is the key's "kid" as far as it could be read (at most 64
	// bytes of it), or "".
	KeyID string
	// Err says why, wrapping a sentinel of package signet:
	// ErrUnsupported (a key type, curve or algorithm signet does not
	// use here, a key without "alg" that fits no or several of the
	// allowed algorithms, a repeated "kid"), ErrKeyUsage ("use" other
	// than "sig", "key_ops" other than "sign"/"verify" or empty), ErrMalformed,
	// ErrTooLarge, ErrWeakKey or ErrAlgorithmMismatch (a key that is
	// broken, weak, or whose "alg" contradicts its material).
	Err error
}

// ReadSet reads a JWK Set fetched from an issuer (RFC 7517 §5) leniently,
// for verification with the algorithms in allowed: each key it cannot use
// is skipped and reported, and the rest still serve. It is the reader of
// package jwks; ParseSet is the strict one, for a set the caller controls.
//
// A key is kept when it is an RSA, EC or OKP public key (its private
// members, if any, are not read, as in ParseSet), is well-formed and strong
// enough for signet.NewKey, is marked for signatures if marked at all
// ("use", "key_ops"), and is bound to one algorithm of allowed:
//   - a key with "alg" is bound to it when allowed holds it, and skipped
//     otherwise;
//   - a key without "alg" is bound to the one algorithm of allowed that
//     fits its key type (RSA: RS256…PS512; EC: the algorithm of its
//     "crv"; OKP Ed25519: EdDSA), when exactly one does: an RSA key with
//     RS256 and PS256 both allowed is skipped, as each token would
//     otherwise choose how the key is used.
//
// Everything else is skipped: "oct" keys always (an HMAC secret never comes
// from a published set), unknown "kty" or "crv", encryption keys, keys with
// a "use" other than "sig", and any key that is malformed, too large
// (MaxKeySize), weak, or contradicts its "alg". A "kid" that more than one
// kept key carries is ambiguous: all of them are skipped. Members signet
// does not use ("x5c", "x5t", "issuer", ...) are ignored; certificates are
// not checked.
//
// The error is for the document as a whole: more than MaxSetSize bytes or
// MaxSetKeys keys (ErrTooLarge), not a JSON object with a "keys" array
// (ErrMalformed), or an empty or unknown allowed list (ErrUnsupported).
// The document is JSON read as strictly as ParseSet reads it: invalid
// UTF-8 or a member name repeated at any depth, inside a key included,
// makes it malformed, since parsers disagree on what such a document says.
// A set whose keys were all skipped is returned empty, with no error: the
// report says why; package jwks counts it as a failed fetch.
func ReadSet(data []byte, allowed []signet.Algorithm) (*signet.KeySet, SetReport, error) {
	if len(allowed) == 0 {
		return nil, SetReport{}, fmt.Errorf("%w: jwk: ReadSet needs at least one allowed algorithm", signet.ErrUnsupported)
	}
	for _, a := range allowed {
		if _, err := signet.ParseAlgorithm(string(a)); err != nil {
			return nil, SetReport{}, fmt.Errorf("jwk: ReadSet: %w", err)
		}
	}
	elems, err := setElements(data)
	if err != nil {
		return nil, SetReport{}, err
	}
	var rep SetReport
	skip := func(i int, kid string, err error) {
		rep.Skipped = append(rep.Skipped, SkippedKey{Index: i, KeyID: clip.String(kid), Err: fmt.Errorf("jwk: set key %d: %w", i, err)})
	}
	type kept struct {
		index int
		key   *signet.Key
	}
	keys := make([]kept, 0, len(elems))
	kidCount := make(map[string]int, len(elems))
	for i, elem := range elems {
		k, kid, err := readSetKey(elem, allowed)
		if err != nil {
			skip(i, kid, err)
			continue
		}
		keys = append(keys, kept{i, k})
		if k.KeyID() != "" {
			kidCount[k.KeyID()]++
		}
	}
	out := make([]*signet.Key, 0, len(keys))
	for _, k := range keys {
		if kid := k.key.KeyID(); kidCount[kid] > 1 {
			skip(k.index, kid, fmt.Errorf("%w: kid %q is carried by %d keys", signet.ErrUnsupported, clip.String(kid), kidCount[kid]))
			continue
		}
		out = append(out, k.key)
	}
	if len(rep.Skipped) > 1 {
		sortSkipped(rep.Skipped)
	}
	set, err := signet.NewKeySet(out...)
	if err != nil { // not reached: kids are unique and keys are made here
		return nil, SetReport{}, err
	}
	rep.Keys = set.Len()
	return set, rep, nil
}

// sortSkipped orders the report by index (duplicate kids are found after
// the other skips). Insertion sort: the list is short and mostly ordered.
func sortSkipped(s []SkippedKey) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].Index < s[j-1].Index; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// readSetKey reads one element of a set for ReadSet: the public key bound
// to its algorithm, or why it cannot be used. kid is returned as far as it
// was read, for the report.
func readSetKey(elem string, allowed []signet.Algorithm) (k *signet.Key, kid string, err error) {
	if len(elem) > MaxKeySize {
		return nil, "", fmt.Errorf("%w: key is %d bytes, limit %d", signet.ErrTooLarge, len(elem), MaxKeySize)
	}
	if elem[0] != '{' {
		return nil, "", fmt.Errorf("%w: key is not an object", signet.ErrMalformed)
	}
	m, err := decodeObject([]byte(elem))
	if err != nil {
		return nil, "", err
	}
	kid, _, _ = m.str("kid")
	kty, err := m.need("kty")
	if err != nil {
		return nil, kid, err
	}
	switch kty {
	case "RSA", "EC", "OKP":
	case "oct":
		return nil, kid, fmt.Errorf("%w: an \"oct\" key (a shared secret) is never taken from a remote set", signet.ErrUnsupported)
	default:
		return nil, kid, fmt.Errorf("%w: JWK key type %q", signet.ErrUnsupported, clip.String(kty))
	}
	if err := checkUsage(m); err != nil {
		return nil, kid, err
	}
	named, hasAlg, err := m.str("alg")
	if err != nil {
		return nil, kid, err
	}
	var alg signet.Algorithm
	if hasAlg {
		alg = signet.Algorithm(jwsName(named)) // RFC 9864's "Ed25519" is EdDSA
		if !allows(allowed, alg) {
			return nil, kid, fmt.Errorf("%w: JWK \"alg\" %q is not an allowed algorithm", signet.ErrUnsupported, clip.String(named))
		}
	} else if alg, err = inferAlg(m, kty, allowed); err != nil {
		return nil, kid, err
	}
	k, err = parseMembers(m, alg, true)
	return k, kid, err
}

func allows(allowed []signet.Algorithm, alg signet.Algorithm) bool {
	for _, a := range allowed {
		if a == alg {
			return true
		}
	}
	return false
}

// inferAlg binds a key without "alg" to the one allowed algorithm its key
// type (and curve) fits.
func inferAlg(m members, kty string, allowed []signet.Algorithm) (signet.Algorithm, error) {
	crv := ""
	if kty != "RSA" {
		var err error
		if crv, err = m.need("crv"); err != nil {
			return "", err
		}
	}
	var fit []signet.Algorithm
	for _, a := range allowed {
		if w, ok := kindOf(a); ok && w.kty == kty && w.crv == crv && !allows(fit, a) {
			fit = append(fit, a)
		}
	}
	switch len(fit) {
	case 1:
		return fit[0], nil
	case 0:
		if kty == "RSA" {
			return "", fmt.Errorf("%w: JWK without \"alg\": no allowed algorithm for an RSA key", signet.ErrUnsupported)
		}
		return "", fmt.Errorf("%w: JWK without \"alg\": no allowed algorithm for a %s key on %q", signet.ErrUnsupported, kty, clip.String(crv))
	}
	return "", fmt.Errorf("%w: JWK without \"alg\" fits %d allowed algorithms (%s, %s, ...): ambiguous", signet.ErrUnsupported, len(fit), fit[0], fit[1])
}
