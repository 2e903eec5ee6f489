package main

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/paserk"
	"github.com/signet-go/signet/paseto"
)

// pasetoAlgs are the PASETO algorithms, in a fixed order.
var pasetoAlgs = []signet.Algorithm{signet.V4Local, signet.V4Public, signet.V3Local, signet.V3Public}

// rfc3339 formats t as PASETO times are written: RFC 3339, UTC, seconds.
func rfc3339(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// pasetoClaimsAt returns test claims expiring an hour after now, written
// the way a person might: member order, spacing and number forms that a
// re-encoding would change.
func pasetoClaimsAt(now time.Time) string {
	return fmt.Sprintf(`{"sub":"alice", "iss":"https://issuer.example","aud":"api","n":1.50,"big":12345678901234567890,"html":"<&>","exp":%q}`, rfc3339(now.Add(time.Hour)))
}

// pasetoKeys runs keygen for alg and writes the key to dir. It returns
// the file to issue with and the file to read tokens with: the pub output
// for a public-key algorithm, the key itself for a local one.
func pasetoKeys(t *testing.T, dir string, alg signet.Algorithm) (issuePath, readPath string) {
	t.Helper()
	r := runCLI(t, "", "keygen", string(alg))
	wantCode(t, r, exitOK, "keygen "+string(alg))
	issuePath = writeFile(t, dir, string(alg)+".key", []byte(r.stdout))
	if isLocal(alg) {
		return issuePath, issuePath
	}
	r = runCLI(t, r.stdout, "pub")
	wantCode(t, r, exitOK, "pub "+string(alg))
	return issuePath, writeFile(t, dir, string(alg)+".pub", []byte(r.stdout))
}

// issueCmd and readCmd are the paseto subcommands for alg.
func issueCmd(alg signet.Algorithm) string {
	if isLocal(alg) {
		return "encrypt"
	}
	return "sign"
}

func readCmd(alg signet.Algorithm) string {
	if isLocal(alg) {
		return "decrypt"
	}
	return "verify"
}

// issue runs "paseto encrypt" or "paseto sign" at now and returns the
// token.
func issue(t *testing.T, now time.Time, alg signet.Algorithm, claims string, args ...string) string {
	t.Helper()
	r := runAt(t, now, claims, append([]string{"paseto", issueCmd(alg)}, args...)...)
	wantCode(t, r, exitOK, "paseto "+issueCmd(alg))
	if !strings.HasSuffix(r.stdout, "\n") || strings.Count(r.stdout, "\n") != 1 {
		t.Fatalf("paseto %s output is not one line: %q", issueCmd(alg), r.stdout)
	}
	token := strings.TrimSuffix(r.stdout, "\n")
	if !strings.HasPrefix(token, string(alg)+".") {
		t.Fatalf("paseto %s made %q, not a %s token", issueCmd(alg), token, alg)
	}
	return token
}

// read runs "paseto decrypt" or "paseto verify" at now.
func read(t *testing.T, now time.Time, alg signet.Algorithm, token string, args ...string) result {
	t.Helper()
	return runAt(t, now, token+"\n", append([]string{"paseto", readCmd(alg)}, args...)...)
}

func TestPASETOKeygenAndPub(t *testing.T) {
	t.Parallel()
	for _, alg := range pasetoAlgs {
		t.Run(string(alg), func(t *testing.T) {
			t.Parallel()
			r := runCLI(t, "", "keygen", string(alg))
			wantCode(t, r, exitOK, "keygen")
			kind := "secret"
			if isLocal(alg) {
				kind = "local"
			}
			prefix := paserkVersion(alg) + "." + kind + "."
			if !strings.HasPrefix(r.stdout, prefix) || !strings.HasSuffix(r.stdout, "\n") || strings.Count(r.stdout, "\n") != 1 {
				t.Fatalf("keygen %s output is not one %s… line: %q", alg, prefix, r.stdout)
			}
			priv, err := paserk.Decode(strings.TrimSpace(r.stdout))
			if err != nil {
				t.Fatalf("keygen output does not decode: %v", err)
			}
			if priv.Algorithm() != alg || (!isLocal(alg) && !priv.CanSign()) {
				t.Fatalf("keygen made a %s key (can sign: %v)", priv.Algorithm(), priv.CanSign())
			}
			if again := runCLI(t, "", "keygen", string(alg)); again.stdout == r.stdout {
				t.Error("keygen made the same key twice")
			}

			pr := runCLI(t, r.stdout, "pub")
			if isLocal(alg) {
				wantStderr(t, pr, exitRejected, "pub of a local key", "no public half")
				return
			}
			wantCode(t, pr, exitOK, "pub")
			pubKey, _ := priv.Public()
			want, _ := paserk.Encode(pubKey)
			if pr.stdout != want+"\n" {
				t.Errorf("pub output %q, want %q", pr.stdout, want)
			}
			if again := runCLI(t, pr.stdout, "pub"); again.stdout != pr.stdout {
				t.Errorf("pub of a public PASERK changed it: %q", again.stdout)
			}
			// --alg must agree with the PASERK.
			other := signet.V3Public
			if alg == signet.V3Public {
				other = signet.V4Public
			}
			wantCode(t, runCLI(t, r.stdout, "pub", "--alg", string(alg)), exitOK, "pub --alg matching")
			mr := runCLI(t, r.stdout, "pub", "--alg", string(other))
			wantStderr(t, mr, exitRejected, "pub --alg mismatching", "algorithm does not match")
		})
	}
}

func TestPASETORoundTripEveryAlgorithm(t *testing.T) {
	t.Parallel()
	for _, alg := range pasetoAlgs {
		t.Run(string(alg), func(t *testing.T) {
			t.Parallel()
			issuePath, readPath := pasetoKeys(t, t.TempDir(), alg)
			claims := pasetoClaimsAt(testNow)
			token := issue(t, testNow, alg, claims+"\n", "--key", issuePath)
			if len(strings.Split(token, ".")) != 3 {
				t.Errorf("token without --footer has a footer: %s", token)
			}

			// The claims come back exactly as issued.
			r := read(t, testNow, alg, token, "--key", readPath, "--aud", "api")
			wantCode(t, r, exitOK, "paseto "+readCmd(alg))
			if r.stdout != claims+"\n" {
				t.Errorf("claims:\n got %s\nwant %s", r.stdout, claims)
			}
			if r.stderr != "" {
				t.Errorf("stderr: %q", r.stderr)
			}
			// A private key verifies too.
			if !isLocal(alg) {
				wantCode(t, read(t, testNow, alg, token, "--key", issuePath, "--aud", "api"), exitOK, "verify with the private key")
			}
			// The library reads the token as well.
			key, err := loadKey(readPath, "", secretNone)
			if err != nil {
				t.Fatal(err)
			}
			var m paseto.Map
			if isLocal(alg) {
				m, err = paseto.Decrypt[paseto.Map](key, token, paseto.Policy{Now: func() time.Time { return testNow }, Audience: []string{"api"}})
			} else {
				m, err = paseto.Verify[paseto.Map](key, token, paseto.Policy{Now: func() time.Time { return testNow }, Audience: []string{"api"}})
			}
			if err != nil || m["sub"] != "alice" {
				t.Errorf("the library reads %v (%v)", m, err)
			}
			// Local tokens are encrypted; public ones are not. (12 bytes
			// of claims: whole base64 groups.)
			if strings.Contains(token, base64.RawURLEncoding.EncodeToString([]byte(`{"sub":"alic`))) == isLocal(alg) {
				t.Errorf("%s token: claims readable in the token: %v", alg, !isLocal(alg))
			}

			// The claims policy.
			for _, tt := range []struct {
				args []string
				code int
				want string
			}{
				{[]string{"--iss", "https://issuer.example", "--aud", "api", "--sub", "alice"}, exitOK, ""},
				{[]string{"--iss", "https://other.example", "--aud", "api"}, exitRejected, "iss"},
				{[]string{"--aud", "web"}, exitRejected, "aud"},
				{[]string{"--aud", "web,api"}, exitOK, ""},
				{[]string{"--aud", "web", "--aud", "api"}, exitOK, ""},
				{nil, exitRejected, "audience"}, // the token has aud, the reader named none
				{[]string{"--any-aud"}, exitOK, ""},
				{[]string{"--any-aud", "--aud", "api"}, exitUsage, "not both"},
				{[]string{"--sub", "bob", "--any-aud"}, exitRejected, "sub"},
			} {
				r := read(t, testNow, alg, token, append([]string{"--key", readPath}, tt.args...)...)
				wantCode(t, r, tt.code, strings.Join(tt.args, " "))
				if !strings.Contains(r.stderr, tt.want) {
					t.Errorf("%q: stderr %q lacks %q", tt.args, r.stderr, tt.want)
				}
			}

			// Tampering is caught.
			b := []byte(token)
			i := len(string(alg)) + 5
			b[i] ^= 1
			if r := read(t, testNow, alg, string(b), "--key", readPath); r.code != exitRejected {
				t.Errorf("tampered token: exit %d", r.code)
			}
		})
	}
}

func TestPASETOFooterAndImplicit(t *testing.T) {
	t.Parallel()
	for _, alg := range pasetoAlgs {
		t.Run(string(alg), func(t *testing.T) {
			t.Parallel()
			issuePath, readPath := pasetoKeys(t, t.TempDir(), alg)
			claims := pasetoClaimsAt(testNow)
			footer := `{"kid":"k4.pid.some-key-id"}`
			token := issue(t, testNow, alg, claims, "--key", issuePath, "--footer", footer, "--implicit", "tenant-1")

			// The footer is in the token, in the clear.
			f, err := paseto.Footer(token)
			if err != nil || string(f) != footer {
				t.Fatalf("footer %q (%v), want %q", f, err, footer)
			}
			tests := []struct {
				name string
				args []string
				code int
				want string
			}{
				{"footer and implicit", []string{"--footer", footer, "--implicit", "tenant-1"}, exitOK, ""},
				{"any footer", []string{"--implicit", "tenant-1"}, exitOK, ""},
				{"wrong footer", []string{"--footer", `{"kid":"other"}`, "--implicit", "tenant-1"}, exitRejected, "footer"},
				{"empty footer expected", []string{"--footer", "", "--implicit", "tenant-1"}, exitRejected, "footer"},
				{"wrong implicit", []string{"--footer", footer, "--implicit", "tenant-2"}, exitRejected, "signature invalid"},
				{"no implicit", []string{"--footer", footer}, exitRejected, "signature invalid"},
			}
			for _, tt := range tests {
				r := read(t, testNow, alg, token, append([]string{"--key", readPath, "--any-aud"}, tt.args...)...)
				wantCode(t, r, tt.code, tt.name)
				if tt.code == exitOK && r.stdout != claims+"\n" {
					t.Errorf("%s: claims %q", tt.name, r.stdout)
				}
				if !strings.Contains(r.stderr, tt.want) {
					t.Errorf("%s: stderr %q lacks %q", tt.name, r.stderr, tt.want)
				}
			}

			// A token without footer or implicit assertion.
			plain := issue(t, testNow, alg, claims, "--key", issuePath)
			wantCode(t, read(t, testNow, alg, plain, "--key", readPath, "--footer", "", "--aud", "api"), exitOK, "empty footer expected and found")
			wantCode(t, read(t, testNow, alg, plain, "--key", readPath, "--implicit", "", "--aud", "api"), exitOK, "empty implicit assertion")
			r := read(t, testNow, alg, plain, "--key", readPath, "--footer", footer)
			wantCode(t, r, exitRejected, "footer expected, none found")
			r = read(t, testNow, alg, plain, "--key", readPath, "--implicit", "tenant-1")
			wantCode(t, r, exitRejected, "implicit assertion not issued with")
		})
	}
}

func TestPASETOExpiry(t *testing.T) {
	t.Parallel()
	for _, alg := range []signet.Algorithm{signet.V4Local, signet.V3Public} {
		t.Run(string(alg), func(t *testing.T) {
			t.Parallel()
			issuePath, readPath := pasetoKeys(t, t.TempDir(), alg)
			noExp := `{"sub":"alice","n":1.50}`

			// Claims without exp need --exp or --no-exp.
			r := runAt(t, testNow, noExp, "paseto", issueCmd(alg), "--key", issuePath)
			wantCode(t, r, exitRejected, "issue without exp")
			if !strings.Contains(r.stderr, "no exp") || !strings.Contains(r.stderr, "--no-exp") {
				t.Errorf("issue without exp: stderr %q does not explain", r.stderr)
			}

			// --no-exp issues them as they are; readers need --no-exp.
			token := issue(t, testNow, alg, noExp, "--key", issuePath, "--no-exp")
			r = read(t, testNow, alg, token, "--key", readPath)
			wantStderr(t, r, exitRejected, "read without exp", "exp")
			r = read(t, testNow.Add(1000*time.Hour), alg, token, "--key", readPath, "--no-exp")
			wantCode(t, r, exitOK, "read --no-exp")
			if r.stdout != noExp+"\n" {
				t.Errorf("read --no-exp: %q", r.stdout)
			}

			// --exp sets exp = now + D, as RFC 3339 UTC, keeping the
			// other claims (numbers as written).
			token = issue(t, testNow, alg, `{"sub":"alice","n":1.50,"exp":"2000-01-01T00:00:00Z"}`, "--key", issuePath, "--exp", "90m")
			r = read(t, testNow, alg, token, "--key", readPath)
			wantCode(t, r, exitOK, "read --exp token")
			want := fmt.Sprintf(`{"exp":%q,"n":1.50,"sub":"alice"}`+"\n", rfc3339(testNow.Add(90*time.Minute)))
			if r.stdout != want {
				t.Errorf("--exp claims %q, want %q", r.stdout, want)
			}
			exp := testNow.Add(90 * time.Minute)
			// The token is expired at exp (RFC 7519), not a second later.
			wantCode(t, read(t, exp.Add(-time.Second), alg, token, "--key", readPath), exitOK, "read the second before exp")
			r = read(t, exp, alg, token, "--key", readPath)
			wantStderr(t, r, exitRejected, "read after exp", "expired")
			wantCode(t, read(t, exp.Add(30*time.Second), alg, token, "--key", readPath, "--leeway", "1m"), exitOK, "read within leeway")
			// --no-exp still checks an exp that is present.
			wantCode(t, read(t, exp.Add(time.Minute), alg, token, "--key", readPath, "--no-exp"), exitRejected, "read --no-exp after exp")

			// Claims already expired are issued, with a warning.
			r = runAt(t, testNow, `{"exp":"2000-01-01T00:00:00Z"}`, "paseto", issueCmd(alg), "--key", issuePath)
			wantStderr(t, r, exitOK, "issue expired", "warning: the token expired")
		})
	}
}

func TestPASETOWrongKey(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	keys := map[signet.Algorithm][2]string{}
	for _, alg := range pasetoAlgs {
		i, r := pasetoKeys(t, dir, alg)
		keys[alg] = [2]string{i, r}
	}
	claims := pasetoClaimsAt(testNow)
	tokens := map[signet.Algorithm]string{}
	for _, alg := range pasetoAlgs {
		tokens[alg] = issue(t, testNow, alg, claims, "--key", keys[alg][0])
	}
	tests := []struct {
		name  string
		args  []string
		token signet.Algorithm
		want  string
	}{
		{"v3 local key, v4 token", []string{"decrypt", "--key", keys[signet.V3Local][0]}, signet.V4Local, "algorithm does not match"},
		{"v4 local key, v3 token", []string{"decrypt", "--key", keys[signet.V4Local][0]}, signet.V3Local, "algorithm does not match"},
		{"v3 public key, v4 token", []string{"verify", "--key", keys[signet.V3Public][1]}, signet.V4Public, "algorithm does not match"},
		{"v4 public key, v3 token", []string{"verify", "--key", keys[signet.V4Public][1]}, signet.V3Public, "algorithm does not match"},
		{"another v4 local key", []string{"decrypt", "--key", keys[signet.V4Local][0]}, "other-v4.local", "signature invalid"},
		{"local key, verify", []string{"verify", "--key", keys[signet.V4Local][0]}, signet.V4Public, "shared secret"},
		{"public key, decrypt", []string{"decrypt", "--key", keys[signet.V4Public][1]}, signet.V4Local, "v4.local or v3.local"},
		{"local key, public token", []string{"decrypt", "--key", keys[signet.V4Local][0]}, signet.V4Public, "paseto verify"},
		{"public key, local token", []string{"verify", "--key", keys[signet.V4Public][1]}, signet.V4Local, "paseto decrypt"},
		{"JWT", []string{"verify", "--key", keys[signet.V4Public][1]}, "jwt", "PASETO token"},
	}
	other, _ := signet.GenerateKey(signet.V4Local)
	otherTok, err := paseto.EncryptBytes(other, []byte(claims), paseto.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tokens["other-v4.local"] = otherTok
	tokens["jwt"] = "eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJhIn0.c2ln"
	for _, tt := range tests {
		r := runAt(t, testNow, tokens[tt.token], append([]string{"paseto"}, tt.args...)...)
		wantStderr(t, r, exitRejected, tt.name, tt.want)
	}

	// Issuing with the wrong kind of key.
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"sign with a local key", []string{"sign", "--key", keys[signet.V4Local][0]}, "shared secret"},
		{"sign with a public key", []string{"sign", "--key", keys[signet.V4Public][1]}, "private key"},
		{"encrypt with a public-key key", []string{"encrypt", "--key", keys[signet.V3Public][0]}, "v4.local or v3.local"},
		{"sign with a JWK", []string{"sign", "--key", writeFile(t, dir, "ed.jwk", privateJWK(t, signet.EdDSA))}, "not a PASETO key"},
		{"encrypt with a raw secret", []string{"encrypt", "--key", writeFile(t, dir, "raw", []byte("0123456789abcdef0123456789abcdef\n"))}, "not a JWK, PEM or PASERK"},
		{"missing key file", []string{"sign", "--key", dir + "/nonexistent"}, "no such file"},
	} {
		r := runAt(t, testNow, claims, append([]string{"paseto"}, tt.args...)...)
		wantStderr(t, r, exitRejected, tt.name, tt.want)
	}

	// A PASETO key does not sign or verify JWTs.
	r := runAt(t, testNow, `{"sub":"a"}`, "jwt", "sign", "--key", keys[signet.V4Public][0])
	wantStderr(t, r, exitRejected, "jwt sign with a PASERK", "signet paseto")
	r = runAt(t, testNow, tokens[signet.V4Public], "jwt", "verify", "--key", keys[signet.V4Public][1])
	wantCode(t, r, exitRejected, "jwt verify with a PASERK")
}

