package jwe_test

import (
	"bytes"
	"crypto/ecdh"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/tokentest"
	"github.com/signet-go/signet/jwe"
	"github.com/signet-go/signet/jwt"
)

var enc64 = base64.RawURLEncoding.EncodeToString

// forge builds a token from a header and segments of the given sizes
// (zeros): for attacks refused before any cryptography.
func forge(header string, ek []byte, ivLen, ctLen, tagLen int) string {
	return enc64([]byte(header)) + "." + enc64(ek) + "." + enc64(make([]byte, ivLen)) + "." + enc64(make([]byte, ctLen)) + "." + enc64(make([]byte, tagLen))
}

// oaep is an RSA-OAEP-256 block of a random key of n bytes for k.
func oaep(k *rsa.PrivateKey, n int) []byte {
	b, err := rsa.EncryptOAEP(sha256.New(), rand.Reader, &k.PublicKey, make([]byte, n), nil)
	if err != nil {
		panic(err)
	}
	return b
}

// segments splits a token and joins it back after f changed a segment.
func withSegment(tok string, i int, f func(string) string) string {
	s := strings.Split(tok, ".")
	s[i] = f(s[i])
	return strings.Join(s, ".")
}

// flipBit decodes a segment, flips bit n, and encodes it again.
func flipBit(seg string, n int) string {
	b, err := base64.RawURLEncoding.DecodeString(seg)
	if err != nil {
		panic(err)
	}
	b[n/8] ^= 1 << (n % 8)
	return enc64(b)
}

