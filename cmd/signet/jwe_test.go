package main

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha1"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/b64"
	"github.com/signet-go/signet/jwe"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/jwt"
)

// jweKeygen runs "signet keygen ALG --kid k-ALG" plus args for a JWE
// algorithm and returns the private JWK.
func jweKeygen(t *testing.T, alg signet.Algorithm, args ...string) string {
	t.Helper()
	r := runCLI(t, "", append([]string{"keygen", string(alg), "--kid", "k-" + string(alg)}, args...)...)
	wantCode(t, r, exitOK, "keygen "+string(alg))
	return r.stdout
}

// jweKeyFiles writes a new key for alg (keygen with args) to dir and
// returns the file to encrypt with (the public half from pub, or the
// secret itself) and the file to decrypt with (the private JWK).
func jweKeyFiles(t *testing.T, dir string, alg signet.Algorithm, args ...string) (encPath, decPath string) {
	t.Helper()
	priv := jweKeygen(t, alg, args...)
	name := strings.NewReplacer("+", "_").Replace(string(alg)) + strings.Join(args, "")
	decPath = writeFile(t, dir, name+".jwk", []byte(priv))
	r := runCLI(t, priv, "pub")
	if jweSecretAlg(alg) {
		wantStderr(t, r, exitRejected, "pub of a "+string(alg)+" key", "no public half")
		return decPath, decPath
	}
	wantCode(t, r, exitOK, "pub of a "+string(alg)+" key")
	return writeFile(t, dir, name+".pub.jwk", []byte(r.stdout)), decPath
}

// jweEncrypt runs "jwe encrypt" at now and returns the token.
func jweEncrypt(t *testing.T, now time.Time, claims string, args ...string) string {
	t.Helper()
	return issueToken(t, now, claims, "jwe", "encrypt", args...)
}

// jweHeader decodes the protected header of a compact JWE.
func jweHeader(t *testing.T, token string) map[string]any {
	t.Helper()
	parts := strings.Split(token, ".")
	if len(parts) != 5 {
		t.Fatalf("a JWE has 5 segments, this one %d: %s", len(parts), token)
	}
	var h map[string]any
	if err := json.Unmarshal([]byte(segment(t, token, 0)), &h); err != nil {
		t.Fatal(err)
	}
	return h
}

// fastP2C keeps the PBES2 cases quick: the lowest count signet accepts.
var fastP2C = []string{"--p2c", fmt.Sprint(jwe.MinPBES2Count)}

func TestJWEKeygenEveryAlgorithm(t *testing.T) {
	t.Parallel()
	for _, alg := range signet.JWEAlgorithms() {
		t.Run(string(alg), func(t *testing.T) {
			t.Parallel()
			if alg == signet.RSAOAEP {
				r := runCLI(t, "", "keygen", string(alg))
				wantStderr(t, r, exitUsage, "keygen RSA-OAEP", "RSA-OAEP-256")
				return
			}
			priv := jweKeygen(t, alg)
			if !strings.HasSuffix(priv, "}\n") || strings.Count(priv, "\n") != 1 {
				t.Errorf("keygen output is not one JSON line: %q", priv)
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(priv), &m); err != nil || m["use"] != "enc" || m["alg"] != string(alg) || m["kid"] != "k-"+string(alg) {
				t.Fatalf("keygen %s wrote %s (%v), want a JWK with use enc, alg and kid", alg, priv, err)
			}
			key, err := jwk.ParseEncryptionKey([]byte(priv), signet.A256GCM)
			if err != nil {
				t.Fatalf("keygen output does not parse: %v", err)
			}
			if key.Algorithm() != alg || !key.CanSign() || key.Encryption() != signet.A256GCM {
				t.Fatalf("keygen made a %s/%s key (private: %v)", key.Algorithm(), key.Encryption(), key.CanSign())
			}
			if isPBES2(alg) {
				// A random password of 32 base64url characters.
				if p := key.Secret(); len(p) != 32 || strings.Trim(string(p), "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
					t.Errorf("PBES2 password %d bytes, want 32 base64url characters", len(p))
				}
			}
			r := runCLI(t, priv, "pub")
			if jweSecretAlg(alg) {
				wantCode(t, r, exitRejected, "pub of a shared secret")
				return
			}
			wantCode(t, r, exitOK, "pub")
			pub, err := jwk.ParseEncryptionKey([]byte(r.stdout), signet.A256GCM)
			if err != nil {
				t.Fatalf("pub output does not parse: %v", err)
			}
			want, _ := key.Public()
			if pub.CanSign() || !pub.Equal(want) || pub.KeyID() != key.KeyID() || !strings.Contains(r.stdout, `"use":"enc"`) {
				t.Errorf("pub output is not the public half of the key: %s", r.stdout)
			}
			for _, secret := range []string{`"d"`, `"p"`, `"q"`} {
				if strings.Contains(r.stdout, secret) {
					t.Errorf("pub output has private member %s", secret)
				}
			}
		})
	}
}

