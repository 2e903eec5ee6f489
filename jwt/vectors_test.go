package jwt_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/b64"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/jwt"
)

// vector is one file of testdata/jose (see its README for the sources).
type vector struct {
	Source        string          `json:"source"`
	Alg           string          `json:"alg"`
	Key           json.RawMessage `json:"key"`
	PublicKey     json.RawMessage `json:"public_key"`
	Token         string          `json:"token"`
	PayloadB64    string          `json:"payload_b64"`
	Deterministic bool            `json:"deterministic"`
	Exp           int64           `json:"exp"`
}

func loadVectors(t *testing.T) map[string]vector {
	t.Helper()
	files, err := filepath.Glob("../testdata/jose/rfc*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no vectors: %v", err)
	}
	out := make(map[string]vector)
	for _, f := range files {
		if strings.Contains(f, "thumbprint") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var v vector
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[filepath.Base(f)] = v
	}
	return out
}

// TestRFCVectors verifies every published JWS example, re-signs the
// deterministic ones byte for byte, and checks that each is refused once
// tampered with or under another algorithm.
func TestRFCVectors(t *testing.T) {
	vectors := loadVectors(t)
	if len(vectors) < 9 {
		t.Fatalf("expected at least 9 JWS vectors, found %d", len(vectors))
	}
	for name, v := range vectors {
		t.Run(name, func(t *testing.T) {
			alg := signet.Algorithm(v.Alg)
			key, err := jwk.ParseKeyFor(v.Key, alg)
			if err != nil {
				t.Fatalf("%s: key: %v", v.Source, err)
			}
			verifier := key
			if len(v.PublicKey) > 0 {
				if verifier, err = jwk.ParseKeyFor(v.PublicKey, alg); err != nil {
					t.Fatalf("public key: %v", err)
				}
			} else if !key.Symmetric() {
				if verifier, err = key.Public(); err != nil {
					t.Fatal(err)
				}
			}
			want, err := b64.DecodeString(v.PayloadB64)
			if err != nil {
				t.Fatal(err)
			}
			payload, h, err := jwt.VerifyBytes(verifier, v.Token, jwt.Policy{})
			if err != nil {
				t.Fatalf("%s: verify: %v", v.Source, err)
			}
			if string(payload) != string(want) || h.Algorithm != alg {
				t.Fatalf("payload %q alg %s", payload, h.Algorithm)
			}

			if v.Exp != 0 {
				before := jwt.Policy{Now: fixed(time.Unix(v.Exp-1, 0))}
				if _, err := jwt.Verify[jwt.Map](verifier, v.Token, before); err != nil {
					t.Fatalf("as JWT before exp: %v", err)
				}
				after := jwt.Policy{Now: fixed(time.Unix(v.Exp, 0))}
				if _, err := jwt.Verify[jwt.Map](verifier, v.Token, after); !errors.Is(err, signet.ErrExpired) {
					t.Fatalf("as JWT at exp: %v, want ErrExpired", err)
				}
			}

			dot := strings.LastIndexByte(v.Token, '.')
			if v.Deterministic {
				sig, err := key.Sign(nil, []byte(v.Token[:dot]))
				if err != nil {
					t.Fatal(err)
				}
				if got := b64.EncodeToString(sig); got != v.Token[dot+1:] {
					t.Fatalf("re-signed signature differs:\n got %s\nwant %s", got, v.Token[dot+1:])
				}
				// Where the RFC's header is the one signet writes, the whole
				// token is reproduced.
				hdr, _ := b64.DecodeString(v.Token[:strings.IndexByte(v.Token, '.')])
				var typ string
				if strings.Contains(string(hdr), `"typ"`) {
					typ = "JWT"
				}
				if tok, err := jwt.SignBytes(key.WithKeyID(kidOf(hdr)), want, typ); err == nil && tok == v.Token {
					t.Logf("%s: token reproduced byte for byte", v.Source)
				} else if !strings.ContainsAny(string(hdr), "\r\n ") {
					t.Fatalf("SignBytes did not reproduce %s: %s", v.Source, tok)
				}
			} else {
				// Non-deterministic algorithms: a fresh signature verifies.
				tok, err := jwt.SignBytes(key, want, "")
				if err != nil {
					t.Fatal(err)
				}
				if _, _, err := jwt.VerifyBytes(verifier, tok, jwt.Policy{}); err != nil {
					t.Fatalf("fresh signature: %v", err)
				}
			}

			// Tampering with any segment is refused.
			sig, _ := b64.DecodeString(v.Token[dot+1:])
			sig[len(sig)/2] ^= 0x01
			bad := v.Token[:dot+1] + b64.EncodeToString(sig)
			if _, _, err := jwt.VerifyBytes(verifier, bad, jwt.Policy{}); !errors.Is(err, signet.ErrSignatureInvalid) {
				t.Fatalf("tampered signature: %v", err)
			}
			i := strings.IndexByte(v.Token, '.')
			tamperedPayload := v.Token[:i+1] + b64.EncodeToString(append(want[:len(want):len(want)], ' ')) + v.Token[dot:]
			if _, _, err := jwt.VerifyBytes(verifier, tamperedPayload, jwt.Policy{}); !errors.Is(err, signet.ErrSignatureInvalid) {
				t.Fatalf("tampered payload: %v", err)
			}
			// The same token under a key of another algorithm is refused
			// before any cryptography.
			otherAlg := signet.HS512
			if alg == signet.HS512 {
				otherAlg = signet.HS256
			}
			other, _ := signet.GenerateKey(otherAlg)
			if _, _, err := jwt.VerifyBytes(other, v.Token, jwt.Policy{}); !errors.Is(err, signet.ErrAlgorithmMismatch) {
				t.Fatalf("other algorithm: %v", err)
			}
		})
	}
}