func TestPASETOPEMKey(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, alg := range []signet.Algorithm{signet.V4Public, signet.V3Public} {
		priv, err := signet.GenerateKey(alg)
		if err != nil {
			t.Fatal(err)
		}
		pemPath := writeFile(t, dir, string(alg)+".pem", pkcs8(priv))
		pubKey, _ := priv.Public()
		pubPASERK, _ := paserk.Encode(pubKey)
		pubPath := writeFile(t, dir, string(alg)+".pub", []byte(pubPASERK+"\n"))

		claims := pasetoClaimsAt(testNow)
		token := issue(t, testNow, alg, claims, "--key", pemPath, "--alg", string(alg))
		wantCode(t, read(t, testNow, alg, token, "--key", pubPath, "--aud", "api"), exitOK, "verify PEM-signed token")
		wantCode(t, read(t, testNow, alg, token, "--key", pemPath, "--alg", string(alg), "--aud", "api"), exitOK, "verify with PEM --alg")

		// Without --alg a PEM key is a JWS key.
		r := runAt(t, testNow, claims, "paseto", "sign", "--key", pemPath)
		wantStderr(t, r, exitRejected, "sign with PEM without --alg", "--alg v4.public or v3.public")
		// --alg must agree with a PASERK.
		other := signet.V3Public
		if alg == signet.V3Public {
			other = signet.V4Public
		}
		r = read(t, testNow, alg, token, "--key", pubPath, "--alg", string(other))
		wantCode(t, r, exitRejected, "verify --alg disagreeing with the PASERK")

		// pub with --alg reads the PEM as a PASETO key: SPKI out.
		r = runCLI(t, string(pkcs8(priv)), "pub", "--alg", string(alg))
		wantCode(t, r, exitOK, "pub PEM --alg "+string(alg))
		if !strings.HasPrefix(r.stdout, "-----BEGIN PUBLIC KEY-----") {
			t.Errorf("pub PEM --alg: %q", r.stdout)
		}
	}
	// A local key is never read from PEM or raw bytes.
	ed, _ := signet.GenerateKey(signet.EdDSA)
	edPEM := pkcs8(ed)
	if r := runCLI(t, string(edPEM), "pub", "--alg", "v4.local"); r.code != exitRejected || !strings.Contains(r.stderr, "only as a PASERK") {
		t.Errorf("pub PEM --alg v4.local: exit %d, %q", r.code, r.stderr)
	}
	for _, data := range [][]byte{edPEM, []byte("0123456789abcdef0123456789abcdef")} {
		_, err := parseKey(data, signet.V4Local, secretNone)
		if err == nil || !strings.Contains(err.Error(), "only as a PASERK") {
			t.Errorf("parseKey(…, v4.local): %v", err)
		}
	}
}

