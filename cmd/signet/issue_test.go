package main

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
)

// policyPhrases are how the verifiers' policy verdicts read on stderr:
// a token the CLI issued may be refused for its times (it was issued
// expired, or for later), never for its form.
var policyPhrases = []string{"token expired", "not yet valid", "issued in the future"}

// checkIssuedReadable fails unless a token issued (code 0) is read by the
// CLI's verifier at the same clock, or refused only for its times.
func checkIssuedReadable(t *testing.T, now time.Time, what string, issued result, verifyArgs ...string) {
	t.Helper()
	if issued.code != exitOK {
		return
	}
	token := strings.TrimSpace(issued.stdout)
	r := runAt(t, now, token, verifyArgs...)
	if r.code == exitOK {
		return
	}
	for _, p := range policyPhrases {
		if strings.Contains(r.stderr, p) {
			return
		}
	}
	t.Errorf("%s: issued %q, which the verifier refuses: %s", what, token, r.stderr)
}

// TestIssuedIsReadable: what the CLI issues its verifiers read (issue 14):
// claims times are held to the reader's rules at issue (RFC 3339 as
// PASETO has it, no year above 9999, NumericDate within 2^53), and so are
// footers. A case with want "" is issued, and then verified; otherwise it
// is refused with want on stderr, and nothing on stdout.
func TestIssuedIsReadable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	local, _ := pasetoKeys(t, dir, signet.V4Local)
	secret, public := pasetoKeys(t, dir, signet.V4Public)
	pexp := func(v string) string { return `{"sub":"a","exp":"` + v + `"}` }
	y9999 := time.Date(9999, 12, 31, 23, 30, 0, 0, time.UTC)
	tests := []struct {
		name   string
		now    time.Time
		claims string
		flags  []string
		want   string
	}{
		{"plain", testNow, pexp("2030-01-01T00:00:00Z"), nil, ""},
		{"offset", testNow, pexp("2030-01-01T00:00:00+05:30"), nil, ""},
		{"fraction", testNow, pexp("2030-01-01T00:00:00.123456789Z"), nil, ""},
		{"leap second", testNow, pexp("2030-06-30T23:59:60Z"), nil, ""},
		{"comma fraction", testNow, pexp("2030-01-01T00:00:00,5Z"), nil, "claim exp"},
		{"lower-case t", testNow, pexp("2030-01-01t00:00:00Z"), nil, "claim exp"},
		{"space for T", testNow, pexp("2030-01-01 00:00:00Z"), nil, "claim exp"},
		{"offset +24:00", testNow, pexp("2030-01-01T00:00:00+24:00"), nil, "claim exp"},
		{"no seconds", testNow, pexp("2030-01-01T00:00Z"), nil, "claim exp"},
		{"year 10000", testNow, pexp("10000-01-01T00:00:00Z"), nil, "claim exp"},
		{"year +10000", testNow, pexp("+10000-01-01T00:00:00Z"), nil, "claim exp"},
		{"bad nbf", testNow, `{"nbf":"2020-01-01T00:00:00,0Z","exp":"2030-01-01T00:00:00Z"}`, nil, "claim nbf"},
		{"bad iat", testNow, `{"iat":"yesterday","exp":"2030-01-01T00:00:00Z"}`, nil, "claim iat"},
		{"--exp past year 9999", y9999, `{"sub":"a"}`, []string{"--exp", "1h"}, "claim exp"},
		{"--exp to year 9999", y9999, `{"sub":"a"}`, []string{"--exp", "20m"}, ""},
		{"expired", testNow, pexp("2020-01-01T00:00:00Z"), nil, ""},
		{"opaque footer", testNow, pexp("2030-01-01T00:00:00Z"), []string{"--footer", "k4.lid.AAAA"}, ""},
		{"JSON footer", testNow, pexp("2030-01-01T00:00:00Z"), []string{"--footer", `{"kid":"k4.lid.AAAA"}`}, ""},
		{"footer kid a number", testNow, pexp("2030-01-01T00:00:00Z"), []string{"--footer", `{"kid":1}`}, "footer kid"},
		{"footer too deep", testNow, pexp("2030-01-01T00:00:00Z"), []string{"--footer", `{"a":{"b":{"c":1}}}`}, "footer"},
		{"footer KID", testNow, pexp("2030-01-01T00:00:00Z"), []string{"--footer", `{"KID":"x"}`}, "footer"},
		{"footer not JSON", testNow, pexp("2030-01-01T00:00:00Z"), []string{"--footer", `{kid}`}, "footer"},
		{"footer repeated kid", testNow, pexp("2030-01-01T00:00:00Z"), []string{"--footer", `{"kid":"a","kid":"a"}`}, "footer"},
	}
	for _, tt := range tests {
		for _, k := range []struct{ issue, key, read, readKey string }{
			{"encrypt", local, "decrypt", local},
			{"sign", secret, "verify", public},
		} {
			name := tt.name + " (" + k.issue + ")"
			r := runAt(t, tt.now, tt.claims, append([]string{"paseto", k.issue, "--key", k.key}, tt.flags...)...)
			if tt.want != "" {
				wantStderr(t, r, exitRejected, name, tt.want)
				continue
			}
			wantCode(t, r, exitOK, name)
			args := []string{"paseto", k.read, "--key", k.readKey, "--no-exp"}
			checkIssuedReadable(t, tt.now, name, r, args...)
		}
	}

	signPath, verifyPath := keyFiles(t, dir, signet.ES256)
	jtests := []issueCase{
		{"plain", `{"sub":"a","exp":1900000000}`, "", nil},
		{"exp with a fraction", `{"exp":1900000000.75}`, "", nil},
		{"exp with an exponent", `{"exp":1.9e9}`, "", nil},
		{"exp 2^53", `{"exp":9007199254740992}`, "", nil},
		{"exp over 2^53", `{"exp":9007199254740993}`, "claim exp", nil},
		{"exp a string", `{"exp":"2030-01-01T00:00:00Z"}`, "claim exp", nil},
		{"nbf later", `{"nbf":1900000000,"exp":1900000001}`, "", nil},
		{"--exp", `{"sub":"a"}`, "", []string{"--exp", "1h"}},
	}
	runIssueCases(t, []string{"jwt", "sign", "--key", signPath}, []string{"jwt", "verify", "--key", verifyPath, "--no-exp"}, jtests)
}

