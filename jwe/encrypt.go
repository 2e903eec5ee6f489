package jwe

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/rsa"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/b64"
	"github.com/signet-go/signet/internal/itoa"
	"github.com/signet-go/signet/internal/unsafex"
	"github.com/signet-go/signet/jwt"
)

// Encrypt returns a JWE (compact serialization) whose plaintext is the JWT
// claims set claims, encrypted with the key's algorithm and content
// encryption: header {"alg":…,"enc":…,"kid":…}. claims is what jwt.Sign
// takes (jwt.Claims, a struct embedding it, jwt.Map, …), written as
// jwt.Sign writes it, with the same issuing defaults (iat = now, exp = now
// + Lifetime unless Options.NoExpiry) and refusals.
//
// A public key (ECDH-ES, RSA-OAEP-256) is enough to encrypt. A key for
// RSA-OAEP (SHA-1) is refused with signet.ErrKeyUsage: it is there to read
// what others send.
func Encrypt[T any](key *signet.Key, claims T, opts ...Options) (string, error) {
	o, err := options(opts)
	if err != nil {
		return "", err
	}
	var scratch [512]byte
	payload, err := jwt.AppendClaims(scratch[:0], claims, o.jwt())
	if err != nil {
		return "", err
	}
	return encrypt(key, payload, "", &o)
}

// EncryptNested signs claims with signKey as jwt.Sign does, then encrypts
// the JWT with encKey, cty "JWT" (RFC 7519 §5.2): a nested JWT, signed
// then encrypted. Read it with DecryptNested.
func EncryptNested[T any](encKey, signKey *signet.Key, claims T, opts ...Options) (string, error) {
	o, err := options(opts)
	if err != nil {
		return "", err
	}
	inner, err := jwt.Sign(signKey, claims, o.jwt())
	if err != nil {
		return "", err
	}
	return encrypt(encKey, unsafex.Bytes(inner), "JWT", &o)
}

// EncryptBytes returns a JWE over an arbitrary plaintext, with the header
// {"alg":…,"enc":…,"kid":…,"cty":cty}; kid and cty are left out when
// empty. Of opts, only PBES2Count applies. Use Encrypt for JWTs.
func EncryptBytes(key *signet.Key, plaintext []byte, cty string, opts ...Options) (string, error) {
	o, err := options(opts)
	if err != nil {
		return "", err
	}
	return encrypt(key, plaintext, cty, &o)
}

// encState returns the state of a key that may encrypt.
func encState(key *signet.Key) (*keyState, error) {
	if key == nil || key.Algorithm() == "" {
		return nil, fmt.Errorf("%w: a nil or zero Key", signet.ErrKeyUsage)
	}
	if !key.Algorithm().IsJWE() {
		return nil, fmt.Errorf("%w: %s is not a JWE key-management algorithm (make JWE keys with signet.NewEncryptionKey)", signet.ErrAlgorithmMismatch, key.Algorithm())
	}
	if key.Algorithm() == signet.RSAOAEP {
		return nil, fmt.Errorf("%w: RSA-OAEP (SHA-1) keys only decrypt; encrypt with RSA-OAEP-256", signet.ErrKeyUsage)
	}
	st := stateOf(key)
	if st.err != nil {
		return nil, st.err
	}
	return st, nil
}

// encrypt returns the JWE of pt under key, built in one allocation (see
// assemble).
func encrypt(key *signet.Key, pt []byte, cty string, o *Options) (string, error) {
	st, err := encState(key)
	if err != nil {
		return "", err
	}
	return st.encrypt(key.KeyID(), pt, cty, o, rand.Reader)
}

// encrypt is encrypt with the key's state; rnd gives the CEK and the IVs
// (crypto/rand, or in tests the values of a published example). A key
// whose header has no per-message member (dir, A*KW, RSA-OAEP-256) writes
// its encoded header, made once per key ID and kept with the key, when
// there is no cty; the others write theirs per message.
func (st *keyState) encrypt(kid string, pt []byte, cty string, o *Options, rnd io.Reader) (string, error) {
	static := st.km.kind == kindDir || st.km.kind == kindKW || st.km.kind == kindRSA
	if static && cty == "" {
		if st.km.kind == kindDir {
			return assemble(st.dir, st.staticHeader(kid), nil, nil, pt, rnd)
		}
		ck, ek, _, err := st.wrapNew(nil, o, rnd)
		if err != nil {
			return "", err
		}
		return assemble(ck, st.staticHeader(kid), nil, ek, pt, rnd)
	}
	return st.encryptHeader(kid, pt, cty, o, rnd)
}

