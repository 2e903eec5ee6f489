package paserk_test

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/paserk"
)

// The official PASERK vectors (paseto-standard/test-vectors), one file per
// version and type; see testdata/paserk/README.md.
var vectorFiles = []string{
	"k3.lid.json", "k3.local-pw.json", "k3.local-wrap.pie.json", "k3.local.json",
	"k3.pid.json", "k3.public.json", "k3.seal.json", "k3.secret-pw.json",
	"k3.secret-wrap.pie.json", "k3.secret.json", "k3.sid.json",
	"k4.lid.json", "k4.local-pw.json", "k4.local-wrap.pie.json", "k4.local.json",
	"k4.pid.json", "k4.public.json", "k4.seal.json", "k4.secret-pw.json",
	"k4.secret-wrap.pie.json", "k4.secret.json", "k4.sid.json",
}

func TestVectors(t *testing.T) {
	for _, file := range vectorFiles {
		t.Run(file, func(t *testing.T) {
			ver, typ, _ := strings.Cut(strings.TrimSuffix(file, ".json"), ".")
			vs := loadVectors(t, file)
			var pass, fail, skipped int
			for _, v := range vs {
				skip := false
				ok := t.Run(v.Name, func(t *testing.T) {
					defer func() { skip = t.Skipped() }()
					runVector(t, ver, typ, v, vs)
				})
				switch {
				case !ok:
				case skip:
					skipped++
				case v.ExpectFail:
					fail++
				default:
					pass++
				}
			}
			t.Logf("%s: %d vectors: %d positive and %d expect-fail passed, %d skipped", file, len(vs), pass, fail, skipped)
		})
	}
}

// runVector checks one vector of file ver.typ; all holds the file's
// vectors (the wrong-version seal vectors borrow a key of the file's own
// version from a positive vector).
func runVector(t *testing.T, ver, typ string, v vector, all []vector) {
	if weakVectors[v.Name] {
		weakVector(t, ver, typ, v)
		return
	}
	switch typ {
	case "local", "public", "secret":
		plainVector(t, ver, typ, v)
	case "lid", "pid", "sid":
		idVector(t, ver, typ, v)
	case "local-wrap.pie", "secret-wrap.pie":
		wrapVector(t, ver, strings.TrimSuffix(typ, "-wrap.pie"), v)
	case "local-pw", "secret-pw":
		passwordVector(t, ver, strings.TrimSuffix(typ, "-pw"), v)
	case "seal":
		sealVector(t, ver, v, all)
	default:
		t.Fatalf("no runner for type %q", typ)
	}
}

// weakVectors are positive vectors whose key signet refuses to make: the
// all-zero k4 public key is a point of small order (y = 0, order 4), under
// which a fixed signature verifies one message in four (see signet's
// package documentation). Decoding it, or making a key of its bytes, must
// fail with ErrWeakKey; the encoding and ID rules these vectors test are
// checked by the other positive vectors of their files.
var weakVectors = map[string]bool{"k4.public-1": true, "k4.pid-1": true}

// weakVector checks that the key of a weakVectors vector is refused, in
// every way the vector's runner would read it.
func weakVector(t *testing.T, ver, typ string, v vector) {
	keyType := map[string]string{"pid": "public"}[typ]
	if keyType == "" {
		keyType = typ
	}
	raw := unhex(t, str(v.Key))
	_, err := rawToKey(ver, keyType, raw)
	wantErr(t, err, signet.ErrWeakKey)
	_, err = paserk.Decode(ver + "." + keyType + "." + base64.RawURLEncoding.EncodeToString(raw))
	wantErr(t, err, signet.ErrWeakKey)
}

// rawOf returns the raw PASERK bytes of k, read from its material (not
// through this package).
func rawOf(t *testing.T, k *signet.Key) []byte {
	t.Helper()
	switch m := k.Material().(type) {
	case []byte:
		return m
	case ed25519.PrivateKey:
		return m
	case ed25519.PublicKey:
		return m
	case *ecdsa.PrivateKey:
		b, err := m.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		return b
	case *ecdsa.PublicKey:
		u, err := m.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		return append([]byte{2 | u[96]&1}, u[1:49]...)
	}
	t.Fatalf("material %T", k.Material())
	return nil
}

