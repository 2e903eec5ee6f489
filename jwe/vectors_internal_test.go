package jwe

import (
	"bytes"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/tokentest"
)

// vector is one JWE file of testdata/jwe (see its README for the sources).
type vector struct {
	Source    string            `json:"source"`
	Alg       signet.Algorithm  `json:"alg"`
	Enc       signet.Encryption `json:"enc"`
	Key       map[string]string `json:"key"`
	Password  string            `json:"password"`
	Plaintext string            `json:"plaintext"`
	CEK       string            `json:"cek"`
	IV        string            `json:"iv"`
	Token     string            `json:"token"`
}

func readVector(t *testing.T, name string) vector {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "jwe", name))
	if err != nil {
		t.Fatal(err)
	}
	var v vector
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// stateAndHeader makes the key (alg, enc, kid, material) that decrypts a
// published example and parses the example's header: the key, its state
// and the header it reads.
func stateAndHeader(t *testing.T, alg signet.Algorithm, enc signet.Encryption, kid string, material any, hdr json.RawMessage) (*signet.Key, *keyState, header) {
	t.Helper()
	k, err := signet.NewEncryptionKeyWithID(alg, enc, kid, material)
	if err != nil {
		t.Fatal(err)
	}
	h, err := parseHeader(string(hdr))
	if err != nil {
		t.Fatal(err)
	}
	return k, stateOf(k), h
}

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func bigOf(t testing.TB, s string) *big.Int { return new(big.Int).SetBytes(tokentest.Unb64(t, s)) }

// jwkMaterial turns the JWKs of the vectors into key material (package
// jwk does not read JWE keys).
func jwkMaterial(t testing.TB, k map[string]string) any {
	t.Helper()
	switch k["kty"] {
	case "oct":
		return tokentest.Unb64(t, k["k"])
	case "RSA":
		pk := &rsa.PrivateKey{PublicKey: rsa.PublicKey{N: bigOf(t, k["n"]), E: int(bigOf(t, k["e"]).Int64())},
			D: bigOf(t, k["d"]), Primes: []*big.Int{bigOf(t, k["p"]), bigOf(t, k["q"])}}
		return pk
	case "EC":
		c := map[string]elliptic.Curve{"P-256": elliptic.P256(), "P-384": elliptic.P384()}[k["crv"]]
		pk, err := ecdsa.ParseRawPrivateKey(c, tokentest.Unb64(t, k["d"]))
		if err != nil {
			t.Fatal(err)
		}
		pub, err := pk.PublicKey.Bytes()
		if err != nil || !bytes.Equal(pub, append(append([]byte{4}, tokentest.Unb64(t, k["x"])...), tokentest.Unb64(t, k["y"])...)) {
			t.Fatal("d does not give (x, y)")
		}
		return pk
	}
	t.Fatalf("kty %q", k["kty"])
	return nil
}

func vectorKey(t *testing.T, v vector) *signet.Key {
	t.Helper()
	var m any = []byte(v.Password)
	if v.Key != nil {
		m = jwkMaterial(t, v.Key)
	}
	k, err := signet.NewEncryptionKeyWithID(v.Alg, v.Enc, v.Key["kid"], m)
	if err != nil {
		t.Fatalf("%s: %v", v.Source, err)
	}
	return k
}

// fixedReader hands out the published CEK, IVs and salts in the order
// encryption draws them.
type fixedReader struct{ parts [][]byte }

func (r *fixedReader) Read(p []byte) (int, error) {
	if len(r.parts) == 0 || len(r.parts[0]) != len(p) {
		return 0, errors.New("fixedReader: unexpected read")
	}
	copy(p, r.parts[0])
	r.parts = r.parts[1:]
	return len(p), nil
}

