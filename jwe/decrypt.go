package jwe

import (
	"crypto/cipher"
	"crypto/rand"
	"crypto/rsa"
	"crypto/subtle"
	"fmt"
	"io"
	"strings"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/b64"
	"github.com/signet-go/signet/internal/clip"
	"github.com/signet-go/signet/internal/joseheader"
	"github.com/signet-go/signet/internal/jsonx"
	"github.com/signet-go/signet/internal/unsafex"
	"github.com/signet-go/signet/jwt"
)

// maxAux bounds the header's apu, apv and p2s, decoded.
const maxAux = 1024

// maxEK bounds the encrypted key: an RSA-16384 block (signet.MaxRSABits).
const maxEK = signet.MaxRSABits / 8

// Decrypt decrypts token and returns its claims as a T (what jwt.Verify
// returns: jwt.Claims, a struct embedding it, jwt.Map, …), checked against
// p exactly as jwt.Verify checks a JWS's. keys is a *signet.Key or a
// *signet.KeySet of JWE keys: the key, never the token, decides alg and
// enc, and a header naming others is refused.
//
// The order of work keeps hostile input cheap: the size limit, the five
// segments, the header (p2c bounded there), the key, the sizes of the iv,
// tag and encrypted key; only then cryptography, and the claims once the
// content has authenticated. A nested JWT (cty "JWT") is refused with
// signet.ErrUnsupported: read it with DecryptNested. A non-nil error means
// the token is rejected; it wraps one of signet's sentinel errors.
func Decrypt[T any](keys signet.Keys, token string, p Policy) (T, error) {
	var zero T
	pt, h, err := decrypt(keys, token, &p, false)
	if err != nil {
		return zero, err
	}
	if h.nested {
		return zero, fmt.Errorf("%w: nested JWT (cty JWT): use DecryptNested", signet.ErrUnsupported)
	}
	return jwt.ParseClaims[T](pt, p)
}

// DecryptNested reads a nested JWT (EncryptNested's): it decrypts token
// with keys, requires cty "JWT" (else signet.ErrType), then verifies the
// JWT inside with verifyKeys as jwt.Verify[T] does, with p. The JWE's own
// typ must be absent or "JWT"; p.Type applies to the inner JWT, p.MaxSize
// to both.
func DecryptNested[T any](keys, verifyKeys signet.Keys, token string, p Policy) (T, error) {
	var zero T
	outer := Policy{MaxSize: p.MaxSize}
	pt, h, err := decrypt(keys, token, &outer, false)
	if err != nil {
		return zero, err
	}
	if !h.nested {
		return zero, fmt.Errorf("%w: not a nested JWT (cty is not JWT)", signet.ErrType)
	}
	return jwt.Verify[T](verifyKeys, unsafex.String(pt), p) // pt, a fresh buffer, is not written again
}

// DecryptBytes decrypts a JWE whose plaintext need not be a JWT and
// returns the plaintext and header. Of p, only MaxSize and Type apply; no
// claims are read.
func DecryptBytes(keys signet.Keys, token string, p Policy) ([]byte, Header, error) {
	pt, h, err := decrypt(keys, token, &p, true)
	if err != nil {
		return nil, Header{}, err
	}
	return pt, h.hdr, nil
}

// decrypted is what decrypt learnt of the header.
type decrypted struct {
	nested bool   // cty is JWT
	hdr    Header // when asked for: copies, not views of the token
}

// decrypt checks and decrypts token; with wantHeader, the result carries the
// Header, with copies of the header's strings.
func decrypt(keys signet.Keys, token string, p *Policy, wantHeader bool) ([]byte, decrypted, error) {
	max := p.MaxSize
	switch {
	case max == 0:
		max = DefaultMaxSize
	case max < 0:
		return nil, decrypted{}, fmt.Errorf("%w: jwe policy: negative MaxSize", signet.ErrUnsupported)
	}
	if len(token) > max {
		return nil, decrypted{}, fmt.Errorf("%w: token is %d bytes, limit %d", signet.ErrTooLarge, len(token), max)
	}
	if keys == nil {
		return nil, decrypted{}, fmt.Errorf("%w: nil keys", signet.ErrKeyUsage)
	}
	if k, ok := keys.(*signet.Key); ok && p.Type == "" {
		if pt, ok, err := decryptOwn(k, token); ok {
			if err != nil {
				return nil, decrypted{}, err
			}
			var d decrypted
			if wantHeader {
				d.hdr = Header{Algorithm: signet.Dir, Encryption: k.Encryption(), KeyID: k.KeyID()}
			}
			return pt, d, nil
		}
	}
	return decryptAny(keys, token, p, wantHeader)
}