// versionOf returns "k3" or "k4" for a PASETO key.
func versionOf(k *signet.Key) string {
	switch k.Algorithm() {
	case signet.V4Local, signet.V4Public:
		return "k4"
	case signet.V3Local, signet.V3Public:
		return "k3"
	}
	return ""
}

// checkKey checks that k is a ver key of type typ with raw bytes want.
func checkKey(t *testing.T, k *signet.Key, ver, typ string, want []byte) {
	t.Helper()
	local, public := algs(ver)
	wantAlg, wantPriv := public, typ != "public"
	if typ == "local" {
		wantAlg = local
	}
	if k.Algorithm() != wantAlg || k.CanSign() != wantPriv {
		t.Fatalf("key is %s (private %v), want %s (private %v)", k.Algorithm(), k.CanSign(), wantAlg, wantPriv)
	}
	if got := rawOf(t, k); !bytes.Equal(got, want) {
		t.Fatalf("key bytes %x, want %x", got, want)
	}
}

// tamperErr is the error expected of a vector whose tag or ciphertext was
// altered: ErrSignatureInvalid, unless the alteration also left set the
// unused bits of the last base64url character, which strict decoding
// refuses first (ErrMalformed).
func tamperErr(s string) error {
	data := s[strings.LastIndexByte(s, '.')+1:]
	if _, err := base64.RawURLEncoding.Strict().DecodeString(data); err != nil {
		return signet.ErrMalformed
	}
	return signet.ErrSignatureInvalid
}

// wrongVersion reports whether PASERK s is of another version than ver.
func wrongVersion(s, ver string) bool { return !strings.HasPrefix(s, ver+".") }

// otherVersionKey checks what a wrong-version vector asks (a PASERK of the
// other version is not accepted as a ver key): s was read without error,
// but into a key of the other version, which the key model keeps apart
// from ver keys; or it failed.
func otherVersionKey(t *testing.T, k *signet.Key, err error, ver string) {
	t.Helper()
	if err == nil && versionOf(k) == ver {
		t.Fatalf("a PASERK of another version gave a %s key", k.Algorithm())
	}
}

func plainVector(t *testing.T, ver, typ string, v vector) {
	if !v.ExpectFail {
		raw := unhex(t, str(v.Key))
		k, err := paserk.Decode(*v.Paserk)
		if err != nil {
			t.Fatalf("Decode: %v", err)
		}
		checkKey(t, k, ver, typ, raw)
		if s, err := paserk.Encode(k); err != nil || s != *v.Paserk {
			t.Fatalf("Encode(Decode(p)) = %q, %v", s, err)
		}
		// From the raw key, as an application holds it.
		k2 := mustRawToKey(t, ver, typ, raw)
		if s, err := paserk.Encode(k2); err != nil || s != *v.Paserk {
			t.Fatalf("Encode(key) = %q, %v; want %q", s, err, *v.Paserk)
		}
		if ver == "k4" && typ == "secret" {
			seed := unhex(t, v.SecretSeed)
			k3, err := signet.NewKey(signet.V4Public, ed25519.NewKeyFromSeed(seed))
			if err != nil || !k3.Equal(k) {
				t.Fatalf("key from seed differs: %v", err)
			}
			pub := unhex(t, str(v.PublicKey))
			if !bytes.Equal(k.PublicMaterial().(ed25519.PublicKey), pub) {
				t.Fatal("public half differs from the vector's")
			}
		}
		if ver == "k3" && typ == "secret" {
			pub := pemKey(t, string(unhex(t, str(v.PublicKey))))
			if !publicOf(t, k).Equal(pub) {
				t.Fatal("public half differs from the vector's")
			}
		}
		return
	}
	if v.Paserk != nil {
		k, err := paserk.Decode(*v.Paserk)
		if wrongVersion(*v.Paserk, ver) {
			otherVersionKey(t, k, err, ver)
			return
		}
		wantErr(t, err, signet.ErrMalformed)
		return
	}
	// A raw key of the wrong size for this version and type: no key can be
	// made of it, and its would-be PASERK does not decode.
	raw := unhex(t, str(v.Key))
	if k, err := rawToKey(ver, typ, raw); err == nil {
		t.Fatalf("raw %d-byte key accepted as %s", len(raw), k.Algorithm())
	}
	_, err := paserk.Decode(ver + "." + typ + "." + base64.RawURLEncoding.EncodeToString(raw))
	wantErr(t, err, signet.ErrMalformed)
}

