package jwk_test

import (
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
)

// Issue 19 security review of the JWE keys' JWKs.

// TestReviewEncryptionKeyOps: "key_ops" of an encryption key is read with
// the rules of a signing key's (RFC 7517 §4.3: no duplicates, strings
// only), and "use" is exact.
func TestReviewEncryptionKeyOps(t *testing.T) {
	k := `{"kty":"oct","k":"` + base64.RawURLEncoding.EncodeToString(make([]byte, 32)) + `","alg":"A256KW"`
	for _, c := range []struct {
		name, extra string
		want        error
	}{
		{"key_ops repeated", `,"key_ops":["wrapKey","wrapKey"]`, signet.ErrMalformed},
		{"key_ops with a number", `,"key_ops":["wrapKey",1]`, signet.ErrMalformed},
		{"key_ops not an array", `,"key_ops":"wrapKey"`, signet.ErrMalformed},
		{"key_ops empty", `,"key_ops":[]`, signet.ErrKeyUsage},
		{"key_ops verify", `,"key_ops":["unwrapKey","verify"]`, signet.ErrKeyUsage},
		{"use in another case", `,"use":"ENC"`, signet.ErrKeyUsage},
		{"use not a string", `,"use":["enc"]`, signet.ErrMalformed},
		{"use sig with encryption key_ops", `,"use":"sig","key_ops":["wrapKey"]`, signet.ErrKeyUsage},
	} {
		if _, err := jwk.ParseEncryptionKey([]byte(k+c.extra+`}`), signet.A256GCM); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	if _, err := jwk.ParseEncryptionKey([]byte(k+`,"use":"enc","key_ops":["wrapKey","unwrapKey"]}`), signet.A256GCM); err != nil {
		t.Fatalf("a well-formed key: %v", err)
	}
}

// TestReviewSigningReadersRefuseEncryptionKeys: a JWE key's JWK, with or
// without "use", never becomes a signing key: not through ParseKey, not
// through ParseKeyFor with a JWS algorithm of the same key type, and a
// set skips it.
func TestReviewSigningReadersRefuseEncryptionKeys(t *testing.T) {
	x, _ := ecdh.X25519().GenerateKey(rand.Reader)
	xk, err := signet.NewEncryptionKey(signet.ECDHES, signet.A256GCM, x)
	if err != nil {
		t.Fatal(err)
	}
	ek, _ := signet.GenerateEncryptionKey(signet.ECDHESA256KW, signet.A256GCM)
	kw, _ := signet.GenerateEncryptionKey(signet.A256KW, signet.A256GCM)
	for _, k := range []*signet.Key{xk, ek, kw} {
		data, err := jwk.Marshal(k)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := jwk.ParseKey(data); err == nil {
			t.Errorf("%s JWK read as a signing key", k.Algorithm())
		}
	}
	// Without "use" and "alg", read for a JWS algorithm of its key type:
	// the caller's algorithm decides, which is ParseKeyFor's contract; an
	// X25519 key is never an Ed25519 one.
	xj := `{"kty":"OKP","crv":"X25519","x":"` + base64.RawURLEncoding.EncodeToString(x.PublicKey().Bytes()) + `"}`
	if _, err := jwk.ParseKeyFor([]byte(xj), signet.EdDSA); err == nil {
		t.Fatal("an X25519 JWK read as an EdDSA key")
	}
}

// TestReviewSetWithEncryptionKeysWithoutUse: a JWK Set whose encryption
// keys carry no "use" (RFC 7517 makes it optional) still yields no key
// for them, and a JWS algorithm forced on one is refused.
func TestReviewSetWithEncryptionKeysWithoutUse(t *testing.T) {
	k := base64.RawURLEncoding.EncodeToString(make([]byte, 32))
	oct := `{"kty":"oct","kid":"w","k":"` + k + `","alg":"A256KW"}`
	sig, _ := signet.GenerateKeyWithID(signet.ES256, "s")
	sj, err := jwk.MarshalPublic(sig)
	if err != nil {
		t.Fatal(err)
	}
	set, err := jwk.ParseSet([]byte(`{"keys":[` + oct + `,` + string(sj) + `]}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := set.Lookup("w"); ok || set.Len() != 1 {
		t.Fatalf("an A256KW key in a signing set: %d keys", set.Len())
	}
	if _, err := jwk.ParseKeyFor([]byte(oct), signet.HS256); !errors.Is(err, signet.ErrAlgorithmMismatch) {
		t.Fatalf("an A256KW JWK read for HS256: %v, want ErrAlgorithmMismatch", err)
	}
}
