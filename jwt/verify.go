package jwt

import (
	"fmt"
	"strings"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/b64"
	"github.com/signet-go/signet/internal/claimsjson"
	"github.com/signet-go/signet/internal/clip"
	"github.com/signet-go/signet/internal/joseheader"
	"github.com/signet-go/signet/internal/jsonx"
	"github.com/signet-go/signet/internal/unsafex"
)

// Verify checks token and returns its claims as a T (Claims, a struct
// embedding Claims, Map, or any type encoding/json can decode an object
// into). keys is a *signet.Key or a *signet.KeySet: the key, never the
// token, decides the algorithm.
//
// The order of work keeps forged and hostile input cheap: the size limit
// first, then the structure, the header, the key and the signature; the
// claims are decoded only once the signature holds, then validated against
// p. A non-nil error means the token is rejected; it wraps one of signet's
// sentinel errors (ErrTooLarge, ErrMalformed, ErrSignatureInvalid,
// ErrExpired, ...), and no claims come with it.
func Verify[T any](keys signet.Keys, token string, p Policy) (T, error) {
	out, _, err := verifyClaims[T](keys, token, &p)
	return out, err
}

// VerifyPayload is Verify that also returns the payload it checked, the
// claims set as signed (JSON text, a JSON object held to Verify's rules),
// for members the caller reads without T: package bearer reads scope and
// client_id from it, whatever T the caller chose. On error the payload is
// empty.
func VerifyPayload[T any](keys signet.Keys, token string, p Policy) (T, string, error) {
	return verifyClaims[T](keys, token, &p)
}

// verifyClaims is Verify, which also returns the verified payload.
func verifyClaims[T any](keys signet.Keys, token string, p *Policy) (T, string, error) {
	var zero T
	_, payload, err := verify(keys, token, p)
	if err != nil {
		return zero, "", err
	}
	out, err := claimsOf[T](payload, p)
	if err != nil {
		return zero, "", err
	}
	return out, payload, nil
}

// verifyPlan reads and validates the claims of a T that has a
// claimsjson.Plan: the registered claims as for Claims, the other members
// by the plan: as the claims reader meets them, decoded and validated in
// one pass (claimsjson.Taker), or, for a payload of the plain shape, from
// the members the reader passed over (without another scan).
func verifyPlan[T any](plan *claimsjson.Plan, payload string, p *Policy) (T, error) {
	var c Claims
	var at instants
	var rest claimsjson.Rest
	var out T
	take := claimsjson.NewTaker(plan, &out)
	has, folded, err := readClaims(payload, &c, &at, true, &rest, &take)
	if err != nil {
		var zero T
		return zero, err
	}
	if err := p.validate(&c, has, &at); err != nil {
		var zero T
		return zero, err
	}
	if ok, err := claimsjson.Finish(&take, payload, &rest, folded, &c, &out); ok {
		if err != nil {
			var zero T
			return zero, err
		}
		return out, nil
	}
	return decodeInto[T](payload, &c, folded)
}

// decodeInto decodes a verified payload into a new T with encoding/json.
// When T embeds Claims, those are set to the validated ones, so that what
// the caller reads is what was checked.
func decodeInto[T any](payload string, c *Claims, folded bool) (T, error) {
	out, err := claimsjson.Into[T, Map](payload, split, folded)
	if err != nil {
		return out, err
	}
	// What the caller reads is what was validated, whether T embeds Claims
	// or is a pointer to such a type.
	r, ok := any(&out).(registeredClaims)
	if !ok {
		r, ok = any(out).(registeredClaims)
	}
	if ok {
		if rc := r.registered(); rc != nil {
			*rc = *c
		}
	}
	return out, nil
}

// VerifyBytes checks a JWS whose payload need not be a JWT and returns the
// payload and header. Of p, only MaxSize and Type apply; no claims are read.
func VerifyBytes(keys signet.Keys, token string, p Policy) ([]byte, Header, error) {
	h, payload, err := verify(keys, token, &p)
	if err != nil {
		return nil, Header{}, err
	}
	return []byte(payload), h, nil
}

