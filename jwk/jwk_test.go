package jwk_test

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/tokentest"
	"github.com/signet-go/signet/jwk"
)

// vector is one file of testdata/jose (see its README).
type vector struct {
	Source        string          `json:"source"`
	Alg           string          `json:"alg"`
	Key           json.RawMessage `json:"key"`
	PublicKey     json.RawMessage `json:"public_key"`
	Token         string          `json:"token"`
	Deterministic bool            `json:"deterministic"`
	Thumbprint    string          `json:"thumbprint_sha256"`
}

func loadVector(t testing.TB, name string) vector {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "jose", name))
	if err != nil {
		t.Fatal(err)
	}
	var v vector
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return v
}

// object is a JWK as a map, for tests that change one member.
type object map[string]any

func vectorObject(t testing.TB, name string) object {
	t.Helper()
	var o object
	if err := json.Unmarshal(loadVector(t, name).Key, &o); err != nil {
		t.Fatal(err)
	}
	return o
}

// with returns a copy of o with kv applied (name, value pairs); a nil value
// removes the member.
func (o object) with(kv ...any) object {
	c := maps.Clone(o)
	for i := 0; i < len(kv); i += 2 {
		if kv[i+1] == nil {
			delete(c, kv[i].(string))
		} else {
			c[kv[i].(string)] = kv[i+1]
		}
	}
	return c
}