func TestJWEKeygenEncAndCurve(t *testing.T) {
	t.Parallel()
	// A dir key is a key of --enc's size; a JWK does not record enc, so
	// keygen says to give it again.
	for _, enc := range signet.Encryptions() {
		r := runCLI(t, "", "keygen", "dir", "--enc", string(enc))
		wantCode(t, r, exitOK, "keygen dir --enc "+string(enc))
		key, err := jwk.ParseEncryptionKey([]byte(r.stdout), enc)
		if err != nil || len(key.Secret()) != enc.KeySize() {
			t.Errorf("keygen dir --enc %s: %v", enc, err)
		}
		if warned := strings.Contains(r.stderr, "give --enc "+string(enc)); warned != (enc != signet.A256GCM) {
			t.Errorf("keygen dir --enc %s: stderr %q", enc, r.stderr)
		}
	}
	for crv, want := range map[string]string{"P-256": `"crv":"P-256"`, "P-384": `"crv":"P-384"`, "X25519": `"kty":"OKP","kid":"k1","use":"enc","alg":"ECDH-ES","crv":"X25519"`} {
		r := runCLI(t, "", "keygen", "ECDH-ES", "--crv", crv, "--kid", "k1")
		wantCode(t, r, exitOK, "keygen ECDH-ES --crv "+crv)
		if !strings.Contains(r.stdout, want) {
			t.Errorf("keygen ECDH-ES --crv %s: %s", crv, r.stdout)
		}
		if _, err := jwk.ParseEncryptionKey([]byte(r.stdout), signet.A256GCM); err != nil {
			t.Errorf("keygen ECDH-ES --crv %s: %v", crv, err)
		}
	}
}

// jweFamilies are the JWE key kinds the round trips cover: every
// key-management algorithm signet encrypts with, ECDH-ES on each curve.
var jweFamilies = []struct {
	name string
	alg  signet.Algorithm
	args []string // keygen flags
}{
	{"dir", signet.Dir, nil},
	{"A128KW", signet.A128KW, nil},
	{"A256KW", signet.A256KW, nil},
	{"A128GCMKW", signet.A128GCMKW, nil},
	{"A256GCMKW", signet.A256GCMKW, nil},
	{"ECDH-ES/P-256", signet.ECDHES, nil},
	{"ECDH-ES/P-384", signet.ECDHES, []string{"--crv", "P-384"}},
	{"ECDH-ES/X25519", signet.ECDHES, []string{"--crv", "X25519"}},
	{"ECDH-ES+A128KW/P-384", signet.ECDHESA128KW, []string{"--crv", "P-384"}},
	{"ECDH-ES+A256KW/X25519", signet.ECDHESA256KW, []string{"--crv", "X25519"}},
	{"RSA-OAEP-256", signet.RSAOAEP256, nil},
	{"PBES2-HS256+A128KW", signet.PBES2HS256A128KW, nil},
	{"PBES2-HS512+A256KW", signet.PBES2HS512A256KW, nil},
}

