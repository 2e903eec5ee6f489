package signet_test

import (
	"crypto/rsa"
	"errors"
	"os"
	"testing"

	"github.com/signet-go/signet"
)

// pssKeyFiles reads testdata/pss/name.key.pem and name.pub.pem.
func pssKeyFiles(t testing.TB, name string) (private, public []byte) {
	t.Helper()
	private, err := os.ReadFile("testdata/pss/" + name + ".key.pem")
	if err != nil {
		t.Fatal(err)
	}
	public, err = os.ReadFile("testdata/pss/" + name + ".pub.pem")
	if err != nil {
		t.Fatal(err)
	}
	return private, public
}

// TestPSSKeyParameters: an id-RSASSA-PSS key (PKCS #8 or SPKI, as
// OpenSSL writes them; testdata/pss/README.md) binds only to the PSS
// algorithms its RFC 4055 parameters allow: their hash, MGF1 with that
// hash, a salt (the hash's size, in signet) at least their salt length.
// Without alg it takes the algorithm its parameters name.
func TestPSSKeyParameters(t *testing.T) {
	mismatch, unsupported := signet.ErrAlgorithmMismatch, signet.ErrUnsupported
	algs := []signet.Algorithm{"", signet.PS256, signet.PS384, signet.PS512, signet.RSAPSSSHA512, signet.RS256, signet.RSAV15SHA256}
	for _, c := range []struct {
		name string
		want []any // per algs: the Algorithm bound, or the error
	}{
		{"unrestricted", []any{signet.RSAPSSSHA512, signet.PS256, signet.PS384, signet.PS512, signet.RSAPSSSHA512, mismatch, mismatch}},
		{"sha256-salt32", []any{signet.PS256, signet.PS256, mismatch, mismatch, mismatch, mismatch, mismatch}},
		{"sha512-salt32", []any{signet.RSAPSSSHA512, mismatch, mismatch, signet.PS512, signet.RSAPSSSHA512, mismatch, mismatch}},
		// PS384 salts with 48 bytes; the key asks for at least 64.
		{"sha384-salt64", []any{mismatch, mismatch, mismatch, mismatch, mismatch, mismatch, mismatch}},
		// Parameters with every field left out: SHA-1, which signet's PSS
		// never uses.
		{"sha1", []any{unsupported, mismatch, mismatch, mismatch, mismatch, mismatch, mismatch}},
		// MGF1 with another hash than the message's: no signet algorithm.
		{"sha256-mgf1sha512", []any{unsupported, unsupported, unsupported, unsupported, unsupported, unsupported, unsupported}},
	} {
		private, public := pssKeyFiles(t, c.name)
		for i, alg := range algs {
			for _, pem := range []struct {
				kind string
				data []byte
			}{{"private", private}, {"public", public}} {
				k, err := signet.ParsePEM(pem.data, alg)
				switch want := c.want[i].(type) {
				case signet.Algorithm:
					if err != nil || k.Algorithm() != want {
						t.Errorf("%s %s key, alg %q: %v, %v; want %s", c.name, pem.kind, alg, k, err, want)
					}
				case error:
					if !errors.Is(err, want) || k != nil {
						t.Errorf("%s %s key, alg %q: %v, %v; want %v", c.name, pem.kind, alg, k, err, want)
					}
				}
			}
		}
	}
}

// TestPSSKeySignsAndVerifies: the private and public halves of a PSS key
// read from OpenSSL's files are one key pair, and the public half
// verifies what the private half signs (and nothing else).
func TestPSSKeySignsAndVerifies(t *testing.T) {
	for name, alg := range map[string]signet.Algorithm{
		"sha256-salt32": signet.PS256,
		"sha512-salt32": signet.PS512,
		"unrestricted":  signet.PS384,
	} {
		private, public := pssKeyFiles(t, name)
		sk, err := signet.ParsePEM(private, alg)
		if err != nil {
			t.Fatal(err)
		}
		pk, err := signet.ParsePEM(public, alg)
		if err != nil {
			t.Fatal(err)
		}
		if pk.CanSign() || !sk.CanSign() {
			t.Fatalf("%s: CanSign %v (private) %v (public)", name, sk.CanSign(), pk.CanSign())
		}
		if pub, _ := sk.Public(); !pub.Equal(pk) {
			t.Fatalf("%s: the public file is not the private key's half", name)
		}
		if n := pk.PublicMaterial().(*rsa.PublicKey).N.BitLen(); n != 2048 {
			t.Fatalf("%s: %d-bit modulus", name, n)
		}
		msg := []byte("signed with a key OpenSSL made")
		sig, err := sk.Sign(nil, msg)
		if err != nil {
			t.Fatal(err)
		}
		if err := pk.Verify(msg, sig); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sig[len(sig)-1] ^= 1
		if err := pk.Verify(msg, sig); !errors.Is(err, signet.ErrSignatureInvalid) {
			t.Fatalf("%s: a changed signature: %v", name, err)
		}
	}
}

// TestPSSKeyNotForEncryption: an RSASSA-PSS key, private or public, is
// not an RSA-OAEP key.
func TestPSSKeyNotForEncryption(t *testing.T) {
	private, public := pssKeyFiles(t, "unrestricted")
	for _, data := range [][]byte{private, public} {
		if _, err := signet.ParseEncryptionPEM(data, signet.RSAOAEP256, signet.A256GCM); !errors.Is(err, signet.ErrAlgorithmMismatch) {
			t.Fatalf("RSA-OAEP-256 with a PSS key: %v", err)
		}
	}
}