// TestRFCVectors decrypts every published example in scope: RFC 7516
// A.1 and A.3, RFC 7520 §5.2 to §5.8 (compact serializations), and
// refuses the RSA1_5 ones (RFC 7516 A.2, RFC 7520 §5.1).
func TestRFCVectors(t *testing.T) {
	files, err := filepath.Glob("../testdata/jwe/rfc75*.json")
	if err != nil || len(files) < 10 {
		t.Fatalf("vectors: %v (%d files)", err, len(files))
	}
	for _, f := range files {
		name := filepath.Base(f)
		if strings.HasPrefix(name, "rfc7518-") {
			continue // not tokens: TestRFC7518AppendixB, TestRFC7518AppendixC
		}
		t.Run(name, func(t *testing.T) {
			v := readVector(t, name)
			if v.Alg == "RSA1_5" {
				// Any key: the header is refused before one is chosen.
				k, _ := signet.GenerateEncryptionKey(signet.Dir, v.Enc)
				_, _, err := DecryptBytes(k, v.Token, Policy{})
				if !errors.Is(err, signet.ErrUnsupported) {
					t.Fatalf("RSA1_5: %v, want ErrUnsupported", err)
				}
				return
			}
			k := vectorKey(t, v)
			// No typ in these headers: a Policy.Type refuses them.
			if _, _, err := DecryptBytes(k, v.Token, Policy{Type: "at+jwt"}); !errors.Is(err, signet.ErrType) {
				t.Fatalf("Policy.Type: %v", err)
			}
			pt, h, err := DecryptBytes(k, v.Token, Policy{})
			if err != nil {
				t.Fatal(err)
			}
			if string(pt) != v.Plaintext {
				t.Fatalf("plaintext %q", pt)
			}
			if h.Algorithm != v.Alg || h.Encryption != v.Enc || h.KeyID != v.Key["kid"] {
				t.Fatalf("header %+v", h)
			}
		})
	}
}

// TestRFC7516A3Exact re-encrypts RFC 7516 A.3 with its CEK and IV: the
// token is the published one, byte for byte (the header is written in the
// RFC's member order).
func TestRFC7516A3Exact(t *testing.T) {
	v := readVector(t, "rfc7516-a3-a128kw.json")
	k := vectorKey(t, v)
	st, err := encState(k)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := st.encrypt("", []byte(v.Plaintext), "", &Options{}, &fixedReader{[][]byte{tokentest.Unb64(t, v.CEK), tokentest.Unb64(t, v.IV)}})
	if err != nil {
		t.Fatal(err)
	}
	if tok != v.Token {
		t.Fatalf("got  %s\nwant %s", tok, v.Token)
	}
}

// TestRFC7520Exact re-does the key management and content encryption of
// the RFC 7520 examples with their CEK, IVs and salt: the encrypted key,
// ciphertext and tag are the published ones. (The headers are not ours:
// the RFC orders members otherwise, so the published protected header is
// the AAD here.)
func TestRFC7520Exact(t *testing.T) {
	for _, c := range []struct {
		file  string
		extra func(h header) [][]byte // what encryption draws after the CEK
		count int
	}{
		{"rfc7520-5.3-pbes2-hs512-a256kw.json", func(h header) [][]byte { return [][]byte{tokentest.Unb64(t, h.p2s)} }, 8192},
		{"rfc7520-5.6-dir.json", nil, 0},
		{"rfc7520-5.7-a256gcmkw.json", func(h header) [][]byte { return [][]byte{tokentest.Unb64(t, h.iv)} }, 0},
		{"rfc7520-5.8-a128kw.json", func(h header) [][]byte { return nil }, 0},
	} {
		t.Run(c.file, func(t *testing.T) {
			v := readVector(t, c.file)
			k := vectorKey(t, v)
			st, err := encState(k)
			if err != nil {
				t.Fatal(err)
			}
			seg := strings.Split(v.Token, ".")
			h, err := parseHeader(string(tokentest.Unb64(t, seg[0])))
			if err != nil {
				t.Fatal(err)
			}
			ck := st.dir
			if c.extra != nil {
				r := &fixedReader{append([][]byte{tokentest.Unb64(t, v.CEK)}, c.extra(h)...)}
				var extra, ek []byte
				ck, ek, extra, err = st.wrapNew(nil, &Options{PBES2Count: c.count}, r)
				if err != nil {
					t.Fatal(err)
				}
				if got := base64.RawURLEncoding.EncodeToString(ek); got != seg[1] {
					t.Fatalf("encrypted key %s, want %s", got, seg[1])
				}
				if h.tag != "" && !strings.Contains(string(extra), `"tag":"`+h.tag+`"`) {
					t.Fatalf("key-wrap members %s, want tag %s", extra, h.tag)
				}
			}
			iv := tokentest.Unb64(t, v.IV)
			ctLen := st.ce.ctSize(len(v.Plaintext))
			raw := make([]byte, len(iv)+ctLen+st.ce.tagSize)
			copy(raw, iv)
			copy(raw[len(iv):], v.Plaintext)
			ct, tag := ck.seal(raw[len(iv):], raw[:len(iv)], len(v.Plaintext), []byte(seg[0]))
			if got := base64.RawURLEncoding.EncodeToString(ct); got != seg[3] {
				t.Fatalf("ciphertext %s, want %s", got, seg[3])
			}
			if got := base64.RawURLEncoding.EncodeToString(tag); got != seg[4] {
				t.Fatalf("tag %s, want %s", got, seg[4])
			}
		})
	}
}