// TestJWERoundTripEveryAlgorithm: for every key kind and content
// encryption, a token from jwe encrypt (with the public key where there is
// one) is read by jwe decrypt (the private key) and by the library, with
// the claims byte for byte. One key serves every enc (a JWK names no
// enc: --enc says it), except dir, whose key is the content key.
func TestJWERoundTripEveryAlgorithm(t *testing.T) {
	t.Parallel()
	for _, f := range jweFamilies {
		t.Run(f.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			encPath, decPath := "", ""
			if f.alg != signet.Dir {
				encPath, decPath = jweKeyFiles(t, dir, f.alg, f.args...)
			}
			for _, enc := range signet.Encryptions() {
				if f.alg == signet.Dir {
					encPath, decPath = jweKeyFiles(t, dir, f.alg, "--enc", string(enc))
				}
				encFlag := []string{"--enc", string(enc)}
				args := append([]string{"--key", encPath}, encFlag...)
				if isPBES2(f.alg) {
					args = append(args, fastP2C...)
				}
				claims := claimsAt(testNow)
				token := jweEncrypt(t, testNow, claims+"\n", args...)
				h := jweHeader(t, token)
				if h["alg"] != string(f.alg) || h["enc"] != string(enc) || h["kid"] != "k-"+string(f.alg) || h["cty"] != nil || h["typ"] != nil {
					t.Errorf("%s: header %v", enc, h)
				}
				r := runAt(t, testNow, "\n "+token+"\r\n", append([]string{"jwe", "decrypt", "--key", decPath, "--iss", "https://issuer.example", "--aud", "web"}, encFlag...)...)
				wantCode(t, r, exitOK, "jwe decrypt "+string(enc))
				if r.stdout != claims+"\n" || r.stderr != "" {
					t.Errorf("%s: jwe decrypt printed %q (stderr %q), want the claims %q", enc, r.stdout, r.stderr, claims)
				}
				// And the library agrees.
				key, err := jwk.ParseEncryptionKey(mustRead(t, decPath), enc)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := jwe.Decrypt[jwt.Map](key, token, jwe.Policy{Now: func() time.Time { return testNow }, Audience: []string{"api"}}); err != nil {
					t.Errorf("%s: jwe.Decrypt refuses the CLI's token: %v", enc, err)
				}
				// The key is bound to its enc: another one is refused.
				other := signet.A128GCM
				if enc == other {
					other = signet.A256CBCHS512
				}
				if f.alg != signet.Dir {
					r = runAt(t, testNow, token, "jwe", "decrypt", "--key", decPath, "--any-aud", "--enc", string(other))
					wantStderr(t, r, exitRejected, "jwe decrypt with another --enc", "algorithm does not match")
				}
			}
		})
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := readFile(path, "test file")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestJWEPEM: RSA and EC/X25519 keys in PEM, with --alg.
func TestJWEPEM(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	claims := claimsAt(testNow)
	rk, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	p384, _ := ecdh.P384().GenerateKey(rand.Reader)
	x, _ := ecdh.X25519().GenerateKey(rand.Reader)
	for _, tt := range []struct {
		alg  signet.Algorithm
		priv any
	}{
		{signet.RSAOAEP256, rk},
		{signet.ECDHESA256KW, p384},
		{signet.ECDHES, x},
	} {
		key, err := signet.NewEncryptionKey(tt.alg, signet.A256GCM, tt.priv)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.ReplaceAll(string(tt.alg), "+", "_")
		privPath := writeFile(t, dir, name+".pem", pkcs8(key))
		r := runCLI(t, string(pkcs8(key)), "pub", "--alg", string(tt.alg))
		wantCode(t, r, exitOK, "pub of a "+string(tt.alg)+" PEM key")
		if !strings.HasPrefix(r.stdout, "-----BEGIN PUBLIC KEY-----\n") {
			t.Fatalf("pub: %q", r.stdout)
		}
		pubPath := writeFile(t, dir, name+".pub.pem", []byte(r.stdout))
		token := jweEncrypt(t, testNow, claims, "--key", pubPath, "--alg", string(tt.alg), "--kid", "pem")
		if h := jweHeader(t, token); h["alg"] != string(tt.alg) || h["kid"] != "pem" {
			t.Errorf("header %v", h)
		}
		r = runAt(t, testNow, token, "jwe", "decrypt", "--key", privPath, "--alg", string(tt.alg), "--any-aud")
		wantCode(t, r, exitOK, "jwe decrypt with PEM")
		if r.stdout != claims+"\n" {
			t.Errorf("decrypt printed %q", r.stdout)
		}
		r = runAt(t, testNow, token, "jwe", "decrypt", "--key", privPath, "--any-aud")
		wantStderr(t, r, exitRejected, "PEM without --alg", "give --alg")
	}

	// RSA-OAEP (SHA-1) keys decrypt what others send; a token made here
	// by hand as RFC 7516 §5.1 says (signet writes none).
	oaep := writeFile(t, dir, "oaep.pem", pkcs8(must(signet.NewEncryptionKey(signet.RSAOAEP256, signet.A256GCM, rk))))
	token := rsaOAEPToken(t, &rk.PublicKey, claims)
	r := runAt(t, testNow, token, "jwe", "decrypt", "--key", oaep, "--alg", "RSA-OAEP", "--aud", "api")
	wantCode(t, r, exitOK, "jwe decrypt RSA-OAEP")
	if r.stdout != claims+"\n" {
		t.Errorf("decrypt RSA-OAEP printed %q", r.stdout)
	}
	r = runAt(t, testNow, claims, "jwe", "encrypt", "--key", oaep, "--alg", "RSA-OAEP")
	wantStderr(t, r, exitRejected, "jwe encrypt RSA-OAEP", "RSA-OAEP-256")
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// rsaOAEPToken makes an RSA-OAEP + A256GCM JWE of plaintext for pub.
func rsaOAEPToken(t *testing.T, pub *rsa.PublicKey, plaintext string) string {
	t.Helper()
	cek, iv := make([]byte, 32), make([]byte, 12)
	rand.Read(cek)
	rand.Read(iv)
	ek, err := rsa.EncryptOAEP(sha1.New(), rand.Reader, pub, cek, nil)
	if err != nil {
		t.Fatal(err)
	}
	hdr := b64.EncodeToString([]byte(`{"alg":"RSA-OAEP","enc":"A256GCM"}`))
	block, _ := aes.NewCipher(cek)
	gcm, _ := cipher.NewGCM(block)
	sealed := gcm.Seal(nil, iv, []byte(plaintext), []byte(hdr))
	n := len(sealed) - 16
	return hdr + "." + b64.EncodeToString(ek) + "." + b64.EncodeToString(iv) + "." + b64.EncodeToString(sealed[:n]) + "." + b64.EncodeToString(sealed[n:])
}

// TestJWESecretFiles: a raw secret or a PBES2 password from a file, with
// --secret-encoding and --alg.
func TestJWESecretFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	claims := claimsAt(testNow)
	const password = "correct horse battery staple"
	pw := writeFile(t, dir, "pw.txt", []byte(password))
	pwNL := writeFile(t, dir, "pw-nl.txt", []byte(password+"\n"))
	pbes2 := []string{"--alg", "PBES2-HS512+A256KW", "--secret-encoding", "raw"}
	token := jweEncrypt(t, testNow, claims, append(append([]string{"--key", pw}, pbes2...), fastP2C...)...)
	if h := jweHeader(t, token); h["p2c"] != float64(jwe.MinPBES2Count) || h["kid"] != nil {
		t.Errorf("header %v", h)
	}
	r := runAt(t, testNow, token, append([]string{"jwe", "decrypt", "--key", pw, "--any-aud"}, pbes2...)...)
	wantCode(t, r, exitOK, "decrypt with the password")
	if r.stdout != claims+"\n" {
		t.Errorf("decrypt printed %q", r.stdout)
	}
	// raw keeps the newline: another password.
	r = runAt(t, testNow, token, append([]string{"jwe", "decrypt", "--key", pwNL, "--any-aud"}, pbes2...)...)
	wantCode(t, r, exitRejected, "decrypt with the password and a newline")
	// The library with the same password agrees.
	k := must(signet.NewEncryptionKey(signet.PBES2HS512A256KW, signet.A256GCM, []byte(password)))
	if _, err := jwe.Decrypt[jwt.Claims](k, token, jwe.Policy{IgnoreAudience: true, Now: func() time.Time { return testNow }}); err != nil {
		t.Errorf("jwe.Decrypt: %v", err)
	}
	// The default count is signet's.
	token = jweEncrypt(t, testNow, claims, append([]string{"--key", pw}, pbes2...)...)
	if h := jweHeader(t, token); h["p2c"] != float64(jwe.DefaultPBES2Count) {
		t.Errorf("default p2c: header %v", h)
	}

	// A hex dir key for A128CBC-HS256 (32 bytes).
	hexKey := writeFile(t, dir, "dir.hex", []byte(strings.Repeat("0123456789abcdef", 4)+"\n"))
	dirArgs := []string{"--key", hexKey, "--alg", "dir", "--enc", "A128CBC-HS256", "--secret-encoding", "hex"}
	token = jweEncrypt(t, testNow, claims, dirArgs...)
	r = runAt(t, testNow, token, append([]string{"jwe", "decrypt", "--aud", "web"}, dirArgs...)...)
	wantCode(t, r, exitOK, "decrypt with a hex dir key")

	short := writeFile(t, dir, "short.txt", []byte("hunter2-hunter2"))
	jwkFile := writeFile(t, dir, "key.jwk", []byte(jweKeygen(t, signet.A256KW)))
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"short password", []string{"--key", short, "--alg", "PBES2-HS256+A128KW", "--secret-encoding", "raw"}, "weak"},
		{"dir key of another size", []string{"--key", hexKey, "--alg", "dir", "--enc", "A128GCM", "--secret-encoding", "hex"}, "weak"},
		{"a JWK as a secret", []string{"--key", jwkFile, "--alg", "A256KW", "--secret-encoding", "raw"}, "holds a JWK"},
		{"a secret without --secret-encoding", []string{"--key", pw, "--alg", "PBES2-HS256+A128KW"}, "--secret-encoding"},
	} {
		r := runAt(t, testNow, claims, append([]string{"jwe", "encrypt"}, tt.args...)...)
		wantCode(t, r, exitRejected, tt.name)
		if !strings.Contains(r.stderr, tt.want) || strings.Contains(r.stderr, "hunter2") || strings.Contains(r.stderr, "horse") {
			t.Errorf("%s: stderr %q lacks %q (or quotes the secret)", tt.name, r.stderr, tt.want)
		}
	}
}

