package jwk_test

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
)

// TestThumbprintRFC checks RFC 7638 §3.1 (an RSA key; its "alg" and "kid"
// do not enter the thumbprint) and RFC 8037 A.3 (the Ed25519 key of A.1
// and A.2: the private key has the thumbprint of its public half).
func TestThumbprintRFC(t *testing.T) {
	tests := []struct {
		file, private string
		alg           signet.Algorithm
	}{
		{"rfc7638-3.1-thumbprint.json", "", signet.RS256},
		{"rfc8037-a3-thumbprint.json", "rfc8037-a4-eddsa.json", signet.EdDSA},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			v := loadVector(t, tt.file)
			if v.Thumbprint == "" {
				t.Fatal("vector has no thumbprint")
			}
			k, err := jwk.ParseKeyFor(v.Key, tt.alg)
			if err != nil {
				t.Fatal(err)
			}
			got, err := jwk.Thumbprint(k)
			if err != nil {
				t.Fatal(err)
			}
			if got != v.Thumbprint {
				t.Fatalf("Thumbprint = %s, want %s (%s)", got, v.Thumbprint, v.Source)
			}
			if tt.private == "" {
				return
			}
			priv, err := jwk.ParseKeyFor(loadVector(t, tt.private).Key, tt.alg)
			if err != nil {
				t.Fatal(err)
			}
			if !priv.CanSign() {
				t.Fatal("private vector parsed as public")
			}
			if got, err := jwk.Thumbprint(priv); err != nil || got != v.Thumbprint {
				t.Fatalf("private key thumbprint = %s, %v; want %s", got, err, v.Thumbprint)
			}
		})
	}
	// RFC 7638 §3.1 also names the key: "kid" is kept.
	k, err := jwk.ParseKey(loadVector(t, "rfc7638-3.1-thumbprint.json").Key)
	if err != nil {
		t.Fatal(err)
	}
	if k.KeyID() != "2011-04-29" || k.Algorithm() != signet.RS256 {
		t.Fatalf("kid %q alg %s", k.KeyID(), k.Algorithm())
	}
}

func TestThumbprintEveryAlgorithm(t *testing.T) {
	for alg, k := range keys(t) {
		t.Run(string(alg), func(t *testing.T) {
			tp, err := jwk.Thumbprint(k)
			if err != nil {
				t.Fatal(err)
			}
			if len(tp) != 43 {
				t.Fatalf("thumbprint %q is not 32 bytes of base64url", tp)
			}
			if alg.Symmetric() {
				// {"k":"…","kty":"oct"}, by hand.
				sum := sha256.Sum256([]byte(`{"k":"` + b64(k.Material().([]byte)) + `","kty":"oct"}`))
				if tp != b64(sum[:]) {
					t.Fatal("oct thumbprint does not follow RFC 7638")
				}
				return
			}
			// The required members in lexicographic order, by hand.
			data, err := jwk.MarshalPublic(k)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]string
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			var canon string
			switch m["kty"] {
			case "RSA":
				canon = `{"e":"` + m["e"] + `","kty":"RSA","n":"` + m["n"] + `"}`
			case "EC":
				canon = `{"crv":"` + m["crv"] + `","kty":"EC","x":"` + m["x"] + `","y":"` + m["y"] + `"}`
			case "OKP":
				canon = `{"crv":"Ed25519","kty":"OKP","x":"` + m["x"] + `"}`
			}
			if sum := sha256.Sum256([]byte(canon)); tp != b64(sum[:]) {
				t.Fatalf("%s thumbprint does not follow RFC 7638", m["kty"])
			}
			pub, _ := k.Public()
			if tpPub, err := jwk.Thumbprint(pub.WithKeyID("other")); err != nil || tpPub != tp {
				t.Fatalf("public half: %s, %v; want %s", tpPub, err, tp)
			}
		})
	}
	if _, err := jwk.Thumbprint(nil); !errors.Is(err, signet.ErrKeyUsage) {
		t.Fatalf("Thumbprint(nil): %v", err)
	}
}
