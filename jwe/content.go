package jwe

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/subtle"
	"encoding/binary"
	"fmt"

	"github.com/signet-go/signet"
)

// contentKey is a content-encryption key (CEK) made ready for its
// content encryption: an AES-GCM AEAD, or for AES-CBC-HMAC (RFC 7518
// §5.2) the AES block of ENC_KEY and MAC_KEY.
type contentKey struct {
	c      *ce
	gcm    cipher.AEAD
	block  cipher.Block
	macKey []byte
}

func newContentKey(c *ce, cek []byte) (*contentKey, error) {
	if len(cek) != c.cekSize {
		return nil, fmt.Errorf("%w: %s needs a %d-byte key, got %d", signet.ErrMalformed, c.enc, c.cekSize, len(cek))
	}
	k := &contentKey{c: c}
	if !c.cbc {
		b, err := aes.NewCipher(cek)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", signet.ErrMalformed, c.enc, err)
		}
		// NewGCM: a 12-byte nonce and a 16-byte tag, the only ones JWE has.
		if k.gcm, err = cipher.NewGCM(b); err != nil {
			return nil, fmt.Errorf("%w: %s: %v", signet.ErrMalformed, c.enc, err)
		}
		return k, nil
	}
	half := c.cekSize / 2
	b, err := aes.NewCipher(cek[half:])
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", signet.ErrMalformed, c.enc, err)
	}
	k.block, k.macKey = b, append([]byte(nil), cek[:half]...)
	return k, nil
}

// maxTag is the largest tag of a content encryption (A256CBC-HS512's).
const maxTag = 32

// seal encrypts in place. buf is the plaintext (ptLen bytes) followed by
// room for the rest of the ciphertext and the tag, exactly; iv and aad lie
// outside buf. It returns the ciphertext and tag, within buf.
func (k *contentKey) seal(buf, iv []byte, ptLen int, aad []byte) (ct, tag []byte) {
	c := k.c
	if !c.cbc {
		out := k.gcm.Seal(buf[:0], iv, buf[:ptLen], aad)
		return out[:ptLen], out[ptLen:]
	}
	ctLen := c.ctSize(ptLen)
	ct = buf[:ctLen]
	pad := byte(ctLen - ptLen)
	for i := ptLen; i < ctLen; i++ {
		ct[i] = pad
	}
	cipher.NewCBCEncrypter(k.block, iv).CryptBlocks(ct, ct)
	tag = buf[ctLen:]
	k.mac(tag[:0], aad, iv, ct)
	return ct, tag
}

// mac appends the CBC-HS tag of aad, iv and ct (RFC 7518 §5.2.2.1).
func (k *contentKey) mac(dst, aad, iv, ct []byte) []byte {
	h := hmac.New(k.c.hash.New, k.macKey)
	h.Write(aad)
	h.Write(iv)
	h.Write(ct)
	var al [8]byte
	binary.BigEndian.PutUint64(al[:], uint64(len(aad))*8)
	h.Write(al[:])
	var sum [64]byte
	return append(dst, h.Sum(sum[:0])[:k.c.tagSize]...)
}

// errDecrypt is the one answer to a ciphertext, tag or wrapped key that
// does not authenticate: nothing says which part failed.
var errDecrypt = fmt.Errorf("%w: JWE does not decrypt with the key (wrong key, or altered token)", signet.ErrSignatureInvalid)

// open decrypts ct in place and returns the plaintext, a prefix of ct. For
// GCM, tag must follow ct in memory (ct[:len(ct)+len(tag)] is both). The
// iv and tag sizes were checked by the caller. For CBC-HS the tag is
// checked, in constant time, before anything looks at the padding.
func (k *contentKey) open(ct, iv, tag, aad []byte) ([]byte, error) {
	c := k.c
	if !c.cbc {
		pt, err := k.gcm.Open(ct[:0], iv, ct[:len(ct)+len(tag)], aad)
		if err != nil {
			return nil, errDecrypt
		}
		return pt, nil
	}
	if len(ct) == 0 || len(ct)%aes.BlockSize != 0 {
		return nil, fmt.Errorf("%w: %s ciphertext is %d bytes, not a positive multiple of 16", signet.ErrMalformed, c.enc, len(ct))
	}
	var want [32]byte
	if subtle.ConstantTimeCompare(k.mac(want[:0], aad, iv, ct), tag) != 1 {
		return nil, errDecrypt
	}
	cipher.NewCBCDecrypter(k.block, iv).CryptBlocks(ct, ct)
	// Authenticated: the padding is the sender's own (RFC 7518 §5.2.2.2).
	pad := int(ct[len(ct)-1])
	if pad == 0 || pad > aes.BlockSize {
		return nil, fmt.Errorf("%w: %s padding", signet.ErrMalformed, c.enc)
	}
	for _, b := range ct[len(ct)-pad:] {
		if int(b) != pad {
			return nil, fmt.Errorf("%w: %s padding", signet.ErrMalformed, c.enc)
		}
	}
	return ct[:len(ct)-pad], nil
}

// newAES is aes.NewCipher with a typed error.
func newAES(key []byte) (cipher.Block, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("%w: AES key: %v", signet.ErrMalformed, err)
	}
	return b, nil
}
