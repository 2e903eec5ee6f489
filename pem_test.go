package signet_test

import (
	"bytes"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync"
	"testing"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/signet-go/signet"
)

// pemKeys holds one generated key per asymmetric algorithm, made once: RSA
// generation is slow under -race.
var pemKeys = sync.OnceValue(func() map[signet.Algorithm]*signet.Key {
	m := make(map[signet.Algorithm]*signet.Key)
	var rsaKey *signet.Key
	for _, alg := range signet.JWSAlgorithms() {
		if alg.Symmetric() {
			continue
		}
		var k *signet.Key
		var err error
		if rsaKey != nil && (strings.HasPrefix(string(alg), "RS") || strings.HasPrefix(string(alg), "PS")) {
			k, err = signet.NewKey(alg, rsaKey.Material())
		} else {
			k, err = signet.GenerateKey(alg)
		}
		if err != nil {
			panic(err)
		}
		if alg == signet.RS256 {
			rsaKey = k
		}
		m[alg] = k
	}
	return m
})

func pemBlock(typ string, der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der})
}

func TestPEMRoundTrip(t *testing.T) {
	for alg, k := range pemKeys() {
		pub, err := k.Public()
		if err != nil {
			t.Fatal(err)
		}
		for _, key := range []*signet.Key{k, pub} {
			name := fmt.Sprintf("%s/private=%v", alg, key.CanSign())
			t.Run(name, func(t *testing.T) {
				data, err := signet.MarshalPEM(key)
				if err != nil {
					t.Fatal(err)
				}
				want := "-----BEGIN PUBLIC KEY-----"
				if key.CanSign() {
					want = "-----BEGIN PRIVATE KEY-----"
				}
				if !bytes.HasPrefix(data, []byte(want)) {
					t.Fatalf("PEM starts %q, want %q", data[:min(len(data), 30)], want)
				}
				got, err := signet.ParsePEM(data, alg)
				if err != nil {
					t.Fatal(err)
				}
				if !got.Equal(key) || got.Algorithm() != alg {
					t.Fatal("round trip changed the key")
				}
				// Inference: unambiguous for EC and Ed25519, refused for RSA.
				got, err = signet.ParsePEM(data, "")
				if alg.String()[0] == 'R' || alg.String()[0] == 'P' {
					if !errors.Is(err, signet.ErrUnsupported) {
						t.Fatalf("RSA without alg: err = %v, want ErrUnsupported", err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if got.Algorithm() != alg || !got.Equal(key) {
					t.Fatalf("inferred %s, want %s", got.Algorithm(), alg)
				}
			})
		}
	}
}

func TestPEMLegacyFormats(t *testing.T) {
	keys := pemKeys()
	rsaPri := keys[signet.RS256].Material().(*rsa.PrivateKey)
	ecPri := keys[signet.ES384].Material().(*ecdsa.PrivateKey)
	sec1, err := x509.MarshalECPrivateKey(ecPri)
	if err != nil {
		t.Fatal(err)
	}
	params := pemBlock("EC PARAMETERS", []byte{0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22})
	tests := []struct {
		name string
		data []byte
		alg  signet.Algorithm
		want *signet.Key
	}{
		{"PKCS1 private", pemBlock("RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(rsaPri)), signet.PS256, keys[signet.PS256]},
		{"PKCS1 public", pemBlock("RSA PUBLIC KEY", x509.MarshalPKCS1PublicKey(&rsaPri.PublicKey)), signet.RS512, mustPublic(t, keys[signet.RS512])},
		{"SEC1", pemBlock("EC PRIVATE KEY", sec1), "", keys[signet.ES384]},
		{"SEC1 after EC PARAMETERS", append(params, pemBlock("EC PRIVATE KEY", sec1)...), signet.ES384, keys[signet.ES384]},
		{"leading text", append([]byte("a comment\n"), pemBlock("EC PRIVATE KEY", sec1)...), "", keys[signet.ES384]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := signet.ParsePEM(tt.data, tt.alg)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(tt.want) {
				t.Fatal("parsed key differs")
			}
		})
	}
}

func mustPublic(t *testing.T, k *signet.Key) *signet.Key {
	t.Helper()
	p, err := k.Public()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPEMRejects(t *testing.T) {
	keys := pemKeys()
	ecPEM, err := signet.MarshalPEM(keys[signet.ES256])
	if err != nil {
		t.Fatal(err)
	}
	rsaPEM, err := signet.MarshalPEM(keys[signet.RS256])
	if err != nil {
		t.Fatal(err)
	}
	edPEM, err := signet.MarshalPEM(keys[signet.EdDSA])
	if err != nil {
		t.Fatal(err)
	}
	weakRSA, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	p224, err := ecdsa.GenerateKey(elliptic.P224(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	p224DER, err := x509.MarshalPKCS8PrivateKey(p224)
	if err != nil {
		t.Fatal(err)
	}
	x25519, err := ecdh.X25519().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	x25519DER, err := x509.MarshalPKCS8PrivateKey(x25519)
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(ecPEM)
	encrypted := pem.EncodeToMemory(&pem.Block{
		Type:    "EC PRIVATE KEY",
		Headers: map[string]string{"Proc-Type": "4,ENCRYPTED", "DEK-Info": "AES-128-CBC,00000000000000000000000000000000"},
		Bytes:   block.Bytes,
	})
	// secp256k1 in an SPKI: well-formed DER for a curve signet does not have.
	k1 := []byte{0x30, 0x56, 0x30, 0x10, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01,
		0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x0a, 0x03, 0x42, 0x00, 0x04}
	k1 = append(k1, make([]byte, 64)...)

	// PKCS #1 with a prime far larger than the modulus allows: refused
	// before crypto/rsa spends minutes on it.
	rsaPri := keys[signet.RS256].Material().(*rsa.PrivateKey)
	hugeP, err := asn1.Marshal(struct {
		Version               int
		N                     *big.Int
		E                     int
		D, P, Q, Dp, Dq, Qinv *big.Int
	}{0, rsaPri.N, rsaPri.E, rsaPri.D, new(big.Int).Lsh(big.NewInt(1), 8*40000), rsaPri.Primes[1],
		rsaPri.Precomputed.Dp, rsaPri.Precomputed.Dq, rsaPri.Precomputed.Qinv})
	if err != nil {
		t.Fatal(err)
	}
	hugeP8, err := asn1.Marshal(struct {
		Version    int
		Algo       pkix.AlgorithmIdentifier
		PrivateKey []byte
	}{0, pkix.AlgorithmIdentifier{Algorithm: asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 1}, Parameters: asn1.NullRawValue}, hugeP})
	if err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name string
		data []byte
		alg  signet.Algorithm
		want error
	}{
		{"RSA huge prime PKCS1", pemBlock("RSA PRIVATE KEY", hugeP), signet.RS256, signet.ErrWeakKey},
		{"RSA huge prime PKCS8", pemBlock("PRIVATE KEY", hugeP8), signet.RS256, signet.ErrWeakKey},
		{"too large", append(bytes.Repeat([]byte(" "), signet.MaxPEMSize), ecPEM...), "", signet.ErrTooLarge},
		{"empty", nil, "", signet.ErrMalformed},
		{"garbage", []byte("not a key at all"), signet.ES256, signet.ErrMalformed},
		{"bad DER", pemBlock("PRIVATE KEY", []byte{0x30, 0x03, 0x02, 0x01}), signet.ES256, signet.ErrMalformed},
		{"PKCS1 in PKCS8 block", pemBlock("PRIVATE KEY", x509.MarshalPKCS1PrivateKey(weakRSA)), signet.RS256, signet.ErrMalformed},
		{"two blocks", append(append([]byte(nil), ecPEM...), ecPEM...), "", signet.ErrMalformed},
		{"key then certificate", append(append([]byte(nil), ecPEM...), pemBlock("CERTIFICATE", []byte{1})...), "", signet.ErrMalformed},
		{"encrypted", encrypted, signet.ES256, signet.ErrUnsupported},
		{"encrypted PKCS8", pemBlock("ENCRYPTED PRIVATE KEY", []byte{0x30, 0}), signet.ES256, signet.ErrUnsupported},
		{"certificate", pemBlock("CERTIFICATE", []byte{0x30, 0}), signet.ES256, signet.ErrUnsupported},
		{"RSA without alg", rsaPEM, "", signet.ErrUnsupported},
		{"unknown alg", ecPEM, "ES256K", signet.ErrUnsupported},
		{"none alg", ecPEM, "none", signet.ErrUnsupported},
		{"P-224", pemBlock("PRIVATE KEY", p224DER), "", signet.ErrUnsupported},
		{"P-224 as ES256", pemBlock("PRIVATE KEY", p224DER), signet.ES256, signet.ErrAlgorithmMismatch},
		{"X25519", pemBlock("PRIVATE KEY", x25519DER), "", signet.ErrUnsupported},
		{"secp256k1", pemBlock("PUBLIC KEY", k1), "", signet.ErrUnsupported},
		{"EC as ES384", ecPEM, signet.ES384, signet.ErrAlgorithmMismatch},
		{"EC as RS256", ecPEM, signet.RS256, signet.ErrAlgorithmMismatch},
		{"RSA as HS256", rsaPEM, signet.HS256, signet.ErrAlgorithmMismatch},
		{"RSA as ES256", rsaPEM, signet.ES256, signet.ErrAlgorithmMismatch},
		{"Ed25519 as ES256", edPEM, signet.ES256, signet.ErrAlgorithmMismatch},
		{"RSA 1024 PKCS1", pemBlock("RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(weakRSA)), signet.RS256, signet.ErrWeakKey},
		{"RSA 1024 PKCS1 public", pemBlock("RSA PUBLIC KEY", x509.MarshalPKCS1PublicKey(&weakRSA.PublicKey)), signet.PS256, signet.ErrWeakKey},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, err := signet.ParsePEM(tt.data, tt.alg)
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
}

func TestMarshalPEMRejectsHMAC(t *testing.T) {
	k, err := signet.GenerateKey(signet.HS256)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := signet.MarshalPEM(k); !errors.Is(err, signet.ErrKeyUsage) {
		t.Fatalf("err = %v, want ErrKeyUsage", err)
	}
	if _, err := signet.MarshalPEM(nil); !errors.Is(err, signet.ErrKeyUsage) {
		t.Fatalf("nil key: err = %v, want ErrKeyUsage", err)
	}
}

func ExampleParsePEM() {
	// A key from elsewhere, e.g. `openssl genpkey -algorithm ed25519`.
	k, _ := signet.GenerateKey(signet.EdDSA)
	data, _ := signet.MarshalPEM(k)

	// Ed25519 and EC keys name their algorithm; RSA keys need it stated.
	key, err := signet.ParsePEM(data, "")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(key.Algorithm(), key.CanSign())
	// Output: EdDSA true
}

func FuzzParsePEM(f *testing.F) {
	for alg, k := range pemKeys() {
		if alg != signet.RS256 && alg != signet.ES256 && alg != signet.ES512 && alg != signet.EdDSA {
			continue
		}
		data, err := signet.MarshalPEM(k)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, string(alg))
		f.Add(data, "")
		pub, _ := k.Public()
		data, _ = signet.MarshalPEM(pub)
		f.Add(data, "")
	}
	f.Add([]byte("-----BEGIN PRIVATE KEY-----\nMAA=\n-----END PRIVATE KEY-----\n"), "")
	f.Add([]byte("-----BEGIN EC PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n\nMAA=\n-----END EC PRIVATE KEY-----\n"), "ES256")
	f.Add([]byte("garbage"), "HS256")
	// A small-order Ed25519 public key (the identity): ErrWeakKey.
	identity, err := x509.MarshalPKIXPublicKey(ed25519.PublicKey(append([]byte{1}, make([]byte, 31)...)))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(pemBlock("PUBLIC KEY", identity), "")
	// id-RSASSA-PSS keys with and without parameters, as OpenSSL writes them.
	for _, name := range []string{"sha256-salt32", "unrestricted", "sha1"} {
		private, public := pssKeyFiles(f, name)
		f.Add(private, "")
		f.Add(public, "PS256")
	}
	f.Fuzz(func(t *testing.T, data []byte, alg string) {
		k, err := signet.ParsePEM(data, signet.Algorithm(alg))
		if err != nil {
			if k != nil {
				t.Fatal("key returned with an error")
			}
			if !isSentinel(err) {
				t.Fatalf("error wraps no sentinel: %v", err)
			}
			return
		}
		out, err := signet.MarshalPEM(k)
		if err != nil {
			t.Fatalf("parsed key does not marshal: %v", err)
		}
		k2, err := signet.ParsePEM(out, k.Algorithm())
		if err != nil {
			t.Fatalf("marshalled key does not parse: %v", err)
		}
		if !k2.Equal(k) {
			t.Fatal("round trip changed the key")
		}
	})
}

// A SEC 1 key whose public point is another key's: ParsePEM binds the
// public half crypto/x509 derives from the scalar, never the stored one,
// so a key parsed from PEM always signs with a consistent pair.
func TestPEMDerivesPublicHalf(t *testing.T) {
	a, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	bPub, err := b.PublicKey.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	aPriv, err := a.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	der, err := asn1.Marshal(struct {
		Version    int
		PrivateKey []byte
		Curve      asn1.ObjectIdentifier `asn1:"optional,explicit,tag:0"`
		PublicKey  asn1.BitString        `asn1:"optional,explicit,tag:1"`
	}{1, aPriv, asn1.ObjectIdentifier{1, 2, 840, 10045, 3, 1, 7}, asn1.BitString{Bytes: bPub, BitLength: 8 * len(bPub)}})
	if err != nil {
		t.Fatal(err)
	}
	k, err := signet.ParsePEM(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der}), signet.ES256)
	if err != nil {
		t.Fatal(err)
	}
	if !k.PublicMaterial().(*ecdsa.PublicKey).Equal(&a.PublicKey) {
		t.Fatal("the parsed key's public half is not its scalar's")
	}
	sig, err := k.Sign(nil, []byte("msg"))
	if err != nil {
		t.Fatal(err)
	}
	pub, err := signet.NewKey(signet.ES256, &a.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	if err := pub.Verify([]byte("msg"), sig); err != nil {
		t.Fatalf("signature of the parsed key: %v", err)
	}
}

// A PKCS #8 RSA key with an oversized odd prime and no CRT values costs
// crypto/x509 minutes to validate; the bound must hold whatever follows the
// envelope (crypto/x509 ignores trailing bytes), and malformed algorithm
// parameters are refused as before.
func TestPEMEnvelopeStrict(t *testing.T) {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	hugeP := new(big.Int).Add(new(big.Int).Lsh(big.NewInt(1), 8*1000), big.NewInt(1))
	inner, err := asn1.Marshal(struct {
		Version int
		N       *big.Int
		E       int
		D, P, Q *big.Int
	}{0, k.N, k.E, k.D, hugeP, k.Primes[1]})
	if err != nil {
		t.Fatal(err)
	}
	envelope := func(oid asn1.ObjectIdentifier, params []byte, key []byte) []byte {
		var b cryptobyte.Builder
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			b.AddASN1Int64(0)
			b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
				b.AddASN1ObjectIdentifier(oid)
				b.AddBytes(params)
			})
			b.AddASN1OctetString(key)
		})
		return b.BytesOrPanic()
	}
	fiveInts, err := asn1.Marshal(struct {
		Version int
		N       *big.Int
		E       int
		D, P    *big.Int
	}{0, k.N, k.E, k.D, k.Primes[0]})
	if err != nil {
		t.Fatal(err)
	}
	rsaOID := asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 1}
	pssOID := asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 10}
	huge := envelope(rsaOID, []byte{5, 0}, inner)
	good := envelope(pssOID, nil, x509.MarshalPKCS1PrivateKey(k))
	for _, c := range []struct {
		name string
		der  []byte
		alg  signet.Algorithm
		want error
	}{
		{"huge prime", huge, signet.RS256, signet.ErrWeakKey},
		{"huge prime, a byte after the envelope", append(append([]byte(nil), huge...), 0), signet.RS256, signet.ErrMalformed},
		{"PSS key, garbage parameters", envelope(pssOID, []byte{0xff}, x509.MarshalPKCS1PrivateKey(k)), signet.RSAPSSSHA512, signet.ErrMalformed},
		{"PSS key, truncated parameters", envelope(pssOID, []byte{0x30, 0x05, 0x01}, x509.MarshalPKCS1PrivateKey(k)), signet.RSAPSSSHA512, signet.ErrMalformed},
		{"PSS key, a byte after the envelope", append(append([]byte(nil), good...), 0), signet.RSAPSSSHA512, signet.ErrMalformed},
		{"RSA key of five integers", envelope(rsaOID, []byte{5, 0}, fiveInts), signet.RS256, signet.ErrMalformed},
		{"RSA key, not a SEQUENCE", envelope(rsaOID, []byte{5, 0}, []byte{4, 1, 0}), signet.RS256, signet.ErrMalformed},
	} {
		_, err := signet.ParsePEM(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: c.der}), c.alg)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	if _, err := signet.ParsePEM(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: good}), signet.RSAPSSSHA512); err != nil {
		t.Fatalf("a well-formed PSS key: %v", err)
	}
}