func (o object) json(t testing.TB) []byte {
	t.Helper()
	b, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// testKeys holds one generated private key per algorithm, key ID "k-ALG".
// The RSA algorithms share one modulus: generation is slow under -race.
var testKeys = sync.OnceValues(func() (map[signet.Algorithm]*signet.Key, error) {
	m := make(map[signet.Algorithm]*signet.Key)
	var rsaMaterial any
	for _, alg := range signet.JWSAlgorithms() {
		var k *signet.Key
		var err error
		isRSA := strings.HasPrefix(string(alg), "RS") || strings.HasPrefix(string(alg), "PS")
		if isRSA && rsaMaterial != nil {
			k, err = signet.NewKey(alg, rsaMaterial)
		} else {
			k, err = signet.GenerateKey(alg)
		}
		if err != nil {
			return nil, err
		}
		if isRSA {
			rsaMaterial = k.Material()
		}
		m[alg] = k.WithKeyID("k-" + string(alg))
	}
	return m, nil
})

func keys(t testing.TB) map[signet.Algorithm]*signet.Key {
	t.Helper()
	m, err := testKeys()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRoundTripEveryAlgorithm(t *testing.T) {
	all := keys(t)
	for _, alg := range signet.JWSAlgorithms() {
		t.Run(string(alg), func(t *testing.T) {
			k := all[alg]
			data, err := jwk.Marshal(k)
			if err != nil {
				t.Fatal(err)
			}
			got, err := jwk.ParseKey(data)
			if err != nil {
				t.Fatalf("ParseKey(%s): %v", data, err)
			}
			if !got.Equal(k) || got.Algorithm() != alg || got.KeyID() != k.KeyID() || !got.CanSign() {
				t.Fatal("private round trip changed the key")
			}
			again, err := jwk.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again, data) {
				t.Fatalf("Marshal is not deterministic:\n%s\n%s", data, again)
			}
			var members map[string]any
			if err := json.Unmarshal(data, &members); err != nil {
				t.Fatal(err)
			}
			if members["use"] != "sig" || members["alg"] != string(alg) || members["kid"] != k.KeyID() {
				t.Fatalf("missing use/alg/kid: %s", data)
			}

			// The parsed key signs what the original verifies.
			sig, err := got.Sign(nil, []byte("msg"))
			if err != nil {
				t.Fatal(err)
			}
			if err := k.Verify([]byte("msg"), sig); err != nil {
				t.Fatal(err)
			}

			pubData, err := jwk.MarshalPublic(k)
			if alg.Symmetric() {
				if !errors.Is(err, signet.ErrKeyUsage) {
					t.Fatalf("MarshalPublic(HMAC): err = %v, want ErrKeyUsage", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(pubData, []byte(`"d"`)) {
				t.Fatalf("public JWK has a private member: %s", pubData)
			}
			pub, err := jwk.ParseKey(pubData)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := k.Public()
			if pub.CanSign() || !pub.Equal(want) || pub.KeyID() != k.KeyID() {
				t.Fatal("public round trip changed the key")
			}
			if err := pub.Verify([]byte("msg"), sig); err != nil {
				t.Fatal(err)
			}
			// Marshal of a public key is MarshalPublic.
			if again, err := jwk.Marshal(pub); err != nil || !bytes.Equal(again, pubData) {
				t.Fatalf("Marshal(public) = %s, %v; want %s", again, err, pubData)
			}
		})
	}
}

// TestMarshalLayout pins the member order and content of the output.
func TestMarshalLayout(t *testing.T) {
	v := loadVector(t, "rfc8037-a4-eddsa.json") // RFC 8037 A.1
	k, err := jwk.ParseKeyFor(v.Key, signet.EdDSA)
	if err != nil {
		t.Fatal(err)
	}
	got, err := jwk.Marshal(k.WithKeyID("a<b"))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"kty":"OKP","kid":"a<b","use":"sig","alg":"EdDSA","crv":"Ed25519",` +
		`"x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"}`
	if string(got) != want {
		t.Fatalf("Marshal =\n%s\nwant\n%s", got, want)
	}
	got, err = jwk.MarshalPublic(k)
	if err != nil {
		t.Fatal(err)
	}
	want = `{"kty":"OKP","use":"sig","alg":"EdDSA","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}`
	if string(got) != want {
		t.Fatalf("MarshalPublic =\n%s\nwant\n%s", got, want)
	}
}

// TestRFCVectors reads every JWK of testdata/jose, checks the published
// signatures with the parsed keys, and re-signs the deterministic ones.
func TestRFCVectors(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "jose", "rfc*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no vectors in testdata/jose: %v", err)
	}
	for _, file := range files {
		name := filepath.Base(file)
		v := loadVector(t, name)
		if v.Token == "" {
			continue // thumbprint-only files: TestThumbprintRFC
		}
		t.Run(name, func(t *testing.T) {
			alg := signet.Algorithm(v.Alg)
			k, err := jwk.ParseKeyFor(v.Key, alg)
			if err != nil {
				t.Fatalf("%s: %v", v.Source, err)
			}
			if !k.CanSign() {
				t.Fatal("private JWK parsed as public")
			}
			dot := strings.LastIndexByte(v.Token, '.')
			input, sig := []byte(v.Token[:dot]), tokentest.Unb64(t, v.Token[dot+1:])
			if err := k.Verify(input, sig); err != nil {
				t.Fatalf("published signature: %v", err)
			}
			if v.Deterministic {
				again, err := k.Sign(nil, input)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(again, sig) {
					t.Fatal("re-signing does not reproduce the published signature")
				}
			}
			if v.PublicKey != nil {
				pub, err := jwk.ParseKeyFor(v.PublicKey, alg)
				if err != nil {
					t.Fatal(err)
				}
				if want, _ := k.Public(); !pub.Equal(want) || pub.CanSign() {
					t.Fatal("public JWK is not the public half of the private one")
				}
				if err := pub.Verify(input, sig); err != nil {
					t.Fatal(err)
				}
			}
			out, err := jwk.Marshal(k)
			if err != nil {
				t.Fatal(err)
			}
			back, err := jwk.ParseKey(out)
			if err != nil || !back.Equal(k) {
				t.Fatalf("round trip: %v", err)
			}
		})
	}
}

// TestRSALeadingZero: RFC 7518 §6.3.1.1 notes producers that prefix the
// modulus with a zero octet; that one octet is tolerated, others are not.
func TestRSALeadingZero(t *testing.T) {
	o := vectorObject(t, "rfc7520-4.1-rs256.json")
	n := tokentest.Unb64(t, o["n"].(string))
	if n[0]&0x80 == 0 {
		t.Fatal("vector modulus top bit not set")
	}
	k, err := jwk.ParseKeyFor(o.with("n", b64(append([]byte{0}, n...))).json(t), signet.RS256)
	if err != nil {
		t.Fatalf("sign octet: %v", err)
	}
	want, err := jwk.ParseKeyFor(o.json(t), signet.RS256)
	if err != nil {
		t.Fatal(err)
	}
	if !k.Equal(want) {
		t.Fatal("leading zero changed the key")
	}
	_, err = jwk.ParseKeyFor(o.with("n", b64(append([]byte{0, 0}, n...))).json(t), signet.RS256)
	if !errors.Is(err, signet.ErrMalformed) {
		t.Fatalf("two zero octets: err = %v, want ErrMalformed", err)
	}
}

func TestParseKeyRejects(t *testing.T) {
	rsaKey := vectorObject(t, "rfc7520-4.1-rs256.json").with("alg", "RS256")
	rsaPub := rsaKey.with("d", nil, "p", nil, "q", nil, "dp", nil, "dq", nil, "qi", nil)
	ec := vectorObject(t, "rfc7515-a3-es256.json").with("alg", "ES256")
	ecPub := ec.with("d", nil)
	ed := vectorObject(t, "rfc8037-a4-eddsa.json").with("alg", "EdDSA")
	hmacKey := object{"kty": "oct", "alg": "HS256", "k": b64(bytes.Repeat([]byte{7}, 32))}

	weak, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	rsa1024 := object{"kty": "RSA", "alg": "RS256", "n": b64(weak.N.Bytes()), "e": "AQAB"}

	// (x, y+1) is not on P-256.
	y := new(big.Int).SetBytes(tokentest.Unb64(t, ec["y"].(string)))
	offCurve := ecPub.with("y", b64(y.Add(y, big.NewInt(1)).FillBytes(make([]byte, 32))))
	// d = 1 is a valid scalar whose public point is G, not (x, y).
	otherD := ec.with("d", b64(big.NewInt(1).FillBytes(make([]byte, 32))))
	// The curve order itself is out of range for d.
	orderD := ec.with("d", "_____wAAAAD__________7zm-q2nF56E87nKwvxjJVE")
	dp := tokentest.Unb64(t, rsaKey["dp"].(string))
	dp[len(dp)-1] ^= 2

	tests := []struct {
		name string
		data []byte
		alg  signet.Algorithm // for ParseKeyFor; "" is ParseKey
		want error
	}{
		// size, JSON, base64url
		{"too large", append(hmacKey.json(t), bytes.Repeat([]byte(" "), jwk.MaxKeySize)...), "", signet.ErrTooLarge},
		{"empty", nil, "", signet.ErrMalformed},
		{"bad JSON", []byte(`{"kty":"oct",`), "", signet.ErrMalformed},
		{"not an object", []byte(`["kty","oct"]`), "", signet.ErrMalformed},
		{"null", []byte(`null`), "", signet.ErrMalformed},
		{"trailing data", append(hmacKey.json(t), []byte(` {}`)...), "", signet.ErrMalformed},
		{"invalid UTF-8", []byte("{\"kty\":\"oct\",\"alg\":\"HS256\",\"kid\":\"\xff\",\"k\":\"" + hmacKey["k"].(string) + "\"}"), "", signet.ErrMalformed},
		{"duplicate member", []byte(`{"kty":"oct","alg":"HS256","k":"` + hmacKey["k"].(string) + `","k":"AAAA"}`), "", signet.ErrMalformed},
		{"duplicate member after unescaping", []byte(`{"kty":"oct","alg":"HS256","k":"` + hmacKey["k"].(string) + `","\u006b":"AAAA"}`), "", signet.ErrMalformed},
		{"duplicate in nested member", []byte(`{"kty":"oct","alg":"HS256","k":"` + hmacKey["k"].(string) + `","ext":{"a":1,"a":2}}`), "", signet.ErrMalformed},
		{"nested too deep", []byte(`{"kty":"oct","alg":"HS256","k":"` + hmacKey["k"].(string) + `","z":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`), "", signet.ErrMalformed},
		{"base64 padding", hmacKey.with("k", hmacKey["k"].(string)+"=").json(t), "", signet.ErrMalformed},
		{"base64 padded block", hmacKey.with("k", b64(bytes.Repeat([]byte{7}, 33))+"==").json(t), "", signet.ErrMalformed},
		{"base64 line break", hmacKey.with("k", hmacKey["k"].(string)[:20]+"\n"+hmacKey["k"].(string)[20:]).json(t), "", signet.ErrMalformed},
		{"base64 standard alphabet", hmacKey.with("k", strings.Repeat("+/", 22)).json(t), "", signet.ErrMalformed},
		{"base64 trailing bits", hmacKey.with("k", hmacKey["k"].(string)[:42]+"B").json(t), "", signet.ErrMalformed},
		{"kid not a string", hmacKey.with("kid", 7).json(t), "", signet.ErrMalformed},
		{"alg null", []byte(`{"kty":"oct","alg":null,"k":"` + hmacKey["k"].(string) + `"}`), signet.HS256, signet.ErrMalformed},
		{"k not a string", hmacKey.with("k", []int{1, 2}).json(t), "", signet.ErrMalformed},
		{"missing kty", hmacKey.with("kty", nil).json(t), "", signet.ErrMalformed},
		{"missing k", hmacKey.with("k", nil).json(t), "", signet.ErrMalformed},

		// kty, alg, crv
		{"unknown kty", hmacKey.with("kty", "AKP").json(t), "", signet.ErrUnsupported},
		{"kty case", hmacKey.with("kty", "OCT").json(t), "", signet.ErrUnsupported},
		{"no alg", hmacKey.with("alg", nil).json(t), "", signet.ErrUnsupported},
		{"unknown alg", ec.with("alg", "ES256K").json(t), "", signet.ErrUnsupported},
		{"alg none", hmacKey.with("alg", "none").json(t), "", signet.ErrUnsupported},
		{"encryption alg", rsaKey.with("alg", "RSA-OAEP").json(t), "", signet.ErrUnsupported},
		{"ParseKeyFor other alg", hmacKey.json(t), signet.HS512, signet.ErrAlgorithmMismatch},
		{"ParseKeyFor unknown alg", hmacKey.with("alg", nil).json(t), "XS256", signet.ErrUnsupported},
		{"oct as RS256", hmacKey.with("alg", "RS256").json(t), "", signet.ErrAlgorithmMismatch},
		{"RSA as HS256", rsaPub.with("alg", "HS256").json(t), "", signet.ErrAlgorithmMismatch},
		{"RSA as ES256", rsaPub.with("alg", "ES256").json(t), "", signet.ErrAlgorithmMismatch},
		{"EC as EdDSA", ecPub.with("alg", "EdDSA").json(t), "", signet.ErrAlgorithmMismatch},
		{"OKP as ES256", ed.with("alg", "ES256").json(t), "", signet.ErrAlgorithmMismatch},
		{"EC as Ed25519 (RFC 9864)", ecPub.with("alg", "Ed25519").json(t), "", signet.ErrAlgorithmMismatch},
		{"alg Ed25519 with ParseKeyFor ES256", ed.with("alg", "Ed25519").json(t), signet.ES256, signet.ErrAlgorithmMismatch},
		{"alg Ed25519 with ParseKeyFor ed25519 (RFC 9421)", ed.with("alg", "Ed25519").json(t), signet.Ed25519, signet.ErrAlgorithmMismatch},
		{"alg ed25519 (RFC 9421) with ParseKeyFor EdDSA", ed.with("alg", "ed25519").json(t), signet.EdDSA, signet.ErrAlgorithmMismatch},
		{"alg Ed448 on an Ed25519 key", ed.with("alg", "Ed448").json(t), "", signet.ErrUnsupported},
		{"alg Ed25519 on an Ed448 key", ed.with("alg", "Ed25519", "crv", "Ed448").json(t), "", signet.ErrUnsupported},
		{"alg ED25519", ed.with("alg", "ED25519").json(t), "", signet.ErrUnsupported},
		{"wrong crv for alg", ecPub.with("alg", "ES384").json(t), "", signet.ErrAlgorithmMismatch},
		{"P-256 with ParseKeyFor ES512", ecPub.with("alg", nil).json(t), signet.ES512, signet.ErrAlgorithmMismatch},
		{"unknown crv", ecPub.with("crv", "secp256k1").json(t), "", signet.ErrUnsupported},
		{"missing crv", ecPub.with("crv", nil).json(t), "", signet.ErrMalformed},
		{"X25519", ed.with("crv", "X25519", "d", nil).json(t), "", signet.ErrUnsupported},
		{"Ed448", ed.with("crv", "Ed448", "d", nil).json(t), "", signet.ErrUnsupported},

		// use and key_ops
		{"oct use enc", hmacKey.with("use", "enc").json(t), "", signet.ErrKeyUsage},
		{"EC use enc", ecPub.with("use", "enc").json(t), "", signet.ErrKeyUsage},
		{"use unknown", hmacKey.with("use", "sign").json(t), "", signet.ErrKeyUsage},
		{"key_ops encrypt", hmacKey.with("key_ops", []string{"sign", "encrypt"}).json(t), "", signet.ErrKeyUsage},
		{"key_ops deriveKey", ecPub.with("key_ops", []string{"deriveKey"}).json(t), "", signet.ErrKeyUsage},
		{"key_ops repeated", hmacKey.with("key_ops", []string{"sign", "sign"}).json(t), "", signet.ErrMalformed},
		{"key_ops not array", hmacKey.with("key_ops", "sign").json(t), "", signet.ErrMalformed},
		{"key_ops empty", hmacKey.with("alg", "HS256", "key_ops", []string{}).json(t), "", signet.ErrKeyUsage}, // WebCrypto refuses it too

		// HMAC
		{"HS256 secret 31 bytes", hmacKey.with("k", b64(make([]byte, 31))).json(t), "", signet.ErrWeakKey},
		{"HS512 secret 32 bytes", hmacKey.with("alg", "HS512").json(t), "", signet.ErrWeakKey},
		{"empty secret", hmacKey.with("k", "").json(t), "", signet.ErrWeakKey},

		// EC
		{"EC point off curve", offCurve.json(t), "", signet.ErrWeakKey},
		{"EC point at zero", ecPub.with("x", b64(make([]byte, 32)), "y", b64(make([]byte, 32))).json(t), "", signet.ErrWeakKey},
		{"EC x short", ecPub.with("x", b64(make([]byte, 31))).json(t), "", signet.ErrMalformed},
		{"EC y long", ecPub.with("y", b64(make([]byte, 33))).json(t), "", signet.ErrMalformed},
		{"EC missing y", ecPub.with("y", nil).json(t), "", signet.ErrMalformed},
		{"EC d short", ec.with("d", b64(make([]byte, 31))).json(t), "", signet.ErrMalformed},
		{"EC d zero", ec.with("d", b64(make([]byte, 32))).json(t), "", signet.ErrWeakKey},
		{"EC d out of range", orderD.json(t), "", signet.ErrWeakKey},
		{"EC d not matching x,y", otherD.json(t), "", signet.ErrWeakKey},

		// OKP
		{"Ed25519 x short", ed.with("x", b64(make([]byte, 31)), "d", nil).json(t), "", signet.ErrMalformed},
		{"Ed25519 d long", ed.with("d", b64(make([]byte, 64))).json(t), "", signet.ErrMalformed},
		{"Ed25519 d not matching x", ed.with("d", b64(make([]byte, 32))).json(t), "", signet.ErrWeakKey},

		// RSA
		{"RSA 1024", rsa1024.json(t), "", signet.ErrWeakKey},
		{"RSA even e", rsaPub.with("e", "AQAC").json(t), "", signet.ErrWeakKey},
		{"RSA e = 1", rsaPub.with("e", "AQ").json(t), "", signet.ErrWeakKey},
		{"RSA e too large", rsaPub.with("e", b64([]byte{1, 0, 0, 0, 1})).json(t), "", signet.ErrWeakKey},
		{"RSA e empty", rsaPub.with("e", "").json(t), "", signet.ErrMalformed},
		{"RSA e leading zero", rsaPub.with("e", "AAEAAQ").json(t), "", signet.ErrMalformed},
		{"RSA missing n", rsaPub.with("n", nil).json(t), "", signet.ErrMalformed},
		{"RSA multi-prime", rsaKey.with("oth", []object{{"r": "AQAB", "d": "AQAB", "t": "AQAB"}}).json(t), "", signet.ErrUnsupported},
		{"RSA d without primes", rsaKey.with("p", nil, "q", nil, "dp", nil, "dq", nil, "qi", nil).json(t), "", signet.ErrUnsupported},
		{"RSA primes without d", rsaKey.with("d", nil).json(t), "", signet.ErrMalformed},
		{"RSA partial CRT", rsaKey.with("qi", nil).json(t), "", signet.ErrMalformed},
		{"RSA p without q", rsaKey.with("q", nil, "dp", nil, "dq", nil, "qi", nil).json(t), "", signet.ErrMalformed},
		{"RSA dp inconsistent", rsaKey.with("dp", b64(dp)).json(t), "", signet.ErrWeakKey},
		{"RSA p equals q", rsaKey.with("p", rsaKey["q"], "q", rsaKey["q"], "dp", nil, "dq", nil, "qi", nil).json(t), "", signet.ErrWeakKey},
		{"RSA huge p", rsaKey.with("p", b64(bytes.Repeat([]byte{0xff}, 40000)), "dp", nil, "dq", nil, "qi", nil).json(t), "", signet.ErrWeakKey},
		{"RSA huge q with CRT", rsaKey.with("q", b64(bytes.Repeat([]byte{0xfd}, 2000))).json(t), "", signet.ErrWeakKey},
		{"RSA modulus above MaxRSABits", rsaPub.with("n", b64(bytes.Repeat([]byte{0xff}, signet.MaxRSABits/8+1))).json(t), "", signet.ErrWeakKey},
		{"RSA d wrong", rsaKey.with("d", "AQAB", "dp", nil, "dq", nil, "qi", nil).json(t), "", signet.ErrWeakKey},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, err := jwk.ParseKeyFor(tt.data, tt.alg)
			// Oversized numbers are refused by their size, before any
			// arithmetic on them (which could take minutes): the error
			// says so.
			if strings.Contains(tt.name, "huge") && !strings.Contains(fmt.Sprint(err), "too large for the modulus") {
				t.Errorf("err = %v, want the size check's", err)
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if k != nil {
				t.Fatal("key returned with an error")
			}
		})
	}

	// The valid bases of the table parse, so each rejection is the change.
	for name, o := range map[string]object{"rsa": rsaKey, "rsaPub": rsaPub, "ec": ec, "ecPub": ecPub, "ed": ed, "hmac": hmacKey} {
		if _, err := jwk.ParseKey(o.json(t)); err != nil {
			t.Errorf("base %s: %v", name, err)
		}
	}
}

// TestParseKeyAccepts covers members that must not cause a rejection.
func TestParseKeyAccepts(t *testing.T) {
	hmacKey := object{"kty": "oct", "k": b64(bytes.Repeat([]byte{7}, 32))}
	tests := []struct {
		name string
		data []byte
		alg  signet.Algorithm
	}{
		{"alg given by caller", hmacKey.json(t), signet.HS256},
		{"alg in both, equal", hmacKey.with("alg", "HS256").json(t), signet.HS256},
		{"use sig", hmacKey.with("alg", "HS256", "use", "sig").json(t), ""},
		{"key_ops sign verify", hmacKey.with("alg", "HS256", "key_ops", []string{"verify", "sign"}).json(t), ""},
		{"unknown members", hmacKey.with("alg", "HS256", "ext", true, "x5t", "abc", "foo", object{"bar": []int{1}}).json(t), ""},
		{"whitespace", []byte(" \n{ \"kty\" : \"oct\", \"alg\":\"HS256\", \"k\": \"" + hmacKey["k"].(string) + "\" }\n"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, err := jwk.ParseKeyFor(tt.data, tt.alg)
			if err != nil {
				t.Fatal(err)
			}
			if k.Algorithm() != signet.HS256 {
				t.Fatalf("algorithm %s", k.Algorithm())
			}
		})
	}
}

func TestMarshalRejects(t *testing.T) {
	if _, err := jwk.Marshal(nil); !errors.Is(err, signet.ErrKeyUsage) {
		t.Fatalf("Marshal(nil): %v", err)
	}
	if _, err := jwk.MarshalPublic(nil); !errors.Is(err, signet.ErrKeyUsage) {
		t.Fatalf("MarshalPublic(nil): %v", err)
	}
	if _, err := jwk.MarshalPublic(keys(t)[signet.HS384]); !errors.Is(err, signet.ErrKeyUsage) {
		t.Fatalf("MarshalPublic(HS384): %v", err)
	}
}

// TestEd25519AlgName: a JWK with "alg":"Ed25519", RFC 9864's
// fully-specified name for EdDSA (jose 6 and openid-client 6 write it),
// is an EdDSA key: ParseKey binds it to signet.EdDSA, ParseKeyFor(EdDSA)
// accepts it, its thumbprint is RFC 8037 A.3's (RFC 7638 leaves "alg"
// out), and it is written back with "alg":"EdDSA".
func TestEd25519AlgName(t *testing.T) {
	ed := vectorObject(t, "rfc8037-a4-eddsa.json").with("alg", "Ed25519", "kid", "k1")
	for name, data := range map[string][]byte{"private": ed.json(t), "public": ed.with("d", nil).json(t)} {
		t.Run(name, func(t *testing.T) {
			for _, alg := range []signet.Algorithm{"", signet.EdDSA} {
				k, err := jwk.ParseKeyFor(data, alg)
				if err != nil {
					t.Fatalf("ParseKeyFor(%q): %v", alg, err)
				}
				if k.Algorithm() != signet.EdDSA || k.KeyID() != "k1" || k.CanSign() != (name == "private") {
					t.Fatalf("ParseKeyFor(%q): alg %s kid %q can sign %v", alg, k.Algorithm(), k.KeyID(), k.CanSign())
				}
				tp, err := jwk.Thumbprint(k)
				if err != nil || tp != loadVector(t, "rfc8037-a3-thumbprint.json").Thumbprint {
					t.Fatalf("thumbprint %s, %v", tp, err)
				}
				out, err := jwk.MarshalPublic(k)
				if err != nil || !strings.Contains(string(out), `"alg":"EdDSA"`) {
					t.Fatalf("MarshalPublic: %s, %v", out, err)
				}
			}
		})
	}
}