// TestRFC7518AppendixB: AES_CBC_HMAC_SHA2 known answers, both ways.
func TestRFC7518AppendixB(t *testing.T) {
	data, err := os.ReadFile("../testdata/jwe/rfc7518-b-cbc-hs.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []struct {
			Section, Enc, Key, Plaintext, IV, AAD, Ciphertext, Tag string
		}
	}
	if err := json.Unmarshal(data, &file); err != nil || len(file.Cases) != 3 {
		t.Fatalf("%v, %d cases", err, len(file.Cases))
	}
	for _, c := range file.Cases {
		t.Run(c.Section, func(t *testing.T) {
			ce := ceOf(signet.Encryption(c.Enc))
			ck, err := newContentKey(ce, unhex(t, c.Key))
			if err != nil {
				t.Fatal(err)
			}
			pt, iv, aad := unhex(t, c.Plaintext), unhex(t, c.IV), unhex(t, c.AAD)
			raw := make([]byte, len(iv)+ce.ctSize(len(pt))+ce.tagSize)
			copy(raw, iv)
			copy(raw[len(iv):], pt)
			ct, tag := ck.seal(raw[len(iv):], raw[:len(iv)], len(pt), aad)
			if hex.EncodeToString(ct) != c.Ciphertext || hex.EncodeToString(tag) != c.Tag {
				t.Fatalf("got %x / %x", ct, tag)
			}
			got, err := ck.open(append([]byte(nil), ct...), iv, tag, aad)
			if err != nil || !bytes.Equal(got, pt) {
				t.Fatalf("open: %q, %v", got, err)
			}
			// A flipped tag bit is refused before any decryption.
			bad := append([]byte(nil), tag...)
			bad[len(bad)-1] ^= 1
			if _, err := ck.open(append([]byte(nil), ct...), iv, bad, aad); !errors.Is(err, signet.ErrSignatureInvalid) {
				t.Fatalf("bad tag: %v", err)
			}
		})
	}
}