// TestJWENested: --nested-sign-key signs then encrypts; decrypt needs
// --verify-key, and the JWT inside must verify with it.
func TestJWENested(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	encPath, decPath := jweKeyFiles(t, dir, signet.ECDHESA256KW, "--crv", "X25519")
	signPath, verifyPath := keyFiles(t, dir, signet.EdDSA)
	_, otherVerify := newKeyFile(t, dir, signet.EdDSA, "other")
	claims := claimsAt(testNow)
	token := jweEncrypt(t, testNow, claims, "--key", encPath, "--nested-sign-key", signPath)
	if h := jweHeader(t, token); h["cty"] != "JWT" {
		t.Errorf("nested header %v, want cty JWT", h)
	}
	r := runAt(t, testNow, token, "jwe", "decrypt", "--key", decPath, "--verify-key", verifyPath, "--aud", "api")
	wantCode(t, r, exitOK, "decrypt a nested JWT")
	if r.stdout != claims+"\n" {
		t.Errorf("decrypt printed %q, want %q", r.stdout, claims)
	}
	// The library reads it too.
	key := must(jwk.ParseEncryptionKey(mustRead(t, decPath), signet.A256GCM))
	vk := must(jwk.ParseKey(mustRead(t, verifyPath)))
	if _, err := jwe.DecryptNested[jwt.Claims](key, vk, token, jwe.Policy{Audience: []string{"web"}, Now: func() time.Time { return testNow }}); err != nil {
		t.Errorf("jwe.DecryptNested: %v", err)
	}

	plain := jweEncrypt(t, testNow, claims, "--key", encPath)
	for _, tt := range []struct {
		name, token string
		args        []string
		want        string
	}{
		{"nested without --verify-key", token, nil, "give --verify-key"},
		{"nested, another signer", token, []string{"--verify-key", otherVerify}, "key not found"},
		{"not nested, with --verify-key", plain, []string{"--verify-key", verifyPath}, "not a nested JWT"},
		{"nested, expired", token, []string{"--verify-key", verifyPath, "--now-is-later"}, "expired"},
	} {
		now := testNow
		args := tt.args
		if len(args) > 0 && args[len(args)-1] == "--now-is-later" {
			now, args = testNow.Add(2*time.Hour), args[:len(args)-1]
		}
		r := runAt(t, now, tt.token, append([]string{"jwe", "decrypt", "--key", decPath, "--any-aud"}, args...)...)
		wantStderr(t, r, exitRejected, tt.name, tt.want)
	}
	// A public signing key cannot sign.
	r = runAt(t, testNow, claims, "jwe", "encrypt", "--key", encPath, "--nested-sign-key", verifyPath)
	wantStderr(t, r, exitRejected, "nested with a public signing key", "signing needs the private key")
}

