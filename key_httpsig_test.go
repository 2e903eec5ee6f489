package signet_test

import (
	"errors"
	"os"
	"testing"

	"github.com/signet-go/signet"
)

// TestHTTPSigAlgorithms: each RFC 9421 algorithm generates, signs and
// verifies, rejects a flipped signature, and is distinct from the JWS
// algorithm on the same primitive.
func TestHTTPSigAlgorithms(t *testing.T) {
	twin := map[signet.Algorithm]signet.Algorithm{
		signet.RSAPSSSHA512: signet.PS512, signet.RSAV15SHA256: signet.RS256,
		signet.HMACSHA256: signet.HS256, signet.ECDSAP256SHA256: signet.ES256,
		signet.ECDSAP384SHA384: signet.ES384, signet.Ed25519: signet.EdDSA,
	}
	for _, alg := range signet.HTTPSigAlgorithms() {
		if !alg.IsHTTPSig() || alg.IsJWS() {
			t.Fatalf("%s: IsHTTPSig/IsJWS", alg)
		}
		k, err := signet.GenerateKey(alg)
		if err != nil {
			t.Fatal(err)
		}
		msg := []byte("\"@method\": POST")
		sig, err := k.Sign(nil, msg)
		if err != nil {
			t.Fatal(err)
		}
		if len(sig) != k.SignatureSize() {
			t.Fatalf("%s: %d-byte signature, SignatureSize %d", alg, len(sig), k.SignatureSize())
		}
		if err := k.Verify(msg, sig); err != nil {
			t.Fatalf("%s: %v", alg, err)
		}
		sig[3] ^= 1
		if err := k.Verify(msg, sig); !errors.Is(err, signet.ErrSignatureInvalid) {
			t.Fatalf("%s: flipped signature: %v", alg, err)
		}
		if _, err := k.Select("", twin[alg]); !errors.Is(err, signet.ErrAlgorithmMismatch) {
			t.Fatalf("%s key selected for %s: %v", alg, twin[alg], err)
		}
	}
}

// TestRSAPSSKeyPEM: RFC 9421's test-key-rsa-pss is PKCS #8 with the
// id-RSASSA-PSS OID, which crypto/x509 refuses; signet reads it, for PSS only.
func TestRSAPSSKeyPEM(t *testing.T) {
	data, err := os.ReadFile("testdata/rfc9421/keys/test-key-rsa-pss.key.pem")
	if err != nil {
		t.Fatal(err)
	}
	k, err := signet.ParsePEM(data, "")
	if err != nil {
		t.Fatal(err)
	}
	if k.Algorithm() != signet.RSAPSSSHA512 || !k.CanSign() {
		t.Fatalf("got %s", k.Algorithm())
	}
	if _, err := signet.ParsePEM(data, signet.PS256); err != nil {
		t.Fatalf("PS256 with a PSS key: %v", err)
	}
	for _, alg := range []signet.Algorithm{signet.RSAV15SHA256, signet.RS256} {
		if _, err := signet.ParsePEM(data, alg); !errors.Is(err, signet.ErrAlgorithmMismatch) {
			t.Fatalf("%s with a PSS-only key: %v", alg, err)
		}
	}
}
