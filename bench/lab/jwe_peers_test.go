package lab

import (
	"bytes"
	"crypto/aes"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/pbkdf2"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet/jwe"
	"github.com/signet-go/signet/jwt"
)

// jwePeer binds the JWE library named name to the row alg+enc.
func jwePeer(t *testing.T, name, row string, registered bool) JWE {
	t.Helper()
	return peerNamed[JWE](t, "JWE", JWELibs(), name, row, registered)
}

// TestJWECross: a token one library encrypts, every other decrypts to the
// same claims, in every row and both payload shapes: the adapters speak
// the same JWE, so the rows measure the same work.
func TestJWECross(t *testing.T) {
	for _, row := range JWEAlgs {
		for _, size := range []string{"small", "typed"} {
			p := NewPayload(size, time.Now())
			for _, from := range JWELibs() {
				for _, to := range JWELibs() {
					t.Run(fmt.Sprintf("%s/%s/%s→%s", row, size, from.Name(), to.Name()), func(t *testing.T) {
						tok, err := jwePeer(t, from.Name(), row, p.Data == nil).Encrypt(p)
						if err != nil {
							t.Fatal(err)
						}
						alg, enc := SplitJWE(row)
						h := jweHeader(t, tok)
						if h["alg"] != alg || h["enc"] != enc {
							t.Fatalf("header %v, want alg %s enc %s", h, alg, enc)
						}
						var back Payload
						if err := jwePeer(t, to.Name(), row, p.Data == nil).Decrypt(tok, &back); err != nil {
							t.Fatal(err)
						}
						if back.Subject != p.Subject || back.Audience != p.Audience || back.ExpiresAt != p.ExpiresAt || back.IssuedAt != p.IssuedAt ||
							(p.Data != nil && (back.Data == nil || back.Data.Org == nil || back.Data.Org.ID != p.Data.Org.ID)) {
							t.Fatalf("decrypted %+v, want %+v", back, *p)
						}
						if strings.HasPrefix(row, "PBES2") && h["p2c"] != float64(JWEPBES2Count) {
							t.Fatalf("p2c %v, want %d", h["p2c"], JWEPBES2Count)
						}
					})
				}
			}
		}
	}
}

// TestJWEExpiry: every library refuses a token whose exp has passed, and
// checks the audience it is told to (DecryptFor, the matrix's path).
func TestJWEExpiry(t *testing.T) {
	p := NewPayload("small", time.Now())
	for _, row := range JWEAlgs {
		for _, lib := range JWELibs() {
			t.Run(row+"/"+lib.Name(), func(t *testing.T) {
				x := jwePeer(t, lib.Name(), row, true)
				tok, err := x.Encrypt(p)
				if err != nil {
					t.Fatal(err)
				}
				var df JWEDecrypterFor
				switch v := x.(type) {
				case JWEDecrypterFor:
					df = v
				case *signetJWEOps:
					df = signetDecryptFor{v}
				default:
					t.Fatalf("%s: no DecryptFor", lib.Name())
				}
				var back Payload
				if err := df.DecryptFor(tok, &back, time.Now(), p.Audience); err != nil {
					t.Fatalf("now, own audience: %v", err)
				}
				if err := df.DecryptFor(tok, &back, time.Unix(p.ExpiresAt, 0).Add(2*time.Minute), p.Audience); err == nil {
					t.Error("accepted after exp")
				}
				if err := df.DecryptFor(tok, &back, time.Now(), "https://other.example.com"); err == nil {
					t.Error("accepted for another audience")
				}
			})
		}
	}
}

// signetDecryptFor is signet's adapter with a clock and an audience, for
// TestJWEExpiry (the matrix takes signet's verdicts from attacks.Case.Verify).
type signetDecryptFor struct{ s *signetJWEOps }

func (d signetDecryptFor) DecryptFor(token string, p *Payload, now time.Time, audience string) error {
	pol := labPolicy
	pol.Now, pol.IgnoreAudience, pol.Audience = func() time.Time { return now }, false, []string{audience}
	return d.s.decryptWith(token, p, pol)
}

func jweHeader(t *testing.T, tok string) map[string]any {
	t.Helper()
	seg, _, _ := strings.Cut(tok, ".")
	b, err := base64.RawURLEncoding.DecodeString(seg)
	if err != nil {
		t.Fatal(err)
	}
	var h map[string]any
	if err := json.Unmarshal(b, &h); err != nil {
		t.Fatal(err)
	}
	return h
}

// TestJWECases: the cases build (every library passes its self-check) and
// their names are docs/design.md's.
func TestJWECases(t *testing.T) {
	cs, seen := caseNames(t, Options{Formats: []string{"JWE"}, Quick: true, Sizes: true})
	for _, row := range JWEAlgs {
		for _, op := range []string{"Encrypt", "Decrypt"} {
			for _, lib := range []string{"floor", "signet", "jwx", "go-jose"} {
				if name := "BenchmarkJWE/" + row + "/" + op + "/" + lib; !seen[name] {
					t.Errorf("no case %s", name)
				}
			}
		}
	}
	for _, size := range Sizes {
		if name := "BenchmarkJWESize/dir+A256GCM/" + size + "/Decrypt/go-jose"; !seen[name] {
			t.Errorf("no case %s", name)
		}
	}
	if len(cs) != len(JWEAlgs)*8+len(Sizes)*8 {
		t.Errorf("%d cases", len(cs))
	}
}

