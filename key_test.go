package signet_test

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"errors"
	"math/big"
	"testing"

	"github.com/signet-go/signet"
)

func TestKeyEveryAlgorithm(t *testing.T) {
	msg := []byte("header.payload")
	for _, alg := range signet.JWSAlgorithms() {
		t.Run(string(alg), func(t *testing.T) {
			k, err := signet.GenerateKeyWithID(alg, "kid-1")
			if err != nil {
				t.Fatal(err)
			}
			if k.Algorithm() != alg || k.KeyID() != "kid-1" || !k.CanSign() {
				t.Fatalf("key %s %q %v", k.Algorithm(), k.KeyID(), k.CanSign())
			}
			sig, err := k.Sign([]byte("prefix"), msg)
			if err != nil {
				t.Fatal(err)
			}
			if string(sig[:6]) != "prefix" || len(sig)-6 != k.SignatureSize() {
				t.Fatalf("signature appended wrongly: %d bytes, size %d", len(sig)-6, k.SignatureSize())
			}
			sig = sig[6:]
			verifier := k
			if !k.Symmetric() {
				if verifier, err = k.Public(); err != nil {
					t.Fatal(err)
				}
				if verifier.CanSign() || verifier.KeyID() != "kid-1" || verifier.Algorithm() != alg {
					t.Fatal("public half wrong")
				}
				if _, err := verifier.Sign(nil, msg); !errors.Is(err, signet.ErrKeyUsage) {
					t.Fatalf("public key signed: %v", err)
				}
				if p, _ := verifier.Public(); p != verifier {
					t.Fatal("Public of a public key is not itself")
				}
			} else if _, err := k.Public(); !errors.Is(err, signet.ErrKeyUsage) {
				t.Fatalf("HMAC Public: %v", err)
			}
			if err := verifier.Verify(msg, sig); err != nil {
				t.Fatal(err)
			}
			bad := append([]byte(nil), sig...)
			bad[len(bad)/2] ^= 1
			for _, s := range [][]byte{bad, sig[:len(sig)-1], append(append([]byte(nil), sig...), 0), nil} {
				if err := verifier.Verify(msg, s); !errors.Is(err, signet.ErrSignatureInvalid) {
					t.Fatalf("bad signature: %v", err)
				}
			}
			if err := verifier.Verify([]byte("other"), sig); !errors.Is(err, signet.ErrSignatureInvalid) {
				t.Fatalf("other message: %v", err)
			}
			// Rebuilding from the material gives an equal key.
			again, err := signet.NewKey(alg, k.Material())
			if err != nil {
				t.Fatal(err)
			}
			if !again.Equal(k) || again.Equal(verifier) != k.Symmetric() {
				t.Fatal("Equal")
			}
			other, _ := signet.GenerateKey(alg)
			if other.Equal(k) {
				t.Fatal("two generated keys equal")
			}
			if k.Algorithm().Symmetric() != k.Symmetric() {
				t.Fatal("Symmetric")
			}
		})
	}
}

func TestNewKeyMismatch(t *testing.T) {
	ec, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	_, ed, _ := ed25519.GenerateKey(rand.Reader)
	cases := []struct {
		alg      signet.Algorithm
		material any
		want     error
	}{
		{signet.ES256, ec, signet.ErrAlgorithmMismatch}, // P-384 key for ES256
		{signet.RS256, ed, signet.ErrAlgorithmMismatch}, // Ed25519 key for RS256
		{signet.EdDSA, []byte("x"), signet.ErrAlgorithmMismatch},
		{signet.HS256, "a string", signet.ErrAlgorithmMismatch},
		{signet.EdDSA, ed25519.PrivateKey(make([]byte, 10)), signet.ErrWeakKey},
		{signet.EdDSA, ed25519.PublicKey(make([]byte, 10)), signet.ErrWeakKey},
		{"none", []byte("0123456789abcdef0123456789abcdef"), signet.ErrUnsupported},
		{"HS1", []byte("0123456789abcdef0123456789abcdef"), signet.ErrUnsupported},
	}
	for _, c := range cases {
		if _, err := signet.NewKey(c.alg, c.material); !errors.Is(err, c.want) {
			t.Errorf("%s %T: got %v want %v", c.alg, c.material, err, c.want)
		}
	}
	// An Ed25519 private key whose public half was altered.
	bad := append(ed25519.PrivateKey(nil), ed...)
	bad[40] ^= 1
	if _, err := signet.NewKey(signet.EdDSA, bad); !errors.Is(err, signet.ErrWeakKey) {
		t.Errorf("inconsistent Ed25519 key: %v", err)
	}
	if _, err := signet.ParseAlgorithm("none"); err == nil {
		t.Error("none parsed as an algorithm")
	}
	if a, err := signet.ParseAlgorithm("ES384"); err != nil || a != signet.ES384 {
		t.Error(a, err)
	}
}