func TestPASETONonPlainPASERK(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	local4, _ := signet.GenerateKey(signet.V4Local)
	local3, _ := signet.GenerateKey(signet.V3Local)
	pub4, _ := signet.GenerateKey(signet.V4Public)
	secret3, _ := signet.GenerateKey(signet.V3Public)
	must := func(s string, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	tests := []struct {
		name, paserk, want string
	}{
		{"local-wrap", must(paserk.Wrap(local4, local4)), "encrypted with another key"},
		{"secret-wrap", must(paserk.Wrap(pub4, local4)), "encrypted with another key"},
		{"local-pw", must(paserk.WrapPassword(local4, []byte("pw"), paserk.PasswordParams{Memory: 8, Time: 1, Parallelism: 1})), "encrypted with a password"},
		{"secret-pw k3", must(paserk.WrapPassword(secret3, []byte("pw"), paserk.PasswordParams{Iterations: 1})), "encrypted with a password"},
		{"seal", must(paserk.Seal(local4, pub4)), "sealed"},
		{"seal k3", must(paserk.Seal(local3, secret3)), "sealed"},
		{"lid", must(paserk.ID(local4)), "key ID"},
		{"pid", must(paserk.ID(secret3)), "key ID"},
		{"unknown type", "k4.Xsecret-type.AAAA", "unknown PASERK type"},
		{"bad data", "k4.local.Xsecret", "malformed"},
		{"bad length", "k4.local.AAAA", "malformed"},
	}
	for _, tt := range tests {
		path := writeFile(t, dir, strings.ReplaceAll(tt.name, " ", "-"), []byte(tt.paserk+"\n"))
		for _, sub := range []string{"encrypt", "decrypt", "sign", "verify"} {
			r := runAt(t, testNow, `{"exp":"2030-01-01T00:00:00Z"}`, "paseto", sub, "--key", path)
			wantStderr(t, r, exitRejected, tt.name+" "+sub, tt.want)
			if strings.Contains(r.stderr, "Xsecret") {
				t.Errorf("%s: stderr quotes the key: %q", tt.name, r.stderr)
			}
		}
		r := runCLI(t, tt.paserk, "pub")
		wantStderr(t, r, exitRejected, tt.name+" pub", tt.want)
	}
}

func TestPASETOClaimsChecked(t *testing.T) {
	t.Parallel()
	issuePath, _ := pasetoKeys(t, t.TempDir(), signet.V4Public)
	exp := `"exp":"2030-01-01T00:00:00Z"`
	tests := []struct {
		name, claims, want string
	}{
		{"empty", "", "JSON object"},
		{"array", `[1]`, "JSON object"},
		{"broken", `{"sub":`, "malformed"},
		{"duplicate", `{"sub":"a","sub":"b",` + exp + `}`, "malformed"},
		{"case duplicate", `{"role":"a","Role":"b",` + exp + `}`, "malformed"},
		{"numeric exp", `{"exp":1700000000}`, "claim exp: want an RFC 3339"},
		{"date-only exp", `{"exp":"2030-01-01"}`, "claim exp must be an RFC 3339"},
		{"numeric nbf", `{"nbf":1,` + exp + `}`, "claim nbf"},
		{"array aud", `{"aud":["a"],` + exp + `}`, "claim aud: want a string"},
		{"numeric sub", `{"sub":1,` + exp + `}`, "claim sub: want a string"},
		{"footer with a key", `{` + exp + `}`, "footer holds a PASERK key"},
	}
	for _, tt := range tests {
		args := []string{"paseto", "sign", "--key", issuePath}
		if tt.name == "footer with a key" {
			local, _ := signet.GenerateKey(signet.V4Local)
			s, _ := paserk.Encode(local)
			args = append(args, "--footer", `{"wpk":"`+s+`"}`)
		}
		r := runAt(t, testNow, tt.claims, args...)
		wantStderr(t, r, exitRejected, tt.name, tt.want)
	}
	// Claims from a file.
	path := writeFile(t, t.TempDir(), "claims.json", []byte(`{`+exp+`}`+"\n"))
	r := runAt(t, testNow, "", "paseto", "sign", "--key", issuePath, "--claims", path)
	wantCode(t, r, exitOK, "sign --claims")
}

func TestPASETOUsageErrors(t *testing.T) {
	t.Parallel()
	issuePath, readPath := pasetoKeys(t, t.TempDir(), signet.V4Public)
	tests := []argsCase{
		{"no subcommand", []string{"paseto"}, "no subcommand"},
		{"unknown subcommand", []string{"paseto", "inspect"}, `unknown subcommand "inspect"`},
		{"sign without key", []string{"paseto", "sign"}, "--key is required"},
		{"encrypt without key", []string{"paseto", "encrypt", "--exp", "1h"}, "--key is required"},
		{"verify without key", []string{"paseto", "verify", "--aud", "api"}, "--key is required"},
		{"decrypt without key", []string{"paseto", "decrypt"}, "--key is required"},
		{"exp and no-exp", []string{"paseto", "sign", "--key", issuePath, "--exp", "1h", "--no-exp"}, "not both"},
		{"zero exp", []string{"paseto", "encrypt", "--key", issuePath, "--exp", "0s"}, "positive duration"},
		{"leeway too large", []string{"paseto", "verify", "--key", readPath, "--leeway", "1h"}, "--leeway"},
		{"negative leeway", []string{"paseto", "decrypt", "--key", readPath, "--leeway", "-1s"}, "--leeway"},
		{"JWS alg", []string{"paseto", "verify", "--key", readPath, "--alg", "EdDSA"}, "v4.public or v3.public"},
		{"local alg", []string{"paseto", "sign", "--key", issuePath, "--alg", "v4.local"}, "v4.public or v3.public"},
		{"unknown alg", []string{"paseto", "sign", "--key", issuePath, "--alg", "v2.public"}, "unknown algorithm"},
		{"alg on encrypt", []string{"paseto", "encrypt", "--key", issuePath, "--alg", "v4.local"}, "flag provided but not defined: -alg"},
		{"iss on sign", []string{"paseto", "sign", "--key", issuePath, "--iss", "x"}, "flag provided but not defined: -iss"},
		{"argument", []string{"paseto", "verify", "--key", readPath, "token"}, "unexpected argument"},
		{"keygen --kid", []string{"keygen", "v4.public", "--kid", "k1"}, "PASERK has no key ID"},
		{"keygen --kid local", []string{"keygen", "--kid", "k1", "v3.local"}, "PASERK has no key ID"},
		{"keygen --kid empty", []string{"keygen", "v4.local", "--kid="}, "PASERK has no key ID"},
		{"keygen v2", []string{"keygen", "v2.local"}, "unknown algorithm"},
		{"jwt sign PASETO alg", []string{"jwt", "sign", "--key", issuePath, "--alg", "v4.public"}, "PASETO algorithm"},
		{"jwt verify PASETO alg", []string{"jwt", "verify", "--key", readPath, "--alg", "v3.local"}, "PASETO algorithm"},
	}
	runArgsCases(t, time.Time{}, exitUsage, "", tests)
}

func TestPASETOHelp(t *testing.T) {
	t.Parallel()
	for _, sub := range []string{"encrypt", "decrypt", "sign", "verify"} {
		r := runCLI(t, "", "paseto", sub, "-h")
		wantCode(t, r, exitOK, "paseto "+sub+" -h")
		if !strings.HasPrefix(r.stdout, "Usage:\n  signet paseto "+sub+" --key F") || !strings.Contains(r.stdout, "-implicit") || !strings.Contains(r.stdout, "-footer") {
			t.Errorf("paseto %s -h: %q", sub, r.stdout)
		}
	}
	r := runCLI(t, "", "paseto", "help")
	wantCode(t, r, exitOK, "paseto help")
	for _, want := range []string{"signet paseto encrypt|sign", "signet paseto decrypt|verify", "v4.public", "PASERK"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("help lacks %q", want)
		}
	}
}