// decryptOwn is decrypt for the case that dominates, a dir key given alone
// and a token with the very header that key's Encrypt writes: what reading
// the header would give is known, and the key is the one candidate. The
// iv, ciphertext and tag are decoded into one new buffer and opened in
// place. With ok false the token is not of that shape (or not strict
// base64url), and decryptAny reads it and says what is wrong; with ok
// true, err is decrypt's answer.
func decryptOwn(k *signet.Key, token string) (pt []byte, ok bool, err error) {
	if !k.Algorithm().IsJWE() {
		return nil, false, nil
	}
	st := stateOf(k)
	if st.err != nil || st.km.kind != kindDir {
		return nil, false, nil
	}
	hdr, exact := st.staticHeaderOf(k.KeyID())
	c := st.ce
	h, ivEnc, tagEnc := len(hdr), b64.EncodedLen(c.ivSize), b64.EncodedLen(c.tagSize)
	// header "." (no encrypted key) "." iv "." ciphertext "." tag
	ctStart, ctEnd := h+3+ivEnc, len(token)-1-tagEnc
	if !exact || ctEnd < ctStart || token[:h] != unsafex.String(hdr) || token[h] != '.' || token[h+1] != '.' ||
		token[ctStart-1] != '.' || token[ctEnd] != '.' {
		return nil, false, nil
	}
	cts := token[ctStart:ctEnd]
	ctLen := b64.DecodedLen(len(cts))
	buf := unsafex.MakeNoZero(ctLen + c.tagSize + c.ivSize)[:ctLen+c.tagSize+c.ivSize]
	ct, tag, iv := buf[:ctLen], buf[ctLen:ctLen+c.tagSize], buf[ctLen+c.tagSize:]
	// A '.' in the ciphertext (a sixth segment) is not base64url either.
	if b64.EncodedLen(ctLen) != len(cts) || !decodeInto(ct, cts) || !decodeInto(tag, token[ctEnd+1:]) || !decodeInto(iv, token[h+2:ctStart-1]) {
		return nil, false, nil
	}
	pt, err = st.dir.open(ct, iv, tag, unsafex.Bytes(token[:h])) // the AAD is only read
	return pt, true, err
}

// decodeInto decodes strict base64url s into exactly dst.
func decodeInto(dst []byte, s string) bool {
	n, err := b64.Decode(dst, s)
	return err == nil && n == len(dst)
}

