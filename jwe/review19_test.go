package jwe_test

import (
	"crypto/ecdh"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwe"
	"github.com/signet-go/signet/jwt"
)

// Issue 19 security review: the cases below are the ones the attack table
// (security_test.go) did not have.

var rsa3072 = sync.OnceValue(func() *rsa.PrivateKey {
	k, err := rsa.GenerateKey(rand.Reader, 3072)
	if err != nil {
		panic(err)
	}
	return k
})

// TestReviewMixedCandidates: a key set with two anonymous keys of one
// algorithm that differ in what the token cannot choose (the RSA modulus
// size, the curve) is a key rotation. A token for the second key must
// decrypt: a property of the first key (its size, its curve) is not a
// verdict on the token, and must not stop the search.
func TestReviewMixedCandidates(t *testing.T) {
	x, _ := ecdh.X25519().GenerateKey(rand.Reader)
	p256, _ := ecdh.P256().GenerateKey(rand.Reader)
	p384, _ := ecdh.P384().GenerateKey(rand.Reader)
	cases := []struct {
		name         string
		first, other *signet.Key
	}{
		{"RSA-OAEP-256 2048 then 3072",
			mustEncKey(t, signet.RSAOAEP256, signet.A256GCM, rsaKey()),
			mustEncKey(t, signet.RSAOAEP256, signet.A256GCM, rsa3072())},
		{"ECDH-ES+A256KW P-256 then X25519",
			mustEncKey(t, signet.ECDHESA256KW, signet.A256GCM, p256),
			mustEncKey(t, signet.ECDHESA256KW, signet.A256GCM, x)},
		{"ECDH-ES P-256 then P-384",
			mustEncKey(t, signet.ECDHES, signet.A128CBCHS256, p256),
			mustEncKey(t, signet.ECDHES, signet.A128CBCHS256, p384)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			set, err := signet.NewKeySet(c.first, c.other)
			if err != nil {
				t.Fatal(err)
			}
			for i, k := range []*signet.Key{c.first, c.other} {
				tok, err := jwe.Encrypt(k, jwt.Claims{Subject: "rotated"}, jwe.Options{Now: fixed(now)})
				if err != nil {
					t.Fatal(err)
				}
				got, err := jwe.Decrypt[jwt.Claims](set, tok, jwe.Policy{Now: fixed(now)})
				if err != nil || got.Subject != "rotated" {
					t.Fatalf("token for key %d of the set: %v", i, err)
				}
			}
		})
	}
}

// TestReviewMixedCandidatesRefusals: with mixed candidates, a token that
// fits none of them keeps the verdict one key alone gives.
func TestReviewMixedCandidatesRefusals(t *testing.T) {
	x, _ := ecdh.X25519().GenerateKey(rand.Reader)
	p256, _ := ecdh.P256().GenerateKey(rand.Reader)
	kx := mustEncKey(t, signet.ECDHES, signet.A256GCM, x)
	kp := mustEncKey(t, signet.ECDHES, signet.A256GCM, p256)
	set, err := signet.NewKeySet(kp, kx)
	if err != nil {
		t.Fatal(err)
	}
	p384, _ := ecdh.P384().GenerateKey(rand.Reader)
	q := p384.PublicKey().Bytes()
	tok := forge(`{"alg":"ECDH-ES","enc":"A256GCM","epk":{"kty":"EC","crv":"P-384","x":"`+enc64(q[1:49])+`","y":"`+enc64(q[49:])+`"}}`, nil, 12, 5, 16)
	if _, err := jwe.Decrypt[jwt.Claims](set, tok, jwe.Policy{Now: fixed(now)}); !errors.Is(err, signet.ErrWeakKey) {
		t.Fatalf("epk on a curve no key has: %v, want ErrWeakKey", err)
	}
	small := forge(`{"alg":"ECDH-ES","enc":"A256GCM","epk":{"kty":"OKP","crv":"X25519","x":"`+enc64(make([]byte, 32))+`"}}`, nil, 12, 5, 16)
	if _, err := jwe.Decrypt[jwt.Claims](set, small, jwe.Policy{Now: fixed(now)}); !errors.Is(err, signet.ErrWeakKey) {
		t.Fatalf("X25519 epk of small order: %v, want ErrWeakKey", err)
	}
	r2 := mustEncKey(t, signet.RSAOAEP256, signet.A256GCM, rsaKey())
	r3 := mustEncKey(t, signet.RSAOAEP256, signet.A256GCM, rsa3072())
	rset, err := signet.NewKeySet(r2, r3)
	if err != nil {
		t.Fatal(err)
	}
	odd := forge(`{"alg":"RSA-OAEP-256","enc":"A256GCM"}`, make([]byte, 300), 12, 5, 16)
	if _, err := jwe.Decrypt[jwt.Claims](rset, odd, jwe.Policy{Now: fixed(now)}); !errors.Is(err, signet.ErrMalformed) {
		t.Fatalf("encrypted key of no candidate's size: %v, want ErrMalformed", err)
	}
}

