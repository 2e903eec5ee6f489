package paserk_test

import (
	"crypto/ed25519"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/paserk"
)

var pasetoAlgs = []signet.Algorithm{signet.V4Local, signet.V4Public, signet.V3Local, signet.V3Public}

// testKeys returns, for each PASETO algorithm, a new key and, for the
// public ones, its public half.
func testKeys(t *testing.T) []*signet.Key {
	t.Helper()
	var keys []*signet.Key
	for _, alg := range pasetoAlgs {
		k := generate(t, alg)
		keys = append(keys, k)
		if !k.Symmetric() {
			keys = append(keys, publicOf(t, k))
		}
	}
	return keys
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	for _, k := range testKeys(t) {
		s, err := paserk.Encode(k)
		if err != nil {
			t.Fatalf("%s: %v", k.Algorithm(), err)
		}
		want := map[signet.Algorithm]string{signet.V4Local: "k4.local.", signet.V3Local: "k3.local."}[k.Algorithm()]
		if want == "" {
			ver := "k4."
			if k.Algorithm() == signet.V3Public {
				ver = "k3."
			}
			want = ver + map[bool]string{true: "secret.", false: "public."}[k.CanSign()]
		}
		if !strings.HasPrefix(s, want) {
			t.Fatalf("%s (private %v) encodes as %q, want prefix %q", k.Algorithm(), k.CanSign(), s, want)
		}
		k2, err := paserk.Decode(s)
		if err != nil {
			t.Fatalf("Decode(%q): %v", s, err)
		}
		if !k2.Equal(k) || k2.Algorithm() != k.Algorithm() || k2.CanSign() != k.CanSign() {
			t.Fatalf("%s: round trip changed the key", want)
		}
		id, err := paserk.ID(k)
		if err != nil {
			t.Fatal(err)
		}
		id2, _ := paserk.ID(k2)
		if id != id2 {
			t.Fatalf("ID changed in the round trip: %q, %q", id, id2)
		}
		wantID := strings.Replace(strings.Replace(strings.Replace(want, "local.", "lid.", 1), "secret.", "sid.", 1), "public.", "pid.", 1)
		if !strings.HasPrefix(id, wantID) || len(id) != len(wantID)+44 {
			t.Fatalf("ID %q, want %q and 44 characters", id, wantID)
		}
	}
}

func TestIDDiffersBetweenPrivateAndPublic(t *testing.T) {
	for _, alg := range []signet.Algorithm{signet.V4Public, signet.V3Public} {
		k := generate(t, alg)
		sid, _ := paserk.ID(k)
		pid, _ := paserk.ID(publicOf(t, k))
		if sid == pid || sid[3:6] != "sid" || pid[3:6] != "pid" {
			t.Fatalf("%s: sid %q, pid %q", alg, sid, pid)
		}
	}
}

