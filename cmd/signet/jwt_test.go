package main

import (
	"crypto/ecdsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/b64"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/jwt"
)

// claimsAt returns test claims expiring an hour after now, written the
// way a person might: member order, spacing and number forms that a
// re-encoding would change.
func claimsAt(now time.Time) string {
	return fmt.Sprintf(`{"sub":"alice", "iss":"https://issuer.example","aud":["api","web"],"n":1.50,"big":12345678901234567890,"html":"<&>","exp":%d}`, now.Add(time.Hour).Unix())
}

// keyFiles writes the keygen key for alg to dir and returns the signing
// key file and the verification key file (the pub output; the secret
// itself for HMAC).
func keyFiles(t *testing.T, dir string, alg signet.Algorithm) (signPath, verifyPath string) {
	t.Helper()
	priv := privateJWK(t, alg)
	signPath = writeFile(t, dir, string(alg)+".jwk", priv)
	if alg.Symmetric() {
		return signPath, signPath
	}
	r := runCLI(t, string(priv), "pub")
	wantCode(t, r, exitOK, "pub")
	return signPath, writeFile(t, dir, string(alg)+".pub.jwk", []byte(r.stdout))
}

// signToken runs "jwt sign" at now and returns the token.
func signToken(t *testing.T, now time.Time, claims string, args ...string) string {
	t.Helper()
	return issueToken(t, now, claims, "jwt", "sign", args...)
}

// issueToken runs "cmd sub" (jwt sign, jwe encrypt) with args at now and
// returns the token, the one line it prints.
func issueToken(t *testing.T, now time.Time, claims, cmd, sub string, args ...string) string {
	t.Helper()
	r := runAt(t, now, claims, append([]string{cmd, sub}, args...)...)
	wantCode(t, r, exitOK, cmd+" "+sub)
	if !strings.HasSuffix(r.stdout, "\n") || strings.Count(r.stdout, "\n") != 1 {
		t.Fatalf("%s %s output is not one line: %q", cmd, sub, r.stdout)
	}
	return strings.TrimSuffix(r.stdout, "\n")
}

