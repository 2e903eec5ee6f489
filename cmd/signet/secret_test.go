package main

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/jwt"
	"github.com/signet-go/signet/paserk"
)

// randomBytes returns n bytes from crypto/rand.
func randomBytes(t *testing.T, n int) []byte {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRawSecretAnyBytes: with --secret-encoding raw, every secret works
// whatever bytes it holds: what jwt sign signs with, jwt verify verifies
// with from the same file, and the key is the file's bytes exactly (a
// library key made from them verifies). Nothing is stripped or guessed:
// a '{', a PEM armour line, a final newline, NUL bytes, a byte-order mark
// or a PASERK-like prefix are secret bytes like any other.
func TestRawSecretAnyBytes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	secrets := map[string][]byte{
		"starts with a brace":        append([]byte("{"), randomBytes(t, 31)...),
		"JSON-like":                  append(append([]byte(`{"kty":`), randomBytes(t, 32)...), '}'),
		"PEM armour line":            append(append(randomBytes(t, 8), "\n-----BEGIN PRIVATE KEY-----\n"...), randomBytes(t, 16)...),
		"final newline":              append(randomBytes(t, 31), '\n'),
		"final CRLF":                 append(randomBytes(t, 30), '\r', '\n'),
		"NUL bytes":                  append(make([]byte, 16), randomBytes(t, 16)...),
		"byte-order mark":            append([]byte("\xef\xbb\xbf"), randomBytes(t, 32)...),
		"k4. prefix":                 append([]byte("k4."), randomBytes(t, 32)...),
		"white space around":         append(append([]byte(" \t"), randomBytes(t, 32)...), ' ', '\n'),
		"printable with a newline":   []byte("correct horse battery staple {0123456789} -----BEGIN\n"),
		"starts with a DER SEQUENCE": append([]byte{0x30, 0x1e}, randomBytes(t, 30)...),
	}
	for i := range 64 {
		secrets["random "+string(rune('A'+i%26))+string(rune('a'+i/26))] = randomBytes(t, 32)
	}
	claims := claimsAt(testNow)
	for name, secret := range secrets {
		path := writeFile(t, dir, "secret", secret)
		r := runAt(t, testNow, claims, "jwt", "sign", "--key", path, "--alg", "HS256", "--secret-encoding", "raw")
		wantCode(t, r, exitOK, name+": sign")
		token := strings.TrimSpace(r.stdout)
		r = runAt(t, testNow, token, "jwt", "verify", "--key", path, "--alg", "HS256", "--secret-encoding", "raw", "--aud", "api")
		wantCode(t, r, exitOK, name+": verify")
		k, err := signet.NewKey(signet.HS256, secret)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := jwt.Verify[json.RawMessage](k, token, jwt.Policy{Now: func() time.Time { return testNow }, IgnoreAudience: true}); err != nil {
			t.Errorf("%s: the file's bytes, as a library key, do not verify: %v", name, err)
		}
	}
	// httpsig reads the same way.
	secret := append([]byte("{-----BEGIN "), randomBytes(t, 31)...)
	secret = append(secret, '\n')
	path := writeFile(t, dir, "hmac", secret)
	r := runAt(t, testNow, testRequest, "httpsig", "sign", "--key", path, "--secret-encoding", "raw", "--alg", "hmac-sha256", "--label", "s", "--components", "@method @authority @path")
	wantCode(t, r, exitOK, "httpsig sign")
	r = runAt(t, testNow, r.stdout, "httpsig", "verify", "--key", path, "--secret-encoding", "raw", "--alg", "hmac-sha256", "--unsigned-body")
	wantCode(t, r, exitOK, "httpsig verify")
}

