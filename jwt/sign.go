package jwt

import (
	"fmt"
	"reflect"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/b64"
	"github.com/signet-go/signet/internal/claimcheck"
	"github.com/signet-go/signet/internal/claimsjson"
	"github.com/signet-go/signet/internal/keycache"
	"github.com/signet-go/signet/internal/unsafex"
)

// Sign returns a signed JWT (JWS compact serialization) carrying claims,
// with the header {"alg":<key's>,"kid":<key's, if any>,"typ":"JWT"}.
//
// claims is a Claims, a struct embedding Claims, a Map, or any value that
// encoding/json writes as a JSON object. Claims itself is written without
// reflection, and so is a struct embedding Claims whose other fields are
// strings, bools, numbers, slices of those or map[string]string (see the
// package doc); other types go through encoding/json.
//
// Claims without iat get iat = now, claims without exp get exp = now +
// DefaultLifetime, as paseto issues them; opts (at most one Options)
// change the lifetime, the clock, or leave exp out. The defaults go into
// the token, never into the caller's value. Sign refuses (ErrMalformed)
// claims that Verify would not read back: dates outside [0, 2^53]
// seconds, registered claims of the wrong type, a payload that is not a
// JSON object.
func Sign[T any](key *signet.Key, claims T, opts ...Options) (string, error) {
	o, err := issueOptions(opts)
	if err != nil {
		return "", err
	}
	if c, ok := any(&claims).(*Claims); ok {
		return signClaims(key, c, &o) // c is Sign's copy
	}
	if t := reflect.TypeFor[T](); t.Kind() == reflect.Struct {
		// Not through a pointer: that is the caller's value.
		if plan, can := split.Lookup(t); plan != nil {
			return signPlan(key, plan, claims, &o)
		} else if can {
			return signEmbedded(key, claims, &o)
		}
	}
	// Never issue a token this package would refuse: the payload must read
	// back as claims (an object, registered claims of the right types).
	payload, err := claimsjson.Object(claims)
	if err != nil {
		return "", err
	}
	var c Claims
	has, err := decodeClaims(unsafex.String(payload), &c) // read before payload is appended to
	if err != nil {
		return "", err
	}
	if payload, err = addDefaults(payload, has, &o); err != nil {
		return "", err
	}
	return sign(key, payload, "JWT")
}

// signEmbedded signs a T that embeds Claims (canFilter): the registered
// claims, with the issuing defaults, are written by Claims' own encoder,
// the other fields by encoding/json, and the two objects joined.
func signEmbedded[T any](key *signet.Key, claims T, o *claimcheck.Issue) (string, error) {
	rc := any(&claims).(registeredClaims).registered()
	reg := *rc
	*rc = Claims{} // claims is a copy: the caller's value is not touched
	if err := issueDefaults(&reg, o); err != nil {
		return "", err
	}
	rest, err := claimsjson.Object(claims)
	if err != nil {
		return "", err
	}
	payload := claimsjson.Join(reg.appendJSON(make([]byte, 0, 256+len(rest))), rest)
	return sign(key, payload, "JWT")
}

// signPlan signs a T that embeds Claims and has a claimsjson.Plan: the
// registered claims, with the issuing defaults, are written by Claims' own
// encoder, the other fields by the plan, into a stack buffer, without
// reflection. The bytes are signEmbedded's.
func signPlan[T any](key *signet.Key, plan *claimsjson.Plan, claims T, o *claimcheck.Issue) (string, error) {
	v := unsafe.Pointer(&claims)
	reg := *(*Claims)(plan.Registered(v))
	if err := issueDefaults(&reg, o); err != nil {
		return "", err
	}
	var scratch [512]byte
	payload, err := plan.Append(reg.appendJSON(scratch[:0]), v)
	if err != nil {
		return "", err
	}
	return sign(key, payload, "JWT")
}

// headerID keys the encoded JWT header in a key's cache.
type headerID struct{}

// headerEntry is a key's encoded header for typ JWT, and the key ID it
// names (keys made by WithKeyID share their cache).
type headerEntry struct {
	kid string
	b64 []byte
	// exact: parsing b64 gives back kid (false when kid is not valid
	// UTF-8, which the header writes as U+FFFD).
	exact bool
}

