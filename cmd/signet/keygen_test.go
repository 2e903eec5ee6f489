package main

import (
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"strings"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
)

func TestKeygenAndPubEveryAlgorithm(t *testing.T) {
	t.Parallel()
	for _, alg := range signet.JWSAlgorithms() {
		t.Run(string(alg), func(t *testing.T) {
			t.Parallel()
			r := keygenRuns()[alg]
			checkInvariants(t, []string{"keygen", string(alg)}, r)
			wantCode(t, r, exitOK, "keygen")
			if !strings.HasSuffix(r.stdout, "}\n") || strings.Count(r.stdout, "\n") != 1 {
				t.Errorf("keygen output is not one JSON line: %q", r.stdout)
			}
			priv, err := jwk.ParseKey([]byte(r.stdout))
			if err != nil {
				t.Fatalf("keygen output does not parse: %v", err)
			}
			if priv.Algorithm() != alg || !priv.CanSign() || priv.KeyID() != "k-"+string(alg) {
				t.Fatalf("keygen made a %s key (can sign: %v, kid %q)", priv.Algorithm(), priv.CanSign(), priv.KeyID())
			}

			r = runCLI(t, r.stdout, "pub")
			if alg.Symmetric() {
				wantStderr(t, r, exitRejected, "pub of an HMAC key", "no public half")
				return
			}
			wantCode(t, r, exitOK, "pub")
			pub, err := jwk.ParseKey([]byte(r.stdout))
			if err != nil {
				t.Fatalf("pub output does not parse: %v", err)
			}
			want, _ := priv.Public()
			if pub.CanSign() || !pub.Equal(want) || pub.KeyID() != priv.KeyID() || pub.Algorithm() != alg {
				t.Errorf("pub output is not the public half of the key: %s", r.stdout)
			}
			for _, secret := range []string{`"d"`, `"p"`, `"q"`, `"k"`} {
				if strings.Contains(r.stdout, secret) {
					t.Errorf("pub output has private member %s", secret)
				}
			}
			// pub of a public key is that key.
			if again := runCLI(t, r.stdout, "pub"); again.stdout != r.stdout {
				t.Errorf("pub of a public JWK changed it:\n%s\n%s", r.stdout, again.stdout)
			}
		})
	}
}

func TestKeygenFlags(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"keygen", "EdDSA", "--kid", "k1"},
		{"keygen", "--kid", "k1", "EdDSA"},
		{"keygen", "-kid=k1", "EdDSA"},
		{"keygen", "--kid", "k1", "--", "EdDSA"},
	} {
		r := runCLI(t, "", args...)
		wantCode(t, r, exitOK, strings.Join(args, " "))
		k, err := jwk.ParseKey([]byte(r.stdout))
		if err != nil || k.KeyID() != "k1" || k.Algorithm() != signet.EdDSA {
			t.Errorf("%q: got %s (%v)", args, r.stdout, err)
		}
	}
	r := runCLI(t, "", "keygen", "HS256")
	wantCode(t, r, exitOK, "keygen HS256")
	if strings.Contains(r.stdout, `"kid"`) {
		t.Errorf("keygen without --kid wrote a kid: %s", r.stdout)
	}
	// Every key is new.
	if r2 := runCLI(t, "", "keygen", "HS256"); r2.stdout == r.stdout {
		t.Error("keygen made the same key twice")
	}
}

func TestPubPEM(t *testing.T) {
	t.Parallel()
	tests := []struct {
		alg    signet.Algorithm
		flags  []string
		encode func(*signet.Key) []byte // the private key as PEM
	}{
		{signet.ES256, nil, pkcs8},
		{signet.ES384, nil, pkcs8},
		{signet.ES512, nil, sec1},
		{signet.EdDSA, nil, pkcs8},
		{signet.RS256, nil, pkcs8}, // SPKI names no algorithm: none needed
		{signet.PS512, []string{"--alg", "PS512"}, pkcs1},
	}
	for _, tt := range tests {
		t.Run(string(tt.alg), func(t *testing.T) {
			t.Parallel()
			priv := privateKey(t, tt.alg)
			r := runCLI(t, string(tt.encode(priv)), append([]string{"pub"}, tt.flags...)...)
			wantCode(t, r, exitOK, "pub")
			if !strings.HasPrefix(r.stdout, "-----BEGIN PUBLIC KEY-----\n") || !strings.HasSuffix(r.stdout, "-----END PUBLIC KEY-----\n") {
				t.Fatalf("pub of PEM is not an SPKI PEM block: %q", r.stdout)
			}
			pub, err := signet.ParsePEM([]byte(r.stdout), tt.alg)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := priv.Public()
			if !pub.Equal(want) {
				t.Error("pub of PEM is not the key's public half")
			}
		})
	}
}

func TestPubRejects(t *testing.T) {
	t.Parallel()
	es := privateKey(t, signet.ES256)
	noAlg := strings.Replace(string(privateJWK(t, signet.ES256)), `"alg":"ES256",`, "", 1)
	tests := []struct {
		name  string
		stdin string
		flags []string
		want  string
	}{
		{"raw secret", "an HMAC secret of enough bytes, 32 or more\n", nil, "no public half"},
		{"empty", " \n", nil, "no key on stdin"},
		{"HMAC JWK", string(privateJWK(t, signet.HS384)), nil, "no public half"},
		{"JWK without alg", noAlg, nil, "give --alg"},
		{"JWK alg mismatch", string(privateJWK(t, signet.ES256)), []string{"--alg", "ES384"}, "algorithm does not match"},
		{"PEM alg mismatch", string(pkcs8(es)), []string{"--alg", "EdDSA"}, "algorithm does not match"},
		{"broken JWK", `{"kty":"EC"`, nil, "malformed"},
		{"broken PEM", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", nil, "malformed"},
		{"PASERK", "k4.secret.AAAA", nil, "paserk"},
		{"PASERK local", "k4.local.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n", nil, "no public half"},
		{"PASERK ID", "k4.lid.AAAA", nil, "key ID"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := runCLI(t, tt.stdin, append([]string{"pub"}, tt.flags...)...)
			wantStderr(t, r, exitRejected, tt.name, tt.want)
		})
	}
	// A JWK without alg is read with --alg.
	r := runCLI(t, noAlg, "pub", "--alg", "ES256")
	wantCode(t, r, exitOK, "pub --alg of a JWK without alg")
	if !strings.Contains(r.stdout, `"alg":"ES256"`) {
		t.Errorf("pub --alg: %s", r.stdout)
	}
}

func pkcs8(k *signet.Key) []byte {
	b, err := signet.MarshalPEM(k)
	if err != nil {
		panic(err)
	}
	return b
}

func sec1(k *signet.Key) []byte {
	der, err := x509.MarshalECPrivateKey(k.Material().(*ecdsa.PrivateKey))
	if err != nil {
		panic(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der})
}

func pkcs1(k *signet.Key) []byte {
	der := x509.MarshalPKCS1PrivateKey(k.Material().(*rsa.PrivateKey))
	return pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: der})
}