func TestJWEDecryptRejects(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	encPath, decPath := jweKeyFiles(t, dir, signet.ECDHESA128KW)
	_, otherDec := jweKeyFiles(t, dir, signet.ECDHESA128KW, "--kid", "k-ECDH-ES+A128KW") // same kid, other key
	_, otherAlg := jweKeyFiles(t, dir, signet.ECDHES)
	signPath, _ := keyFiles(t, dir, signet.ES256)
	claims := claimsAt(testNow)
	token := jweEncrypt(t, testNow, claims, "--key", encPath)
	noExp := jweEncrypt(t, testNow, `{"sub":"alice"}`, "--key", encPath)
	notYet := jweEncrypt(t, testNow, fmt.Sprintf(`{"nbf":%d,"exp":%d}`, testNow.Add(time.Minute).Unix(), testNow.Add(time.Hour).Unix()), "--key", encPath)
	jws := signToken(t, testNow, claims, "--key", signPath)
	parts := strings.Split(token, ".")
	tag := must(b64.DecodeString(parts[4]))
	tag[0] ^= 1
	flippedTag := strings.Join(append(parts[:4:4], b64.EncodeToString(tag)), ".")
	ct := must(b64.DecodeString(parts[3]))
	ct[len(ct)-1] ^= 0x80
	flippedCT := strings.Join([]string{parts[0], parts[1], parts[2], b64.EncodeToString(ct), parts[4]}, ".")
	enc := func(s string) string { return b64.EncodeToString([]byte(s)) }
	withHeader := func(h string) string {
		return strings.Join([]string{enc(h), parts[1], parts[2], parts[3], parts[4]}, ".")
	}
	p2s := b64.EncodeToString(make([]byte, 16))
	pbes2Big := enc(`{"alg":"PBES2-HS256+A128KW","enc":"A256GCM","p2s":"`+p2s+`","p2c":1000000000}`) + "." + b64.EncodeToString(make([]byte, 40)) + "." + parts[2] + "." + parts[3] + "." + parts[4]
	pwPath := writeFile(t, dir, "pw.txt", []byte("correct horse battery staple"))
	pastExp := testNow.Add(time.Hour + time.Minute)

	tests := append(policyRejectCases(token, notYet, noExp), []rejectCase{
		{"typ required", testNow, token, []string{"--typ", "at+jwt"}, "typ"},
		{"tag bit flipped", testNow, flippedTag, nil, "signature invalid"},
		{"ciphertext bit flipped", testNow, flippedCT, nil, "signature invalid"},
		{"another key, same kid", testNow, token, []string{"--key", otherDec}, "signature invalid"},
		{"a key of another algorithm", testNow, token, []string{"--key", otherAlg}, "algorithm does not match"},
		{"enc swapped in the header", testNow, withHeader(`{"alg":"ECDH-ES+A128KW","enc":"A128GCM"}`), nil, "algorithm does not match"},
		{"RSA1_5", testNow, withHeader(`{"alg":"RSA1_5","enc":"A256GCM"}`), nil, "RSA1_5"},
		{"zip", testNow, withHeader(`{"alg":"ECDH-ES+A128KW","enc":"A256GCM","zip":"DEF"}`), nil, "unsupported"},
		{"crit", testNow, withHeader(`{"alg":"ECDH-ES+A128KW","enc":"A256GCM","crit":["exp"],"exp":1}`), nil, "unsupported"},
		{"p2c of 10^9", testNow, pbes2Big, []string{"--key", pwPath, "--alg", "PBES2-HS256+A128KW", "--secret-encoding", "raw"}, "too large"},
		{"a JWS", testNow, jws, nil, "it is a JWS, a signed token (read it with signet jwt verify)"},
		{"four segments", testNow, strings.Join(parts[:4], "."), nil, "malformed"},
		{"six segments", testNow, token + ".x", nil, "malformed"},
		{"padded", testNow, token + "=", nil, "malformed"},
		{"garbage", testNow, "not a token", nil, "malformed"},
		{"empty stdin", testNow, " \n", nil, "no token"},
		{"too large", testNow, strings.Repeat("a", maxInput+1), nil, "too large"},
		{"public key", testNow, token, []string{"--key", encPath}, "decrypting needs the private key"},
		{"a JWS key", testNow, token, []string{"--key", signPath}, "not a JWE key (use signet jwt)"},
		{"missing key file", testNow, token, []string{"--key", filepath.Join(dir, "nope.jwk")}, "no such file"},
	}...)
	runRejectCases(t, []string{"jwe", "decrypt"}, parts[3], tests,
		defaultFlag{"--key", []string{"--key", decPath}},
		defaultFlag{"--aud", []string{"--any-aud"}})

	// What the rejections above turn on, accepted.
	for _, tt := range []struct {
		name  string
		now   time.Time
		token string
		flags []string
	}{
		{"within leeway", pastExp, token, []string{"--leeway", "2m", "--any-aud"}},
		{"no exp with --no-exp", testNow, noExp, []string{"--no-exp"}},
		{"nbf within leeway", testNow, notYet, []string{"--leeway", "1m", "--any-aud"}},
		{"right audience and issuer", testNow, token, []string{"--aud", "api", "--iss", "https://issuer.example"}},
	} {
		r := runAt(t, tt.now, tt.token, append([]string{"jwe", "decrypt", "--key", decPath}, tt.flags...)...)
		wantCode(t, r, exitOK, tt.name)
	}
}