// TestAttacks is the JWE attack table: each hostile input and the exact
// sentinel error it meets. None reaches a decryption that could succeed.
func TestAttacks(t *testing.T) {
	dir := mustEncKey(t, signet.Dir, signet.A256GCM, secretOf(32))
	dirCBC := mustEncKey(t, signet.Dir, signet.A128CBCHS256, secretOf(32))
	kw := mustEncKey(t, signet.A128KW, signet.A128GCM, secretOf(16))
	gcmkw := mustEncKey(t, signet.A256GCMKW, signet.A256GCM, secretOf(32))
	p256, _ := ecdh.P256().GenerateKey(rand.Reader)
	ec := mustEncKey(t, signet.ECDHES, signet.A256GCM, p256)
	x, _ := ecdh.X25519().GenerateKey(rand.Reader)
	ecx := mustEncKey(t, signet.ECDHESA256KW, signet.A256GCM, x)
	pbes2 := mustEncKey(t, signet.PBES2HS256A128KW, signet.A128GCM, []byte("correct horse battery staple"))
	pbes2b := mustEncKey(t, signet.PBES2HS256A128KW, signet.A128GCM, []byte("another horse battery staple"))
	twoPasswords, err := signet.NewKeySet(pbes2, pbes2b)
	if err != nil {
		t.Fatal(err)
	}
	rsaOAEP := mustEncKey(t, signet.RSAOAEP256, signet.A128GCM, rsaKey())
	rsaPub, _ := rsaOAEP.Public()

	tok, err := jwe.EncryptBytes(dir, []byte("hello"), "")
	if err != nil {
		t.Fatal(err)
	}
	cbcTok, _ := jwe.EncryptBytes(dirCBC, []byte("hello"), "")
	kwTok, _ := jwe.EncryptBytes(kw, []byte("hello"), "")
	ecTok, _ := jwe.EncryptBytes(ec, []byte("hello"), "")
	rsaTok, _ := jwe.EncryptBytes(rsaOAEP, []byte("hello"), "")

	// A point of P-256 moved off the curve (the invalid-curve attack: such
	// points lie on a weak curve, and each answer would leak the key's
	// scalar modulo a small order).
	pub := p256.PublicKey().Bytes()
	x256, y256 := enc64(pub[1:33]), pub[33:]
	yOff := append([]byte(nil), y256...)
	yOff[31] ^= 1
	p384, _ := ecdh.P384().GenerateKey(rand.Reader)
	q := p384.PublicKey().Bytes()
	epk := func(kty, crv, x, y string) string {
		s := `{"alg":"ECDH-ES","enc":"A256GCM","epk":{"kty":"` + kty + `","crv":"` + crv + `","x":"` + x + `"`
		if y != "" {
			s += `,"y":"` + y + `"`
		}
		return s + `}}`
	}
	gcm := func(h string) string { return forge(h, nil, 12, 5, 16) }
	pb := func(p2c string) string {
		return forge(`{"alg":"PBES2-HS256+A128KW","enc":"A128GCM","p2s":"`+enc64(make([]byte, 16))+`","p2c":`+p2c+`}`, make([]byte, 24), 12, 5, 16)
	}

	for _, c := range []struct {
		name string
		keys signet.Keys
		tok  string
		want error
	}{
		// Key agreement.
		{"epk off the curve", ec, gcm(epk("EC", "P-256", x256, enc64(yOff))), signet.ErrWeakKey},
		{"epk on another curve (P-384 for a P-256 key)", ec, gcm(epk("EC", "P-384", enc64(q[1:49]), enc64(q[49:]))), signet.ErrWeakKey},
		{"epk on another curve (X25519 for a P-256 key)", ec, gcm(epk("OKP", "X25519", enc64(make([]byte, 32)), "")), signet.ErrWeakKey},
		{"epk of small order (X25519 zero point)", ecx, forge(`{"alg":"ECDH-ES+A256KW","enc":"A256GCM","epk":{"kty":"OKP","crv":"X25519","x":"`+enc64(make([]byte, 32))+`"}}`, make([]byte, 40), 12, 5, 16), signet.ErrWeakKey},
		{"epk with a short coordinate", ec, gcm(epk("EC", "P-256", x256, enc64(y256[1:]))), signet.ErrMalformed},
		{"epk kty not EC", ec, gcm(epk("OKP", "P-256", x256, enc64(y256))), signet.ErrMalformed},
		{"epk missing", ec, gcm(`{"alg":"ECDH-ES","enc":"A256GCM"}`), signet.ErrMalformed},
		{"epk not an object", ec, gcm(`{"alg":"ECDH-ES","enc":"A256GCM","epk":"x"}`), signet.ErrMalformed},
		{"ECDH-ES with an encrypted key", ec, withSegment(ecTok, 1, func(string) string { return "AAAA" }), signet.ErrMalformed},

		// PBES2: the count is refused when the header is read.
		{"p2c of 10^9", pbes2, pb("1000000000"), signet.ErrTooLarge},
		{"p2c of 10^30", pbes2, pb("1000000000000000000000000000000"), signet.ErrTooLarge},
		{"p2c one above the cap", pbes2, pb("600001"), signet.ErrTooLarge},
		{"p2c below 1000", pbes2, pb("999"), signet.ErrWeakKey},
		{"p2c negative", pbes2, pb("-5000"), signet.ErrMalformed},
		{"p2c with an exponent", pbes2, pb("1e9"), signet.ErrMalformed},
		{"p2c with a fraction", pbes2, pb("2000.5"), signet.ErrMalformed},
		{"p2c a string", pbes2, pb(`"2000"`), signet.ErrMalformed},
		{"p2s shorter than 8 bytes", pbes2, forge(`{"alg":"PBES2-HS256+A128KW","enc":"A128GCM","p2s":"AAAA","p2c":1000}`, make([]byte, 24), 12, 5, 16), signet.ErrMalformed},
		{"no kid, two passwords that could open it", twoPasswords, pb("600000"), signet.ErrKeyNotFound},
		{"p2s missing", pbes2, forge(`{"alg":"PBES2-HS256+A128KW","enc":"A128GCM","p2c":1000}`, make([]byte, 24), 12, 5, 16), signet.ErrMalformed},

		// Refused header features.
		{"zip DEF", dir, jwe.SealDir(dir, `{"alg":"dir","enc":"A256GCM","zip":"DEF"}`, "", []byte("x")), signet.ErrUnsupported},
		{"crit unknown", dir, jwe.SealDir(dir, `{"alg":"dir","enc":"A256GCM","crit":["exp"],"exp":1}`, "", []byte("x")), signet.ErrUnsupported},
		{"crit empty", dir, jwe.SealDir(dir, `{"alg":"dir","enc":"A256GCM","crit":[]}`, "", []byte("x")), signet.ErrMalformed},
		{"crit not an array", dir, jwe.SealDir(dir, `{"alg":"dir","enc":"A256GCM","crit":"b64"}`, "", []byte("x")), signet.ErrMalformed},
		{"RSA1_5", rsaOAEP, forge(`{"alg":"RSA1_5","enc":"A128CBC-HS256"}`, make([]byte, 256), 16, 16, 16), signet.ErrUnsupported},
		{"duplicate alg", dir, jwe.SealDir(dir, `{"alg":"dir","enc":"A256GCM","alg":"dir"}`, "", []byte("x")), signet.ErrMalformed},
		{"no enc (a JWS header)", dir, gcm(`{"alg":"dir"}`), signet.ErrMalformed},
		{"no alg", dir, gcm(`{"enc":"A256GCM"}`), signet.ErrMalformed},
		{"header not JSON", dir, gcm(`{"alg":"dir",`), signet.ErrMalformed},
		{"enc unknown", dir, gcm(`{"alg":"dir","enc":"A256CTR"}`), signet.ErrUnsupported},

		// The key decides alg and enc.
		{"alg swapped (A128KW for a dir key)", dir, forge(`{"alg":"A128KW","enc":"A256GCM"}`, make([]byte, 40), 12, 5, 16), signet.ErrAlgorithmMismatch},
		{"enc swapped (A128GCM for an A256GCM key)", dir, gcm(`{"alg":"dir","enc":"A128GCM"}`), signet.ErrAlgorithmMismatch},
		{"enc swapped (CBC for a GCM key)", dir, forge(`{"alg":"dir","enc":"A256CBC-HS512"}`, nil, 16, 16, 32), signet.ErrAlgorithmMismatch},
		{"alg a JWS one", dir, gcm(`{"alg":"HS256","enc":"A256GCM"}`), signet.ErrAlgorithmMismatch},
		{"alg none", dir, gcm(`{"alg":"none","enc":"A256GCM"}`), signet.ErrAlgorithmMismatch},
		{"RSA-OAEP for an RSA-OAEP-256 key", rsaOAEP, withSegment(rsaTok, 0, func(string) string { return enc64([]byte(`{"alg":"RSA-OAEP","enc":"A128GCM"}`)) }), signet.ErrAlgorithmMismatch},
		{"a public key cannot decrypt", rsaPub, rsaTok, signet.ErrKeyUsage},

		// Structure and sizes, checked before any cryptography.
		{"4 segments", dir, tok[:strings.LastIndexByte(tok, '.')], signet.ErrMalformed},
		{"6 segments", dir, tok + ".AAAA", signet.ErrMalformed},
		{"a JWS", dir, "eyJhbGciOiJIUzI1NiJ9.e30.AAAA", signet.ErrMalformed},
		{"empty", dir, "", signet.ErrMalformed},
		{"tag truncated by a byte", dir, withSegment(tok, 4, func(s string) string { return enc64(make([]byte, 15)) }), signet.ErrMalformed},
		{"tag extended by a byte", dir, withSegment(tok, 4, func(s string) string { return enc64(make([]byte, 17)) }), signet.ErrMalformed},
		{"tag empty", dir, withSegment(tok, 4, func(string) string { return "" }), signet.ErrMalformed},
		{"CBC tag truncated to 8 bytes", dirCBC, withSegment(cbcTok, 4, func(s string) string { return s[:11] }), signet.ErrMalformed},
		{"GCM iv of 11 bytes", dir, withSegment(tok, 2, func(string) string { return enc64(make([]byte, 11)) }), signet.ErrMalformed},
		{"GCM iv of 16 bytes", dir, withSegment(tok, 2, func(string) string { return enc64(make([]byte, 16)) }), signet.ErrMalformed},
		{"CBC iv of 12 bytes", dirCBC, withSegment(cbcTok, 2, func(string) string { return enc64(make([]byte, 12)) }), signet.ErrMalformed},
		{"padded base64", dir, withSegment(tok, 3, func(s string) string { return s + "=" }), signet.ErrMalformed},
		{"standard base64 alphabet", dir, withSegment(tok, 2, func(s string) string { return "+" + s[1:] }), signet.ErrMalformed},
		{"line break in a segment", dir, withSegment(tok, 3, func(s string) string { return s[:2] + "\n" + s[2:] }), signet.ErrMalformed},
		{"non-canonical trailing bits", dir, withSegment(tok, 4, func(s string) string { return s[:len(s)-1] + "B" }), signet.ErrMalformed},
		{"dir with an encrypted key", dir, withSegment(tok, 1, func(string) string { return "AAAA" }), signet.ErrMalformed},
		{"A128KW without an encrypted key", kw, withSegment(kwTok, 1, func(string) string { return "" }), signet.ErrMalformed},
		{"A128KW encrypted key a block short", kw, withSegment(kwTok, 1, func(s string) string { return enc64(make([]byte, 16)) }), signet.ErrMalformed},
		{"RSA encrypted key a byte short", rsaOAEP, withSegment(rsaTok, 1, func(s string) string { return enc64(make([]byte, 255)) }), signet.ErrMalformed},
		{"A256GCMKW header tag truncated", gcmkw, forge(`{"alg":"A256GCMKW","enc":"A256GCM","iv":"`+enc64(make([]byte, 12))+`","tag":"`+enc64(make([]byte, 15))+`"}`, make([]byte, 32), 12, 5, 16), signet.ErrMalformed},
		{"A256GCMKW without iv", gcmkw, forge(`{"alg":"A256GCMKW","enc":"A256GCM","tag":"`+enc64(make([]byte, 16))+`"}`, make([]byte, 32), 12, 5, 16), signet.ErrMalformed},
		{"CBC ciphertext not whole blocks", dirCBC, withSegment(cbcTok, 3, func(s string) string { return enc64(make([]byte, 17)) }), signet.ErrMalformed},
		{"CBC padding bad under a valid tag", dirCBC, jwe.SealCBCBadPadding(dirCBC, `{"alg":"dir","enc":"A128CBC-HS256"}`), signet.ErrMalformed},
		{"CBC padding bad and the tag altered: the tag is checked first", dirCBC, withSegment(jwe.SealCBCBadPadding(dirCBC, `{"alg":"dir","enc":"A128CBC-HS256"}`), 4, func(s string) string { return flipBit(s, 0) }), signet.ErrSignatureInvalid},

		// Authentication: the header is the AAD; content and keys are bound.
		{"header re-encoded with a space", dir, withSegment(tok, 0, func(string) string { return enc64([]byte(`{"alg":"dir", "enc":"A256GCM"}`)) }), signet.ErrSignatureInvalid},
		{"header with a kid added", dir, withSegment(tok, 0, func(string) string { return enc64([]byte(`{"alg":"dir","enc":"A256GCM","kid":"x"}`)) }), signet.ErrSignatureInvalid},
		{"ciphertext truncated", dir, withSegment(tok, 3, func(s string) string { return enc64(make([]byte, 4)) }), signet.ErrSignatureInvalid},
		{"ciphertext emptied", dir, withSegment(tok, 3, func(string) string { return "" }), signet.ErrSignatureInvalid},
		{"RSA-OAEP encrypted key altered", rsaOAEP, withSegment(rsaTok, 1, func(s string) string { return flipBit(s, 1000) }), signet.ErrSignatureInvalid},
		{"RSA-OAEP encrypted key a valid OAEP block of a 17-byte CEK", rsaOAEP, withSegment(rsaTok, 1, func(string) string { return enc64(oaep(rsaKey(), 17)) }), signet.ErrSignatureInvalid},
		{"RSA-OAEP encrypted key an empty OAEP block", rsaOAEP, withSegment(rsaTok, 1, func(string) string { return enc64(oaep(rsaKey(), 0)) }), signet.ErrSignatureInvalid},
		{"RSA-OAEP encrypted key above the modulus", rsaOAEP, withSegment(rsaTok, 1, func(string) string { return enc64(bytes.Repeat([]byte{0xFF}, 256)) }), signet.ErrSignatureInvalid},
		{"RSA-OAEP encrypted key zero", rsaOAEP, withSegment(rsaTok, 1, func(string) string { return enc64(make([]byte, 256)) }), signet.ErrSignatureInvalid},
		{"A128KW encrypted key altered", kw, withSegment(kwTok, 1, func(s string) string { return flipBit(s, 3) }), signet.ErrSignatureInvalid},
		{"ECDH-ES epk swapped for a fresh one", ec, withSegment(ecTok, 0, func(string) string {
			k, _ := ecdh.P256().GenerateKey(rand.Reader)
			b := k.PublicKey().Bytes()
			return enc64([]byte(epk("EC", "P-256", enc64(b[1:33]), enc64(b[33:]))))
		}), signet.ErrSignatureInvalid},

		// Size.
		{"over DefaultMaxSize", dir, strings.Repeat("A", jwe.DefaultMaxSize+1), signet.ErrTooLarge},
		{"nil keys", nil, tok, signet.ErrKeyUsage},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := jwe.PBES2Runs()
			_, _, err := jwe.DecryptBytes(c.keys, c.tok, jwe.Policy{})
			if !errors.Is(err, c.want) {
				t.Fatalf("%v, want %v", err, c.want)
			}
			if testing.Verbose() {
				t.Log(err)
			}
			if (c.keys == pbes2 || c.keys == twoPasswords) && jwe.PBES2Runs() != before {
				t.Fatal("PBKDF2 ran for a refused token")
			}
		})
	}
}

