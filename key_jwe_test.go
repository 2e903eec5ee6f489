package signet_test

import (
	"bytes"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"errors"
	"testing"

	"github.com/signet-go/signet"
)

// Every JWE algorithm with every content encryption: generated keys are
// bound to both, of the documented sizes, and a key's public half keeps
// them.
func TestGenerateEncryptionKey(t *testing.T) {
	for _, alg := range signet.JWEAlgorithms() {
		if alg == signet.RSAOAEP {
			continue // decryption only: not generated (TestKeyModelRefusals in jwe)
		}
		for _, enc := range signet.Encryptions() {
			k, err := signet.GenerateEncryptionKeyWithID(alg, enc, "k")
			if err != nil {
				t.Fatalf("%s/%s: %v", alg, enc, err)
			}
			if k.Algorithm() != alg || k.Encryption() != enc || k.KeyID() != "k" || !k.CanSign() {
				t.Fatalf("%s/%s: got %s/%s", alg, enc, k.Algorithm(), k.Encryption())
			}
			switch alg {
			case signet.Dir:
				if len(k.Secret()) != enc.KeySize() {
					t.Fatalf("dir %s: %d bytes", enc, len(k.Secret()))
				}
			case signet.A128KW, signet.A128GCMKW:
				if len(k.Secret()) != 16 {
					t.Fatalf("%s: %d bytes", alg, len(k.Secret()))
				}
			case signet.A256KW, signet.A256GCMKW:
				if len(k.Secret()) != 32 {
					t.Fatalf("%s: %d bytes", alg, len(k.Secret()))
				}
			case signet.PBES2HS256A128KW, signet.PBES2HS512A256KW:
				if len(k.Secret()) < signet.MinPBES2Password {
					t.Fatalf("%s: %d bytes", alg, len(k.Secret()))
				}
			default:
				pub, err := k.Public()
				if err != nil || pub.CanSign() || pub.Algorithm() != alg || pub.Encryption() != enc || pub.KeyID() != "k" {
					t.Fatalf("%s public half: %v", alg, err)
				}
			}
			if !alg.Symmetric() == k.Symmetric() {
				t.Fatalf("%s: Symmetric %v, key %v", alg, alg.Symmetric(), k.Symmetric())
			}
			if _, err := k.Sign(nil, []byte("x")); !errors.Is(err, signet.ErrKeyUsage) {
				t.Fatalf("%s signs: %v", alg, err)
			}
			if err := k.Verify([]byte("x"), make([]byte, 64)); !errors.Is(err, signet.ErrKeyUsage) {
				t.Fatalf("%s verifies: %v", alg, err)
			}
		}
	}
}

// ECDH keys hand out crypto/ecdh keys, copies, for every curve, from
// either kind of material, and compare by material and encryption.
func TestECDHKeyMaterial(t *testing.T) {
	x, _ := ecdh.X25519().GenerateKey(rand.Reader)
	p384, _ := ecdh.P384().GenerateKey(rand.Reader)
	es, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	esECDH, _ := es.ECDH()
	for _, c := range []struct {
		name string
		m    any
		want *ecdh.PrivateKey
	}{{"X25519", x, x}, {"P-384", p384, p384}, {"ecdsa P-256", es, esECDH}} {
		k, err := signet.NewEncryptionKey(signet.ECDHESA128KW, signet.A128GCM, c.m)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		m, ok := k.Material().(*ecdh.PrivateKey)
		if !ok || !m.Equal(c.want) {
			t.Fatalf("%s: Material %T", c.name, k.Material())
		}
		pm, ok := k.PublicMaterial().(*ecdh.PublicKey)
		if !ok || !pm.Equal(c.want.PublicKey()) {
			t.Fatalf("%s: PublicMaterial %T", c.name, k.PublicMaterial())
		}
		pub, _ := k.Public()
		if pp, ok := pub.Material().(*ecdh.PublicKey); !ok || !pp.Equal(c.want.PublicKey()) {
			t.Fatalf("%s: public key's Material %T", c.name, pub.Material())
		}
		// Made again from the public material: equal to the public half.
		pk, err := signet.NewEncryptionKey(signet.ECDHESA128KW, signet.A128GCM, pm)
		if err != nil || !pk.Equal(pub) || pk.Equal(k) {
			t.Fatalf("%s: public key from material: %v", c.name, err)
		}
		same, _ := signet.NewEncryptionKey(signet.ECDHESA128KW, signet.A128GCM, c.m)
		other, _ := signet.NewEncryptionKey(signet.ECDHESA128KW, signet.A256GCM, c.m)
		if !k.Equal(same) || k.Equal(other) {
			t.Fatalf("%s: Equal ignores the encryption", c.name)
		}
		// PEM: PKCS #8 and SPKI carry ECDH keys.
		if _, err := signet.MarshalPEM(k); err != nil {
			t.Fatalf("%s: MarshalPEM: %v", c.name, err)
		}
	}
}