func TestJWEEncryptRejects(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	encPath, _ := jweKeyFiles(t, dir, signet.A256GCMKW)
	noAlg := writeFile(t, dir, "noalg.jwk", []byte(strings.Replace(jweKeygen(t, signet.A256GCMKW), `"alg":"A256GCMKW",`, "", 1)))
	signPath, _ := keyFiles(t, dir, signet.HS256)
	paserkPath := writeFile(t, dir, "v4.key", []byte(runCLI(t, "", "keygen", "v4.local").stdout))
	tests := append(badClaimsCases(dir),
		rejectCase{"JWK without alg", testNow, `{"sub":"a"}`, []string{"--key", noAlg}, "give --alg"},
		rejectCase{"JWK alg mismatch", testNow, `{"sub":"a"}`, []string{"--alg", "A128GCMKW"}, "algorithm does not match"},
		rejectCase{"a JWS key", testNow, `{"sub":"a"}`, []string{"--key", signPath}, "not a JWE key (use signet jwt)"},
		rejectCase{"a PASETO key", testNow, `{"sub":"a"}`, []string{"--key", paserkPath}, "use signet paseto"},
	)
	runRejectCases(t, []string{"jwe", "encrypt"}, "", tests, defaultFlag{"--key", []string{"--key", encPath}})
	// A JWK without alg encrypts with --alg; claims without exp, with a
	// warning; --exp sets it.
	r := runAt(t, testNow, `{"sub":"a"}`, "jwe", "encrypt", "--key", noAlg, "--alg", "A256GCMKW")
	wantCode(t, r, exitOK, "JWK without alg, with --alg")
	if !strings.Contains(r.stderr, "warning") || !strings.Contains(r.stderr, "no exp") {
		t.Errorf("encrypt without exp: stderr %q, want a warning", r.stderr)
	}
	token := jweEncrypt(t, testNow, `{"sub":"a","exp":5}`, "--key", encPath, "--exp", "90m")
	r = runAt(t, testNow.Add(89*time.Minute), token, "jwe", "decrypt", "--key", encPath)
	wantCode(t, r, exitOK, "decrypt before --exp")
	if want := fmt.Sprintf(`{"exp":%d,"sub":"a"}`+"\n", testNow.Add(90*time.Minute).Unix()); r.stdout != want {
		t.Errorf("--exp: claims %q, want %q", r.stdout, want)
	}
	wantCode(t, runAt(t, testNow.Add(90*time.Minute), token, "jwe", "decrypt", "--key", encPath), exitRejected, "decrypt at exp")
}

func TestJWEInspect(t *testing.T) {
	t.Parallel()
	encPath, _ := jweKeyFiles(t, t.TempDir(), signet.Dir)
	token := jweEncrypt(t, testNow, claimsAt(testNow), "--key", encPath)
	want := `{
  "header": {
    "alg": "dir",
    "enc": "A256GCM",
    "kid": "k-dir"
  },
  "encrypted": true,
  "verified": false
}
`
	for _, cmd := range [][]string{{"jwt", "inspect"}, {"jwe", "inspect"}} {
		r := runCLI(t, token+"\n", cmd...)
		wantCode(t, r, exitOK, strings.Join(cmd, " "))
		if r.stdout != want {
			t.Errorf("%q printed\n%s\nwant\n%s", cmd, r.stdout, want)
		}
		if !strings.Contains(r.stderr, "warning: not decrypted") {
			t.Errorf("%q: stderr %q lacks the warning", cmd, r.stderr)
		}
	}
	parts := strings.Split(token, ".")
	enc := func(s string) string { return b64.EncodeToString([]byte(s)) }
	for name, tok := range map[string]string{
		"empty iv":            strings.Join([]string{parts[0], "", "", parts[3], parts[4]}, "."),
		"empty tag":           strings.Join([]string{parts[0], "", parts[2], parts[3], ""}, "."),
		"tag not base64url":   strings.Join([]string{parts[0], "", parts[2], parts[3], "a"}, "."),
		"header not JSON":     strings.Join([]string{enc("dir"), "", parts[2], parts[3], parts[4]}, "."),
		"duplicate header":    strings.Join([]string{enc(`{"alg":"dir","alg":"none"}`), "", parts[2], parts[3], parts[4]}, "."),
		"six segments":        token + ".x",
		"padded key segment":  strings.Join([]string{parts[0], "AA==", parts[2], parts[3], parts[4]}, "."),
		"empty ciphertext":    strings.Join([]string{parts[0], "", parts[2], "", parts[4]}, "."),
		"empty header":        strings.Join([]string{"", "", parts[2], parts[3], parts[4]}, "."),
		"header a JSON array": strings.Join([]string{enc(`["dir"]`), "", parts[2], parts[3], parts[4]}, "."),
	} {
		r := runCLI(t, tok, "jwe", "inspect")
		wantCode(t, r, exitRejected, "inspect "+name)
	}
}

func TestJWEUsageErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, key := newKeyFile(t, dir, signet.EdDSA, "ed")
	dirKey := writeFile(t, dir, "dir.jwk", []byte(jweKeygen(t, signet.Dir)))
	tests := []argsCase{
		{"jwe without subcommand", []string{"jwe"}, "no subcommand"},
		{"unknown jwe subcommand", []string{"jwe", "seal"}, `unknown subcommand "seal"`},
		{"encrypt without key", []string{"jwe", "encrypt"}, "--key is required"},
		{"decrypt without key", []string{"jwe", "decrypt"}, "--key is required"},
		{"encrypt argument", []string{"jwe", "encrypt", "--key", dirKey, "claims.json"}, "unexpected argument"},
		{"decrypt argument", []string{"jwe", "decrypt", "--key", dirKey, "token"}, "unexpected argument"},
		{"a JWS --alg", []string{"jwe", "encrypt", "--key", dirKey, "--alg", "ES256"}, "not a JWE key-management algorithm"},
		{"unknown --alg", []string{"jwe", "decrypt", "--key", dirKey, "--alg", "A192KW"}, `unknown algorithm "A192KW"`},
		{"unknown --enc", []string{"jwe", "encrypt", "--key", dirKey, "--enc", "A512GCM"}, `unknown content encryption "A512GCM"`},
		{"--secret-encoding without --alg", []string{"jwe", "encrypt", "--key", dirKey, "--secret-encoding", "raw"}, "needs --alg"},
		{"--secret-encoding for a public-key alg", []string{"jwe", "decrypt", "--key", dirKey, "--alg", "ECDH-ES", "--secret-encoding", "raw"}, "needs --alg"},
		{"unknown --secret-encoding", []string{"jwe", "decrypt", "--key", dirKey, "--alg", "dir", "--secret-encoding", "utf8"}, "raw, base64 or hex"},
		{"--p2c too small", []string{"jwe", "encrypt", "--key", dirKey, "--p2c", "999"}, "--p2c must be between"},
		{"--p2c too large", []string{"jwe", "encrypt", "--key", dirKey, "--p2c", "600001"}, "--p2c must be between"},
		{"--p2c for a dir key", []string{"jwe", "encrypt", "--key", dirKey, "--p2c", "1000"}, "--p2c applies to PBES2 keys"},
		{"zero exp", []string{"jwe", "encrypt", "--key", dirKey, "--exp", "0s"}, "positive duration"},
		{"leeway too large", []string{"jwe", "decrypt", "--key", dirKey, "--leeway", "1h"}, "--leeway"},
		{"aud and any-aud", []string{"jwe", "decrypt", "--key", dirKey, "--aud", "a", "--any-aud"}, "not both"},
		{"keygen --enc for a JWS alg", []string{"keygen", "ES256", "--enc", "A128GCM"}, "--enc applies to JWE keys"},
		{"keygen --crv for a JWS alg", []string{"keygen", "ES256", "--crv", "P-384"}, "--crv applies to ECDH-ES keys"},
		{"keygen --crv for dir", []string{"keygen", "dir", "--crv", "P-384"}, "--crv applies to ECDH-ES keys"},
		{"keygen unknown curve", []string{"keygen", "ECDH-ES", "--crv", "P-521"}, "--crv must be P-256, P-384 or X25519"},
		{"keygen unknown enc", []string{"keygen", "dir", "--enc", "A128GCM-X"}, "unknown content encryption"},
		{"keygen RSA1_5", []string{"keygen", "RSA1_5"}, "unknown algorithm"},
		{"jwt sign with a JWE alg", []string{"jwt", "sign", "--key", key, "--alg", "dir"}, "use signet jwe"},
		{"jwt verify with a JWE alg", []string{"jwt", "verify", "--key", key, "--alg", "ECDH-ES"}, "use signet jwe"},
	}
	runArgsCases(t, time.Time{}, exitUsage, `{"sub":"a"}`, tests)
	for _, args := range [][]string{{"jwe", "encrypt", "-h"}, {"jwe", "decrypt", "--help"}, {"jwe", "inspect", "-h"}} {
		r := runCLI(t, "", args...)
		wantCode(t, r, exitOK, strings.Join(args, " "))
		if !strings.HasPrefix(r.stdout, "Usage:\n  signet "+strings.Join(args[:2], " ")) {
			t.Errorf("%q: help is %q", args, r.stdout)
		}
	}
	if r := runCLI(t, "", "jwe", "decrypt", "-h"); !strings.Contains(r.stdout, "-verify-key") || !strings.Contains(r.stdout, "-enc") || !strings.Contains(r.stdout, "A256CBC-HS512") {
		t.Errorf("jwe decrypt -h does not list its flags: %q", r.stdout)
	}
	r := runCLI(t, "", "jwe", "help")
	wantCode(t, r, exitOK, "jwe help")
	for _, want := range []string{"signet jwe encrypt", "signet jwe decrypt", "--nested-sign-key", "--verify-key", "PBES2-HS512+A256KW", "A192CBC-HS384"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("help lacks %q", want)
		}
	}
}