// TestRSAPrivateSizes: oversized private values are refused before the
// (slow) consistency check of rsa.PrivateKey.Validate.
func TestRSAPrivateSizes(t *testing.T) {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	huge := new(big.Int).Lsh(big.NewInt(1), 16000)
	huge.Add(huge, big.NewInt(1))
	for name, mutate := range map[string]func(*rsa.PrivateKey){
		"huge prime":    func(c *rsa.PrivateKey) { c.Primes = []*big.Int{huge, c.Primes[1]} },
		"huge exponent": func(c *rsa.PrivateKey) { c.D = huge },
		"three primes":  func(c *rsa.PrivateKey) { c.Primes = append(c.Primes, big.NewInt(3)) },
	} {
		c := *k
		c.Primes = append([]*big.Int(nil), k.Primes...)
		mutate(&c)
		// Without the bounds, Validate would run for minutes (the test's
		// timeout, not a timer here, would catch that).
		_, err := signet.NewKey(signet.RS256, &c)
		if err == nil || (!errors.Is(err, signet.ErrWeakKey) && !errors.Is(err, signet.ErrUnsupported)) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestKeySet(t *testing.T) {
	a, _ := signet.GenerateKeyWithID(signet.ES256, "a")
	b, _ := signet.GenerateKeyWithID(signet.EdDSA, "b")
	c1, _ := signet.GenerateKey(signet.HS256)
	c2, _ := signet.GenerateKey(signet.HS256)
	set, err := signet.NewKeySet(a, b, c1, c2)
	if err != nil {
		t.Fatal(err)
	}
	if set.Len() != 4 || len(set.Keys()) != 4 {
		t.Fatal("Len")
	}
	if k, err := set.Select("a", signet.ES256); err != nil || k.At(0) != a {
		t.Fatal(k, err)
	}
	if _, err := set.Select("a", signet.EdDSA); !errors.Is(err, signet.ErrAlgorithmMismatch) {
		t.Fatal(err)
	}
	if _, err := set.Select("zz", signet.ES256); !errors.Is(err, signet.ErrKeyNotFound) {
		t.Fatal(err)
	}
	if k, err := set.Select("", signet.HS256); err != nil || k.Len() != 2 {
		t.Fatal(k, err)
	}
	if k, err := set.Select("", signet.EdDSA); err != nil || k.At(0) != b {
		t.Fatal(k, err)
	}
	if _, err := set.Select("", signet.RS256); !errors.Is(err, signet.ErrKeyNotFound) {
		t.Fatal(err)
	}
	if k, ok := set.Lookup("b"); !ok || k != b {
		t.Fatal("Lookup")
	}
	if _, err := signet.NewKeySet(a, a); err == nil {
		t.Fatal("duplicate kid")
	}
	if _, err := signet.NewKeySet(nil); err == nil {
		t.Fatal("nil key")
	}
	// A single key without kid accepts any kid; with one, only its own.
	if _, err := c1.Select("whatever", signet.HS256); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Select("b", signet.ES256); !errors.Is(err, signet.ErrKeyNotFound) {
		t.Fatal(err)
	}
}

// TestECDSAScalarRange: r or s of zero or at least the order are refused.
func TestECDSAScalarRange(t *testing.T) {
	for _, alg := range []signet.Algorithm{signet.ES256, signet.ES384, signet.ES512} {
		k, _ := signet.GenerateKey(alg)
		p, _ := k.Public()
		msg := []byte("m")
		sig, _ := k.Sign(nil, msg)
		n := len(sig) / 2
		order := p.PublicMaterial().(*ecdsa.PublicKey).Curve.Params().N.FillBytes(make([]byte, n))
		for name, bad := range map[string][]byte{
			"zero":   make([]byte, 2*n),
			"r=0":    append(make([]byte, n), sig[n:]...),
			"s=0":    append(append([]byte(nil), sig[:n]...), make([]byte, n)...),
			"r=n":    append(append([]byte(nil), order...), sig[n:]...),
			"s=n":    append(append([]byte(nil), sig[:n]...), order...),
			"s=0xff": append(append([]byte(nil), sig[:n]...), bytesOf(0xff, n)...),
		} {
			if err := p.Verify(msg, bad); !errors.Is(err, signet.ErrSignatureInvalid) {
				t.Errorf("%s %s: %v", alg, name, err)
			}
		}
		if err := p.Verify(msg, sig); err != nil {
			t.Errorf("%s: %v", alg, err)
		}
	}
}

func bytesOf(b byte, n int) []byte {
	out := make([]byte, n)
	for i := range out {
		out[i] = b
	}
	return out
}

// TestPASETOKeys: PASETO keys are bound to a version and purpose like any
// other; local keys neither sign nor verify nor have a public half.
func TestPASETOKeys(t *testing.T) {
	for _, alg := range []signet.Algorithm{signet.V4Local, signet.V3Local} {
		k, err := signet.GenerateKey(alg)
		if err != nil {
			t.Fatal(err)
		}
		if !k.Symmetric() || !k.CanSign() || len(k.Secret()) != 32 || k.Algorithm() != alg {
			t.Fatalf("%s key", alg)
		}
		if _, err := k.Sign(nil, []byte("m")); !errors.Is(err, signet.ErrKeyUsage) {
			t.Fatalf("%s Sign: %v", alg, err)
		}
		if err := k.Verify([]byte("m"), make([]byte, 64)); !errors.Is(err, signet.ErrKeyUsage) {
			t.Fatalf("%s Verify: %v", alg, err)
		}
		if _, err := k.Public(); !errors.Is(err, signet.ErrKeyUsage) {
			t.Fatalf("%s Public: %v", alg, err)
		}
		if _, err := signet.NewKey(alg, make([]byte, 31)); !errors.Is(err, signet.ErrWeakKey) {
			t.Fatalf("%s 31 bytes: %v", alg, err)
		}
		if _, err := signet.NewKey(alg, make([]byte, 64)); !errors.Is(err, signet.ErrWeakKey) {
			t.Fatalf("%s 64 bytes: %v", alg, err)
		}
	}
	// v3.public signatures are low-S.
	k, _ := signet.GenerateKey(signet.V3Public)
	half := new(big.Int).Rsh(elliptic.P384().Params().N, 1)
	for i := 0; i < 32; i++ {
		sig, err := k.Sign(nil, []byte{byte(i)})
		if err != nil {
			t.Fatal(err)
		}
		if new(big.Int).SetBytes(sig[48:]).Cmp(half) > 0 {
			t.Fatalf("high S in signature %d", i)
		}
		if err := k.Verify([]byte{byte(i)}, sig); err != nil {
			t.Fatal(err)
		}
	}
	// The same Ed25519 material bound to EdDSA and to v4.public makes two
	// keys that do not stand in for each other.
	ed, _ := signet.GenerateKey(signet.EdDSA)
	v4, err := signet.NewKey(signet.V4Public, ed.Material())
	if err != nil {
		t.Fatal(err)
	}
	if v4.Equal(ed) {
		t.Fatal("EdDSA and v4.public keys compare equal")
	}
	if _, err := v4.Select("", signet.EdDSA); !errors.Is(err, signet.ErrAlgorithmMismatch) {
		t.Fatal(err)
	}
	if signet.V4Public.IsJWS() || !signet.EdDSA.IsJWS() || len(signet.JWSAlgorithms()) != 13 || len(signet.Algorithms()) != 23 || len(signet.HTTPSigAlgorithms()) != 6 {
		t.Fatal("algorithm lists")
	}
}

// TestECDSAPrivatePublicMismatch: a private key whose public point is not
// its own is refused.
func TestECDSAPrivatePublicMismatch(t *testing.T) {
	a, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	b, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	//lint:ignore SA1019 the test builds an inconsistent key on purpose.
	mixed := &ecdsa.PrivateKey{PublicKey: b.PublicKey, D: a.D}
	if _, err := signet.NewKey(signet.ES256, mixed); !errors.Is(err, signet.ErrWeakKey) {
		t.Fatalf("got %v", err)
	}
}

// TestCandidatesReadOnly: what Select returns cannot change the set.
func TestCandidatesReadOnly(t *testing.T) {
	k, _ := signet.GenerateKey(signet.HS256)
	c, err := k.Select("", signet.HS256)
	if err != nil || c.Len() != 1 || c.At(0) != k {
		t.Fatal(c, err)
	}
	list := signet.CandidatesOf(k, k)
	if list.Len() != 2 || list.At(1) != k {
		t.Fatal("CandidatesOf")
	}
}

// A zero Key is refused, never a panic: it has no algorithm or material.
func TestZeroKey(t *testing.T) {
	var k signet.Key
	if k.CanSign() || k.Symmetric() || k.Secret() != nil || k.Material() != nil || k.PublicMaterial() != nil || k.Algorithm() != "" || k.SignatureSize() != 0 {
		t.Fatal("a zero Key reports material")
	}
	if _, err := k.Sign(nil, []byte("m")); !errors.Is(err, signet.ErrKeyUsage) {
		t.Errorf("Sign: %v", err)
	}
	if err := k.Verify([]byte("m"), make([]byte, 32)); !errors.Is(err, signet.ErrKeyUsage) {
		t.Errorf("Verify: %v", err)
	}
	if _, err := k.Select("", signet.HS256); !errors.Is(err, signet.ErrKeyUsage) {
		t.Errorf("Select: %v", err)
	}
	if _, err := signet.MarshalPEM(&k); !errors.Is(err, signet.ErrKeyUsage) {
		t.Errorf("MarshalPEM: %v", err)
	}
	if _, err := signet.NewKeySet(&k); !errors.Is(err, signet.ErrKeyUsage) {
		t.Errorf("NewKeySet: %v", err)
	}
	if k.Equal(&k) {
		t.Error("a zero Key equals itself")
	}
}

// An Ed25519 key's public half is part of its private key (RFC 8032), and
// ed25519.Sign uses it as found: a caller changing a slice the key handed
// out must not change what the key signs with (two signatures of one
// message under different public halves reveal the private scalar).
func TestEd25519MaterialNotAliased(t *testing.T) {
	k, err := signet.GenerateKey(signet.EdDSA)
	if err != nil {
		t.Fatal(err)
	}
	want := append(ed25519.PublicKey(nil), k.PublicMaterial().(ed25519.PublicKey)...)
	pub, err := k.Public()
	if err != nil {
		t.Fatal(err)
	}
	for name, get := range map[string]func() []byte{
		"PublicMaterial":          func() []byte { return k.PublicMaterial().(ed25519.PublicKey) },
		"Public().PublicMaterial": func() []byte { return pub.PublicMaterial().(ed25519.PublicKey) },
		"Public().Material":       func() []byte { return pub.Material().(ed25519.PublicKey) },
		"Material":                func() []byte { return k.Material().(ed25519.PrivateKey)[ed25519.SeedSize:] },
	} {
		b := get()
		for i := range b {
			b[i] ^= 0xff
		}
		sig, err := k.Sign(nil, []byte("message"))
		if err != nil {
			t.Fatal(err)
		}
		if !ed25519.Verify(want, []byte("message"), sig) {
			t.Fatalf("after changing what %s returned, the key signed under another public half", name)
		}
	}
	if got := k.PublicMaterial().(ed25519.PublicKey); !got.Equal(want) {
		t.Fatal("the key's public half changed")
	}
}

// TestWithIDConstructors: NewKeyWithID and ParsePEMWithID make the key
// NewKey or ParsePEM and WithKeyID make, and refuse what they refuse.
func TestWithIDConstructors(t *testing.T) {
	secret := bytes.Repeat([]byte{7}, 32)
	a, err := signet.NewKeyWithID(signet.HS256, "k1", secret)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := signet.NewKey(signet.HS256, secret)
	if a.KeyID() != "k1" || !a.Equal(b.WithKeyID("k1")) {
		t.Fatalf("NewKeyWithID: kid %q", a.KeyID())
	}
	if _, err := signet.NewKeyWithID(signet.HS256, "k", secret[:16]); !errors.Is(err, signet.ErrWeakKey) {
		t.Fatalf("short secret: %v", err)
	}
	g, _ := signet.GenerateKey(signet.ES256)
	data, err := signet.MarshalPEM(g)
	if err != nil {
		t.Fatal(err)
	}
	p, err := signet.ParsePEMWithID(data, signet.ES256, "pem-1")
	if err != nil || p.KeyID() != "pem-1" || !p.Equal(g.WithKeyID("pem-1")) {
		t.Fatalf("ParsePEMWithID: %v %q", err, p.KeyID())
	}
	if _, err := signet.ParsePEMWithID([]byte("not PEM"), signet.ES256, "x"); !errors.Is(err, signet.ErrMalformed) {
		t.Fatalf("not PEM: %v", err)
	}
}