// TestJWEFloorPrimitives: the floor's AES key wrap is RFC 3394's (§4.6, a
// 256-bit key under a 256-bit KEK), and its Concat KDF, key unwrap and
// PBKDF2 salt decrypt signet's own ECDH-ES and PBES2 tokens: the floor does
// the same cryptography as the libraries.
func TestJWEFloorPrimitives(t *testing.T) {
	unhex := func(s string) []byte {
		b, err := hex.DecodeString(s)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	kek, _ := aes.NewCipher(unhex("000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F"))
	key := unhex("00112233445566778899AABBCCDDEEFF000102030405060708090A0B0C0D0E0F")
	want := unhex("28C9F404C4B810F4CBCCB35CFB87F8263F5786E2D80ED326CBC7F0E71A99F43BFB988B9B7A02DD21")
	if got := aesKeyWrap([]byte("x"), kek, key); !bytes.Equal(got[1:], want) {
		t.Fatalf("wrap: %x", got)
	}
	if got, err := aesKeyUnwrap(nil, kek, want); err != nil || !bytes.Equal(got, key) {
		t.Fatalf("unwrap: %x, %v", got, err)
	}
	bad := bytes.Clone(want)
	bad[3] ^= 1
	if _, err := aesKeyUnwrap(nil, kek, bad); err == nil {
		t.Fatal("unwrap accepts a changed wrapped key")
	}

	p := NewPayload("small", time.Now())
	for _, row := range []string{"ECDH-ES+A256KW+A256GCM", "PBES2-HS256+A128KW+A128GCM"} {
		spec, err := labKeys(t).Spec(row)
		if err != nil {
			t.Fatal(err)
		}
		x := jwePeer(t, "signet", row, true)
		tok, err := x.Encrypt(p)
		if err != nil {
			t.Fatal(err)
		}
		want, err := x.(JWEDecrypterBytes).DecryptBytes(tok)
		if err != nil {
			t.Fatal(err)
		}
		parts := strings.Split(tok, ".")
		seg := func(i int) []byte {
			b, err := base64.RawURLEncoding.DecodeString(parts[i])
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
		h := jweHeader(t, tok)
		alg, _ := SplitJWE(row)
		var kek []byte
		if alg == "ECDH-ES+A256KW" {
			epk := h["epk"].(map[string]any)
			xy := func(k string) []byte {
				b, err := base64.RawURLEncoding.DecodeString(epk[k].(string))
				if err != nil {
					t.Fatal(err)
				}
				return b
			}
			pub, err := ecdh.P256().NewPublicKey(append(append([]byte{4}, xy("x")...), xy("y")...))
			if err != nil {
				t.Fatal(err)
			}
			priv, err := spec.Private.(*ecdsa.PrivateKey).ECDH()
			if err != nil {
				t.Fatal(err)
			}
			z, err := priv.ECDH(pub)
			if err != nil {
				t.Fatal(err)
			}
			kek = concatKDF(nil, z, alg, 32)
		} else {
			p2s, _ := base64.RawURLEncoding.DecodeString(h["p2s"].(string))
			salt := append(append([]byte(alg), 0), p2s...)
			if kek, err = pbkdf2.Key(sha256.New, string(spec.Secret), salt, int(h["p2c"].(float64)), 16); err != nil {
				t.Fatal(err)
			}
		}
		kb, _ := aes.NewCipher(kek)
		cek, err := aesKeyUnwrap(nil, kb, seg(1))
		if err != nil {
			t.Fatalf("%s: unwrap signet's key: %v", row, err)
		}
		g, err := newGCM(cek)
		if err != nil {
			t.Fatal(err)
		}
		got, err := g.Open(nil, seg(2), append(seg(3), seg(4)...), []byte(parts[0]))
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s: the floor's primitives do not decrypt signet's token: %v", row, err)
		}
	}
}

// TestJWEHarnessAllocs pins what the report's dir+A256GCM target
// subtracts (cmd/lab, writeJWETargets): the lab's Encrypt case makes one
// allocation of its own besides jwe.Encrypt's (the claims' aud slice the
// adapter builds from the Payload), and its Decrypt case one besides
// jwe.Decrypt's (the Payload it decodes into, fresh per call as for every
// library).
func TestJWEHarnessAllocs(t *testing.T) {
	spec, err := labKeys(t).Spec("dir+A256GCM")
	if err != nil {
		t.Fatal(err)
	}
	spec.Registered = true
	x, err := signetJWE{}.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	s := x.(*signetJWEOps)
	p := NewPayload("small", time.Now())
	tok, err := x.Encrypt(p)
	if err != nil {
		t.Fatal(err)
	}
	claims := jwt.Claims{Issuer: p.Issuer, Subject: p.Subject, Audience: jwt.Audience{p.Audience}, ExpiresAt: jwt.NumericDate(p.ExpiresAt), IssuedAt: jwt.NumericDate(p.IssuedAt)}
	opts := jwe.Options{PBES2Count: JWEPBES2Count}
	direct := testing.AllocsPerRun(50, func() { _, _ = jwe.Encrypt(s.enc, claims, opts) })
	lab := testing.AllocsPerRun(50, func() { _, _ = x.Encrypt(p) })
	if lab-direct != 1 {
		t.Errorf("Encrypt: the lab's case %v allocations, jwe.Encrypt %v", lab, direct)
	}
	direct = testing.AllocsPerRun(50, func() { _, _ = jwe.Decrypt[jwt.Claims](s.key, tok, labPolicy) })
	lab = testing.AllocsPerRun(50, func() {
		var back Payload
		_ = x.Decrypt(tok, &back)
	})
	if lab-direct != 1 {
		t.Errorf("Decrypt: the lab's case %v allocations, jwe.Decrypt %v", lab, direct)
	}
}
