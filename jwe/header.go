package jwe

import (
	"crypto/ecdh"
	"fmt"
	"unicode/utf8"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/b64"
	"github.com/signet-go/signet/internal/clip"
	"github.com/signet-go/signet/internal/joseheader"
	"github.com/signet-go/signet/internal/jsonx"
)

// Header is the protected header of a decrypted JWE, reduced to the
// members signet acts on. Members that name keys or URLs (jku, x5u, jwk,
// x5c) are never trusted or fetched: the caller's keys decide.
type Header struct {
	Algorithm   signet.Algorithm  // alg: the decrypting key's
	Encryption  signet.Encryption // enc: the decrypting key's
	KeyID       string            // kid, "" when absent
	Type        string            // typ, "" when absent
	ContentType string            // cty, "" when absent ("JWT" for a nested JWT)
}

// header is a parsed protected header; its strings are views of the
// decoded header (a stack buffer) unless they had escapes.
type header struct {
	alg, enc, kid, typ, cty string
	epk                     string // the raw JSON object
	apu, apv, iv, tag, p2s  string // base64url, still encoded
	p2c                     int64
	hasP2C                  bool
}

// parseHeader reads a decoded protected header strictly: a JSON object
// without duplicate names (at any depth), alg and enc strings, kid, typ,
// cty, apu, apv, iv, tag and p2s strings, epk an object, p2c an integer
// in [MinPBES2Count, MaxPBES2Count]; zip and crit refused. The p2c bound
// is checked here, before a key is even chosen: a hostile count costs
// nothing.
func parseHeader(s string) (header, error) {
	var h header
	var hasAlg, hasEnc bool
	var err error
	m := jsonx.NewMembers(s)
	for err == nil && m.Next(s) {
		v := m.Value(s)
		switch name := m.Name(s); name {
		case "alg":
			h.alg, err = headerString(&m, s, "alg")
			hasAlg = true
		case "enc":
			h.enc, err = headerString(&m, s, "enc")
			hasEnc = true
		case "kid":
			h.kid, err = headerString(&m, s, "kid")
		case "typ":
			h.typ, err = headerString(&m, s, "typ")
		case "cty":
			h.cty, err = headerString(&m, s, "cty")
		case "apu":
			h.apu, err = headerString(&m, s, "apu")
		case "apv":
			h.apv, err = headerString(&m, s, "apv")
		case "iv":
			h.iv, err = headerString(&m, s, "iv")
		case "tag":
			h.tag, err = headerString(&m, s, "tag")
		case "p2s":
			h.p2s, err = headerString(&m, s, "p2s")
		case "p2c":
			h.p2c, err = p2cValue(v)
			h.hasP2C = true
		case "epk":
			if v[0] != '{' {
				err = fmt.Errorf("%w: header epk must be an object", signet.ErrMalformed)
			}
			h.epk = v
		case "zip":
			err = fmt.Errorf("%w: header zip: compressed plaintext is refused (decompression bombs; compression before encryption leaks the plaintext's content through its length)", signet.ErrUnsupported)
		case "crit":
			err = joseheader.CritError(v)
		}
	}
	if err == nil && m.Err() != nil {
		err = fmt.Errorf("%w: header: %v", signet.ErrMalformed, m.Err())
	}
	switch {
	case err != nil:
		return header{}, err
	case !hasAlg:
		return header{}, fmt.Errorf("%w: header has no alg", signet.ErrMalformed)
	case !hasEnc:
		return header{}, fmt.Errorf("%w: header has no enc (a JWS is not a JWE)", signet.ErrMalformed)
	}
	return h, nil
}

// headerString reads the current member as a string; name is constant.
func headerString(m *jsonx.Members, s, name string) (string, error) {
	v, ok := m.String(s)
	if !ok {
		return "", fmt.Errorf("%w: header %s must be a string", signet.ErrMalformed, name)
	}
	return v, nil
}

// p2cValue reads p2c: digits only (no sign, fraction or exponent), in
// [MinPBES2Count, MaxPBES2Count].
func p2cValue(v string) (int64, error) {
	var n int64
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c < '0' || c > '9' || (i == 0 && c == '0' && len(v) > 1) {
			return 0, fmt.Errorf("%w: header p2c must be a positive integer", signet.ErrMalformed)
		}
		if n > MaxPBES2Count {
			break // more digits only make it larger
		}
		n = n*10 + int64(c-'0')
	}
	switch {
	case n > MaxPBES2Count:
		return 0, fmt.Errorf("%w: p2c above MaxPBES2Count (%d): refused before any PBKDF2 work", signet.ErrTooLarge, MaxPBES2Count)
	case n < MinPBES2Count:
		return 0, fmt.Errorf("%w: p2c %d below MinPBES2Count (%d)", signet.ErrWeakKey, n, MinPBES2Count)
	}
	return n, nil
}

// appendHeaderStart writes {"alg":…,"enc":…[,"kid":…][,"cty":…] without
// the closing brace: the key-management members, then '}', follow.
func appendHeaderStart(b []byte, st *keyState, kid, cty string) []byte {
	b = append(b, `{"alg":"`...)
	b = append(b, st.km.alg...)
	b = append(b, `","enc":"`...)
	b = append(b, st.ce.enc...)
	b = append(b, '"')
	if kid != "" {
		b = append(b, `,"kid":`...)
		b = jsonx.AppendString(b, kid)
	}
	if cty != "" {
		b = append(b, `,"cty":`...)
		b = jsonx.AppendString(b, cty)
	}
	return b
}