// isSentinel reports whether err wraps one of the sentinels a key parser
// returns.
func isSentinel(err error) bool {
	for _, s := range []error{
		signet.ErrMalformed, signet.ErrTooLarge, signet.ErrUnsupported, signet.ErrWeakKey,
		signet.ErrAlgorithmMismatch, signet.ErrKeyUsage,
	} {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// TestPEMErrorsWrapSentinels: PEM keys of every kind, cut at many lengths
// and with characters of their base64 (so of their DER) replaced, are read
// with and without an algorithm: every error wraps a sentinel, and no key
// comes with one (issue 14: every error of every package).
func TestPEMErrorsWrapSentinels(t *testing.T) {
	var seeds [][]byte
	for alg, k := range pemKeys() {
		if alg == signet.RS384 || alg == signet.RS512 || alg == signet.PS384 || alg == signet.PS512 {
			continue // the RS256 key again
		}
		for _, kk := range []*signet.Key{k, mustPublic(t, k)} {
			data, err := signet.MarshalPEM(kk)
			if err != nil {
				t.Fatal(err)
			}
			seeds = append(seeds, data)
		}
	}
	refused := 0
	for _, seed := range seeds {
		stride := 1 + len(seed)/60
		var inputs [][]byte
		for i := 0; i < len(seed); i += stride {
			inputs = append(inputs, seed[:i])
			for _, c := range []byte("A/+-\n") {
				v := bytes.Clone(seed)
				v[i] = c
				inputs = append(inputs, v)
			}
		}
		for _, in := range inputs {
			for _, alg := range []signet.Algorithm{"", signet.RS256, signet.ES256} {
				k, err := signet.ParsePEM(in, alg)
				if err == nil {
					continue
				}
				refused++
				if k != nil || !isSentinel(err) {
					t.Fatalf("ParsePEM(%q, %q): key %v, error wraps no sentinel: %v", in, alg, k != nil, err)
				}
			}
		}
	}
	if refused < 1000 {
		t.Fatalf("only %d inputs were refused: the sweep tests little", refused)
	}
}