// TestReviewHeaderEscapes: member names written with JSON escapes are the
// same names: a zip or crit spelt "\u007aip" is still refused, and an
// escaped duplicate of alg is a duplicate.
func TestReviewHeaderEscapes(t *testing.T) {
	dir := mustEncKey(t, signet.Dir, signet.A256GCM, secretOf(32))
	cases := []struct {
		name, header string
		want         error
	}{
		{"zip escaped", `{"alg":"dir","enc":"A256GCM","\u007aip":"DEF"}`, signet.ErrUnsupported},
		{"crit escaped", `{"alg":"dir","enc":"A256GCM","\u0063rit":["x"],"x":1}`, signet.ErrUnsupported},
		{"alg duplicated through an escape", `{"alg":"dir","enc":"A256GCM","\u0061lg":"dir"}`, signet.ErrMalformed},
		{"enc duplicated through an escape", `{"alg":"dir","enc":"A256GCM","en\u0063":"A256GCM"}`, signet.ErrMalformed},
		{"alg value escaped names another algorithm", `{"alg":"\u0041128KW","enc":"A256GCM"}`, signet.ErrAlgorithmMismatch},
		{"duplicate inside epk", `{"alg":"dir","enc":"A256GCM","epk":{"x":"a","x":"b"}}`, signet.ErrMalformed},
		{"kid not a string", `{"alg":"dir","enc":"A256GCM","kid":1}`, signet.ErrMalformed},
		{"cty not a string", `{"alg":"dir","enc":"A256GCM","cty":["JWT"]}`, signet.ErrMalformed},
		{"alg null", `{"alg":null,"enc":"A256GCM"}`, signet.ErrMalformed},
		{"header an array", `[{"alg":"dir","enc":"A256GCM"}]`, signet.ErrMalformed},
		{"text after the object", `{"alg":"dir","enc":"A256GCM"}x`, signet.ErrMalformed},
		{"invalid UTF-8 in a value", "{\"alg\":\"dir\",\"enc\":\"A256GCM\",\"kid\":\"\xff\"}", signet.ErrMalformed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tok := jwe.SealDir(dir, c.header, "", []byte(`{"sub":"x"}`))
			if _, _, err := jwe.DecryptBytes(dir, tok, jwe.Policy{}); !errors.Is(err, c.want) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
		})
	}
}

// TestReviewKeyConfusion: a JWE key never signs or verifies a JWS, even one
// whose header names its own algorithm and whose MAC is made with its
// secret; a JWS key never decrypts.
func TestReviewKeyConfusion(t *testing.T) {
	secret := secretOf(32)
	dir := mustEncKey(t, signet.Dir, signet.A128CBCHS256, secret)
	kw := mustEncKey(t, signet.A256KW, signet.A256GCM, secret)
	for _, k := range []*signet.Key{dir, kw} {
		h := enc64([]byte(`{"alg":"` + string(k.Algorithm()) + `","typ":"JWT"}`))
		p := enc64([]byte(`{"sub":"admin","exp":1900000000}`))
		m := hmac.New(sha256.New, secret)
		m.Write([]byte(h + "." + p))
		tok := h + "." + p + "." + enc64(m.Sum(nil))
		if _, err := jwt.Verify[jwt.Claims](k, tok, jwt.Policy{Now: fixed(now)}); err == nil {
			t.Fatalf("%s key verified a JWS", k.Algorithm())
		}
		if _, err := jwt.Sign(k, jwt.Claims{Subject: "x"}, jwt.Options{Now: fixed(now)}); !errors.Is(err, signet.ErrKeyUsage) && !errors.Is(err, signet.ErrAlgorithmMismatch) && !errors.Is(err, signet.ErrUnsupported) {
			t.Fatalf("%s key signed a JWS: %v", k.Algorithm(), err)
		}
	}
	hs, err := signet.NewKey(signet.HS256, secret)
	if err != nil {
		t.Fatal(err)
	}
	tok := jwe.SealDir(dir, `{"alg":"dir","enc":"A128CBC-HS256"}`, "", []byte(`{"sub":"x","exp":1900000000}`))
	if _, err := jwe.Decrypt[jwt.Claims](hs, tok, jwe.Policy{Now: fixed(now)}); !errors.Is(err, signet.ErrAlgorithmMismatch) {
		t.Fatalf("an HS256 key given a dir token: %v, want ErrAlgorithmMismatch", err)
	}
	if _, err := jwe.EncryptBytes(hs, []byte("x"), ""); !errors.Is(err, signet.ErrAlgorithmMismatch) {
		t.Fatalf("an HS256 key encrypting: %v, want ErrAlgorithmMismatch", err)
	}
}

