package paseto

import (
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/signet-go/signet"
)

// vector is one test of testdata/paseto/v3.json or v4.json (see its README).
type vector struct {
	Name       string `json:"name"`
	ExpectFail bool   `json:"expect-fail"`
	Key        string `json:"key"`
	Nonce      string `json:"nonce"`
	PublicKey  string `json:"public-key"`
	SecretKey  string `json:"secret-key"`
	SecretPEM  string `json:"secret-key-pem"`
	PublicPEM  string `json:"public-key-pem"`
	Token      string `json:"token"`
	Payload    string `json:"payload"`
	Footer     string `json:"footer"`
	Implicit   string `json:"implicit-assertion"`
}

func loadVectors(t *testing.T, file string) []vector {
	t.Helper()
	data, err := os.ReadFile("../testdata/paseto/" + file)
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Tests []vector `json:"tests"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return v.Tests
}

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// keysOf builds the keys a vector names: the symmetric key for a local
// test, the key pair for a public one. A vector that names the wrong kind
// of key (the F-1 and F-2 cases) gets exactly that wrong kind.
func keysOf(t *testing.T, version string, v vector) (local, secret, public *signet.Key) {
	t.Helper()
	var err error
	if v.Key != "" {
		alg := signet.V4Local
		if version == "v3" {
			alg = signet.V3Local
		}
		if local, err = signet.NewKey(alg, unhex(t, v.Key)); err != nil {
			t.Fatal(err)
		}
	}
	if v.SecretKey != "" {
		if version == "v4" {
			if secret, err = signet.NewKey(signet.V4Public, ed25519.PrivateKey(unhex(t, v.SecretKey))); err != nil {
				t.Fatal(err)
			}
			if public, err = signet.NewKey(signet.V4Public, ed25519.PublicKey(unhex(t, v.PublicKey))); err != nil {
				t.Fatal(err)
			}
		} else {
			if secret, err = signet.ParsePEM([]byte(v.SecretPEM), signet.V3Public); err != nil {
				t.Fatal(err)
			}
			if public, err = signet.ParsePEM([]byte(v.PublicPEM), signet.V3Public); err != nil {
				t.Fatal(err)
			}
			pk, err := compressedPoint(public)
			if err != nil || hex.EncodeToString(pk) != v.PublicKey {
				t.Fatalf("compressed public key %x, want %s (%v)", pk, v.PublicKey, err)
			}
		}
	}
	return local, secret, public
}

// TestVectors runs all 34 official v3 and v4 vectors: every positive one
// decodes to its payload and is reproduced byte for byte from its nonce
// (local) or key (v4.public, deterministic); every expect-fail one fails.
func TestVectors(t *testing.T) {
	vectorTime := time.Date(2021, 6, 1, 0, 0, 0, 0, time.UTC) // the payloads expire 2022-01-01
	count := 0
	for _, version := range []string{"v3", "v4"} {
		for _, v := range loadVectors(t, version+".json") {
			count++
			t.Run(v.Name, func(t *testing.T) {
				local, secret, public := keysOf(t, version, v)
				f, i := []byte(v.Footer), []byte(v.Implicit)
				p := Policy{Footer: f, Implicit: i, Now: fixed(vectorTime)}
				var got []byte
				var err error
				switch {
				case local != nil:
					got, err = DecryptBytes(local, v.Token, p)
					if err == nil {
						// Through the claims API too.
						_, err = Decrypt[Map](local, v.Token, p)
					}
				case public != nil:
					got, err = VerifyBytes(public, v.Token, p)
					if err == nil {
						_, err = Verify[Map](public, v.Token, p)
					}
				default:
					t.Fatal("vector without keys")
				}
				if v.ExpectFail {
					if err == nil {
						t.Fatalf("%s accepted", v.Name)
					}
					if !errors.Is(err, signet.ErrAlgorithmMismatch) && !errors.Is(err, signet.ErrMalformed) && !errors.Is(err, signet.ErrUnsupported) {
						t.Fatalf("%s: unexpected error %v", v.Name, err)
					}
					return
				}
				if err != nil {
					t.Fatalf("%s: %v", v.Name, err)
				}
				if string(got) != v.Payload {
					t.Fatalf("payload %s", got)
				}
				// Reproduce the token.
				var tok string
				switch {
				case local != nil && version == "v4":
					tok, err = encryptV4(local, []byte(v.Payload), f, i, unhex(t, v.Nonce))
				case local != nil:
					tok, err = encryptV3(local, []byte(v.Payload), f, i, unhex(t, v.Nonce))
				default:
					tok, err = SignBytes(secret, []byte(v.Payload), Options{Footer: f, Implicit: i})
				}
				if err != nil {
					t.Fatal(err)
				}
				if version == "v3" && local == nil {
					// ECDSA is randomized: the new token must verify.
					if back, err := VerifyBytes(public, tok, p); err != nil || string(back) != v.Payload {
						t.Fatalf("re-signed v3.public: %v", err)
					}
				} else if tok != v.Token {
					t.Fatalf("not reproduced:\n got %s\nwant %s", tok, v.Token)
				}
				// The wrong footer or implicit assertion fails.
				bad := p
				bad.Implicit = append(append([]byte(nil), i...), 'x')
				if local != nil {
					_, err = DecryptBytes(local, v.Token, bad)
				} else {
					_, err = VerifyBytes(public, v.Token, bad)
				}
				if !errors.Is(err, signet.ErrSignatureInvalid) {
					t.Fatalf("other implicit assertion: %v", err)
				}
			})
		}
	}
	if count != 34 {
		t.Fatalf("%d vectors, want 34", count)
	}
}