// TestBitFlips flips every bit of every segment but the header of tokens
// of each kind: each is refused with ErrSignatureInvalid (or ErrMalformed
// where a flip breaks a size or encoding rule), never accepted.
func TestBitFlips(t *testing.T) {
	for _, kc := range keyCases() {
		if strings.HasPrefix(kc.name, "PBES2") || strings.Contains(kc.name, "/P-384") {
			continue // covered by the others: same code paths, slower keys
		}
		for _, enc := range []signet.Encryption{signet.A256GCM, signet.A128CBCHS256} {
			k := mustEncKey(t, kc.alg, enc, kc.mat(enc))
			tok, err := jwe.EncryptBytes(k, []byte("a short plaintext"), "")
			if err != nil {
				t.Fatal(err)
			}
			seg := strings.Split(tok, ".")
			for i := 1; i < 5; i++ {
				n := 8 * len(tokentest.Unb64(t, seg[i]))
				step := 1
				if n > 512 {
					step = n / 97 // RSA encrypted keys: a sample of bits
				}
				for bit := 0; bit < n; bit += step {
					bad := withSegment(tok, i, func(s string) string { return flipBit(s, bit) })
					_, _, err := jwe.DecryptBytes(k, bad, jwe.Policy{})
					if !errors.Is(err, signet.ErrSignatureInvalid) {
						t.Fatalf("%s/%s: segment %d bit %d: %v, want ErrSignatureInvalid", kc.name, enc, i, bit, err)
					}
				}
			}
			// Header bits: any flip is refused (malformed JSON, another
			// alg or enc, or a failed tag: the header is the AAD).
			h := tokentest.Unb64(t, seg[0])
			for bit := 0; bit < 8*len(h); bit++ {
				bad := withSegment(tok, 0, func(s string) string { return flipBit(s, bit) })
				if _, _, err := jwe.DecryptBytes(k, bad, jwe.Policy{}); err == nil {
					t.Fatalf("%s/%s: header bit %d flipped, accepted", kc.name, enc, bit)
				}
			}
		}
	}
}