// TestSecretEncodings: base64 (either alphabet, padded or not, wrapped)
// and hex files give the secret they encode, white space ignored; a token
// signed with one verifies with the others and with a library key.
func TestSecretEncodings(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	secret := append([]byte{0xfb, 0xff, 0xfe, '{', '\n', 0}, randomBytes(t, 42)...) // 48 bytes, '+', '/' in base64
	std := base64.StdEncoding.EncodeToString(secret)
	files := map[string][]byte{
		"raw":                []byte(secret),
		"base64":             []byte(std + "\n"),
		"base64 unpadded":    []byte(base64.RawStdEncoding.EncodeToString(secret)),
		"base64url":          []byte(base64.URLEncoding.EncodeToString(secret) + "\r\n"),
		"base64url unpadded": []byte(base64.RawURLEncoding.EncodeToString(secret)),
		"base64 wrapped":     []byte(std[:20] + "\n" + std[20:40] + "\n" + std[40:] + "\n"),
		"hex":                []byte(hex.EncodeToString(secret) + "\n"),
		"hex spaced":         []byte(" " + hex.EncodeToString(secret[:24]) + "\n " + hex.EncodeToString(secret[24:]) + "\n"),
	}
	k, err := signet.NewKey(signet.HS384, secret)
	if err != nil {
		t.Fatal(err)
	}
	token, err := jwt.SignBytes(k, []byte(claimsAt(testNow)), "JWT")
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		enc, _, _ := strings.Cut(name, " ")
		enc = strings.TrimSuffix(enc, "url")
		path := writeFile(t, dir, "secret", data)
		r := runAt(t, testNow, token, "jwt", "verify", "--key", path, "--alg", "HS384", "--secret-encoding", enc, "--aud", "api")
		wantCode(t, r, exitOK, name)
	}
	// Not canonical, or mixing alphabets: refused, not guessed.
	for name, data := range map[string]string{
		"stray bits":      std[:len(std)-2] + "B=",
		"mixed alphabets": strings.Replace(base64.RawURLEncoding.EncodeToString(secret), "A", "+", 1) + "-",
		"odd hex":         hex.EncodeToString(secret) + "a",
	} {
		enc := secretBase64
		if strings.Contains(name, "hex") {
			enc = secretHex
		}
		if _, err := parseKey([]byte(data), signet.HS384, enc); !errors.Is(err, signet.ErrMalformed) {
			t.Errorf("%s: %v, want ErrMalformed", name, err)
		}
	}
}