// TestReviewNested: the claims of a nested JWT are the inner JWT's, and
// only once its signature verifies.
func TestReviewNested(t *testing.T) {
	enc := mustEncKey(t, signet.Dir, signet.A256GCM, secretOf(32))
	signer, err := signet.NewKey(signet.HS256, secretOf(32))
	if err != nil {
		t.Fatal(err)
	}
	other, _ := signet.NewKey(signet.HS256, secretOf(33))
	p := jwe.Policy{Now: fixed(now)}
	good, err := jwe.EncryptNested(enc, signer, jwt.Claims{Subject: "u"}, jwe.Options{Now: fixed(now)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := jwe.DecryptNested[jwt.Claims](enc, other, good, p); !errors.Is(err, signet.ErrSignatureInvalid) {
		t.Fatalf("inner JWT signed by another key: %v, want ErrSignatureInvalid", err)
	}
	// An unsigned inner JWT (alg none) and an inner JWE are not JWTs the
	// verifier accepts.
	none := enc64([]byte(`{"alg":"none"}`)) + "." + enc64([]byte(`{"sub":"admin","exp":1900000000}`)) + "."
	for name, inner := range map[string]string{"alg none": none, "a JWE inside": good} {
		tok := jwe.SealDir(enc, `{"alg":"dir","enc":"A256GCM","cty":"JWT"}`, "", []byte(inner))
		if _, err := jwe.DecryptNested[jwt.Claims](enc, signer, tok, p); err == nil {
			t.Fatalf("%s: accepted", name)
		}
		if _, err := jwe.Decrypt[jwt.Claims](enc, tok, p); !errors.Is(err, signet.ErrUnsupported) {
			t.Fatalf("%s: Decrypt of a nested JWT: %v, want ErrUnsupported", name, err)
		}
	}
	// cty spelt in other cases is the same type.
	for _, cty := range []string{"jwt", "application/JWT"} {
		tok := jwe.SealDir(enc, `{"alg":"dir","enc":"A256GCM","cty":"`+cty+`"}`, "", []byte(none))
		if _, err := jwe.Decrypt[jwt.Claims](enc, tok, p); !errors.Is(err, signet.ErrUnsupported) {
			t.Fatalf("cty %q: %v, want ErrUnsupported", cty, err)
		}
	}
}

// TestReviewPBES2Candidates: one forged token without a kid against a
// set of anonymous PBES2 keys is refused before any PBKDF2 work, rather
// than costing one derivation per candidate.
func TestReviewPBES2Candidates(t *testing.T) {
	var keys []*signet.Key
	for i := range 2 {
		keys = append(keys, mustEncKey(t, signet.PBES2HS256A128KW, signet.A128GCM, []byte("correct horse battery staple"+string(rune('a'+i)))))
	}
	set, err := signet.NewKeySet(keys...)
	if err != nil {
		t.Fatal(err)
	}
	tok := forge(`{"alg":"PBES2-HS256+A128KW","enc":"A128GCM","p2s":"`+enc64(make([]byte, 16))+`","p2c":1000}`, make([]byte, 24), 12, 5, 16)
	before := jwe.PBES2Runs()
	if _, err := jwe.Decrypt[jwt.Claims](set, tok, jwe.Policy{Now: fixed(now)}); !errors.Is(err, signet.ErrKeyNotFound) {
		t.Fatalf("forged PBES2 token: %v, want ErrKeyNotFound", err)
	}
	if n := jwe.PBES2Runs() - before; n != 0 {
		t.Fatalf("%d PBKDF2 runs for one forged token against %d anonymous keys, want 0", n, len(keys))
	}
}

// TestReviewCBCSizeBeforeUnwrap: a CBC ciphertext that is not whole
// blocks is refused before the key management runs (no PBKDF2, no RSA
// decryption): every size is checked before any cryptography.
func TestReviewCBCSizeBeforeUnwrap(t *testing.T) {
	pb := mustEncKey(t, signet.PBES2HS256A128KW, signet.A128CBCHS256, []byte("correct horse battery staple"))
	for _, ctLen := range []int{0, 17} {
		tok := forge(`{"alg":"PBES2-HS256+A128KW","enc":"A128CBC-HS256","p2s":"`+enc64(make([]byte, 16))+`","p2c":1000}`, make([]byte, 40), 16, ctLen, 16)
		before := jwe.PBES2Runs()
		if _, _, err := jwe.DecryptBytes(pb, tok, jwe.Policy{}); !errors.Is(err, signet.ErrMalformed) {
			t.Fatalf("%d-byte CBC ciphertext: %v, want ErrMalformed", ctLen, err)
		}
		if n := jwe.PBES2Runs() - before; n != 0 {
			t.Fatalf("%d-byte CBC ciphertext: %d PBKDF2 runs before the refusal", ctLen, n)
		}
	}
}

// TestReviewEPKPoints: every X25519 point of small order (the all-zero
// shared secret, RFC 7748 §6.1), canonical or not, and NIST points that
// are not on the curve or have a coordinate of p or more, are refused
// with ErrWeakKey before any key is unwrapped.
func TestReviewEPKPoints(t *testing.T) {
	x, _ := ecdh.X25519().GenerateKey(rand.Reader)
	kx := mustEncKey(t, signet.ECDHESA128KW, signet.A128GCM, x)
	le := func(hexBE string) []byte { // a little-endian u-coordinate from big-endian hex
		b, err := hex.DecodeString(hexBE)
		if err != nil || len(b) != 32 {
			t.Fatal(hexBE)
		}
		slices.Reverse(b)
		return b
	}
	small := map[string][]byte{
		"0":              make([]byte, 32),
		"1":              append([]byte{1}, make([]byte, 31)...),
		"p-1":            le("7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffec"),
		"p":              le("7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed"),
		"p+1":            le("7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffee"),
		"order 8":        le("57119fd0dd4e22d8868e1c58c45c44045bef839c55b1d0b1248c50a3bc959c5f"),
		"order 8, other": le("00b8495f16056286fdb1329ceb8d09da6ac49ff1fae35616aeb8413b7c7aebe0"),
	}
	for name, u := range small {
		tok := forge(`{"alg":"ECDH-ES+A128KW","enc":"A128GCM","epk":{"kty":"OKP","crv":"X25519","x":"`+enc64(u)+`"}}`, make([]byte, 24), 12, 5, 16)
		if _, _, err := jwe.DecryptBytes(kx, tok, jwe.Policy{}); !errors.Is(err, signet.ErrWeakKey) {
			t.Errorf("X25519 u = %s: %v, want ErrWeakKey", name, err)
		}
	}
	p256, _ := ecdh.P256().GenerateKey(rand.Reader)
	kp := mustEncKey(t, signet.ECDHES, signet.A128GCM, p256)
	pt := p256.PublicKey().Bytes()
	pBytes, _ := hex.DecodeString("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff")
	for name, xy := range map[string][2][]byte{
		"(0, 0)":    {make([]byte, 32), make([]byte, 32)},
		"x = p":     {pBytes, pt[33:]},
		"y = p":     {pt[1:33], pBytes},
		"y negated": {pt[1:33], negP256(pt[33:])},
	} {
		tok := forge(`{"alg":"ECDH-ES","enc":"A128GCM","epk":{"kty":"EC","crv":"P-256","x":"`+enc64(xy[0])+`","y":"`+enc64(xy[1])+`"}}`, nil, 12, 5, 16)
		_, _, err := jwe.DecryptBytes(kp, tok, jwe.Policy{})
		want := signet.ErrWeakKey
		if name == "y negated" { // -P is on the curve: a valid point, the tag fails
			want = signet.ErrSignatureInvalid
		}
		if !errors.Is(err, want) {
			t.Errorf("P-256 epk %s: %v, want %v", name, err, want)
		}
	}
}

// negP256 returns p - y for a P-256 y-coordinate (big-endian).
func negP256(y []byte) []byte {
	p := []byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
	out := make([]byte, 32)
	borrow := 0
	for i := 31; i >= 0; i-- {
		d := int(p[i]) - int(y[i]) - borrow
		borrow = 0
		if d < 0 {
			d += 256
			borrow = 1
		}
		out[i] = byte(d)
	}
	return out
}

// TestReviewZeroECDHKeys: zero crypto/ecdh keys (a struct literal, not a
// key) are refused with ErrWeakKey; the private one panicked in
// PublicKey. Zero RSA keys likewise.
func TestReviewZeroECDHKeys(t *testing.T) {
	for name, m := range map[string]any{"private": &rsa.PrivateKey{}, "public": &rsa.PublicKey{}} {
		if _, err := signet.NewEncryptionKey(signet.RSAOAEP256, signet.A256GCM, m); !errors.Is(err, signet.ErrWeakKey) {
			t.Fatalf("zero RSA %s key: %v, want ErrWeakKey", name, err)
		}
	}
	for name, m := range map[string]any{"private": &ecdh.PrivateKey{}, "public": &ecdh.PublicKey{}} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("zero ecdh %s key: panic %v", name, r)
				}
			}()
			if _, err := signet.NewEncryptionKey(signet.ECDHES, signet.A256GCM, m); !errors.Is(err, signet.ErrWeakKey) {
				t.Fatalf("zero ecdh %s key: %v, want ErrWeakKey", name, err)
			}
		}()
	}
}
