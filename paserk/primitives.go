package paserk

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha512"
	"fmt"

	"golang.org/x/crypto/blake2b"
	"golang.org/x/crypto/chacha20"
)

// The primitives below take fixed-size keys and nonces, made by this
// package, so their constructors cannot fail; the errors they could return
// are checked anyway and turned into an empty result, never a panic.

// blake2bSum returns BLAKE2b with an output of size bytes, keyed with key
// (nil for the unkeyed hash), over the concatenation of parts.
func blake2bSum(size int, key []byte, parts ...[]byte) []byte {
	h, err := blake2b.New(size, key)
	if err != nil {
		return nil
	}
	for _, p := range parts {
		h.Write(p)
	}
	return h.Sum(nil)
}

// hmacSHA384 returns HMAC-SHA-384 keyed with key over the concatenation of
// parts.
func hmacSHA384(key []byte, parts ...[]byte) []byte {
	h := hmac.New(sha512.New384, key)
	for _, p := range parts {
		h.Write(p)
	}
	return h.Sum(nil)
}

// sha384 returns SHA-384 over the concatenation of parts.
func sha384(parts ...[]byte) []byte {
	h := sha512.New384()
	for _, p := range parts {
		h.Write(p)
	}
	return h.Sum(nil)
}

// xchacha20 returns src XORed with the XChaCha20 key stream of key (32
// bytes) and nonce (24 bytes).
func xchacha20(key, nonce, src []byte) []byte {
	c, err := chacha20.NewUnauthenticatedCipher(key, nonce)
	if err != nil {
		return nil
	}
	dst := make([]byte, len(src))
	c.XORKeyStream(dst, src)
	return dst
}

// aes256CTR returns src XORed with the AES-256-CTR key stream of key (32
// bytes) starting at counter block iv (16 bytes).
func aes256CTR(key, iv, src []byte) []byte {
	b, err := aes.NewCipher(key)
	if err != nil || len(iv) != aes.BlockSize {
		return nil
	}
	dst := make([]byte, len(src))
	cipher.NewCTR(b, iv).XORKeyStream(dst, src)
	return dst
}

// random returns n bytes from crypto/rand.
func random(n int) ([]byte, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("paserk: random: %w", err)
	}
	return b, nil
}