// verify checks size, structure, header, key and signature, and only then
// decodes the payload. Header and signature are decoded into stack buffers,
// so rejecting a forgery does not allocate; the payload gets the one
// allocation, after the signature holds.
func verify(keys signet.Keys, token string, p *Policy) (Header, string, error) {
	max, err := p.check()
	if err != nil {
		return Header{}, "", err
	}
	if len(token) > max {
		return Header{}, "", fmt.Errorf("%w: token is %d bytes, limit %d", signet.ErrTooLarge, len(token), max)
	}
	if keys == nil {
		return Header{}, "", fmt.Errorf("%w: nil keys", signet.ErrKeyUsage)
	}
	i := strings.IndexByte(token, '.')
	if i < 0 {
		return Header{}, "", fmt.Errorf("%w: want 3 segments", signet.ErrMalformed)
	}
	j := strings.IndexByte(token[i+1:], '.')
	if j < 0 {
		return Header{}, "", fmt.Errorf("%w: want 3 segments", signet.ErrMalformed)
	}
	j += i + 1
	if strings.IndexByte(token[j+1:], '.') >= 0 {
		return Header{}, "", fmt.Errorf("%w: want 3 segments (JWE and JSON serializations are not supported)", signet.ErrMalformed)
	}
	hs, ps, ss := token[:i], token[i+1:j], token[j+1:]
	if hs == "" || ss == "" {
		return Header{}, "", fmt.Errorf("%w: empty header or signature", signet.ErrMalformed)
	}

	var h Header
	var hbuf [256]byte
	own := false // h's strings are the key's, not views of hbuf
	if k, ok := keys.(*signet.Key); ok && k.Algorithm().IsJWS() && isOwnHeader(k, hs) {
		// Byte for byte the header this key's Sign writes: what parsing it
		// would give is known.
		h, own = Header{Algorithm: k.Algorithm(), KeyID: k.KeyID(), Type: "JWT"}, true
	} else {
		hb, err := decodeSegment(hbuf[:0], hs, "header")
		if err != nil {
			return Header{}, "", err
		}
		if h, err = parseHeader(unsafex.String(hb)); err != nil { // hb, on the stack, is not written again
			return Header{}, "", err
		}
	}
	if err := joseheader.CheckType(p.Type, h.Type); err != nil {
		return Header{}, "", err
	}
	if !h.Algorithm.IsJWS() {
		// Another format's algorithm name (v4.public, say) never selects
		// one of its keys for a JWS.
		return Header{}, "", fmt.Errorf("%w: %q is not a JWS algorithm", signet.ErrAlgorithmMismatch, clip.String(string(h.Algorithm)))
	}
	cands, err := joseheader.SelectKeys(keys, h.KeyID, h.Algorithm)
	if err != nil {
		return Header{}, "", err
	}
	var sbuf [512]byte
	sig, err := decodeSegment(sbuf[:0], ss, "signature")
	if err != nil {
		return Header{}, "", err
	}
	if err := cands.Check(h.Algorithm); err != nil {
		// Whatever Keys offers, a token costs a bounded number of checks.
		return Header{}, "", err
	}
	msg := unsafex.Bytes(token[:j]) // only read, by the signature check
	var key *signet.Key
	for n := range cands.Len() {
		k := cands.At(n)
		if k.Algorithm() != h.Algorithm {
			// A Keys implementation offered a key of another algorithm.
			return Header{}, "", fmt.Errorf("%w: key for %s offered for %s", signet.ErrAlgorithmMismatch, k.Algorithm(), clip.String(string(h.Algorithm)))
		}
		if err = k.Verify(msg, sig); err == nil {
			key = k
			break
		}
	}
	if key == nil {
		return Header{}, "", err
	}
	pb, err := decodeSegment(nil, ps, "payload")
	if err != nil {
		return Header{}, "", err
	}
	// A parsed header's strings view hbuf: hand out copies.
	out := Header{Algorithm: key.Algorithm(), KeyID: key.KeyID(), Type: "JWT"}
	if !own {
		out.KeyID, out.Type, out.ContentType = strings.Clone(h.KeyID), jsonx.Intern(h.Type), jsonx.Intern(h.ContentType)
	}
	return out, unsafex.String(pb), nil // pb, a fresh buffer, is not written again
}

// decodeSegment decodes strict unpadded base64url into buf, or a new buffer
// when buf lacks the capacity. Padding, characters outside the alphabet
// (line breaks included) and non-zero trailing bits are refused.
func decodeSegment(buf []byte, s, what string) ([]byte, error) {
	buf, err := b64.DecodeInto(buf, s)
	if err != nil {
		return nil, fmt.Errorf("%w: %s is not strict base64url", signet.ErrMalformed, what)
	}
	return buf, nil
}