// encryptHeader is encrypt for a header written per message: with a cty,
// or with the members of the message's key management (epk, iv and tag,
// p2s and p2c).
func (st *keyState) encryptHeader(kid string, pt []byte, cty string, o *Options, rnd io.Reader) (string, error) {
	var hb [512]byte
	ck, ek, extra, err := st.dirOrWrap(hb[:0], o, rnd)
	if err != nil {
		return "", err
	}
	hjson := append(appendHeaderStart(make([]byte, 0, 128+len(extra)), st, kid, cty), extra...)
	hjson = append(hjson, '}')
	return assemble(ck, nil, hjson, ek, pt, rnd)
}

// dirOrWrap is wrapNew, or for a dir key its own content key.
func (st *keyState) dirOrWrap(extra []byte, o *Options, rnd io.Reader) (*contentKey, []byte, []byte, error) {
	if st.km.kind == kindDir {
		return st.dir, nil, extra, nil
	}
	return st.wrapNew(extra, o, rnd)
}

// inPlaceGap is how far, at least, b64.AppendEncode's writes stay behind
// its reads when assemble encodes the ciphertext forward within the token
// itself: more than the 16 bytes it writes per step (paseto's rule).
const inPlaceGap = 32

// assemble writes header.ek.iv.ciphertext.tag in one allocation and returns
// it. The header is hdr, already encoded, or else hjson, encoded here; it
// is also the AAD. The plaintext is copied into the token's own buffer, at
// the place from which its ciphertext, sealed in place, can be encoded
// forward into its segment with the encoding's end always inPlaceGap bytes
// or more before the next byte it reads; the iv is drawn from rnd just
// before it, and the tag is encoded from a copy. The buffer is at most
// inPlaceGap+tag bytes longer than the token.
func assemble(ck *contentKey, hdr, hjson, ek, pt []byte, rnd io.Reader) (string, error) {
	c := ck.c
	hlen := len(hdr)
	if hdr == nil {
		hlen = b64.EncodedLen(len(hjson))
	}
	ctLen := c.ctSize(len(pt))
	ctEnc := b64.EncodedLen(ctLen)
	ctAt := hlen + 1 + b64.EncodedLen(len(ek)) + 1 + b64.EncodedLen(c.ivSize) + 1 // the ciphertext's segment
	n := ctAt + ctEnc + 1 + b64.EncodedLen(c.tagSize)
	at := ctAt + ctEnc - ctLen + inPlaceGap // the raw ciphertext; the raw iv just before it
	size := max(n, at+ctLen+c.tagSize)
	out := unsafex.MakeNoZero(size)[:size]
	iv := out[at-c.ivSize : at]
	if _, err := io.ReadFull(rnd, iv); err != nil {
		return "", fmt.Errorf("jwe: iv: %w", err)
	}
	copy(out[at:], pt)
	w := out[:0]
	if hdr != nil {
		w = append(w, hdr...)
	} else {
		w = b64.AppendEncode(w, hjson)
	}
	ct, tag := ck.seal(out[at:at+ctLen+c.tagSize], iv, len(pt), w)
	var tb [maxTag]byte
	copy(tb[:], tag)
	w = append(w, '.')
	w = b64.AppendEncode(w, ek)
	w = append(w, '.')
	w = b64.AppendEncode(w, iv) // iv lies past ctAt: not written yet
	w = append(w, '.')
	w = b64.AppendEncode(w, ct) // forward, in place
	w = append(w, '.')
	w = b64.AppendEncode(w, tb[:c.tagSize])
	return unsafex.String(w), nil // w is never written again
}

