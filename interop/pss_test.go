package interop_test

import (
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/signet-go/signet"
)

// The PSS peer protocol; see interop/node/pss-peer.mjs.
type (
	pssRequest struct {
		Details []pssKeyCase    `json:"details"`
		Sign    []pssSignCase   `json:"sign"`
		Verify  []pssVerifyCase `json:"verify"`
	}
	pssKeyCase struct {
		PEM string `json:"pem"`
	}
	pssSignCase struct {
		PEM   string           `json:"pem"`
		Alg   signet.Algorithm `json:"alg"`
		Input string           `json:"input"`
	}
	pssVerifyCase struct {
		PEM       string           `json:"pem"`
		Alg       signet.Algorithm `json:"alg"`
		Input     string           `json:"input"`
		Signature string           `json:"signature"`
	}
	pssResponse struct {
		Details []struct {
			Type  string `json:"type"`
			Hash  string `json:"hash"`
			MGF1  string `json:"mgf1"`
			Salt  int    `json:"salt"`
			Error string `json:"error"`
		} `json:"details"`
		Signed []struct {
			Signature string `json:"signature"`
			Error     string `json:"error"`
		} `json:"signed"`
		Verified []struct {
			OK    bool   `json:"ok"`
			Error string `json:"error"`
		} `json:"verified"`
	}
)

// pssKeys are testdata/pss's keys (OpenSSL's id-RSASSA-PSS files), with
// the parameters OpenSSL must read from each: hash, MGF1 hash, salt ("",
// "", -1 for a key without parameters).
var pssKeys = []struct {
	name, hash, mgf1 string
	salt             int
}{
	{"unrestricted", "", "", -1},
	{"sha256-salt32", "sha256", "sha256", 32},
	{"sha384-salt64", "sha384", "sha384", 64},
	{"sha512-salt32", "sha512", "sha512", 32},
	{"sha256-mgf1sha512", "sha256", "sha512", 32},
	{"sha1", "sha1", "sha1", 20},
}

// TestPSSKeysWithOpenSSL: signet and OpenSSL (Node's crypto) read the same
// id-RSASSA-PSS key files alike. OpenSSL reads the parameters the files
// are documented with; for each key and each of PS256, PS384 and PS512,
// signet binds the key exactly when OpenSSL signs with it (OpenSSL holds a
// key to its RFC 4055 parameters), and each side verifies the other's
// signatures. The one key signet refuses although OpenSSL signs with it,
// MGF1 with another hash than the message's, makes signatures that are not
// PSS as JOSE defines it: signet's verifier for the same modulus refuses
// them.
func TestPSSKeysWithOpenSSL(t *testing.T) {
	root := repoRoot(t)
	node, err := exec.LookPath("node")
	if err != nil {
		unavailable(t, "node", "node (Node.js >= 20) is not installed or not in PATH")
	}
	algs := []signet.Algorithm{signet.PS256, signet.PS384, signet.PS512}
	input := []byte("eyJhbGciOiJQUzI1NiJ9.eyJzdWIiOiJwc3MifQ")
	in64 := base64.RawURLEncoding.EncodeToString(input)

	type pair struct {
		private, public []byte
		signet          map[signet.Algorithm]*signet.Key // nil where ParsePEM refused
	}
	keys := make([]pair, len(pssKeys))
	var req pssRequest
	for i, k := range pssKeys {
		p := pair{signet: map[signet.Algorithm]*signet.Key{}}
		if p.private, err = os.ReadFile(filepath.Join(root, "testdata/pss", k.name+".key.pem")); err != nil {
			t.Fatal(err)
		}
		if p.public, err = os.ReadFile(filepath.Join(root, "testdata/pss", k.name+".pub.pem")); err != nil {
			t.Fatal(err)
		}
		req.Details = append(req.Details, pssKeyCase{string(p.public)})
		for _, alg := range algs {
			req.Sign = append(req.Sign, pssSignCase{string(p.private), alg, in64})
			sk, err := signet.ParsePEM(p.private, alg)
			if err != nil {
				if !errors.Is(err, signet.ErrAlgorithmMismatch) && !errors.Is(err, signet.ErrUnsupported) {
					t.Fatalf("%s for %s: %v", k.name, alg, err)
				}
				continue
			}
			p.signet[alg] = sk
			sig, err := sk.Sign(nil, input)
			if err != nil {
				t.Fatal(err)
			}
			req.Verify = append(req.Verify, pssVerifyCase{string(p.public), alg, in64, base64.RawURLEncoding.EncodeToString(sig)})
		}
		keys[i] = p
	}
	var resp pssResponse
	runNode(t, root, node, "interop/node/pss-peer.mjs", peerTimeout, req, &resp)
	if len(resp.Details) != len(req.Details) || len(resp.Signed) != len(req.Sign) || len(resp.Verified) != len(req.Verify) {
		t.Fatalf("answers %d/%d/%d for %d/%d/%d cases", len(resp.Details), len(resp.Signed), len(resp.Verified), len(req.Details), len(req.Sign), len(req.Verify))
	}

	for i, k := range pssKeys {
		d := resp.Details[i]
		if d.Error != "" || d.Type != "rsa-pss" || d.Hash != k.hash || d.MGF1 != k.mgf1 || d.Salt != k.salt {
			t.Errorf("%s: OpenSSL reads %+v, want rsa-pss %s/%s/%d", k.name, d, k.hash, k.mgf1, k.salt)
		}
	}
	verified := 0
	for i, k := range pssKeys {
		for j, alg := range algs {
			got := resp.Signed[i*len(algs)+j]
			sk := keys[i].signet[alg]
			opensslSigns := got.Error == ""
			if k.name == "sha256-mgf1sha512" {
				checkForeignMGF(t, keys[i].public, alg, input, got.Signature, opensslSigns, sk)
				continue
			}
			if opensslSigns != (sk != nil) {
				t.Errorf("%s for %s: OpenSSL signs %v (%s), signet binds %v", k.name, alg, opensslSigns, got.Error, sk != nil)
				continue
			}
			if sk == nil {
				continue
			}
			sig, err := base64.RawURLEncoding.DecodeString(got.Signature)
			if err != nil {
				t.Fatal(err)
			}
			pk, err := signet.ParsePEM(keys[i].public, alg)
			if err != nil {
				t.Fatalf("%s public for %s: %v", k.name, alg, err)
			}
			if err := pk.Verify(input, sig); err != nil {
				t.Errorf("%s for %s: signet refuses OpenSSL's signature: %v", k.name, alg, err)
			}
			if r := resp.Verified[verified]; !r.OK {
				t.Errorf("%s for %s: OpenSSL refuses signet's signature: %s", k.name, alg, r.Error)
			}
			verified++
		}
	}
	if verified != len(req.Verify) || verified < 5 {
		t.Fatalf("%d of %d signet signatures checked", verified, len(req.Verify))
	}
}

