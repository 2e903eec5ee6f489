package paserk_test

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/signet-go/signet"
)

var long = flag.Bool("long", false, "run slow password-based vectors")

// vectorFile is one PASERK test-vector file of paseto-standard/test-vectors.
type vectorFile struct {
	Name  string   `json:"name"`
	Tests []vector `json:"tests"`
}

// vector is one test of any PASERK type; fields absent from a type's file
// stay nil or empty.
type vector struct {
	Name       string  `json:"name"`
	ExpectFail bool    `json:"expect-fail"`
	Comment    string  `json:"comment"`
	Key        *string `json:"key"`
	PublicKey  *string `json:"public-key"`
	Seed       string  `json:"seed"`
	SecretSeed string  `json:"secret-key-seed"`
	Paserk     *string `json:"paserk"`

	WrappingKey string  `json:"wrapping-key"`
	Unwrapped   *string `json:"unwrapped"`

	Password string `json:"password"`
	Options  struct {
		Iterations uint32 `json:"iterations"`
		Memlimit   uint64 `json:"memlimit"`
		Opslimit   uint32 `json:"opslimit"`
	} `json:"options"`

	SealingSecretKey string  `json:"sealing-secret-key"`
	SealingPublicKey string  `json:"sealing-public-key"`
	Unsealed         *string `json:"unsealed"`
}

// loadVectors reads testdata/paserk/<name>.
func loadVectors(t testing.TB, name string) []vector {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "paserk", name))
	if err != nil {
		t.Fatal(err)
	}
	var f vectorFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(f.Tests) == 0 {
		t.Fatalf("%s: no tests", name)
	}
	return f.Tests
}

// unhex decodes a hex field of a vector.
func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

// password returns a vector's password. It is used as written: the hex
// digits of most vectors are the password's characters, not its encoding
// (the "-3" vectors, whose password is the text those digits encode, have
// other tags).
func password(v vector) []byte { return []byte(v.Password) }

// str dereferences a nullable vector field.
func str(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// algs returns the local and public algorithms of PASERK version "k3" or "k4".
func algs(ver string) (local, public signet.Algorithm) {
	if ver == "k4" {
		return signet.V4Local, signet.V4Public
	}
	return signet.V3Local, signet.V3Public
}

// rawToKey makes a key of PASERK version ver ("k3", "k4") and type typ
// ("local", "public", "secret") from raw bytes, by the signet key model
// alone (not by this package), the way an application would hold them.
func rawToKey(ver, typ string, raw []byte) (*signet.Key, error) {
	local, public := algs(ver)
	switch {
	case typ == "local":
		return signet.NewKey(local, raw)
	case ver == "k4" && typ == "public":
		return signet.NewKey(public, ed25519.PublicKey(raw))
	case ver == "k4":
		return signet.NewKey(public, ed25519.PrivateKey(raw))
	case typ == "public":
		x, y := elliptic.UnmarshalCompressed(elliptic.P384(), raw)
		if x == nil {
			return nil, fmt.Errorf("%w: not a compressed P-384 point", signet.ErrWeakKey)
		}
		u := append([]byte{4}, append(x.FillBytes(make([]byte, 48)), y.FillBytes(make([]byte, 48))...)...)
		pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P384(), u)
		if err != nil {
			return nil, err
		}
		return signet.NewKey(public, pub)
	default:
		priv, err := ecdsa.ParseRawPrivateKey(elliptic.P384(), raw)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", signet.ErrWeakKey, err)
		}
		return signet.NewKey(public, priv)
	}
}

// mustRawToKey is rawToKey that fails the test on error.
func mustRawToKey(t testing.TB, ver, typ string, raw []byte) *signet.Key {
	t.Helper()
	k, err := rawToKey(ver, typ, raw)
	if err != nil {
		t.Fatalf("%s.%s key: %v", ver, typ, err)
	}
	return k
}

// pemKey parses a PEM EC private key or SPKI public key (the k3 vectors'
// format) into a v3.public key.
func pemKey(t testing.TB, text string) *signet.Key {
	t.Helper()
	block, _ := pem.Decode([]byte(text))
	if block == nil {
		t.Fatalf("no PEM block in %q", text)
	}
	var material any
	var err error
	switch block.Type {
	case "EC PRIVATE KEY":
		material, err = x509.ParseECPrivateKey(block.Bytes)
	case "PUBLIC KEY":
		material, err = x509.ParsePKIXPublicKey(block.Bytes)
	default:
		t.Fatalf("PEM type %q", block.Type)
	}
	if err != nil {
		t.Fatal(err)
	}
	k, err := signet.NewKey(signet.V3Public, material)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// wantErr fails the test unless err wraps target.
func wantErr(t testing.TB, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("error %v, want %v", err, target)
	}
}

// generate returns a new key for alg, failing the test on error.
func generate(t testing.TB, alg signet.Algorithm) *signet.Key {
	t.Helper()
	k, err := signet.GenerateKey(alg)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// publicOf returns k's public half, failing the test on error.
func publicOf(t testing.TB, k *signet.Key) *signet.Key {
	t.Helper()
	p, err := k.Public()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// b64Decode decodes strict unpadded base64url.
func b64Decode(s string) ([]byte, error) { return base64.RawURLEncoding.Strict().DecodeString(s) }