// keyEncodings returns keys in every encoding keyKind recognizes, named.
func keyEncodings(t *testing.T) map[string][]byte {
	t.Helper()
	out := make(map[string][]byte)
	add := func(name string, der []byte) {
		out[name+" DER"] = der
		b64 := base64.StdEncoding.EncodeToString(der)
		out[name+" base64"] = []byte(b64 + "\n")
		var wrapped strings.Builder
		for i := 0; i < len(b64); i += 64 {
			wrapped.WriteString(b64[i:min(i+64, len(b64))] + "\n")
		}
		out[name+" base64 wrapped"] = []byte(wrapped.String())
		out[name+" base64url"] = []byte(base64.RawURLEncoding.EncodeToString(der))
		out[name+" hex"] = []byte(hex.EncodeToString(der) + "\n")
	}
	for _, alg := range []signet.Algorithm{signet.RS256, signet.ES256, signet.EdDSA} {
		k := privateKey(t, alg)
		pub, err := k.Public()
		if err != nil {
			t.Fatal(err)
		}
		a := string(alg)
		p8, err := x509.MarshalPKCS8PrivateKey(k.Material())
		if err != nil {
			t.Fatal(err)
		}
		add(a+" PKCS #8", p8)
		spki, err := x509.MarshalPKIXPublicKey(pub.Material())
		if err != nil {
			t.Fatal(err)
		}
		add(a+" SPKI", spki)
		out[a+" PEM private"] = pkcs8(k)
		pubPEM, err := signet.MarshalPEM(pub)
		if err != nil {
			t.Fatal(err)
		}
		out[a+" PEM public"] = pubPEM
		out[a+" PEM public, text around"] = append(append([]byte("subject=CN=x\n"), pubPEM...), "trailer\n"...)
		jPriv, _ := jwk.Marshal(k)
		jPub, _ := jwk.MarshalPublic(pub)
		out[a+" JWK private"] = jPriv
		out[a+" JWK public"] = append([]byte("\n  "), jPub...)
		out[a+" JWK Set"] = []byte(`{"keys":[` + string(jPub) + `]}`)
		switch m := k.Material().(type) {
		case *rsa.PrivateKey:
			add(a+" PKCS #1 private", x509.MarshalPKCS1PrivateKey(m))
			add(a+" PKCS #1 public", x509.MarshalPKCS1PublicKey(&m.PublicKey))
			out[a+" PEM PKCS #1"] = pkcs1(k)
		case *ecdsa.PrivateKey:
			der, err := x509.MarshalECPrivateKey(m)
			if err != nil {
				t.Fatal(err)
			}
			add(a+" SEC 1", der)
			out[a+" PEM SEC 1"] = sec1(k)
		case ed25519.PrivateKey:
			pk := m.Public().(ed25519.PublicKey)
			var blob []byte
			for _, f := range [][]byte{[]byte("ssh-ed25519"), pk} {
				blob = binary.BigEndian.AppendUint32(blob, uint32(len(f)))
				blob = append(blob, f...)
			}
			out["OpenSSH public key"] = []byte("ssh-ed25519 " + base64.StdEncoding.EncodeToString(blob) + " user@host\n")
			tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "x"},
				NotBefore: time.Unix(1_700_000_000, 0), NotAfter: time.Unix(1_800_000_000, 0)}
			cert, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, pk, m)
			if err != nil {
				t.Fatal(err)
			}
			add("certificate", cert)
			out["PEM certificate"] = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert})
		}
	}
	for _, alg := range []signet.Algorithm{signet.V4Public, signet.V4Local, signet.V3Public} {
		k, err := signet.GenerateKey(alg)
		if err != nil {
			t.Fatal(err)
		}
		s, err := paserk.Encode(k)
		if err != nil {
			t.Fatal(err)
		}
		out["PASERK "+s[:strings.LastIndexByte(s, '.')]] = []byte(s + "\n")
		id, err := paserk.ID(k)
		if err != nil {
			t.Fatal(err)
		}
		out["PASERK "+id[:6]] = []byte(id)
		if pub, err := k.Public(); err == nil {
			s, _ := paserk.Encode(pub)
			out["PASERK "+s[:strings.LastIndexByte(s, '.')]] = []byte(s)
		}
	}
	return out
}

// TestKeyNeverAnHMACSecret: a public or private key, in any encoding, is
// never used as an HMAC secret: with --secret-encoding (raw, base64 or
// hex) it is refused as a key (signet.ErrKeyUsage), and without it the
// key is read as what it is, which an HMAC --alg does not fit. Either
// way jwt sign exits 1 (issue 14: algorithm confusion by a key file).
func TestKeyNeverAnHMACSecret(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	encs := map[string]secretEncoding{"raw": secretRaw, "base64": secretBase64, "hex": secretHex}
	n := 0
	for name, data := range keyEncodings(t) {
		for encName, enc := range encs {
			_, err := parseKey(data, signet.HS256, enc)
			if !errors.Is(err, signet.ErrKeyUsage) {
				t.Errorf("%s with --secret-encoding %s: %v, want ErrKeyUsage", name, encName, err)
			}
		}
		k, err := parseKey(data, signet.HS256, secretNone)
		if err == nil {
			t.Errorf("%s: read for HS256 as a %s key", name, k.Algorithm())
		}
		// So is the key base64- or hex-encoded once more, for
		// --secret-encoding base64 or hex.
		if _, err := parseKey([]byte(base64.StdEncoding.EncodeToString(data)), signet.HS256, secretBase64); !errors.Is(err, signet.ErrKeyUsage) {
			t.Errorf("base64 of %s: %v, want ErrKeyUsage", name, err)
		}
		if _, err := parseKey([]byte(hex.EncodeToString(data)), signet.HS256, secretHex); !errors.Is(err, signet.ErrKeyUsage) {
			t.Errorf("hex of %s: %v, want ErrKeyUsage", name, err)
		}
		n++
	}
	if n < 60 {
		t.Fatalf("only %d key encodings tried", n)
	}
	// And through the CLI: exit 1, a one-line reason.
	k := privateKey(t, signet.ES256)
	pub, _ := k.Public()
	spki, _ := x509.MarshalPKIXPublicKey(pub.Material())
	jPub, _ := jwk.MarshalPublic(pub)
	for name, data := range map[string][]byte{"SPKI DER": spki, "JWK": jPub, "base64 SPKI": []byte(base64.StdEncoding.EncodeToString(spki))} {
		path := writeFile(t, dir, "key", data)
		for _, extra := range [][]string{nil, {"--secret-encoding", "raw"}, {"--secret-encoding", "base64"}} {
			args := append([]string{"jwt", "sign", "--key", path, "--alg", "HS256"}, extra...)
			r := runAt(t, testNow, claimsAt(testNow), args...)
			wantCode(t, r, exitRejected, name+" "+strings.Join(extra, " "))
		}
	}
}