func TestJWSKeysUnsupported(t *testing.T) {
	for _, alg := range []signet.Algorithm{signet.EdDSA, signet.ES384, signet.HS256} {
		k := generate(t, alg)
		_, err := paserk.Encode(k)
		wantErr(t, err, signet.ErrUnsupported)
		_, err = paserk.ID(k)
		wantErr(t, err, signet.ErrUnsupported)
		_, err = paserk.Wrap(k, generate(t, signet.V4Local))
		wantErr(t, err, signet.ErrUnsupported)
		_, err = paserk.WrapPassword(k, []byte("pw"), paserk.PasswordParams{})
		wantErr(t, err, signet.ErrUnsupported)
		_, err = paserk.Seal(k, generate(t, signet.V4Public))
		wantErr(t, err, signet.ErrUnsupported)
	}
	_, err := paserk.Encode(nil)
	wantErr(t, err, signet.ErrKeyUsage)
	_, err = paserk.ID(nil)
	wantErr(t, err, signet.ErrKeyUsage)
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

func TestDecodeStrict(t *testing.T) {
	zero32 := b64(make([]byte, 32))
	seed := make([]byte, 32)
	ed := ed25519.NewKeyFromSeed(seed)
	badEd := append([]byte(nil), ed...)
	badEd[63] ^= 1 // public half no longer that of the seed
	// P-384 order n; n and 0 are not valid scalars.
	order := []byte{
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xc7, 0x63, 0x4d, 0x81, 0xf4, 0x37, 0x2d, 0xdf, 0x58, 0x1a, 0x0d, 0xb2,
		0x48, 0xb0, 0xa7, 0x7a, 0xec, 0xec, 0x19, 0x6a, 0xcc, 0xc5, 0x29, 0x73,
	}
	offCurve := make([]byte, 49)
	offCurve[0] = 2
	offCurve[48] = 1 // x = 1: no y on P-384
	uncompressedTag := make([]byte, 49)
	uncompressedTag[0] = 4
	xTooBig := append([]byte{2}, bytesOf(0xff, 48)...) // x ≥ p

	tests := []struct {
		name, s string
		want    error
	}{
		{"empty", "", signet.ErrMalformed},
		{"no dot", "k4", signet.ErrMalformed},
		{"no type dot", "k4.local", signet.ErrMalformed},
		{"empty data", "k4.local.", signet.ErrMalformed},
		{"upper K", "K4.local." + zero32, signet.ErrMalformed},
		{"paseto token", "v4.local." + zero32, signet.ErrMalformed},
		{"version k2", "k2.local." + zero32, signet.ErrUnsupported},
		{"version k1", "k1.secret." + zero32, signet.ErrUnsupported},
		{"version k5", "k5.local." + zero32, signet.ErrUnsupported},
		{"version k", "k.local." + zero32, signet.ErrMalformed},
		{"type case", "k4.Local." + zero32, signet.ErrUnsupported},
		{"unknown type", "k4.private." + zero32, signet.ErrUnsupported},
		{"extra part", "k4.local." + zero32 + ".x", signet.ErrMalformed},
		{"padding", "k4.local." + zero32 + "=", signet.ErrMalformed},
		{"std alphabet", "k4.local." + strings.Repeat("+", 43), signet.ErrMalformed},
		{"trailing bits", "k4.local." + zero32[:42] + "B", signet.ErrMalformed},
		{"whitespace", "k4.local. " + zero32, signet.ErrMalformed},
		{"short local", "k4.local." + b64(make([]byte, 31)), signet.ErrMalformed},
		{"long local", "k3.local." + b64(make([]byte, 33)), signet.ErrMalformed},
		{"k4 public 49", "k4.public." + b64(make([]byte, 49)), signet.ErrMalformed},
		{"k4 secret seed only", "k4.secret." + b64(seed), signet.ErrMalformed},
		{"k4 secret mismatch", "k4.secret." + b64(badEd), signet.ErrWeakKey},
		{"k3 public off curve", "k3.public." + b64(offCurve), signet.ErrWeakKey},
		{"k3 public x >= p", "k3.public." + b64(xTooBig), signet.ErrWeakKey},
		{"k3 public bad tag", "k3.public." + b64(uncompressedTag), signet.ErrWeakKey},
		{"k3 public 97", "k3.public." + b64(make([]byte, 97)), signet.ErrMalformed},
		{"k3 secret zero", "k3.secret." + b64(make([]byte, 48)), signet.ErrWeakKey},
		{"k3 secret n", "k3.secret." + b64(order), signet.ErrWeakKey},
		{"k3 secret all ones", "k3.secret." + b64(bytesOf(0xff, 48)), signet.ErrWeakKey},
		{"lid", "k4.lid." + b64(make([]byte, 33)), signet.ErrUnsupported},
		{"pid", "k3.pid." + b64(make([]byte, 33)), signet.ErrUnsupported},
		{"local-wrap", "k4.local-wrap.pie." + b64(make([]byte, 96)), signet.ErrUnsupported},
		{"secret-wrap", "k3.secret-wrap.pie." + b64(make([]byte, 128)), signet.ErrUnsupported},
		{"aws-kms", "k4.local-wrap.aws-kms." + zero32, signet.ErrUnsupported},
		{"wrap no protocol", "k4.local-wrap." + zero32, signet.ErrMalformed},
		{"local-pw", "k4.local-pw." + b64(make([]byte, 120)), signet.ErrUnsupported},
		{"seal", "k4.seal." + b64(make([]byte, 96)), signet.ErrUnsupported},
		{"too long", "k4.local." + strings.Repeat("A", paserk.MaxLength), signet.ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, err := paserk.Decode(tt.s)
			if k != nil {
				t.Fatal("key returned with an error")
			}
			wantErr(t, err, tt.want)
		})
	}
}

func bytesOf(b byte, n int) []byte { return []byte(strings.Repeat(string([]byte{b}), n)) }

func TestErrorsDoNotLeakInput(t *testing.T) {
	secret := "k4.local." + b64(bytesOf(0x41, 31)) // too short: refused
	_, err := paserk.Decode(secret)
	if err == nil || strings.Contains(err.Error(), secret[9:]) {
		t.Fatalf("error %v quotes the data", err)
	}
	long := "k4." + strings.Repeat("x", 500) + ".AAAA"
	_, err = paserk.Decode(long)
	if err == nil || len(err.Error()) > 200 {
		t.Fatalf("error not bounded: %d bytes", len(err.Error()))
	}
}