// wrapNew makes the content-encryption key of one message for a key that
// does not use its own (all but dir): a random CEK wrapped for the
// recipient (ek), or for ECDH-ES the agreed one. The header members it
// needs (epk, iv and tag, p2s and p2c) are appended to extra.
func (st *keyState) wrapNew(extra []byte, o *Options, rnd io.Reader) (ck *contentKey, ek, _ []byte, err error) {
	c := st.ce
	cek := make([]byte, c.cekSize)
	defer clear(cek)
	if st.km.kind != kindECDH {
		if _, err := io.ReadFull(rnd, cek); err != nil {
			return nil, nil, nil, fmt.Errorf("jwe: CEK: %w", err)
		}
	}
	switch st.km.kind {
	case kindKW:
		ek = kwWrap(make([]byte, 0, len(cek)+8), st.kek, cek)
	case kindGCMKW:
		iv := make([]byte, 12, 12+len(cek)+16)
		if _, err := io.ReadFull(rnd, iv); err != nil {
			return nil, nil, nil, fmt.Errorf("jwe: iv: %w", err)
		}
		sealed := st.kekGCM.Seal(iv[12:], iv, cek, nil)
		ek = sealed[:len(cek)]
		extra = append(extra, `,"iv":"`...)
		extra = b64.AppendEncode(extra, iv)
		extra = append(extra, `","tag":"`...)
		extra = b64.AppendEncode(extra, sealed[len(cek):])
		extra = append(extra, '"')
	case kindECDH, kindECDHKW:
		eph, err := st.ecPub.Curve().GenerateKey(rnd)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("jwe: ECDH-ES ephemeral key: %w", err)
		}
		z, err := eph.ECDH(st.ecPub)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%w: ECDH-ES: %v", signet.ErrWeakKey, err)
		}
		extra = appendEPK(extra, st.crv, eph.PublicKey())
		if st.km.kind == kindECDH {
			concatKDF(cek[:0], z, string(c.enc), nil, nil, c.cekSize)
			break
		}
		var kb [32]byte
		kek, err := aes.NewCipher(concatKDF(kb[:0], z, string(st.km.alg), nil, nil, st.km.kekSize))
		if err != nil {
			return nil, nil, nil, err
		}
		ek = kwWrap(make([]byte, 0, len(cek)+8), kek, cek)
	case kindRSA:
		ek, err = rsa.EncryptOAEP(st.km.hash.New(), rnd, st.rsaPub, cek, nil)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("jwe: %s: %w", st.km.alg, err)
		}
	case kindPBES2:
		var salt [16]byte
		if _, err := io.ReadFull(rnd, salt[:]); err != nil {
			return nil, nil, nil, fmt.Errorf("jwe: p2s: %w", err)
		}
		count := o.pbes2Count()
		kek, err := st.pbes2KEK(salt[:], count)
		if err != nil {
			return nil, nil, nil, err
		}
		ek = kwWrap(make([]byte, 0, len(cek)+8), kek, cek)
		extra = append(extra, `,"p2s":"`...)
		extra = b64.AppendEncode(extra, salt[:])
		extra = append(extra, `","p2c":`...)
		extra = itoa.Append(extra, int64(count))
	}
	ck, err = newContentKey(c, cek)
	return ck, ek, extra, err
}

// pbes2KEK derives the key-wrapping key from the key's password (RFC 7518
// §4.8.1.1: the salt is the alg name, a zero byte, then p2s).
func (st *keyState) pbes2KEK(p2s []byte, count int) (cipher.Block, error) {
	pbes2Runs.Add(1)
	salt := make([]byte, 0, len(st.km.alg)+1+len(p2s))
	salt = append(append(append(salt, st.km.alg...), 0), p2s...)
	k, err := pbkdf2.Key(st.km.hash.New, string(st.password), salt, count, st.km.kekSize)
	if err != nil {
		// Only a FIPS 140-only mode refuses PBKDF2 with these parameters.
		return nil, fmt.Errorf("%w: jwe: PBES2 key derivation: %w", signet.ErrUnsupported, err)
	}
	defer clear(k) // the cipher keeps its own schedule
	return aes.NewCipher(k)
}

// pbes2Runs counts PBKDF2 derivations, for the tests that check that a
// hostile p2c is refused before any (a counter, not a hook: nothing can
// change what the package does).
var pbes2Runs atomic.Int64