// The key keeps copies: a secret changed after the key was made, or a
// Secret changed after it was handed out, changes nothing.
func TestEncryptionKeyCopies(t *testing.T) {
	cek := bytes.Repeat([]byte{1}, 32)
	k, err := signet.NewEncryptionKey(signet.Dir, signet.A256GCM, cek)
	if err != nil {
		t.Fatal(err)
	}
	cek[0] = 9
	s := k.Secret()
	s[1] = 9
	if got := k.Secret(); got[0] != 1 || got[1] != 1 {
		t.Fatal("the key shares its secret")
	}
	rk, _ := rsa.GenerateKey(rand.Reader, 2048)
	kr, err := signet.NewEncryptionKey(signet.RSAOAEP256, signet.A128GCM, rk)
	if err != nil {
		t.Fatal(err)
	}
	rk.D.SetInt64(3)
	if kr.Material().(*rsa.PrivateKey).D.Cmp(rk.D) == 0 {
		t.Fatal("the key shares its RSA key")
	}
}

// Names: the JWE algorithms parse, RSA1_5 does not; the encryptions
// parse; the lists of the other formats are unchanged.
func TestJWENames(t *testing.T) {
	for _, a := range signet.JWEAlgorithms() {
		if got, err := signet.ParseAlgorithm(string(a)); err != nil || got != a || !a.IsJWE() || a.IsJWS() {
			t.Fatalf("%s: %v", a, err)
		}
	}
	if _, err := signet.ParseAlgorithm("RSA1_5"); !errors.Is(err, signet.ErrUnsupported) {
		t.Fatalf("RSA1_5: %v", err)
	}
	for _, e := range signet.Encryptions() {
		if got, err := signet.ParseEncryption(string(e)); err != nil || got != e || e.KeySize() == 0 {
			t.Fatalf("%s: %v", e, err)
		}
	}
	if _, err := signet.ParseEncryption("A128CBC"); !errors.Is(err, signet.ErrUnsupported) {
		t.Fatalf("A128CBC: %v", err)
	}
	if len(signet.JWEAlgorithms()) != 12 || len(signet.Encryptions()) != 6 || len(signet.Algorithms()) != 23 || signet.HS256.IsJWE() {
		t.Fatal("algorithm lists")
	}
	k, _ := signet.GenerateKey(signet.HS256)
	if k.Encryption() != "" {
		t.Fatal("a JWS key has an encryption")
	}
}

// A KeySet selects JWE keys by kid and by alg, as JWS keys.
func TestEncryptionKeySelect(t *testing.T) {
	a, _ := signet.GenerateEncryptionKeyWithID(signet.Dir, signet.A256GCM, "a")
	set, err := signet.NewKeySet(a)
	if err != nil {
		t.Fatal(err)
	}
	if c, err := set.Select("a", signet.Dir); err != nil || c.At(0) != a {
		t.Fatalf("%v", err)
	}
	if _, err := set.Select("a", signet.A128KW); !errors.Is(err, signet.ErrAlgorithmMismatch) {
		t.Fatalf("%v", err)
	}
}

// JWE keys go to PEM and back: RSA-OAEP-256, ECDH on P-256, P-384 and
// X25519, private and public; secrets have no PEM form.
func TestEncryptionKeyPEM(t *testing.T) {
	x, _ := ecdh.X25519().GenerateKey(rand.Reader)
	p384, _ := ecdh.P384().GenerateKey(rand.Reader)
	rk, _ := rsa.GenerateKey(rand.Reader, 2048)
	for _, c := range []struct {
		alg signet.Algorithm
		m   any
	}{{signet.ECDHES, x}, {signet.ECDHESA256KW, p384}, {signet.RSAOAEP256, rk}} {
		k, err := signet.NewEncryptionKey(c.alg, signet.A256GCM, c.m)
		if err != nil {
			t.Fatal(err)
		}
		pub, _ := k.Public()
		for _, kk := range []*signet.Key{k, pub} {
			data, err := signet.MarshalPEM(kk)
			if err != nil {
				t.Fatalf("%s: %v", c.alg, err)
			}
			back, err := signet.ParseEncryptionPEMWithID(data, c.alg, signet.A256GCM, "k")
			if err != nil || !back.Equal(kk) || back.KeyID() != "k" {
				t.Fatalf("%s: %v", c.alg, err)
			}
			// ParsePEM (for signing keys) refuses them.
			if _, err := signet.ParsePEM(data, c.alg); err == nil {
				t.Fatalf("%s: ParsePEM made a JWE key", c.alg)
			}
		}
	}
	d, _ := signet.GenerateEncryptionKey(signet.Dir, signet.A256GCM)
	if _, err := signet.MarshalPEM(d); !errors.Is(err, signet.ErrKeyUsage) {
		t.Fatalf("dir key PEM: %v", err)
	}
	es, _ := signet.GenerateKey(signet.ES256)
	data, _ := signet.MarshalPEM(es)
	if _, err := signet.ParseEncryptionPEM(data, signet.A128KW, signet.A256GCM); !errors.Is(err, signet.ErrKeyUsage) {
		t.Fatalf("A128KW from PEM: %v", err)
	}
	if _, err := signet.ParseEncryptionPEM(data, signet.RSAOAEP256, signet.A256GCM); !errors.Is(err, signet.ErrAlgorithmMismatch) {
		t.Fatalf("EC key for RSA-OAEP-256: %v", err)
	}
	if k, err := signet.ParseEncryptionPEM(data, signet.ECDHES, signet.A256GCM); err != nil || k.Algorithm() != signet.ECDHES {
		t.Fatalf("an ES256 key's PEM for ECDH-ES: %v", err)
	}
}