func idVector(t *testing.T, ver, typ string, v vector) {
	keyType := map[string]string{"lid": "local", "pid": "public", "sid": "secret"}[typ]
	raw := unhex(t, str(v.Key))
	if v.ExpectFail {
		if k, err := rawToKey(ver, keyType, raw); err == nil {
			id, err := paserk.ID(k)
			t.Fatalf("raw %d-byte key accepted as %s: ID %q, %v", len(raw), k.Algorithm(), id, err)
		}
		_, err := paserk.Decode(ver + "." + keyType + "." + base64.RawURLEncoding.EncodeToString(raw))
		wantErr(t, err, signet.ErrMalformed)
		return
	}
	k := mustRawToKey(t, ver, keyType, raw)
	id, err := paserk.ID(k)
	if err != nil || id != *v.Paserk {
		t.Fatalf("ID = %q, %v; want %q", id, err, *v.Paserk)
	}
	if len(id) != len(ver+"."+typ+".")+44 {
		t.Fatalf("ID %q is not 44 characters of data", id)
	}
	if ver == "k4" && typ == "sid" {
		kk, err := signet.NewKey(signet.V4Public, ed25519.NewKeyFromSeed(unhex(t, v.Seed)))
		if err != nil {
			t.Fatal(err)
		}
		if id2, _ := paserk.ID(kk); id2 != id {
			t.Fatalf("ID of the key from the seed is %q", id2)
		}
	}
	// An ID is not a key.
	_, err = paserk.Decode(id)
	wantErr(t, err, signet.ErrUnsupported)
}

func wrapVector(t *testing.T, ver, typ string, v vector) {
	local, _ := algs(ver)
	wk, err := signet.NewKey(local, unhex(t, v.WrappingKey))
	if err != nil {
		t.Fatal(err)
	}
	if v.ExpectFail {
		_, err := paserk.Unwrap(*v.Paserk, wk)
		if wrongVersion(*v.Paserk, ver) {
			wantErr(t, err, signet.ErrAlgorithmMismatch)
			return
		}
		wantErr(t, err, tamperErr(*v.Paserk))
		return
	}
	want := unhex(t, str(v.Unwrapped))
	k, err := paserk.Unwrap(*v.Paserk, wk)
	if err != nil {
		t.Fatalf("Unwrap: %v", err)
	}
	checkKey(t, k, ver, typ, want)
	if ver == "k3" && typ == "secret" && v.PublicKey != nil {
		pub := pemKey(t, string(unhex(t, *v.PublicKey)))
		if !publicOf(t, k).Equal(pub) {
			t.Fatal("public half differs from the vector's")
		}
	}
	// Wrapping again gives another string (fresh nonce) that unwraps to
	// the same key.
	s, err := paserk.Wrap(k, wk)
	if err != nil {
		t.Fatalf("Wrap: %v", err)
	}
	if s == *v.Paserk || !strings.HasPrefix(s, ver+"."+typ+"-wrap.pie.") || len(s) != len(*v.Paserk) {
		t.Fatalf("Wrap = %q", s)
	}
	k2, err := paserk.Unwrap(s, wk)
	if err != nil || !k2.Equal(k) {
		t.Fatalf("Unwrap(Wrap(k)): %v", err)
	}
	// Decode does not unwrap.
	_, err = paserk.Decode(*v.Paserk)
	wantErr(t, err, signet.ErrUnsupported)
}

