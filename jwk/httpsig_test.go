package jwk_test

import (
	"os"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
)

// TestHTTPSigKeys: keys of the RFC 9421 algorithms round-trip through JWK.
func TestHTTPSigKeys(t *testing.T) {
	for _, alg := range signet.HTTPSigAlgorithms() {
		k, err := signet.GenerateKeyWithID(alg, "k1")
		if err != nil {
			t.Fatal(err)
		}
		b, err := jwk.Marshal(k)
		if err != nil {
			t.Fatalf("%s: %v", alg, err)
		}
		back, err := jwk.ParseKey(b)
		if err != nil {
			t.Fatalf("%s: %v", alg, err)
		}
		if !back.Equal(k) || back.Algorithm() != alg || back.KeyID() != "k1" {
			t.Fatalf("%s: round trip changed the key", alg)
		}
	}
}

// TestRFC9421JWKs: the JWKs RFC 9421 B.1 prints (no "alg") read with the
// algorithm given.
func TestRFC9421JWKs(t *testing.T) {
	for name, alg := range map[string]signet.Algorithm{
		"test-key-rsa-pss": signet.RSAPSSSHA512, "test-key-rsa": signet.RSAV15SHA256,
		"test-key-ecc-p256": signet.ECDSAP256SHA256, "test-key-ed25519": signet.Ed25519,
	} {
		data, err := os.ReadFile("../testdata/rfc9421/keys/" + name + ".jwk.json")
		if err != nil {
			t.Fatal(err)
		}
		k, err := jwk.ParseKeyFor(data, alg)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if k.KeyID() != name || !k.CanSign() {
			t.Fatalf("%s: kid %q, private %v", name, k.KeyID(), k.CanSign())
		}
	}
}