// TestKeyModelRefusals: the key model refuses weak or mismatched keys and
// the operations a key is not for.
func TestKeyModelRefusals(t *testing.T) {
	x, _ := ecdh.X25519().GenerateKey(rand.Reader)
	smallOrder, _ := ecdh.X25519().NewPublicKey(make([]byte, 32))
	jws, _ := signet.GenerateKey(signet.ES256)
	rsa1024, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	oaep, err := signet.NewEncryptionKey(signet.RSAOAEP, signet.A256GCM, rsaKey())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		err  error
		want error
	}{
		{"RSA-1024 for RSA-OAEP-256", second(signet.NewEncryptionKey(signet.RSAOAEP256, signet.A128GCM, &rsa1024.PublicKey)), signet.ErrWeakKey},
		{"dir key of the wrong size", second(signet.NewEncryptionKey(signet.Dir, signet.A256GCM, secretOf(16))), signet.ErrWeakKey},
		{"dir CBC key of the GCM size", second(signet.NewEncryptionKey(signet.Dir, signet.A256CBCHS512, secretOf(32))), signet.ErrWeakKey},
		{"A256KW key of 16 bytes", second(signet.NewEncryptionKey(signet.A256KW, signet.A128GCM, secretOf(16))), signet.ErrWeakKey},
		{"PBES2 password of 15 bytes", second(signet.NewEncryptionKey(signet.PBES2HS256A128KW, signet.A128GCM, []byte("fifteen bytes!!"))), signet.ErrWeakKey},
		{"X25519 public key of small order", second(signet.NewEncryptionKey(signet.ECDHES, signet.A128GCM, smallOrder)), signet.ErrWeakKey},
		{"an X25519 key for RSA-OAEP-256", second(signet.NewEncryptionKey(signet.RSAOAEP256, signet.A128GCM, x)), signet.ErrAlgorithmMismatch},
		{"a secret for ECDH-ES", second(signet.NewEncryptionKey(signet.ECDHES, signet.A128GCM, secretOf(32))), signet.ErrAlgorithmMismatch},
		{"RSA1_5", second(signet.NewEncryptionKey("RSA1_5", signet.A128GCM, rsaKey())), signet.ErrUnsupported},
		{"a JWS algorithm", second(signet.NewEncryptionKey(signet.HS256, signet.A128GCM, secretOf(32))), signet.ErrAlgorithmMismatch},
		{"an unknown enc", second(signet.NewEncryptionKey(signet.Dir, "A512GCM", secretOf(64))), signet.ErrUnsupported},
		{"NewKey for dir", second(signet.NewKey(signet.Dir, secretOf(32))), signet.ErrUnsupported},
		{"GenerateKey for ECDH-ES", second(signet.GenerateKey(signet.ECDHES)), signet.ErrUnsupported},
		{"GenerateEncryptionKey for RSA-OAEP", second(signet.GenerateEncryptionKey(signet.RSAOAEP, signet.A128GCM)), signet.ErrKeyUsage},
		{"encrypting with an RSA-OAEP key", second(jwe.EncryptBytes(oaep, []byte("x"), "")), signet.ErrKeyUsage},
		{"encrypting with a JWS key", second(jwe.Encrypt(jws, jwt.Claims{})), signet.ErrAlgorithmMismatch},
		{"encrypting with a nil key", second(jwe.EncryptBytes(nil, []byte("x"), "")), signet.ErrKeyUsage},
		{"signing with a JWE key", second(oaep.Sign(nil, []byte("x"))), signet.ErrKeyUsage},
		{"two Options", second(jwe.EncryptBytes(oaep, nil, "", jwe.Options{}, jwe.Options{})), signet.ErrUnsupported},
		{"PBES2Count below the minimum", second(jwe.EncryptBytes(oaep, nil, "", jwe.Options{PBES2Count: 999})), signet.ErrUnsupported},
	} {
		if !errors.Is(c.err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, c.err, c.want)
		}
	}
}