// pwCost describes the key-derivation cost written in a password-wrapped
// PASERK, and reports whether it is too slow to run without -long (every
// k4 string: Argon2id with 64 or 256 MiB).
func pwCost(t *testing.T, s string) (memlimit uint64, opslimit, iterations uint32, slow bool) {
	t.Helper()
	dot := strings.LastIndexByte(s, '.')
	d, err := base64.RawURLEncoding.DecodeString(s[dot+1:])
	if err != nil || len(d) < 36 {
		t.Fatalf("bad data in %q", s)
	}
	if strings.HasPrefix(s, "k4.") {
		return binary.BigEndian.Uint64(d[16:]), binary.BigEndian.Uint32(d[24:]), 0, true
	}
	return 0, 0, binary.BigEndian.Uint32(d[32:]), false
}

func passwordVector(t *testing.T, ver, typ string, v vector) {
	mem, ops, iter, slow := pwCost(t, *v.Paserk)
	// (The options of the expect-fail vectors are not always those of
	// their PASERK.)
	if !v.ExpectFail && (mem != v.Options.Memlimit || ops != v.Options.Opslimit || iter != v.Options.Iterations) {
		t.Fatalf("costs in the PASERK (%d, %d, %d) differ from the vector's options %+v", mem, ops, iter, v.Options)
	}
	if slow && !*long {
		t.Skipf("Argon2id with %d MiB: run with -long", mem>>20)
	}
	k, err := paserk.UnwrapPassword(*v.Paserk, password(v))
	if v.ExpectFail {
		if wrongVersion(*v.Paserk, ver) {
			otherVersionKey(t, k, err, ver)
			return
		}
		wantErr(t, err, tamperErr(*v.Paserk))
		return
	}
	if err != nil {
		t.Fatalf("UnwrapPassword: %v", err)
	}
	checkKey(t, k, ver, typ, unhex(t, str(v.Unwrapped)))
	// Decode does not unwrap.
	_, err = paserk.Decode(*v.Paserk)
	wantErr(t, err, signet.ErrUnsupported)
}

// sealKeys returns the recipient's private and public key of a seal vector
// of version ver, or nil when the vector's keys are of the other version.
func sealKeys(t *testing.T, ver string, v vector) (priv, pub *signet.Key) {
	t.Helper()
	if ver == "k3" {
		if !strings.HasPrefix(v.SealingSecretKey, "-----BEGIN") {
			return nil, nil
		}
		return pemKey(t, v.SealingSecretKey), pemKey(t, v.SealingPublicKey)
	}
	if strings.HasPrefix(v.SealingSecretKey, "-----BEGIN") {
		return nil, nil
	}
	priv = mustRawToKey(t, ver, "secret", unhex(t, v.SealingSecretKey))
	pub = mustRawToKey(t, ver, "public", unhex(t, v.SealingPublicKey))
	return priv, pub
}

func sealVector(t *testing.T, ver string, v vector, all []vector) {
	sk, pk := sealKeys(t, ver, v)
	if sk == nil { // a wrong-version vector with the other version's keys
		sk, pk = sealKeys(t, ver, all[0])
	}
	if !publicOf(t, sk).Equal(pk) {
		t.Fatal("the vector's public key is not the secret key's")
	}
	if v.ExpectFail {
		_, err := paserk.Unseal(*v.Paserk, sk)
		if wrongVersion(*v.Paserk, ver) {
			wantErr(t, err, signet.ErrAlgorithmMismatch)
			return
		}
		wantErr(t, err, tamperErr(*v.Paserk))
		return
	}
	want := unhex(t, str(v.Unsealed))
	k, err := paserk.Unseal(*v.Paserk, sk)
	if err != nil {
		t.Fatalf("Unseal: %v", err)
	}
	checkKey(t, k, ver, "local", want)
	// Sealing again (fresh ephemeral key) to the public key, or to the
	// private key's public half, unseals to the same key.
	for _, to := range []*signet.Key{pk, sk} {
		s, err := paserk.Seal(k, to)
		if err != nil {
			t.Fatalf("Seal: %v", err)
		}
		if s == *v.Paserk || len(s) != len(*v.Paserk) {
			t.Fatalf("Seal = %q", s)
		}
		k2, err := paserk.Unseal(s, sk)
		if err != nil || !k2.Equal(k) {
			t.Fatalf("Unseal(Seal(k)): %v", err)
		}
	}
	_, err = paserk.Decode(*v.Paserk)
	wantErr(t, err, signet.ErrUnsupported)
}