// issueCase is claims issued at testNow (with flags): refused with want
// in stderr, or, when want is "", issued and read back.
type issueCase struct {
	name, claims, want string
	flags              []string
}

// runIssueCases runs issue (and each case's flags) on each case's claims
// at testNow; what it issues must be read by read (checkIssuedReadable).
func runIssueCases(t *testing.T, issue, read []string, tests []issueCase) {
	t.Helper()
	for _, tt := range tests {
		r := runAt(t, testNow, tt.claims, append(slices.Clone(issue), tt.flags...)...)
		if tt.want != "" {
			wantStderr(t, r, exitRejected, tt.name, tt.want)
			continue
		}
		wantCode(t, r, exitOK, tt.name)
		checkIssuedReadable(t, testNow, strings.Join(issue[:2], " ")+": "+tt.name, r, read...)
	}
}

// FuzzIssuedIsReadable: whatever claims (and footer) the CLI issues, as a
// JWT or a PASETO token, with or without --exp, its own verifier reads at
// the same clock, or refuses only for the token's times.
func FuzzIssuedIsReadable(f *testing.F) {
	for _, s := range []string{
		`{"sub":"a","exp":"2030-01-01T00:00:00Z"}`, `{"exp":"2030-01-01T00:00:00,5Z"}`, `{"exp":1900000000}`,
		`{"exp":1.9e9,"nbf":1,"iat":"x"}`, `{"aud":["a","b"],"iss":"i"}`, `{"x":{"y":[1,2,{"z":null}]}}`,
		`{"exp":"9999-12-31T23:59:60Z"}`, `{"Exp":"a","exp":"2030-01-01T00:00:00-00:00"}`,
	} {
		f.Add(s, `{"kid":"k"}`, false)
		f.Add(s, "", true)
	}
	dir := f.TempDir()
	hsKey, err := signet.GenerateKey(signet.HS256)
	if err != nil {
		f.Fatal(err)
	}
	hs := writeFile(f, dir, "hs.secret", hsKey.Secret())
	var out, errb strings.Builder
	if code := run([]string{"keygen", "v4.local"}, strings.NewReader(""), &out, &errb); code != exitOK {
		f.Fatalf("keygen: %s", errb.String())
	}
	local := writeFile(f, dir, "v4.key", []byte(out.String()))
	f.Fuzz(func(t *testing.T, claims, footer string, setExp bool) {
		var extra []string
		if setExp {
			extra = []string{"--exp", "1h"}
		}
		hsArgs := []string{"--key", hs, "--alg", "HS256", "--secret-encoding", "raw"}
		r := runAt(t, testNow, claims, append(append([]string{"jwt", "sign"}, hsArgs...), extra...)...)
		checkIssuedReadable(t, testNow, "jwt", r, append([]string{"jwt", "verify", "--no-exp", "--any-aud"}, hsArgs...)...)

		pargs := []string{"paseto", "encrypt", "--key", local, "--footer", footer}
		if !setExp {
			extra = []string{"--no-exp"}
		}
		r = runAt(t, testNow, claims, append(pargs, extra...)...)
		checkIssuedReadable(t, testNow, "paseto", r, "paseto", "decrypt", "--key", local, "--no-exp", "--any-aud")
	})
}
