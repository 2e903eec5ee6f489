package jwk_test

import (
	"crypto/ecdh"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
)

// JWE keys of every algorithm (and ECDH curve) go to a JWK and back,
// private and public, with "use":"enc", and keep their thumbprint.
func TestEncryptionKeyRoundTrip(t *testing.T) {
	var keys []*signet.Key
	for _, alg := range signet.JWEAlgorithms() {
		if alg == signet.RSAOAEP {
			continue
		}
		k, err := signet.GenerateEncryptionKeyWithID(alg, signet.A256GCM, "k-"+string(alg))
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
	}
	for _, c := range []ecdh.Curve{ecdh.P384(), ecdh.X25519()} {
		pk, _ := c.GenerateKey(rand.Reader)
		k, err := signet.NewEncryptionKeyWithID(signet.ECDHES, signet.A128CBCHS256, "k-c", pk)
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
	}
	for _, k := range keys {
		data, err := jwk.Marshal(k)
		if err != nil {
			t.Fatalf("%s: %v", k.Algorithm(), err)
		}
		if !strings.Contains(string(data), `"use":"enc","alg":"`+string(k.Algorithm())+`"`) {
			t.Fatalf("%s: %s", k.Algorithm(), data)
		}
		got, err := jwk.ParseEncryptionKey(data, k.Encryption())
		if err != nil || !got.Equal(k) || got.KeyID() != k.KeyID() {
			t.Fatalf("%s: %v", k.Algorithm(), err)
		}
		tp, err := jwk.Thumbprint(k)
		if err != nil {
			t.Fatal(err)
		}
		if k.Symmetric() {
			if _, err := jwk.MarshalPublic(k); !errors.Is(err, signet.ErrKeyUsage) {
				t.Fatalf("%s: public half of a secret: %v", k.Algorithm(), err)
			}
			continue
		}
		pubData, err := jwk.MarshalPublic(k)
		if err != nil || strings.Contains(string(pubData), `"d"`) {
			t.Fatalf("%s: %s %v", k.Algorithm(), pubData, err)
		}
		pub, err := jwk.ParseEncryptionKey(pubData, k.Encryption())
		want, _ := k.Public()
		if err != nil || !pub.Equal(want) || pub.CanSign() {
			t.Fatalf("%s public: %v", k.Algorithm(), err)
		}
		if tp2, _ := jwk.Thumbprint(pub); tp2 != tp {
			t.Fatalf("%s: thumbprints of the private and public halves differ", k.Algorithm())
		}
	}
}

// An X25519 thumbprint is RFC 7638's: SHA-256 of {"crv","kty","x"}.
func TestX25519Thumbprint(t *testing.T) {
	const x = "3p7bfXt9wbTTW2HC7OQ1Nz-DQ8hbeGdNrfx-FG-IK08" // RFC 8037 A.6
	k, err := jwk.ParseEncryptionKey([]byte(`{"kty":"OKP","crv":"X25519","x":"`+x+`","alg":"ECDH-ES+A128KW","kid":"Bob"}`), signet.A128GCM)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(`{"crv":"X25519","kty":"OKP","x":"` + x + `"}`))
	if tp, err := jwk.Thumbprint(k); err != nil || tp != base64.RawURLEncoding.EncodeToString(sum[:]) {
		t.Fatalf("%s %v", tp, err)
	}
}

// The recipients' keys of the RFC 7520 §5 examples read as JWE keys.
func TestEncryptionKeyRFC7520(t *testing.T) {
	files, _ := filepath.Glob("../testdata/jwe/rfc7520-5.*.json")
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var v struct {
			Alg signet.Algorithm  `json:"alg"`
			Enc signet.Encryption `json:"enc"`
			Key json.RawMessage   `json:"key"`
		}
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatal(err)
		}
		if v.Key == nil {
			continue
		}
		k, err := jwk.ParseEncryptionKeyFor(v.Key, v.Alg, v.Enc)
		if v.Alg == "RSA1_5" {
			if !errors.Is(err, signet.ErrUnsupported) {
				t.Fatalf("%s: %v", f, err)
			}
			continue
		}
		if err != nil || k.Algorithm() != v.Alg || k.Encryption() != v.Enc || !k.CanSign() {
			t.Fatalf("%s: %v", f, err)
		}
		n++
	}
	if n != 6 {
		t.Fatalf("%d keys read", n)
	}
}