// checkForeignMGF: a key whose parameters pair SHA-256 with MGF1-SHA-512.
// signet binds it to nothing; OpenSSL signs PS256 with it (and MGF1-SHA-512),
// and such a signature is not a PS256 signature of the same modulus.
func checkForeignMGF(t *testing.T, public []byte, alg signet.Algorithm, input []byte, sig64 string, opensslSigns bool, sk *signet.Key) {
	t.Helper()
	if sk != nil {
		t.Errorf("signet bound the MGF1-SHA-512 key to %s", alg)
	}
	if opensslSigns != (alg == signet.PS256) {
		t.Errorf("OpenSSL signs %s with the SHA-256/MGF1-SHA-512 key: %v", alg, opensslSigns)
	}
	if !opensslSigns {
		return
	}
	unrestricted, err := signet.ParsePEM(public, "")
	if !errors.Is(err, signet.ErrUnsupported) || unrestricted != nil {
		t.Fatalf("the MGF1-SHA-512 public key: %v", err)
	}
	n, err := modulusOf(public)
	if err != nil {
		t.Fatal(err)
	}
	pk, err := signet.NewKey(signet.PS256, n)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := base64.RawURLEncoding.DecodeString(sig64)
	if err != nil {
		t.Fatal(err)
	}
	if err := pk.Verify(input, sig); !errors.Is(err, signet.ErrSignatureInvalid) {
		t.Errorf("OpenSSL's SHA-256/MGF1-SHA-512 signature as PS256: %v", err)
	}
}

// modulusOf reads the RSA public key inside an SPKI PEM file by hand
// (SubjectPublicKeyInfo's BIT STRING holds a PKCS #1 RSAPublicKey), for a
// key ParsePEM rightly refuses.
func modulusOf(data []byte) (*rsa.PublicKey, error) {
	block, _ := pem.Decode(data)
	if block == nil || block.Type != "PUBLIC KEY" {
		return nil, fmt.Errorf("not a PUBLIC KEY PEM block")
	}
	var spki struct {
		Algorithm pkix.AlgorithmIdentifier
		PublicKey asn1.BitString
	}
	if rest, err := asn1.Unmarshal(block.Bytes, &spki); err != nil || len(rest) != 0 {
		return nil, fmt.Errorf("not an SPKI: %v", err)
	}
	return x509.ParsePKCS1PublicKey(spki.PublicKey.Bytes)
}
