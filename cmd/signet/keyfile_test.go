package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
)

func TestDetectFormat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want keyFormat
	}{
		{`{"kty":"OKP"}`, formatJWK},
		{"\n\t {\"kty\":\"OKP\"}", formatJWK},
		{"-----BEGIN PRIVATE KEY-----\nAA==\n-----END PRIVATE KEY-----\n", formatPEM},
		{"Bag Attributes\n-----BEGIN PUBLIC KEY-----\n", formatPEM}, // OpenSSL's preamble
		{"k4.secret.AAAA", formatPASERK},
		{"k3.local.AAAA", formatPASERK},
		{"a raw secret", formatUnknown},
		{"\x00\xff binary secret", formatUnknown},
		{"", formatUnknown},
	}
	for _, tt := range tests {
		if got := detectFormat([]byte(tt.in)); got != tt.want {
			t.Errorf("detectFormat(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

// TestParseKeyQuotesNoSecret checks that rejecting a key file never
// quotes its bytes, which may be secret.
func TestParseKeyQuotesNoSecret(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		data string
		alg  signet.Algorithm
		want error
		enc  secretEncoding
	}{
		{"JWK with a bare secret", `{"kty":"oct","alg":"HS256","k":Xsecret}`, "", signet.ErrMalformed, secretNone},
		{"truncated JWK", `{"kty":"oct","alg":"HS256","k":"Xsecret`, "", signet.ErrMalformed, secretNone},
		{"JWK duplicate k", `{"kty":"oct","alg":"HS256","k":"Xsecret","k":"Xsecret"}`, "", signet.ErrMalformed, secretNone},
		{"short JWK secret", `{"kty":"oct","alg":"HS256","k":"Xsecrets"}`, "", signet.ErrWeakKey, secretNone},
		{"short raw secret", "Xsecret\n", signet.HS256, signet.ErrWeakKey, secretRaw},
		{"raw secret not base64", "Xsecret!Xsecret", signet.HS256, signet.ErrMalformed, secretBase64},
		{"raw secret not hex", "Xsecret-Xsecret", signet.HS256, signet.ErrMalformed, secretHex},
		{"raw secret without --secret-encoding", "Xsecret-Xsecret-Xsecret-Xsecret-Xsecret", signet.HS256, signet.ErrMalformed, secretNone},
		{"raw secret without alg", "Xsecret-Xsecret-Xsecret-Xsecret-Xsecret", "", signet.ErrMalformed, secretNone},
		{"raw secret for ES256", "Xsecret-Xsecret-Xsecret-Xsecret-Xsecret", signet.ES256, signet.ErrMalformed, secretNone},
		{"PASERK", "k4.secret.Xsecret", "", signet.ErrMalformed, secretNone},
		{"PASERK bad base64", "k4.local.Xsecret!Xsecret", "", signet.ErrMalformed, secretNone},
		{"PASERK unknown type", "k4.Xsecret.Xsecret", "", signet.ErrUnsupported, secretNone},
		{"PASERK wrapped", "k4.local-wrap.pie.Xsecret", "", signet.ErrUnsupported, secretNone},
		{"PASERK other version", "k3.local.Xsecret", signet.V4Local, signet.ErrMalformed, secretNone},
		{"local key as raw secret", "Xsecret-Xsecret-Xsecret-Xsecret-Xsecret", signet.V4Local, signet.ErrUnsupported, secretNone},
	}
	for _, tt := range tests {
		_, err := parseKey([]byte(tt.data), tt.alg, tt.enc)
		if !errors.Is(err, tt.want) {
			t.Errorf("%s: error %v, want %v", tt.name, err, tt.want)
			continue
		}
		if strings.Contains(err.Error(), "Xsecret") || strings.Contains(err.Error(), "'X'") {
			t.Errorf("%s: error quotes the key: %v", tt.name, err)
		}
	}
}

// TestPublicKeyNeverAnHMACSecret: key text that fails to parse is not
// taken as a raw secret without --secret-encoding, whatever --alg says.
func TestPublicKeyNeverAnHMACSecret(t *testing.T) {
	k, _ := signet.GenerateKey(signet.RS256)
	pub, _ := k.Public()
	j, _ := jwk.MarshalPublic(pub)
	broken := append([]byte(nil), j...)
	broken[len(broken)-1] = ' ' // no closing brace: not a JWK any more
	for name, data := range map[string][]byte{
		"JWK with a byte-order mark": append([]byte("\xef\xbb\xbf"), j...),
		"broken JWK":                 bytes.TrimPrefix(broken, []byte("{")),
		"ssh key":                    []byte("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA user@host"),
	} {
		got, err := parseKey(data, signet.HS256, secretNone)
		if err == nil {
			t.Errorf("%s: read as a %s key", name, got.Algorithm())
		}
	}
}

// TestFileSizeLimit: a file over maxInput bytes is refused
// (signet.ErrTooLarge) before it is read.
func TestFileSizeLimit(t *testing.T) {
	t.Parallel()
	path := writeFile(t, t.TempDir(), "big", make([]byte, maxInput+1))
	if _, err := readFile(path, "key file"); !errors.Is(err, signet.ErrTooLarge) {
		t.Errorf("readFile: %v, want ErrTooLarge", err)
	}
	r := runAt(t, testNow, "", "jwt", "verify", "--key", path, "--alg", "HS256", "--secret-encoding", "raw")
	wantCode(t, r, exitRejected, "oversized secret file")
}

// TestKeyFileJWKSet: a JWK Set given where one key is read (--key, pub,
// jwe's --key, httpsig's --key) is refused as a set, whatever --alg says,
// with a pointer to --jwks: never read as one of its keys, and never
// answered with "give --alg", which only led to "missing kty".
func TestKeyFileJWKSet(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, _ := newKeyFile(t, dir, signet.ES256, "a")
	b, _ := newKeyFile(t, dir, signet.ES256, "b")
	set, err := jwk.MarshalSet(a, b)
	if err != nil {
		t.Fatal(err)
	}
	one, err := jwk.MarshalSet(a)
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"two keys": set, "one key": one} {
		path := writeFile(t, dir, strings.ReplaceAll(name, " ", "-")+".json", data)
		for _, args := range [][]string{
			{"jwt", "verify", "--key", path},
			{"jwt", "verify", "--key", path, "--alg", "ES256"},
			{"jwt", "sign", "--key", path, "--alg", "ES256"},
			{"jwe", "decrypt", "--key", path, "--alg", "ECDH-ES"},
			{"httpsig", "verify", "--key", path},
			{"httpsig", "verify", "--key", path, "--alg", "ecdsa-p256-sha256"},
		} {
			r := runAt(t, testNow, `{"sub":"a"}`, args...)
			wantStderr(t, r, exitRejected, name+": "+strings.Join(args[:2], " "), "a JWK Set")
		}
		for _, args := range [][]string{{"pub"}, {"pub", "--alg", "ES256"}} {
			r := runCLI(t, string(data), args...)
			wantStderr(t, r, exitRejected, name+": "+strings.Join(args, " "), "a JWK Set")
		}
		if _, err := parseKey(data, signet.ES256, secretNone); !errors.Is(err, signet.ErrUnsupported) {
			t.Errorf("%s: parseKey: %v, want ErrUnsupported", name, err)
		}
	}
}