// TestKeyKindRandom: no random secret, of any length, is taken for a key.
func TestKeyKindRandom(t *testing.T) {
	t.Parallel()
	for n := 1; n <= 256; n++ {
		for range 8 {
			b := randomBytes(t, n)
			if k := keyKind(b); k != "" {
				t.Fatalf("random %x taken for %s", b, k)
			}
			b[0] = 0x30 // a SEQUENCE's tag
			if k := keyKind(b); k != "" {
				t.Fatalf("random %x taken for %s", b, k)
			}
		}
	}
	if k := keyKind(bytes.Repeat([]byte("A"), 44)); k != "" {
		t.Errorf("base64 text of zero bytes taken for %s", k)
	}
}

// FuzzParseSecret: any bytes, in any --secret-encoding, make an HMAC key
// or an error wrapping a signet sentinel, never a panic; a raw secret is
// the bytes exactly, and no input the library would take as a key (a
// JWK, PEM, PASERK) is ever a secret.
func FuzzParseSecret(f *testing.F) {
	for _, s := range []string{
		"", "{", "\n", "0123456789abcdef0123456789abcdef\n", "-----BEGIN PUBLIC KEY-----\nAA==\n-----END PUBLIC KEY-----\n",
		`{"kty":"oct","k":"AAAA"}`, "k4.local.AAAA", "MAA=", "30", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA x",
		"\x30\x1e\x02\x01\x01", "  AQID  \n", "0x00ff",
	} {
		f.Add([]byte(s), uint8(0))
		f.Add([]byte(s), uint8(1))
		f.Add([]byte(s), uint8(2))
	}
	sentinels := []error{signet.ErrMalformed, signet.ErrKeyUsage, signet.ErrWeakKey}
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		enc := []secretEncoding{secretRaw, secretBase64, secretHex}[which%3]
		k, err := parseKey(data, signet.HS256, enc)
		if err != nil {
			for _, s := range sentinels {
				if errors.Is(err, s) {
					return
				}
			}
			t.Fatalf("error without a sentinel: %v", err)
		}
		if enc == secretRaw && !bytes.Equal(k.Secret(), data) {
			t.Fatalf("raw secret %q read as %q", data, k.Secret())
		}
		if _, jerr := jwk.ParseKey(data); jerr == nil {
			t.Fatalf("%q is a JWK, and was taken as a secret", data)
		}
		if _, perr := paserk.Decode(strings.TrimSpace(string(data))); perr == nil {
			t.Fatalf("%q is a PASERK, and was taken as a secret", data)
		}
		if blk, _ := pem.Decode(data); blk != nil {
			t.Fatalf("%q holds a PEM block, and was taken as a secret", data)
		}
	})
}