// staticHeader returns the encoded header of a key whose header has no
// per-message member (dir, A*KW, RSA-OAEP-256), made once per key ID.
func (st *keyState) staticHeader(kid string) []byte {
	hdr, _ := st.staticHeaderOf(kid)
	return hdr
}

// staticHeaderOf is staticHeader; exact reports whether parsing the
// header gives kid back unchanged (it is valid UTF-8, which the JSON
// writer keeps as it is), so that a token carrying these very bytes can
// be read without parsing them.
func (st *keyState) staticHeaderOf(kid string) (hdr []byte, exact bool) {
	if e := st.hdr.Load(); e != nil && e.kid == kid {
		return e.b64, e.exact
	}
	var hb [256]byte
	e := &hdrEntry{kid: kid, b64: b64.AppendEncode(nil, append(appendHeaderStart(hb[:0], st, kid, ""), '}')), exact: utf8.ValidString(kid)}
	st.hdr.Store(e)
	return e.b64, e.exact
}

// appendEPK writes the ephemeral public key member (RFC 7518 §4.6.1.1):
// an EC JWK for P-256 and P-384, an OKP JWK for X25519 (RFC 8037).
func appendEPK(b []byte, crv string, pub *ecdh.PublicKey) []byte {
	p := pub.Bytes()
	if crv == "X25519" {
		b = append(b, `,"epk":{"kty":"OKP","crv":"X25519","x":"`...)
		b = b64.AppendEncode(b, p)
		return append(b, `"}`...)
	}
	n := (len(p) - 1) / 2
	b = append(b, `,"epk":{"kty":"EC","crv":"`...)
	b = append(b, crv...)
	b = append(b, `","x":"`...)
	b = b64.AppendEncode(b, p[1:1+n])
	b = append(b, `","y":"`...)
	b = b64.AppendEncode(b, p[1+n:])
	return append(b, `"}`...)
}

// parseEPK reads the header's epk for the key's curve: the same curve as
// the key (else ErrWeakKey), coordinates of the curve's exact size, a
// point on the curve (crypto/ecdh checks; else ErrWeakKey).
func parseEPK(raw string, st *keyState) (*ecdh.PublicKey, error) {
	if raw == "" {
		return nil, fmt.Errorf("%w: %s needs an epk header", signet.ErrMalformed, st.km.alg)
	}
	var kty, crv, x, y string
	var hasY bool
	var err error
	m := jsonx.NewMembers(raw)
	for err == nil && m.Next(raw) {
		switch m.Name(raw) {
		case "kty":
			kty, err = headerString(&m, raw, "epk kty")
		case "crv":
			crv, err = headerString(&m, raw, "epk crv")
		case "x":
			x, err = headerString(&m, raw, "epk x")
		case "y":
			y, err = headerString(&m, raw, "epk y")
			hasY = true
		}
	}
	if err != nil {
		return nil, err
	}
	if m.Err() != nil {
		return nil, fmt.Errorf("%w: epk: %v", signet.ErrMalformed, m.Err())
	}
	if crv != st.crv {
		return nil, otherKey{fmt.Errorf("%w: epk on curve %q, the key is on %s", signet.ErrWeakKey, clip.String(crv), st.crv)}
	}
	size := st.coordSize()
	var pt [1 + 2*48]byte
	if crv == "X25519" {
		if kty != "OKP" || hasY {
			return nil, fmt.Errorf("%w: X25519 epk must be an OKP key with x only", signet.ErrMalformed)
		}
		if err := decodeExact(pt[:size], x, "epk x"); err != nil {
			return nil, err
		}
		pub, err := ecdh.X25519().NewPublicKey(pt[:size])
		if err != nil {
			return nil, fmt.Errorf("%w: epk: %v", signet.ErrWeakKey, err)
		}
		return pub, nil
	}
	if kty != "EC" || !hasY {
		return nil, fmt.Errorf("%w: %s epk must be an EC key with x and y", signet.ErrMalformed, st.crv)
	}
	pt[0] = 4
	if err := decodeExact(pt[1:1+size], x, "epk x"); err != nil {
		return nil, err
	}
	if err := decodeExact(pt[1+size:1+2*size], y, "epk y"); err != nil {
		return nil, err
	}
	pub, err := st.ecPub.Curve().NewPublicKey(pt[:1+2*size])
	if err != nil {
		// Off the curve (the invalid-curve attack), or the identity.
		return nil, fmt.Errorf("%w: epk is not a point of %s: %v", signet.ErrWeakKey, st.crv, err)
	}
	return pub, nil
}

// decodeExact decodes strict base64url s into exactly len(dst) bytes.
func decodeExact(dst []byte, s, what string) error {
	if b64.DecodedLen(len(s)) != len(dst) || b64.EncodedLen(len(dst)) != len(s) {
		return fmt.Errorf("%w: %s must be %d bytes", signet.ErrMalformed, what, len(dst))
	}
	if n, err := b64.Decode(dst, s); err != nil || n != len(dst) {
		return fmt.Errorf("%w: %s is not strict base64url", signet.ErrMalformed, what)
	}
	return nil
}

// decodeB64 decodes strict base64url s into a new buffer of at most max
// bytes.
func decodeB64(s, what string, max int) ([]byte, error) {
	n := b64.DecodedLen(len(s))
	if n > max {
		return nil, fmt.Errorf("%w: %s is over %d bytes", signet.ErrMalformed, what, max)
	}
	out := make([]byte, n)
	if _, err := b64.Decode(out, s); err != nil {
		return nil, fmt.Errorf("%w: %s is not strict base64url", signet.ErrMalformed, what)
	}
	return out, nil
}
