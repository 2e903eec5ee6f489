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

// encrypt builds header.ek.iv.ciphertext.tag in one allocation: the raw
// iv, ciphertext and tag are made past the token's end, then encoded into
// place. For a dir key with a cached header that is the only allocation.
func encrypt(key *signet.Key, pt []byte, cty string, o *Options) (string, error) {
	st, err := encState(key)
	if err != nil {
		return "", err
	}
	return st.encrypt(key.KeyID(), pt, cty, o, rand.Reader)
}

// encrypt is encrypt with the key's state; rnd gives the CEK and the IVs
// (crypto/rand, or in tests the values of a published example).
func (st *keyState) encrypt(kid string, pt []byte, cty string, o *Options, rnd io.Reader) (string, error) {
	var err error
	var hb [512]byte
	var hdr []byte   // the encoded header, when cached
	var hjson []byte // else the header's JSON
	var ck *contentKey
	var ek []byte
	if st.km.kind == kindDir || st.km.kind == kindKW || st.km.kind == kindRSA {
		if cty == "" {
			hdr = st.staticHeader(kid)
		} else {
			hjson = append(appendHeaderStart(hb[:0], st, kid, cty), '}')
		}
		if st.km.kind == kindDir {
			ck = st.dir
		} else if ck, ek, _, err = st.wrapNew(nil, o, rnd); err != nil {
			return "", err
		}
	} else {
		var extra []byte
		if ck, ek, extra, err = st.wrapNew(hb[:0], o, rnd); err != nil {
			return "", err
		}
		hjson = append(appendHeaderStart(make([]byte, 0, 128+len(extra)), st, kid, cty), extra...)
		hjson = append(hjson, '}')
	}
	c := st.ce
	hlen := len(hdr)
	if hdr == nil {
		hlen = b64.EncodedLen(len(hjson))
	}
	ctLen := c.ctSize(len(pt))
	n := hlen + 1 + b64.EncodedLen(len(ek)) + 1 + b64.EncodedLen(c.ivSize) + 1 + b64.EncodedLen(ctLen) + 1 + b64.EncodedLen(c.tagSize)
	rawLen := c.ivSize + ctLen + c.tagSize
	out := unsafex.MakeNoZero(n + rawLen)
	raw := out[n : n+rawLen]
	if _, err := io.ReadFull(rnd, raw[:c.ivSize]); err != nil {
		return "", fmt.Errorf("jwe: iv: %w", err)
	}
	copy(raw[c.ivSize:], pt)
	if hdr != nil {
		out = append(out, hdr...)
	} else {
		out = b64.AppendEncode(out, hjson)
	}
	ct, tag := ck.seal(raw, len(pt), out[:hlen])
	out = append(out, '.')
	out = b64.AppendEncode(out, ek)
	out = append(out, '.')
	out = b64.AppendEncode(out, raw[:c.ivSize])
	out = append(out, '.')
	out = b64.AppendEncode(out, ct)
	out = append(out, '.')
	out = b64.AppendEncode(out, tag)
	return unsafex.String(out), nil // out is never written again
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
		return nil, fmt.Errorf("jwe: PBES2: %w", err)
	}
	return aes.NewCipher(k)
}

// pbes2Runs counts PBKDF2 derivations, for the tests that check that a
// hostile p2c is refused before any (a counter, not a hook: nothing can
// change what the package does).
var pbes2Runs atomic.Int64