// decryptAny is decrypt for any keys and token.
func decryptAny(keys signet.Keys, token string, p *Policy, wantHeader bool) ([]byte, decrypted, error) {
	var seg [5]string
	rest := token
	for i := range 4 {
		j := strings.IndexByte(rest, '.')
		if j < 0 {
			return nil, decrypted{}, fmt.Errorf("%w: want 5 segments", signet.ErrMalformed)
		}
		seg[i], rest = rest[:j], rest[j+1:]
	}
	if strings.IndexByte(rest, '.') >= 0 {
		return nil, decrypted{}, fmt.Errorf("%w: want 5 segments (the JSON serialization is not supported)", signet.ErrMalformed)
	}
	seg[4] = rest
	hs, eks, ivs, cts, tags := seg[0], seg[1], seg[2], seg[3], seg[4]
	if hs == "" || ivs == "" || tags == "" {
		return nil, decrypted{}, fmt.Errorf("%w: empty header, iv or tag", signet.ErrMalformed)
	}

	var h header
	var hbuf [512]byte
	if k, ok := keys.(*signet.Key); ok && isOwnHeader(k, hs) {
		// Byte for byte the header this key's Encrypt writes: what
		// parsing it would give is known.
		h = header{alg: string(k.Algorithm()), enc: string(k.Encryption()), kid: k.KeyID()}
	} else {
		hb, err := b64.DecodeInto(hbuf[:0], hs)
		if err != nil {
			return nil, decrypted{}, fmt.Errorf("%w: header is not strict base64url", signet.ErrMalformed)
		}
		if h, err = parseHeader(unsafex.String(hb)); err != nil { // hb is not written again
			return nil, decrypted{}, err
		}
	}
	if err := joseheader.CheckType(p.Type, h.typ); err != nil {
		return nil, decrypted{}, err
	}
	m := kmOfName(h.alg)
	if m == nil {
		if h.alg == "RSA1_5" {
			return nil, decrypted{}, fmt.Errorf("%w: alg RSA1_5: RSAES-PKCS1-v1_5 decryption is a padding oracle (Bleichenbacher); it is never accepted", signet.ErrUnsupported)
		}
		return nil, decrypted{}, fmt.Errorf("%w: %q is not a JWE key-management algorithm", signet.ErrAlgorithmMismatch, clip.String(h.alg))
	}
	c := ceOfName(h.enc)
	if c == nil {
		return nil, decrypted{}, fmt.Errorf("%w: enc %q", signet.ErrUnsupported, clip.String(h.enc))
	}
	cands, err := joseheader.SelectKeys(keys, h.kid, m.alg)
	if err != nil {
		return nil, decrypted{}, err
	}
	if err := cands.Check(m.alg); err != nil {
		return nil, decrypted{}, err
	}
	if m.kind == kindPBES2 && cands.Len() > 1 {
		// Each password tried costs the token's p2c PBKDF2 iterations:
		// one forged token must not cost several times that.
		return nil, decrypted{}, fmt.Errorf("%w: a PBES2 token must name its key (kid) when %d passwords could open it", signet.ErrKeyNotFound, cands.Len())
	}

	// Every size is checked before any cryptography.
	if b64.DecodedLen(len(ivs)) != c.ivSize || b64.EncodedLen(c.ivSize) != len(ivs) {
		return nil, decrypted{}, fmt.Errorf("%w: %s iv must be %d bytes", signet.ErrMalformed, c.enc, c.ivSize)
	}
	if b64.DecodedLen(len(tags)) != c.tagSize || b64.EncodedLen(c.tagSize) != len(tags) {
		return nil, decrypted{}, fmt.Errorf("%w: %s tag must be %d bytes", signet.ErrMalformed, c.enc, c.tagSize)
	}
	if (m.kind == kindDir || m.kind == kindECDH) != (eks == "") {
		return nil, decrypted{}, fmt.Errorf("%w: %s takes an encrypted key only when it wraps one", signet.ErrMalformed, m.alg)
	}
	var ek []byte
	if eks != "" {
		if ek, err = decodeB64(eks, "encrypted key", maxEK); err != nil {
			return nil, decrypted{}, err
		}
	}
	ctLen := b64.DecodedLen(len(cts))
	if c.cbc && (ctLen == 0 || ctLen%16 != 0) {
		return nil, decrypted{}, fmt.Errorf("%w: %s ciphertext is %d bytes, not a positive multiple of 16", signet.ErrMalformed, c.enc, ctLen)
	}
	buf := unsafex.MakeNoZero(ctLen + c.tagSize + c.ivSize)[:ctLen+c.tagSize+c.ivSize]
	if _, err := b64.Decode(buf[:ctLen], cts); err != nil {
		return nil, decrypted{}, fmt.Errorf("%w: ciphertext is not strict base64url", signet.ErrMalformed)
	}
	if _, err := b64.Decode(buf[ctLen:ctLen+c.tagSize], tags); err != nil {
		return nil, decrypted{}, fmt.Errorf("%w: tag is not strict base64url", signet.ErrMalformed)
	}
	if _, err := b64.Decode(buf[ctLen+c.tagSize:], ivs); err != nil {
		return nil, decrypted{}, fmt.Errorf("%w: iv is not strict base64url", signet.ErrMalformed)
	}
	ct, tag, iv := buf[:ctLen], buf[ctLen:ctLen+c.tagSize], buf[ctLen+c.tagSize:]
	aad := unsafex.Bytes(hs) // only read, by the content cipher

	var orig []byte // the ciphertext and tag, kept while other keys may need them
	err = nil
	for n := range cands.Len() {
		k := cands.At(n)
		if k.Algorithm() != m.alg {
			// A Keys implementation offered a key of another algorithm.
			return nil, decrypted{}, fmt.Errorf("%w: key for %s offered for %s", signet.ErrAlgorithmMismatch, k.Algorithm(), m.alg)
		}
		if k.Encryption() != c.enc {
			err = fmt.Errorf("%w: enc %s, the key is for %s", signet.ErrAlgorithmMismatch, c.enc, k.Encryption())
			continue
		}
		if !k.CanSign() {
			err = fmt.Errorf("%w: a public %s key cannot decrypt", signet.ErrKeyUsage, m.alg)
			continue
		}
		if n+1 < cands.Len() {
			if orig == nil {
				orig = append([]byte(nil), buf[:ctLen+c.tagSize]...)
			} else {
				copy(buf, orig)
			}
		} else if orig != nil {
			copy(buf, orig)
		}
		st := stateOf(k)
		if st.err != nil {
			err = st.err
			continue
		}
		var ck *contentKey
		if ck, err = st.unwrap(&h, ek); err != nil {
			if isFatal(err) {
				return nil, decrypted{}, err
			}
			continue
		}
		var pt []byte
		if pt, err = ck.open(ct, iv, tag, aad); err == nil {
			d := decrypted{nested: joseheader.SameType(h.cty, "JWT")}
			if wantHeader {
				d.hdr = Header{Algorithm: m.alg, Encryption: c.enc, KeyID: strings.Clone(h.kid), Type: jsonx.Intern(h.typ), ContentType: jsonx.Intern(h.cty)}
			}
			return pt, d, nil
		}
	}
	return nil, decrypted{}, err
}