// TestRFC7518AppendixC: the ECDH-ES key agreement example; Bob's key and
// Alice's ephemeral key agree on Z, whose Concat KDF output (apu "Alice",
// apv "Bob", enc A128GCM) is the published key, both through concatKDF
// and through the header parser and unwrap that decryption uses.
func TestRFC7518AppendixC(t *testing.T) {
	data, err := os.ReadFile("../testdata/jwe/rfc7518-c-ecdh-es.json")
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Bob        map[string]string `json:"bob_key"`
		Alice      map[string]string `json:"alice_ephemeral_key"`
		Header     json.RawMessage   `json:"header"`
		DerivedKey string            `json:"derived_key"`
	}
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	bob, err := jwkMaterial(t, c.Bob).(*ecdsa.PrivateKey).ECDH()
	if err != nil {
		t.Fatal(err)
	}
	alice, err := jwkMaterial(t, c.Alice).(*ecdsa.PrivateKey).ECDH()
	if err != nil {
		t.Fatal(err)
	}
	z, err := alice.ECDH(bob.PublicKey())
	if err != nil {
		t.Fatal(err)
	}
	if got := concatKDF(nil, z, "A128GCM", []byte("Alice"), []byte("Bob"), 16); !bytes.Equal(got, tokentest.Unb64(t, c.DerivedKey)) {
		t.Fatalf("derived %x", got)
	}
	// The same through the header: parseEPK, ECDH with Bob's key, apu/apv.
	_, st, h := stateAndHeader(t, signet.ECDHES, signet.A128GCM, "", bob, c.Header)
	ck, err := st.unwrap(&h, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The content key is the derived key: it opens what the derived key seals.
	want, _ := newContentKey(st.ce, tokentest.Unb64(t, c.DerivedKey))
	raw := make([]byte, 12+5+16)
	copy(raw[12:], "hello")
	ct, tag := want.seal(raw[12:], raw[:12], 5, nil)
	if pt, err := ck.open(ct, raw[:12], tag, nil); err != nil || string(pt) != "hello" {
		t.Fatalf("derived key differs: %q, %v", pt, err)
	}
}

// TestRFC8037A6: ECDH-ES with X25519. Bob's key (RFC 7748 §6.1) is the
// A.6 public key, the ephemeral key is the published one, and the shared
// secret decryption computes from the header's epk is the published Z;
// a token made on that agreement decrypts.
func TestRFC8037A6(t *testing.T) {
	data, err := os.ReadFile("../testdata/jwe/rfc8037-a6-x25519.json")
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		BobPublic  string          `json:"bob_public_x"`
		BobPrivate string          `json:"bob_private_hex"`
		EphPrivate string          `json:"ephemeral_private_hex"`
		EphPublic  string          `json:"ephemeral_public_x"`
		Header     json.RawMessage `json:"header"`
		Z          string          `json:"z_hex"`
	}
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	bob, err := ecdh.X25519().NewPrivateKey(unhex(t, c.BobPrivate))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(bob.PublicKey().Bytes(), tokentest.Unb64(t, c.BobPublic)) {
		t.Fatal("Bob's private key does not give the A.6 public key")
	}
	eph, err := ecdh.X25519().NewPrivateKey(unhex(t, c.EphPrivate))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(eph.PublicKey().Bytes(), tokentest.Unb64(t, c.EphPublic)) {
		t.Fatal("ephemeral key does not give the A.6 epk")
	}
	k, st, h := stateAndHeader(t, signet.ECDHESA128KW, signet.A128GCM, "Bob", bob, c.Header)
	epk, err := parseEPK(h.epk, st)
	if err != nil {
		t.Fatal(err)
	}
	z, err := st.ecPri.ECDH(epk)
	if err != nil || hex.EncodeToString(z) != c.Z {
		t.Fatalf("Z %x, %v", z, err)
	}
	// A token on this agreement: the A.6 header, a CEK wrapped with the
	// KEK derived from Z, content under the CEK.
	kek, _ := newAES(concatKDF(nil, z, "ECDH-ES+A128KW", nil, nil, 16))
	cek := bytes.Repeat([]byte{7}, 16)
	ek := kwWrap(nil, kek, cek)
	hdr := base64.RawURLEncoding.EncodeToString(c.Header)
	ck, _ := newContentKey(st.ce, cek)
	raw := make([]byte, 12+5+16)
	copy(raw[12:], "hello")
	ct, tag := ck.seal(raw[12:], raw[:12], 5, []byte(hdr))
	enc := base64.RawURLEncoding.EncodeToString
	tok := hdr + "." + enc(ek) + "." + enc(raw[:12]) + "." + enc(ct) + "." + enc(tag)
	pt, hd, err := DecryptBytes(k, tok, Policy{})
	if err != nil || string(pt) != "hello" || hd.KeyID != "Bob" {
		t.Fatalf("%q %+v %v", pt, hd, err)
	}
}