// TestJWEIssuedIsReadable: what jwe encrypt issues, jwe decrypt reads at
// the same clock, or refuses only for its times; claims the reader would
// refuse for their form are not encrypted (exit 1, nothing on stdout).
func TestJWEIssuedIsReadable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	encPath, decPath := jweKeyFiles(t, dir, signet.A128KW)
	runIssueCases(t, []string{"jwe", "encrypt", "--key", encPath}, []string{"jwe", "decrypt", "--key", decPath, "--any-aud"}, []issueCase{
		{"plain", fmt.Sprintf(`{"sub":"a","exp":%d}`, testNow.Add(time.Hour).Unix()), "", nil},
		{"issued expired", `{"sub":"a","exp":1000}`, "", nil},
		{"for later", fmt.Sprintf(`{"sub":"a","nbf":%d,"exp":%d}`, testNow.Add(time.Hour).Unix(), testNow.Add(2*time.Hour).Unix()), "", nil},
		{"exp beyond 2^53", `{"sub":"a","exp":9007199254740993}`, "claim exp", nil},
		{"exp fractional", `{"sub":"a","exp":1.5e300}`, "claim exp", nil},
		{"aud an object", `{"sub":"a","aud":{}}`, "claim aud", nil},
		{"nested duplicate", `{"sub":"a","x":{"k":1,"k":2}}`, "duplicate", nil},
	})
}

// TestJWENestedKeyAlgorithms: an RSA PEM signing key, which names no
// algorithm, is bound by --nested-sign-alg and --verify-alg.
func TestJWENestedKeyAlgorithms(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	encPath, decPath := jweKeyFiles(t, dir, signet.A256GCMKW)
	_, privPEM, pubPEM := rsaPEMFiles(t, dir)
	claims := claimsAt(testNow)

	r := runAt(t, testNow, claims, "jwe", "encrypt", "--key", encPath, "--nested-sign-key", privPEM)
	wantStderr(t, r, exitRejected, "RSA PEM without --nested-sign-alg", "give --nested-sign-alg")
	token := jweEncrypt(t, testNow, claims, "--key", encPath, "--nested-sign-key", privPEM, "--nested-sign-alg", "PS384")
	r = runAt(t, testNow, token, "jwe", "decrypt", "--key", decPath, "--verify-key", pubPEM, "--any-aud")
	wantStderr(t, r, exitRejected, "RSA PEM without --verify-alg", "give --verify-alg")
	r = runAt(t, testNow, token, "jwe", "decrypt", "--key", decPath, "--verify-key", pubPEM, "--verify-alg", "PS384", "--aud", "api")
	wantCode(t, r, exitOK, "decrypt with --verify-alg")
	if r.stdout != claims+"\n" {
		t.Errorf("decrypt printed %q", r.stdout)
	}
	r = runAt(t, testNow, token, "jwe", "decrypt", "--key", decPath, "--verify-key", pubPEM, "--verify-alg", "RS384", "--aud", "api")
	wantStderr(t, r, exitRejected, "decrypt with another --verify-alg", "algorithm does not match")
	for _, args := range [][]string{
		{"jwe", "decrypt", "--key", decPath, "--verify-alg", "ES256"},
		{"jwe", "encrypt", "--key", encPath, "--nested-sign-alg", "ES256"},
		{"jwe", "decrypt", "--key", decPath, "--verify-key", pubPEM, "--verify-alg", "dir"},
	} {
		wantCode(t, runAt(t, testNow, token, args...), exitUsage, strings.Join(args, " "))
	}
}

// TestJWEKeysAndTokensElsewhere: a JWE key or token given to the JWS,
// PASETO or HTTP signature commands is refused with a pointer to jwe.
func TestJWEKeysAndTokensElsewhere(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	encPath, decPath := jweKeyFiles(t, dir, signet.ECDHES)
	_, verifyPath := keyFiles(t, dir, signet.ES256)
	token := jweEncrypt(t, testNow, claimsAt(testNow), "--key", encPath)
	for _, tt := range []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{"jwt verify of a JWE", token, []string{"jwt", "verify", "--key", verifyPath}, "it is a JWE, an encrypted token (read it with signet jwe decrypt)"},
		{"jwt verify with a JWE key", token, []string{"jwt", "verify", "--key", decPath}, "for encrypted tokens (use signet jwe)"},
		{"jwt sign with a JWE key", claimsAt(testNow), []string{"jwt", "sign", "--key", decPath}, "for encrypted tokens (use signet jwe)"},
		{"paseto verify with a JWE key", "v4.public.x", []string{"paseto", "verify", "--key", decPath}, "for encrypted tokens (use signet jwe)"},
	} {
		r := runAt(t, testNow, tt.stdin, tt.args...)
		wantStderr(t, r, exitRejected, tt.name, tt.want)
	}
}