// headerSlot is the key's cached header entry.
func headerSlot(key *signet.Key) *atomic.Pointer[headerEntry] {
	return keycache.Get(key, headerID{}, func(*signet.Key) any { return new(atomic.Pointer[headerEntry]) }).(*atomic.Pointer[headerEntry])
}

// cachedHeader returns the base64url of {"alg":…,"kid":…,"typ":"JWT"}
// for key, made once per key and key ID.
func cachedHeader(key *signet.Key) []byte {
	p, kid := headerSlot(key), key.KeyID()
	if e := p.Load(); e != nil && e.kid == kid {
		return e.b64
	}
	return storeHeader(p, key, kid).b64
}

func storeHeader(p *atomic.Pointer[headerEntry], key *signet.Key, kid string) *headerEntry {
	var hb [128]byte
	e := &headerEntry{kid: kid, b64: b64.AppendEncode(nil, appendHeader(hb[:0], key.Algorithm(), kid, "JWT")), exact: utf8.ValidString(kid)}
	p.Store(e)
	return e
}

// isOwnHeader reports whether hs is byte for byte the encoded header key's
// Sign writes, for verify to know it without parsing it: only when parsing
// it gives back the key's ID, and without replacing an entry made for
// another key ID (keys made by WithKeyID share the cache; verifying with
// them in turn must not rebuild it on every call).
func isOwnHeader(key *signet.Key, hs string) bool {
	p, kid := headerSlot(key), key.KeyID()
	e := p.Load()
	if e == nil {
		e = storeHeader(p, key, kid)
	}
	return e.kid == kid && e.exact && hs == string(e.b64)
}

// signClaims writes Claims, with the issuing defaults, without reflection
// into a stack buffer.
func signClaims(key *signet.Key, c *Claims, o *claimcheck.Issue) (string, error) {
	if err := issueDefaults(c, o); err != nil {
		return "", err
	}
	var scratch [512]byte
	return sign(key, c.appendJSON(scratch[:0]), "JWT")
}

// SignBytes returns a JWS (compact serialization) over an arbitrary
// payload, with the header {"alg":…,"kid":…,"typ":typ}; kid and typ are
// left out when empty. Use Sign for JWTs.
func SignBytes(key *signet.Key, payload []byte, typ string) (string, error) {
	return sign(key, payload, typ)
}

// sign builds header.payload.signature in one exact-size allocation.
func sign(key *signet.Key, payload []byte, typ string) (string, error) {
	if key == nil || !key.CanSign() {
		return "", fmt.Errorf("%w: signing needs a private or secret key", signet.ErrKeyUsage)
	}
	if !key.Algorithm().IsJWS() {
		return "", fmt.Errorf("%w: %s is not a JWS algorithm", signet.ErrAlgorithmMismatch, key.Algorithm())
	}
	var encHdr []byte // the header, base64url-encoded
	if typ == "JWT" {
		encHdr = cachedHeader(key)
	} else {
		// Declared here, the buffers are zeroed only for other types.
		var hb [128]byte
		var eb [176]byte
		encHdr = b64.AppendEncode(eb[:0], appendHeader(hb[:0], key.Algorithm(), key.KeyID(), typ))
	}
	sigSize := key.SignatureSize()
	n := len(encHdr) + 1 + b64.EncodedLen(len(payload)) + 1 + b64.EncodedLen(sigSize)
	// The raw signature is made in sb (a MAC, ECDSA's r‖s, Ed25519's) or
	// past the token's end (RSA's), then encoded into place: the token's
	// buffer is no larger than the token.
	var sb [132]byte
	var out, scratch []byte
	if sigSize <= len(sb) {
		out, scratch = unsafex.MakeNoZero(n), sb[:0]
	} else {
		out = unsafex.MakeNoZero(n + sigSize)
		scratch = out[n:n]
	}
	out = append(out, encHdr...)
	out = append(out, '.')
	out = b64.AppendEncode(out, payload)
	sig, err := key.Sign(scratch, out)
	if err != nil {
		return "", err
	}
	out = append(out, '.')
	out = b64.AppendEncode(out, sig)
	return unsafex.String(out), nil // out is never written again
}