// TestPASETONotYetValid: paseto decrypt and verify refuse (exit 1) a
// token before its nbf, and one issued (iat) in the future, as jwt verify
// does; --leeway allows the skew it names, no more.
func TestPASETONotYetValid(t *testing.T) {
	t.Parallel()
	for _, alg := range pasetoAlgs {
		t.Run(string(alg), func(t *testing.T) {
			t.Parallel()
			issuePath, readPath := pasetoKeys(t, t.TempDir(), alg)
			exp := rfc3339(testNow.Add(time.Hour))
			later := rfc3339(testNow.Add(time.Minute))
			for _, tt := range []struct{ claim, want string }{{"nbf", "not yet valid"}, {"iat", "issued in the future"}} {
				token := issue(t, testNow, alg, fmt.Sprintf(`{%q:%q,"exp":%q}`, tt.claim, later, exp), "--key", issuePath)
				r := read(t, testNow, alg, token, "--key", readPath)
				wantStderr(t, r, exitRejected, tt.claim+" a minute later", tt.want)
				r = read(t, testNow, alg, token, "--key", readPath, "--leeway", "30s")
				wantStderr(t, r, exitRejected, tt.claim+" beyond leeway", tt.want)
				wantCode(t, read(t, testNow, alg, token, "--key", readPath, "--leeway", "1m"), exitOK, tt.claim+" within leeway")
				wantCode(t, read(t, testNow.Add(time.Minute), alg, token, "--key", readPath), exitOK, tt.claim+" reached")
			}
		})
	}
}
