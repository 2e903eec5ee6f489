package jwe

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwt"
)

// FuzzDecryptOwn checks Decrypt's fast path (decryptOwn: a dir key given
// alone, a token carrying that key's own header) against the general path
// (decryptAny) with the same key: for any token, both decrypt to the same
// plaintext and header, or both refuse it with the same sentinel.
func FuzzDecryptOwn(f *testing.F) {
	var keys []*signet.Key
	for _, c := range []struct {
		enc signet.Encryption
		kid string
	}{{signet.A256GCM, "k1"}, {signet.A128CBCHS256, ""}, {signet.A128GCM, "ключ"}, {signet.A256CBCHS512, "k\"2"}} {
		secret := make([]byte, c.enc.KeySize())
		for i := range secret {
			secret[i] = byte(i*7 + 1)
		}
		k, err := signet.NewEncryptionKeyWithID(signet.Dir, c.enc, c.kid, secret)
		if err != nil {
			f.Fatal(err)
		}
		keys = append(keys, k)
		for _, pt := range []string{"", "x", "fuzz", strings.Repeat("y", 100)} {
			tok, err := EncryptBytes(k, []byte(pt), "")
			if err != nil {
				f.Fatal(err)
			}
			f.Add(tok)
			f.Add(tok + ".")
			f.Add(tok[:len(tok)-1])
		}
		tok, _ := Encrypt(k, jwt.Claims{Subject: "fuzz"}, Options{Now: func() time.Time { return time.Unix(1_800_000_000, 0) }})
		f.Add(tok)
	}
	sentinels := []error{signet.ErrMalformed, signet.ErrTooLarge, signet.ErrSignatureInvalid, signet.ErrAlgorithmMismatch,
		signet.ErrKeyNotFound, signet.ErrUnsupported, signet.ErrWeakKey, signet.ErrKeyUsage, signet.ErrType}
	sentinelOf := func(err error) error {
		for _, s := range sentinels {
			if errors.Is(err, s) {
				return s
			}
		}
		return nil
	}
	f.Fuzz(func(t *testing.T, tok string) {
		p := Policy{MaxSize: 4096}
		if len(tok) > p.MaxSize {
			return // refused by decrypt before either path
		}
		for i, k := range keys {
			pt1, d1, err1 := decrypt(k, tok, &p, true)
			pt2, d2, err2 := decryptAny(k, tok, &p, true)
			if (err1 == nil) != (err2 == nil) {
				t.Fatalf("key %d: fast %v, general %v", i, err1, err2)
			}
			if err1 != nil {
				if s1, s2 := sentinelOf(err1), sentinelOf(err2); s1 == nil || s1 != s2 {
					t.Fatalf("key %d: fast %v, general %v", i, err1, err2)
				}
				continue
			}
			if string(pt1) != string(pt2) || d1 != d2 {
				t.Fatalf("key %d: fast %q %+v, general %q %+v", i, pt1, d1, pt2, d2)
			}
		}
	})
}