func second[T any](_ T, err error) error { return err }

// TestKeySetSelection: a key set finds the key by kid; without one, by
// alg, and a candidate for another enc is skipped.
func TestKeySetSelection(t *testing.T) {
	a := mustEncKey(t, signet.Dir, signet.A128GCM, secretOf(16))
	b := mustEncKey(t, signet.Dir, signet.A256GCM, secretOf(32))
	set, err := signet.NewKeySet(a, b)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []*signet.Key{a, b} {
		tok, _ := jwe.EncryptBytes(k, []byte("hi"), "")
		if pt, h, err := jwe.DecryptBytes(set, tok, jwe.Policy{}); err != nil || string(pt) != "hi" || h.Encryption != k.Encryption() {
			t.Fatalf("%s: %q %v", k.Encryption(), pt, err)
		}
	}
	// Two keys for the same alg and enc, without IDs: the first fails (its
	// GCM open clears the buffer), the second must still see the token.
	c := mustEncKey(t, signet.Dir, signet.A256GCM, secretOf(33)[1:])
	two, _ := signet.NewKeySet(b, c)
	for _, k := range []*signet.Key{b, c} {
		tok, _ := jwe.EncryptBytes(k, []byte("hi"), "")
		if pt, _, err := jwe.DecryptBytes(two, tok, jwe.Policy{}); err != nil || string(pt) != "hi" {
			t.Fatalf("two candidates: %q %v", pt, err)
		}
	}
	named, _ := signet.NewKeySet(a.WithKeyID("a"), b.WithKeyID("b"))
	tok, _ := jwe.EncryptBytes(b.WithKeyID("a"), []byte("hi"), "") // kid a names the A128GCM key
	if _, _, err := jwe.DecryptBytes(named, tok, jwe.Policy{}); !errors.Is(err, signet.ErrAlgorithmMismatch) {
		t.Fatalf("kid of a key for another enc: %v", err)
	}
	tok, _ = jwe.EncryptBytes(b.WithKeyID("zz"), []byte("hi"), "")
	if _, _, err := jwe.DecryptBytes(named, tok, jwe.Policy{}); !errors.Is(err, signet.ErrKeyNotFound) {
		t.Fatalf("unknown kid: %v", err)
	}
}