func kidOf(hdr []byte) string {
	var h struct {
		Kid string `json:"kid"`
	}
	_ = json.Unmarshal(hdr, &h)
	return h.Kid
}

// joseEd25519Token is RFC 8037 A.4's payload signed with its A.1 key under
// the header {"alg":"Ed25519"}, RFC 9864's fully-specified name for
// EdDSA, by npm jose 6.2.17 (CompactSign, importJWK(key, "Ed25519")).
// Ed25519 being deterministic, it is also what signet's key signs.
const joseEd25519Token = "eyJhbGciOiJFZDI1NTE5In0.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc.UxhIYLHGg39NVCLpQAVD_UcfOmnGSCzLFZoXYkLiIbFccmOb_qObsgjzLKsfJw-4NlccUgvYrEHrRbNV0HcZAQ"

// TestEd25519AlgName: a JWS whose header says "Ed25519" (RFC 9864)
// verifies with signet's EdDSA key for the same Ed25519 key, whether its
// JWK says "alg":"EdDSA", "alg":"Ed25519" or nothing (ParseKeyFor EdDSA);
// the verified header reports signet.EdDSA, and signet's signature over
// the same input is jose's byte for byte.
func TestEd25519AlgName(t *testing.T) {
	v, ok := loadVectors(t)["rfc8037-a4-eddsa.json"]
	if !ok {
		t.Fatal("no RFC 8037 A.4 vector")
	}
	withAlg := func(alg string) []byte {
		return []byte(strings.Replace(string(v.PublicKey), `"kty"`, `"alg":"`+alg+`","kty"`, 1))
	}
	verifiers := map[string]func() (*signet.Key, error){
		"ParseKeyFor EdDSA, no alg":  func() (*signet.Key, error) { return jwk.ParseKeyFor(v.PublicKey, signet.EdDSA) },
		"ParseKey, alg EdDSA":        func() (*signet.Key, error) { return jwk.ParseKey(withAlg("EdDSA")) },
		"ParseKey, alg Ed25519":      func() (*signet.Key, error) { return jwk.ParseKey(withAlg("Ed25519")) },
		"ParseKeyFor EdDSA, Ed25519": func() (*signet.Key, error) { return jwk.ParseKeyFor(withAlg("Ed25519"), signet.EdDSA) },
	}
	for name, parse := range verifiers {
		t.Run(name, func(t *testing.T) {
			key, err := parse()
			if err != nil {
				t.Fatal(err)
			}
			payload, h, err := jwt.VerifyBytes(key, joseEd25519Token, jwt.Policy{})
			if err != nil {
				t.Fatalf("verify: %v", err)
			}
			if string(payload) != "Example of Ed25519 signing" || h.Algorithm != signet.EdDSA {
				t.Fatalf("payload %q, header alg %s", payload, h.Algorithm)
			}
		})
	}
	priv, err := jwk.ParseKeyFor(v.Key, signet.EdDSA)
	if err != nil {
		t.Fatal(err)
	}
	dot := strings.LastIndexByte(joseEd25519Token, '.')
	sig, err := priv.Sign(nil, []byte(joseEd25519Token[:dot]))
	if err != nil {
		t.Fatal(err)
	}
	if got := b64.EncodeToString(sig); got != joseEd25519Token[dot+1:] {
		t.Fatalf("signet's signature differs from jose's:\n got %s\nwant %s", got, joseEd25519Token[dot+1:])
	}
	// The name is EdDSA's, not a way to another key: the RFC 9421 key and
	// the PASETO key for the same Ed25519 material refuse it.
	for _, alg := range []signet.Algorithm{signet.Ed25519, signet.V4Public} {
		other, err := signet.NewKey(alg, priv.Material())
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := jwt.VerifyBytes(other, joseEd25519Token, jwt.Policy{}); !errors.Is(err, signet.ErrAlgorithmMismatch) {
			t.Errorf("%s key: err = %v, want ErrAlgorithmMismatch", alg, err)
		}
	}
}