// isOwnHeader reports whether hs is the encoded static header key's
// Encrypt writes (dir, A*KW, RSA-OAEP-256 keys), with a key ID that
// parsing gives back unchanged.
func isOwnHeader(k *signet.Key, hs string) bool {
	if !k.Algorithm().IsJWE() {
		return false
	}
	st := stateOf(k)
	if st.err != nil || (st.km.kind != kindDir && st.km.kind != kindKW && st.km.kind != kindRSA) {
		return false
	}
	hdr, exact := st.staticHeaderOf(k.KeyID())
	return exact && hs == unsafex.String(hdr)
}

// isFatal reports whether err is about the token, not the key tried: no
// other candidate would do better.
func isFatal(err error) bool {
	if _, ok := err.(otherKey); ok {
		return false
	}
	return err != errDecrypt
}

// otherKey marks a refusal that says the token was made for a key of
// another RSA size or another curve than the candidate tried: a set in a
// key rotation (RSA-2048 and RSA-3072, P-256 and X25519, without key IDs)
// may hold the key it was made for, so the search goes on.
type otherKey struct{ error }

func (e otherKey) Unwrap() error { return e.error }

// unwrap returns the content-encryption key of a message for this key.
func (st *keyState) unwrap(h *header, ek []byte) (*contentKey, error) {
	c := st.ce
	switch st.km.kind {
	case kindDir:
		return st.dir, nil
	case kindKW:
		if len(ek) != c.cekSize+8 {
			return nil, fmt.Errorf("%w: %s encrypted key must be %d bytes", signet.ErrMalformed, st.km.alg, c.cekSize+8)
		}
		return st.unwrapKW(st.kek, ek)
	case kindGCMKW:
		var ivTag [28]byte
		if err := decodeExact(ivTag[:12], h.iv, "header iv"); err != nil {
			return nil, err
		}
		if err := decodeExact(ivTag[12:], h.tag, "header tag"); err != nil {
			return nil, err
		}
		if len(ek) != c.cekSize {
			return nil, fmt.Errorf("%w: %s encrypted key must be %d bytes", signet.ErrMalformed, st.km.alg, c.cekSize)
		}
		sealed := append(append(make([]byte, 0, len(ek)+16), ek...), ivTag[12:]...)
		cek, err := st.kekGCM.Open(sealed[:0], ivTag[:12], sealed, nil)
		if err != nil {
			return nil, errDecrypt
		}
		defer clear(cek)
		return newContentKey(c, cek)
	case kindECDH, kindECDHKW:
		epk, err := parseEPK(h.epk, st)
		if err != nil {
			return nil, err
		}
		z, err := st.ecPri.ECDH(epk)
		if err != nil {
			// X25519: a point of small order (the all-zero secret).
			return nil, fmt.Errorf("%w: epk: %v", signet.ErrWeakKey, err)
		}
		var apu, apv []byte
		if h.apu != "" {
			if apu, err = decodeB64(h.apu, "header apu", maxAux); err != nil {
				return nil, err
			}
		}
		if h.apv != "" {
			if apv, err = decodeB64(h.apv, "header apv", maxAux); err != nil {
				return nil, err
			}
		}
		if st.km.kind == kindECDH {
			var cek [64]byte
			defer clear(cek[:])
			return newContentKey(c, concatKDF(cek[:0], z, string(c.enc), apu, apv, c.cekSize))
		}
		if len(ek) != c.cekSize+8 {
			return nil, fmt.Errorf("%w: %s encrypted key must be %d bytes", signet.ErrMalformed, st.km.alg, c.cekSize+8)
		}
		var kb [32]byte
		kek, err := newAES(concatKDF(kb[:0], z, string(st.km.alg), apu, apv, st.km.kekSize))
		if err != nil {
			return nil, err
		}
		return st.unwrapKW(kek, ek)
	case kindRSA:
		if len(ek) != st.rsaPub.Size() {
			return nil, otherKey{fmt.Errorf("%w: %s encrypted key must be %d bytes", signet.ErrMalformed, st.km.alg, st.rsaPub.Size())}
		}
		// RFC 7516 §11.5: a failed decryption goes on with a random CEK,
		// so that it fails where a wrong tag does, and as fast. The random
		// CEK is drawn before decrypting, whatever the outcome, and the
		// decrypted one copied over it in constant time: the same work
		// either way (drawing only on failure gave a failure one more
		// crypto/rand read, ~45 ns, than a success).
		cek := make([]byte, c.cekSize)
		defer clear(cek)
		if _, err := io.ReadFull(rand.Reader, cek); err != nil {
			return nil, fmt.Errorf("jwe: CEK: %w", err)
		}
		dec, err := rsa.DecryptOAEP(st.km.hash.New(), nil, st.rsaPri, ek, nil)
		defer clear(dec)
		src, good := cek, 0
		if err == nil && len(dec) == len(cek) {
			src, good = dec, 1
		}
		subtle.ConstantTimeCopy(good, cek, src)
		return newContentKey(c, cek)
	default: // kindPBES2
		if !h.hasP2C || h.p2s == "" {
			return nil, fmt.Errorf("%w: %s needs p2s and p2c headers", signet.ErrMalformed, st.km.alg)
		}
		salt, err := decodeB64(h.p2s, "header p2s", maxAux)
		if err != nil {
			return nil, err
		}
		if len(salt) < 8 {
			return nil, fmt.Errorf("%w: p2s is %d bytes, at least 8 (RFC 7518 §4.8.1.1)", signet.ErrMalformed, len(salt))
		}
		if len(ek) != c.cekSize+8 {
			return nil, fmt.Errorf("%w: %s encrypted key must be %d bytes", signet.ErrMalformed, st.km.alg, c.cekSize+8)
		}
		kek, err := st.pbes2KEK(salt, int(h.p2c))
		if err != nil {
			return nil, err
		}
		return st.unwrapKW(kek, ek)
	}
}

// unwrapKW unwraps an AES-KW encrypted key (checked to be the CEK's size
// plus 8) into a content key.
func (st *keyState) unwrapKW(kek cipher.Block, ek []byte) (*contentKey, error) {
	cek, ok := kwUnwrap(make([]byte, 0, len(ek)-8), kek, ek)
	if !ok {
		return nil, errDecrypt
	}
	defer clear(cek)
	return newContentKey(st.ce, cek)
}