// segment decodes segment i of a compact JWS.
func segment(t *testing.T, token string, i int) string {
	t.Helper()
	b, err := b64.DecodeString(strings.Split(token, ".")[i])
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSignVerifyEveryAlgorithm(t *testing.T) {
	t.Parallel()
	for _, alg := range signet.JWSAlgorithms() {
		t.Run(string(alg), func(t *testing.T) {
			t.Parallel()
			signPath, verifyPath := keyFiles(t, t.TempDir(), alg)
			claims := claimsAt(testNow)
			token := signToken(t, testNow, claims+"\n", "--key", signPath)

			// The header is the one jwt.Sign writes; the payload the
			// claims as given, byte for byte.
			key := privateKey(t, alg)
			ref, err := jwt.Sign(key, jwt.Claims{Subject: "x"})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := strings.Split(token, ".")[0], strings.Split(ref, ".")[0]; got != want {
				t.Errorf("header %s, jwt.Sign writes %s", segment(t, token, 0), segment(t, ref, 0))
			}
			if got := segment(t, token, 1); got != claims {
				t.Errorf("payload %s, want the claims as given %s", got, claims)
			}

			for _, path := range []string{verifyPath, signPath} {
				r := runAt(t, testNow, "\n  "+token+"\r\n", "jwt", "verify", "--key", path, "--iss", "https://issuer.example", "--aud", "web")
				wantCode(t, r, exitOK, "jwt verify")
				if r.stdout != claims+"\n" {
					t.Errorf("jwt verify printed %q, want the claims %q", r.stdout, claims)
				}
				if r.stderr != "" {
					t.Errorf("jwt verify: stderr %q", r.stderr)
				}
			}
			// And the library agrees.
			if _, err := jwt.Verify[jwt.Map](key, token, jwt.Policy{Now: func() time.Time { return testNow }, Audience: []string{"web"}}); err != nil {
				t.Errorf("jwt.Verify refuses the CLI's token: %v", err)
			}
		})
	}
}

func TestSignClaimsFileAndKid(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	signPath, verifyPath := keyFiles(t, dir, signet.EdDSA)
	claims := claimsAt(testNow)
	claimsPath := writeFile(t, dir, "claims.json", []byte(claims+"\n"))
	token := signToken(t, testNow, "ignored", "--key", signPath, "--claims", claimsPath, "--kid", "other")
	if got := segment(t, token, 0); got != `{"alg":"EdDSA","kid":"other","typ":"JWT"}` {
		t.Errorf("header %s", got)
	}
	if got := segment(t, token, 1); got != claims {
		t.Errorf("payload %s", got)
	}
	// An empty --kid removes the key's own.
	token = signToken(t, testNow, claims, "--key", signPath, "--kid", "")
	if got := segment(t, token, 0); got != `{"alg":"EdDSA","typ":"JWT"}` {
		t.Errorf("header %s", got)
	}
	// A key file with a kid accepts tokens without one.
	r := runAt(t, testNow, token, "jwt", "verify", "--key", verifyPath, "--aud", "web,api")
	wantCode(t, r, exitOK, "verify a token without kid")
}

func TestSignExp(t *testing.T) {
	t.Parallel()
	signPath, verifyPath := keyFiles(t, t.TempDir(), signet.ES256)
	// --exp replaces exp; the other claims keep their values and number
	// forms, in name order.
	token := signToken(t, testNow, `{"sub":"alice","exp":5,"n":1.50,"big":12345678901234567890,"html":"<&>"}`, "--key", signPath, "--exp", "90m")
	want := fmt.Sprintf(`{"big":12345678901234567890,"exp":%d,"html":"<&>","n":1.50,"sub":"alice"}`, testNow.Add(90*time.Minute).Unix())
	if got := segment(t, token, 1); got != want {
		t.Errorf("payload %s, want %s", got, want)
	}
	r := runAt(t, testNow.Add(89*time.Minute), token, "jwt", "verify", "--key", verifyPath)
	wantCode(t, r, exitOK, "verify before exp")
	r = runAt(t, testNow.Add(90*time.Minute), token, "jwt", "verify", "--key", verifyPath)
	wantCode(t, r, exitRejected, "verify at exp")

	// Without exp anywhere, sign warns; a past exp too.
	r = runAt(t, testNow, `{"sub":"alice"}`, "jwt", "sign", "--key", signPath)
	wantCode(t, r, exitOK, "sign without exp")
	if !strings.Contains(r.stderr, "warning") || !strings.Contains(r.stderr, "no exp") {
		t.Errorf("sign without exp: stderr %q, want a warning", r.stderr)
	}
	r = runAt(t, testNow, `{"sub":"alice","exp":1000}`, "jwt", "sign", "--key", signPath)
	wantCode(t, r, exitOK, "sign with a past exp")
	if !strings.Contains(r.stderr, "warning") || !strings.Contains(r.stderr, "expired") {
		t.Errorf("sign with past exp: stderr %q, want a warning", r.stderr)
	}
	r = runAt(t, testNow, claimsAt(testNow), "jwt", "sign", "--key", signPath)
	wantCode(t, r, exitOK, "sign with exp")
	if r.stderr != "" {
		t.Errorf("sign with exp: stderr %q", r.stderr)
	}
}

func TestSignVerifyPEM(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, privPEM, pubPEM := rsaPEMFiles(t, dir)
	claims := claimsAt(testNow)

	// The RSA key is bound to PS256 by --alg, whatever alg its JWK had.
	token := signToken(t, testNow, claims, "--key", privPEM, "--alg", "PS256", "--kid", "rsa")
	if got := segment(t, token, 0); got != `{"alg":"PS256","kid":"rsa","typ":"JWT"}` {
		t.Errorf("header %s", got)
	}
	r := runAt(t, testNow, token, "jwt", "verify", "--key", pubPEM, "--alg", "PS256", "--aud", "other", "--aud", "api")
	wantCode(t, r, exitOK, "verify PS256 with PEM")
	if r.stdout != claims+"\n" {
		t.Errorf("verify printed %q", r.stdout)
	}
	r = runAt(t, testNow, token, "jwt", "verify", "--key", pubPEM, "--alg", "RS256")
	wantStderr(t, r, exitRejected, "verify PS256 token with an RS256 key", "algorithm does not match")
	for _, args := range [][]string{{"jwt", "sign", "--key", privPEM}, {"jwt", "verify", "--key", pubPEM}} {
		r = runAt(t, testNow, claims, args...)
		wantStderr(t, r, exitRejected, "RSA PEM without --alg", "give --alg")
	}

	// An EC key names its algorithm by its curve: no --alg needed, in
	// PKCS #8 and SEC 1 alike.
	ec := privateKey(t, signet.ES384)
	for name, data := range map[string][]byte{"ec8.pem": pkcs8(ec), "ec1.pem": sec1(ec)} {
		path := writeFile(t, dir, name, data)
		token := signToken(t, testNow, claims, "--key", path)
		der, err := x509.MarshalPKIXPublicKey(&ec.Material().(*ecdsa.PrivateKey).PublicKey)
		if err != nil {
			t.Fatal(err)
		}
		pub := writeFile(t, dir, name+".pub", pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
		r := runAt(t, testNow, token, "jwt", "verify", "--key", pub, "--aud", "api")
		wantCode(t, r, exitOK, "verify with EC PEM "+name)
	}
}

// TestSignVerifyRawSecret: with --secret-encoding raw the secret is the
// file's bytes exactly, a final newline included; base64 and hex files
// give the secret they encode, white space ignored.
func TestSignVerifyRawSecret(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const secret = "correct-horse-battery-staple-0123456789-abcdefgh" // 48 bytes
	withNL := writeFile(t, dir, "secret.txt", []byte(secret+"\n"))
	withCRLF := writeFile(t, dir, "secret-crlf.txt", []byte(secret+"\r\n"))
	bare := writeFile(t, dir, "secret.bin", []byte(secret))
	claims := claimsAt(testNow)
	raw := []string{"--secret-encoding", "raw"}

	for _, alg := range []string{"HS256", "HS384"} {
		token := signToken(t, testNow, claims, append([]string{"--key", withNL, "--alg", alg}, raw...)...)
		if got := segment(t, token, 0); got != `{"alg":"`+alg+`","typ":"JWT"}` {
			t.Errorf("header %s", got)
		}
		r := runAt(t, testNow, token, append([]string{"jwt", "verify", "--key", withNL, "--alg", alg, "--aud", "api"}, raw...)...)
		wantCode(t, r, exitOK, "verify "+alg+" with the same file")
		if r.stdout != claims+"\n" {
			t.Errorf("verify printed %q", r.stdout)
		}
		// The newline is part of the secret: the files without it, or
		// with CRLF, hold other secrets.
		for _, path := range []string{withCRLF, bare} {
			r := runAt(t, testNow, token, append([]string{"jwt", "verify", "--key", path, "--alg", alg}, raw...)...)
			wantCode(t, r, exitRejected, "verify "+alg+" with "+filepath.Base(path))
		}
		// A library key with the file's bytes agrees.
		k, err := signet.NewKey(signet.Algorithm(alg), []byte(secret+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := jwt.Verify[jwt.Claims](k, token, jwt.Policy{Now: func() time.Time { return testNow }, Audience: []string{"api"}}); err != nil {
			t.Errorf("jwt.Verify: %v", err)
		}
	}

	short := writeFile(t, dir, "short.txt", []byte("hunter2-hunter2\n"))
	notB64 := writeFile(t, dir, "not64.txt", []byte("hunter2*hunter2*hunter2*hunter2*hunter2*hunter2\n"))
	tests := []struct {
		name string
		args []string
		want string
		code int
	}{
		{"no alg", []string{"jwt", "sign", "--key", withNL, "--secret-encoding", "raw"}, "--secret-encoding needs --alg", exitUsage},
		{"asymmetric alg", []string{"jwt", "sign", "--key", withNL, "--alg", "ES256", "--secret-encoding", "raw"}, "HS256, HS384 or HS512", exitUsage},
		{"unknown encoding", []string{"jwt", "sign", "--key", withNL, "--alg", "HS256", "--secret-encoding", "utf8"}, "raw, base64 or hex", exitUsage},
		{"with --jwks", []string{"jwt", "verify", "--jwks", withNL, "--secret-encoding", "raw"}, "applies to --key", exitUsage},
		{"no --secret-encoding", []string{"jwt", "sign", "--key", withNL, "--alg", "HS256"}, "needs --secret-encoding", exitRejected},
		{"no --secret-encoding nor alg", []string{"jwt", "sign", "--key", withNL}, "HS256, HS384, HS512", exitRejected},
		{"too short for HS512", []string{"jwt", "sign", "--key", withNL, "--alg", "HS512", "--secret-encoding", "raw"}, "weak", exitRejected},
		{"short secret", []string{"jwt", "verify", "--key", short, "--alg", "HS256", "--secret-encoding", "raw"}, "weak", exitRejected},
		{"not base64", []string{"jwt", "verify", "--key", notB64, "--alg", "HS256", "--secret-encoding", "base64"}, "not base64", exitRejected},
		{"not hex", []string{"jwt", "verify", "--key", withNL, "--alg", "HS256", "--secret-encoding", "hex"}, "not hex", exitRejected},
	}
	for _, tt := range tests {
		r := runAt(t, testNow, claims, tt.args...)
		wantCode(t, r, tt.code, tt.name)
		if !strings.Contains(r.stderr, tt.want) {
			t.Errorf("%s: stderr %q lacks %q", tt.name, r.stderr, tt.want)
		}
		if strings.Contains(r.stderr, "horse") || strings.Contains(r.stderr, "hunter2") {
			t.Errorf("%s: the secret is in the error: %q", tt.name, r.stderr)
		}
	}
}

func TestVerifyJWKS(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, aPath := newKeyFile(t, dir, signet.ES256, "a")
	b, bPath := newKeyFile(t, dir, signet.EdDSA, "b")
	c, cPath := newKeyFile(t, dir, signet.ES256, "c")
	_, dPath := newKeyFile(t, dir, signet.ES256, "d") // not in the set
	set, err := jwk.MarshalSet(a, b, c)
	if err != nil {
		t.Fatal(err)
	}
	jwks := writeFile(t, dir, "jwks.json", set)
	claims := claimsAt(testNow)

	tests := []struct {
		name string
		sign []string
		code int
		want string // in stderr when rejected
	}{
		{"kid a", []string{"--key", aPath}, exitOK, ""},
		{"kid b", []string{"--key", bPath}, exitOK, ""},
		{"kid c", []string{"--key", cPath}, exitOK, ""},
		{"no kid, two ES256 keys with IDs: ambiguous", []string{"--key", cPath, "--kid", ""}, exitRejected, "ambiguous"},
		{"no kid, the set's only EdDSA key", []string{"--key", bPath, "--kid", ""}, exitOK, ""},
		{"kid not in the set", []string{"--key", dPath}, exitRejected, "key not found"},
		{"kid names another key", []string{"--key", aPath, "--kid", "c"}, exitRejected, "signature invalid"},
		{"kid names a key of another algorithm", []string{"--key", aPath, "--kid", "b"}, exitRejected, "algorithm does not match"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			token := signToken(t, testNow, claims, tt.sign...)
			r := runAt(t, testNow, token, "jwt", "verify", "--jwks", jwks, "--aud", "api")
			wantCode(t, r, tt.code, tt.name)
			if tt.code == exitOK && r.stdout != claims+"\n" {
				t.Errorf("verify printed %q", r.stdout)
			}
			if !strings.Contains(r.stderr, tt.want) {
				t.Errorf("stderr %q lacks %q", r.stderr, tt.want)
			}
		})
	}

	token := signToken(t, testNow, claims, "--key", aPath)
	empty := writeFile(t, dir, "empty.json", []byte(`{"keys":[]}`))
	for name, path := range map[string]string{
		"missing file":     filepath.Join(dir, "nope.json"),
		"empty set":        empty,
		"a key, not a set": aPath,
	} {
		r := runAt(t, testNow, token, "jwt", "verify", "--jwks", path)
		wantCode(t, r, exitRejected, name)
	}
}

func TestVerifyRejects(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	signPath, verifyPath := keyFiles(t, dir, signet.ES256)
	_, otherPath := keyFiles(t, dir, signet.ES384)
	_, wrongPath := newKeyFile(t, dir, signet.ES256, "wrong")
	noKid, err := signet.GenerateKey(signet.ES256)
	if err != nil {
		t.Fatal(err)
	}
	noKidJWK, _ := jwk.MarshalPublic(noKid)
	noKidPath := writeFile(t, dir, "nokid.jwk", noKidJWK)

	claims := claimsAt(testNow)
	token := signToken(t, testNow, claims, "--key", signPath)
	noExp := signToken(t, testNow, `{"sub":"alice"}`, "--key", signPath)
	notYet := signToken(t, testNow, fmt.Sprintf(`{"nbf":%d,"exp":%d}`, testNow.Add(time.Minute).Unix(), testNow.Add(time.Hour).Unix()), "--key", signPath)
	parts := strings.Split(token, ".")
	tamperedPayload := parts[0] + "." + b64.EncodeToString([]byte(strings.Replace(claims, "alice", "admin", 1))) + "." + parts[2]
	sig, _ := b64.DecodeString(parts[2])
	sig[0] ^= 1
	tamperedSig := parts[0] + "." + parts[1] + "." + b64.EncodeToString(sig)
	noneHeader := b64.EncodeToString([]byte(`{"alg":"none"}`)) + "." + parts[1] + "." + parts[2]
	pastExp := testNow.Add(time.Hour + time.Minute) // a minute after exp

	tests := append(policyRejectCases(token, notYet, noExp), []rejectCase{
		{"tampered payload", testNow, tamperedPayload, nil, "signature invalid"},
		{"tampered signature", testNow, tamperedSig, nil, "signature invalid"},
		{"wrong key", testNow, token, []string{"--key", noKidPath}, "signature invalid"},
		{"wrong key, other kid", testNow, token, []string{"--key", wrongPath}, "key not found"},
		{"key of another algorithm", testNow, token, []string{"--key", otherPath}, "algorithm does not match"},
		{"alg none", testNow, noneHeader, nil, "never accepted"},
		{"garbage", testNow, "not a token", nil, "malformed"},
		{"empty stdin", testNow, " \n", nil, "no token"},
		{"two segments", testNow, parts[0] + "." + parts[1], nil, "malformed"},
		{"four segments", testNow, token + ".x", nil, "malformed"},
		{"padded", testNow, token + "=", nil, "malformed"},
		{"line break inside", testNow, parts[0][:8] + "\n" + parts[0][8:] + "." + parts[1] + "." + parts[2], nil, "malformed"},
		{"too large", testNow, strings.Repeat("a", maxInput+1), nil, "too large"},
		{"missing key file", testNow, token, []string{"--key", filepath.Join(dir, "nope.jwk")}, "no such file"},
		{"key file is a directory", testNow, token, []string{"--key", dir}, "key file"},
	}...)
	runRejectCases(t, []string{"jwt", "verify"}, parts[2], tests, defaultFlag{"--key", []string{"--key", verifyPath}})

	// What the rejections above turn on, accepted.
	accepted := []struct {
		name  string
		now   time.Time
		token string
		flags []string
	}{
		{"within leeway", pastExp, token, []string{"--leeway", "2m"}},
		{"no exp with --no-exp", testNow, noExp, []string{"--no-exp"}},
		{"expired with --no-exp is still expired", testNow.Add(2 * time.Hour), token, []string{"--no-exp"}},
		{"nbf within leeway", testNow, notYet, []string{"--leeway", "1m"}},
		{"right audience and issuer", testNow, token, []string{"--aud", "api", "--iss", "https://issuer.example"}},
	}
	for _, tt := range accepted {
		r := runAt(t, tt.now, tt.token, append([]string{"jwt", "verify", "--key", verifyPath, "--any-aud"}, tt.flags...)...)
		if slices.Contains(tt.flags, "--aud") {
			r = runAt(t, tt.now, tt.token, append([]string{"jwt", "verify", "--key", verifyPath}, tt.flags...)...)
		}
		want := exitOK
		if strings.HasPrefix(tt.name, "expired") {
			want = exitRejected
		}
		wantCode(t, r, want, tt.name)
	}
}

// policyRejectCases are tokens issued at testNow with claimsAt (token),
// with nbf a minute later (notYet) and without exp (noExp) that the
// readers' policy refuses, with --aud (or --any-aud, by default), --iss and
// --leeway as given.
func policyRejectCases(token, notYet, noExp string) []rejectCase {
	pastExp := testNow.Add(time.Hour + time.Minute) // a minute after exp
	return []rejectCase{
		{"expired", testNow.Add(2 * time.Hour), token, nil, "expired"},
		{"expired beyond leeway", pastExp, token, []string{"--leeway", "30s"}, "expired"},
		{"not yet valid", testNow, notYet, nil, "not yet valid"},
		{"wrong audience", testNow, token, []string{"--aud", "admin"}, "audience"},
		{"wrong issuer", testNow, token, []string{"--iss", "https://evil.example"}, "issuer"},
		{"no exp", testNow, noExp, nil, "required claim missing: exp"},
	}
}

// rsaPEMFiles writes a new RSA key (RS256) to dir as PKCS #8 PEM and its
// public half (from pub) as SPKI PEM.
func rsaPEMFiles(t *testing.T, dir string) (rsaKey *signet.Key, privPEM, pubPEM string) {
	t.Helper()
	rsaKey = privateKey(t, signet.RS256)
	privPEM = writeFile(t, dir, "rsa.pem", pkcs8(rsaKey))
	r := runCLI(t, string(pkcs8(rsaKey)), "pub")
	wantCode(t, r, exitOK, "pub")
	return rsaKey, privPEM, writeFile(t, dir, "rsa.pub.pem", []byte(r.stdout))
}

// badClaimsCases are claims jwt sign and jwe encrypt refuse before
// reading the key (checkClaims, readClaims); dir holds no file "nope".
func badClaimsCases(dir string) []rejectCase {
	return []rejectCase{
		{"array", testNow, `[1,2]`, nil, "JSON object"},
		{"string", testNow, `"sub"`, nil, "JSON object"},
		{"empty", testNow, "", nil, "JSON object"},
		{"invalid JSON", testNow, `{"sub":}`, nil, "invalid JSON"},
		{"trailing data", testNow, `{"sub":"a"} {}`, nil, "invalid JSON"},
		{"duplicate member", testNow, `{"sub":"a","sub":"b"}`, nil, "duplicate"},
		{"nested duplicate", testNow, `{"x":{"a":1,"a":2}}`, nil, "duplicate"},
		{"exp a string", testNow, `{"exp":"tomorrow"}`, nil, "claim exp"},
		{"nbf too large", testNow, `{"nbf":1e300}`, nil, "claim nbf"},
		{"aud a number", testNow, `{"aud":5}`, nil, "claim aud"},
		{"aud with a number", testNow, `{"aud":["a",5]}`, nil, "claim aud"},
		{"iss an object", testNow, `{"iss":{}}`, nil, "claim iss"},
		{"invalid UTF-8", testNow, "{\"sub\":\"\xff\"}", nil, "invalid JSON"},
		{"too large", testNow, `{"x":"` + strings.Repeat("a", maxInput) + `"}`, nil, "too large"},
		{"missing claims file", testNow, "", []string{"--claims", filepath.Join(dir, "nope")}, "claims file"},
	}
}

func TestSignRejects(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	signPath, verifyPath := keyFiles(t, dir, signet.EdDSA)
	noAlg := writeFile(t, dir, "noalg.jwk", []byte(strings.Replace(string(privateJWK(t, signet.EdDSA)), `"alg":"EdDSA",`, "", 1)))
	tests := append(badClaimsCases(dir),
		rejectCase{"public key", testNow, `{"sub":"a"}`, []string{"--key", verifyPath}, "signing needs the private key"},
		rejectCase{"JWK without alg", testNow, `{"sub":"a"}`, []string{"--key", noAlg}, "give --alg"},
		rejectCase{"JWK alg mismatch", testNow, `{"sub":"a"}`, []string{"--key", signPath, "--alg", "ES256"}, "algorithm does not match"},
		rejectCase{"missing key file", testNow, `{"sub":"a"}`, []string{"--key", filepath.Join(dir, "nope")}, "no such file"},
	)
	runRejectCases(t, []string{"jwt", "sign"}, "", tests, defaultFlag{"--key", []string{"--key", signPath}})
	// A JWK without alg signs with --alg.
	signToken(t, testNow, claimsAt(testNow), "--key", noAlg, "--alg", "EdDSA")
}

func TestInspect(t *testing.T) {
	t.Parallel()
	signPath, _ := keyFiles(t, t.TempDir(), signet.ES256)
	claims := claimsAt(testNow)
	token := signToken(t, testNow, claims, "--key", signPath)

	r := runCLI(t, token+"\n", "jwt", "inspect")
	wantStderr(t, r, exitOK, "inspect", "warning: not verified")
	wantOut := `{
  "header": {
    "alg": "ES256",
    "kid": "k-ES256",
    "typ": "JWT"
  },
  "claims": {
    "sub": "alice",
    "iss": "https://issuer.example",
    "aud": [
      "api",
      "web"
    ],
    "n": 1.50,
    "big": 12345678901234567890,
    "html": "<&>",
    "exp": ` + strconv.FormatInt(testNow.Add(time.Hour).Unix(), 10) + `
  },
  "verified": false
}
`
	if r.stdout != wantOut {
		t.Errorf("inspect printed\n%s\nwant\n%s", r.stdout, wantOut)
	}
	var got struct {
		Header   map[string]any `json:"header"`
		Claims   map[string]any `json:"claims"`
		Verified *bool          `json:"verified"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || got.Verified == nil || *got.Verified {
		t.Errorf("inspect output: %v, verified %v", err, got.Verified)
	}

	// Nothing is checked: an expired token, or one signed by anyone, is
	// shown all the same.
	parts := strings.Split(token, ".")
	sig, _ := b64.DecodeString(parts[2])
	sig[0] ^= 1
	forged := parts[0] + "." + parts[1] + "." + b64.EncodeToString(sig)
	wantCode(t, runCLI(t, forged, "jwt", "inspect"), exitOK, "inspect a forged token")

	enc := func(s string) string { return b64.EncodeToString([]byte(s)) }
	bad := map[string]string{
		"empty":                 "",
		"garbage":               "not a token",
		"two segments":          parts[0] + "." + parts[1],
		"four segments":         token + ".x",
		"padded header":         parts[0] + "=." + parts[1] + "." + parts[2],
		"standard base64":       parts[0] + "." + base64.RawStdEncoding.EncodeToString([]byte(`{"a":"??>"}`)) + "." + parts[2],
		"header not JSON":       enc("alg") + "." + parts[1] + "." + parts[2],
		"claims not an object":  parts[0] + "." + enc(`[1]`) + "." + parts[2],
		"duplicate header name": enc(`{"alg":"ES256","alg":"none"}`) + "." + parts[1] + "." + parts[2],
		"duplicate claim":       parts[0] + "." + enc(`{"sub":"a","sub":"b"}`) + "." + parts[2],
		"empty signature":       parts[0] + "." + parts[1] + ".",
		"bad signature base64":  parts[0] + "." + parts[1] + ".a",
	}
	for name, tok := range bad {
		r := runCLI(t, tok, "jwt", "inspect")
		wantCode(t, r, exitRejected, "inspect "+name)
		if strings.Contains(r.stderr, "warning") {
			t.Errorf("inspect %s: stderr %q", name, r.stderr)
		}
	}
}

// TestVerifyEd25519Header: a JWT whose header says "Ed25519" (RFC 9864's
// name for EdDSA, as jose 6 and openid-client 6 write it) verifies with an
// EdDSA key file and a JWKS, and is refused by a key of another algorithm.
func TestVerifyEd25519Header(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ed, edPath := newKeyFile(t, dir, signet.EdDSA, "ed")
	es, esPath := newKeyFile(t, dir, signet.ES256, "es")
	set, err := jwk.MarshalSet(ed, es)
	if err != nil {
		t.Fatal(err)
	}
	jwks := writeFile(t, dir, "jwks.json", set)
	claims := claimsAt(testNow)
	in := b64.EncodeToString([]byte(`{"alg":"Ed25519","kid":"ed","typ":"JWT"}`)) + "." + b64.EncodeToString([]byte(claims))
	sig, err := ed.Sign(nil, []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	token := in + "." + b64.EncodeToString(sig)
	for _, args := range [][]string{{"--key", edPath}, {"--jwks", jwks}} {
		r := runAt(t, testNow, token, append([]string{"jwt", "verify", "--aud", "api"}, args...)...)
		wantCode(t, r, exitOK, strings.Join(args, " "))
		if r.stdout != claims+"\n" {
			t.Errorf("%q: verify printed %q", args, r.stdout)
		}
	}
	r := runAt(t, testNow, token, "jwt", "verify", "--aud", "api", "--key", esPath)
	wantStderr(t, r, exitRejected, "ES256 key", "algorithm does not match")
}

// TestInspectEscapesTerminalControls: jwt inspect (and jwe inspect) print
// what an untrusted token says to a terminal. JSON already escapes the C0
// controls, but a JSON string may hold raw C1 controls (U+009B is CSI to
// a terminal: ESC [), DEL, line and paragraph separators and bidi
// overrides (which reorder what is shown); inspect escapes them as \uXXXX,
// so that the output is the same JSON and no control reaches the terminal.
func TestInspectEscapesTerminalControls(t *testing.T) {
	t.Parallel()
	enc := func(s string) string { return b64.EncodeToString([]byte(s)) }
	hostile := "a\u009b31mred\u0085\u007f\u2028\u2029\u202eevil\u2066\u200f\U000e0041z"
	header := `{"alg":"ES256","kid":"` + hostile + `"}`
	claims := `{"sub":"` + hostile + `","` + hostile + `":1}`
	tokens := map[string]string{
		"jwt inspect": enc(header) + "." + enc(claims) + ".AAAA",
		"jwe inspect": enc(header) + "..AAAA.AAAA.AAAA",
	}
	for name, tok := range tokens {
		r := runCLI(t, tok, strings.Fields(name)...)
		wantCode(t, r, exitOK, name)
		for _, c := range r.stdout {
			if c == 0x7f || (c >= 0x80 && c <= 0x9f) || c == 0x2028 || c == 0x2029 || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c == 0x200f || c == 0xe0041 {
				t.Errorf("%s printed the control %U raw: %q", name, c, r.stdout)
			}
		}
		var got struct {
			Header map[string]any `json:"header"`
			Claims map[string]any `json:"claims"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
			t.Fatalf("%s output is not JSON: %v", name, err)
		}
		if got.Header["kid"] != hostile {
			t.Errorf("%s: kid %q, want %q", name, got.Header["kid"], hostile)
		}
		if name == "jwt inspect" && (got.Claims["sub"] != hostile || got.Claims[hostile] != 1.0) {
			t.Errorf("%s: claims %q", name, got.Claims)
		}
	}
}

// TestEscapeTerminalControls: the escaping inspect applies, character by
// character; printable text, ASCII or not, is kept as it is.
func TestEscapeTerminalControls(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`{"a":"plain é 漢 😀 <&>"}`:   `{"a":"plain é 漢 😀 <&>"}`,
		"{\"a\":\"\u009b31m\"}":     `{"a":"\u009b31m"}`,
		"{\"a\":\"\x7f\"}":          `{"a":"\u007f"}`,
		"{\"a\":\"\u202e\u2066\"}":  `{"a":"\u202e\u2066"}`,
		"{\"a\":\"\u2028\u2029\"}":  `{"a":"\u2028\u2029"}`,
		"{\"a\":\"\U000e0041\"}":    `{"a":"\udb40\udc41"}`,
		"{\"a\":\"x\x9by\"}":        `{"a":"x\ufffdy"}`,
		"{\n  \"a\": \"\u0085\"\n}": "{\n  \"a\": \"\\u0085\"\n}",
	} {
		if got := string(escapeTerminalControls([]byte(in))); got != want {
			t.Errorf("escapeTerminalControls(%q) = %q, want %q", in, got, want)
		}
	}
}