// Header members that name keys or URLs are ignored: nothing is fetched,
// the caller's key decides.
func TestURLHeadersIgnored(t *testing.T) {
	k := mustEncKey(t, signet.Dir, signet.A256GCM, secretOf(32))
	tok := jwe.SealDir(k, `{"alg":"dir","enc":"A256GCM","jku":"http://127.0.0.1:1/keys","x5u":"http://127.0.0.1:1/cert","jwk":{"kty":"oct","k":"AAAA"},"x5c":["AAAA"]}`, "", []byte("hi"))
	if pt, _, err := jwe.DecryptBytes(k, tok, jwe.Policy{}); err != nil || string(pt) != "hi" {
		t.Fatalf("%q %v", pt, err)
	}
}

// TestPBES2KeySetByKid: a set of several passwords opens a PBES2 token
// that names its key, with one PBKDF2 run; without the kid it refuses
// before any (TestAttacks).
func TestPBES2KeySetByKid(t *testing.T) {
	a, err := signet.NewEncryptionKeyWithID(signet.PBES2HS256A128KW, signet.A128GCM, "a", []byte("correct horse battery staple"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := signet.NewEncryptionKeyWithID(signet.PBES2HS256A128KW, signet.A128GCM, "b", []byte("another horse battery staple"))
	if err != nil {
		t.Fatal(err)
	}
	set, err := signet.NewKeySet(a, b)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := jwe.EncryptBytes(b, []byte("hello"), "", jwe.Options{PBES2Count: 1000})
	if err != nil {
		t.Fatal(err)
	}
	before := jwe.PBES2Runs()
	pt, h, err := jwe.DecryptBytes(set, tok, jwe.Policy{})
	if err != nil || string(pt) != "hello" || h.KeyID != "b" {
		t.Fatalf("%q %+v %v", pt, h, err)
	}
	if runs := jwe.PBES2Runs() - before; runs != 1 {
		t.Fatalf("%d PBKDF2 runs, want 1", runs)
	}
}