func TestEncryptionKeyRefusals(t *testing.T) {
	x, _ := ecdh.X25519().GenerateKey(rand.Reader)
	other, _ := ecdh.X25519().GenerateKey(rand.Reader)
	enc := base64.RawURLEncoding.EncodeToString
	for _, c := range []struct {
		name, jwk string
		want      error
	}{
		{"use sig", `{"kty":"oct","k":"` + enc(make([]byte, 32)) + `","alg":"dir","use":"sig"}`, signet.ErrKeyUsage},
		{"key_ops sign", `{"kty":"oct","k":"` + enc(make([]byte, 32)) + `","alg":"dir","key_ops":["sign"]}`, signet.ErrKeyUsage},
		{"a JWS alg", `{"kty":"oct","k":"` + enc(make([]byte, 32)) + `","alg":"HS256"}`, signet.ErrAlgorithmMismatch},
		{"RSA1_5", `{"kty":"RSA","n":"AQAB","e":"AQAB","alg":"RSA1_5"}`, signet.ErrUnsupported},
		{"no alg", `{"kty":"oct","k":"` + enc(make([]byte, 32)) + `"}`, signet.ErrUnsupported},
		{"oct for ECDH-ES", `{"kty":"oct","k":"` + enc(make([]byte, 32)) + `","alg":"ECDH-ES"}`, signet.ErrAlgorithmMismatch},
		{"EC for A128KW", `{"kty":"EC","crv":"P-256","x":"AA","y":"AA","alg":"A128KW"}`, signet.ErrAlgorithmMismatch},
		{"dir of the wrong size", `{"kty":"oct","k":"` + enc(make([]byte, 16)) + `","alg":"dir"}`, signet.ErrWeakKey},
		{"P-256 point off the curve", `{"kty":"EC","crv":"P-256","x":"` + enc(make([]byte, 32)) + `","y":"` + enc(append(make([]byte, 31), 1)) + `","alg":"ECDH-ES"}`, signet.ErrWeakKey},
		{"P-256 x of 31 bytes", `{"kty":"EC","crv":"P-256","x":"` + enc(make([]byte, 31)) + `","y":"` + enc(make([]byte, 32)) + `","alg":"ECDH-ES"}`, signet.ErrMalformed},
		{"P-521 for ECDH-ES", `{"kty":"EC","crv":"P-521","x":"AA","y":"AA","alg":"ECDH-ES"}`, signet.ErrUnsupported},
		{"Ed25519 for ECDH-ES", `{"kty":"OKP","crv":"Ed25519","x":"` + enc(make([]byte, 32)) + `","alg":"ECDH-ES"}`, signet.ErrUnsupported},
		{"X25519 of small order", `{"kty":"OKP","crv":"X25519","x":"` + enc(make([]byte, 32)) + `","alg":"ECDH-ES"}`, signet.ErrWeakKey},
		{"X25519 d not x's", `{"kty":"OKP","crv":"X25519","x":"` + enc(other.PublicKey().Bytes()) + `","d":"` + enc(x.Bytes()) + `","alg":"ECDH-ES"}`, signet.ErrWeakKey},
		{"X25519 x of 31 bytes", `{"kty":"OKP","crv":"X25519","x":"` + enc(make([]byte, 31)) + `","alg":"ECDH-ES"}`, signet.ErrMalformed},
	} {
		if _, err := jwk.ParseEncryptionKey([]byte(c.jwk), signet.A256GCM); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	// A content-encryption key naming its enc in "alg" is a dir key for it,
	// and only for it.
	cek := `{"kty":"oct","k":"` + enc(make([]byte, 16)) + `","alg":"A128GCM"}`
	if k, err := jwk.ParseEncryptionKey([]byte(cek), signet.A128GCM); err != nil || k.Algorithm() != signet.Dir {
		t.Fatalf("CEK JWK: %v", err)
	}
	if _, err := jwk.ParseEncryptionKey([]byte(cek), signet.A256GCM); !errors.Is(err, signet.ErrUnsupported) {
		t.Fatalf("CEK JWK for another enc: %v", err)
	}
	// A signing-key reader still skips encryption keys in a set.
	pub, _ := signet.GenerateEncryptionKeyWithID(signet.ECDHESA256KW, signet.A256GCM, "e")
	sig, _ := signet.GenerateKeyWithID(signet.ES256, "s")
	set, err := jwk.MarshalSet(pub, sig)
	if err != nil {
		t.Fatal(err)
	}
	ks, err := jwk.ParseSet(set)
	if err != nil || ks.Len() != 1 {
		t.Fatalf("mixed set: %v, %d keys", err, ks.Len())
	}
}

// FuzzParseEncryptionKey: arbitrary JWKs read as JWE keys: a key or a
// sentinel error, never a panic; a key read marshals and reads back equal.
func FuzzParseEncryptionKey(f *testing.F) {
	f.Add([]byte(`{"kty":"OKP","crv":"X25519","x":"3p7bfXt9wbTTW2HC7OQ1Nz-DQ8hbeGdNrfx-FG-IK08","alg":"ECDH-ES"}`))
	f.Add([]byte(`{"kty":"oct","k":"GawgguFyGrWKav7AX4VKUg","alg":"A128KW"}`))
	f.Add([]byte(`{"kty":"oct","k":"XctOhJAkA-pD9Lh7ZgW_2A","alg":"A128GCM","use":"enc"}`))
	f.Add([]byte(`{"kty":"EC","crv":"P-256","x":"weNJy2HscCSM6AEDTDg04biOvhFhyyWvOHQfeF_PxMQ","y":"e8lnCO-AlStT-NJVX-crhB7QRYhiix03illJOVAOyck","d":"VEmDZpDXXK8p8N0Cndsxs924q6nS1RXFASRl6BfUqdw","alg":"ECDH-ES+A128KW"}`))
	sentinels := []error{signet.ErrMalformed, signet.ErrTooLarge, signet.ErrUnsupported, signet.ErrAlgorithmMismatch, signet.ErrKeyUsage, signet.ErrWeakKey}
	f.Fuzz(func(t *testing.T, data []byte) {
		k, err := jwk.ParseEncryptionKey(data, signet.A128GCM)
		if err != nil {
			for _, s := range sentinels {
				if errors.Is(err, s) {
					return
				}
			}
			t.Fatalf("error wraps no sentinel: %v", err)
		}
		out, err := jwk.Marshal(k)
		if err != nil {
			t.Fatal(err)
		}
		back, err := jwk.ParseEncryptionKey(out, signet.A128GCM)
		if err != nil || !back.Equal(k) {
			t.Fatalf("%s: %v", out, err)
		}
	})
}
