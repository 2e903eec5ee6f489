package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
)

// testNow is the fixed clock of the tests that depend on time.
var testNow = time.Unix(1_700_000_000, 0)

// result is the outcome of one run of the CLI.
type result struct {
	code           int
	stdout, stderr string
}

// runCLI runs the CLI through run, as main does, with the real clock.
func runCLI(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb)
	r := result{code, out.String(), errb.String()}
	checkInvariants(t, args, r)
	return r
}

// runAt runs the CLI with the clock stopped at now.
func runAt(t *testing.T, now time.Time, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	c := &cli{stdin: strings.NewReader(stdin), stderr: &errb, now: func() time.Time { return now }}
	code := c.main(args, &out)
	r := result{code, out.String(), errb.String()}
	checkInvariants(t, args, r)
	return r
}

// checkInvariants holds for every run (docs/design.md, "The command line"): exit 0, 1 or 2;
// nothing on stdout unless it succeeded; a rejection is one line on stderr
// starting "signet: "; every line of stderr is signet's.
func checkInvariants(t *testing.T, args []string, r result) {
	t.Helper()
	switch r.code {
	case exitOK:
	case exitRejected:
		if lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n"); len(lines) != 1 || !strings.HasPrefix(r.stderr, "signet: ") || !strings.HasSuffix(r.stderr, "\n") {
			t.Errorf("%q: exit 1 with stderr %q, want one line starting \"signet: \"", args, r.stderr)
		}
	case exitUsage:
		if !strings.HasPrefix(r.stderr, "signet: ") {
			t.Errorf("%q: exit 2 with stderr %q, want it to start \"signet: \"", args, r.stderr)
		}
	default:
		t.Errorf("%q: exit code %d", args, r.code)
	}
	if r.code != exitOK && r.stdout != "" {
		t.Errorf("%q: exit %d with output on stdout: %q", args, r.code, r.stdout)
	}
	if r.code == exitOK {
		for _, line := range strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n") {
			if line != "" && !strings.HasPrefix(line, "signet: warning: ") {
				t.Errorf("%q: exit 0 with stderr line %q", args, line)
			}
		}
	}
}

// wantCode fails the test unless r exited with code.
func wantCode(t *testing.T, r result, code int, what string) {
	t.Helper()
	if r.code != code {
		t.Fatalf("%s: exit %d, want %d; stderr: %s", what, r.code, code, r.stderr)
	}
}

// wantStderr fails the test unless r exited with code and want is in its
// stderr.
func wantStderr(t *testing.T, r result, code int, what, want string) {
	t.Helper()
	wantCode(t, r, code, what)
	if !strings.Contains(r.stderr, want) {
		t.Errorf("%s: stderr %q lacks %q", what, r.stderr, want)
	}
}

// argsCase is a command line the CLI refuses with want in stderr.
type argsCase struct {
	name string
	args []string
	want string // in stderr
}

// runArgsCases runs each case with stdin in a parallel subtest, at now
// (runAt), or as main does (runCLI) when now is zero: it must exit with
// code.
func runArgsCases(t *testing.T, now time.Time, code int, stdin string, tests []argsCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var r result
			if now.IsZero() {
				r = runCLI(t, stdin, tt.args...)
			} else {
				r = runAt(t, now, stdin, tt.args...)
			}
			wantStderr(t, r, code, tt.name, tt.want)
		})
	}
}

// rejectCase is a run of a command at now, with stdin and flags, that the
// CLI rejects (exit 1) with want in stderr.
type rejectCase struct {
	name  string
	now   time.Time
	stdin string
	flags []string
	want  string // in stderr
}

// defaultFlag is what runRejectCases adds to a case's flags (args)
// unless the case gives the flag unless itself.
type defaultFlag struct {
	unless string
	args   []string
}

// runRejectCases runs each case in a parallel subtest as cmd, then the
// defaults the case does not override, then its flags; secret, when not
// "", must not be quoted in stderr.
func runRejectCases(t *testing.T, cmd []string, secret string, tests []rejectCase, defaults ...defaultFlag) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			args := slices.Clone(cmd)
			for _, d := range defaults {
				if !hasFlag(tt.flags, d.unless) {
					args = append(args, d.args...)
				}
			}
			r := runAt(t, tt.now, tt.stdin, append(args, tt.flags...)...)
			wantStderr(t, r, exitRejected, tt.name, tt.want)
			if secret != "" && strings.Contains(r.stderr, secret) {
				t.Error("the error quotes the token")
			}
		})
	}
}

// hasFlag reports whether args hold the flag name.
func hasFlag(args []string, name string) bool {
	return slices.Contains(args, name)
}

// writeFile writes data to a new file in dir and returns its path.
func writeFile(t testing.TB, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// keygenRuns holds one "signet keygen ALG --kid k-ALG" per JWS and RFC 9421
// algorithm, made
// once (RSA generation is slow) and shared by the tests.
var keygenRuns = sync.OnceValue(func() map[signet.Algorithm]result {
	var (
		mu  sync.Mutex
		wg  sync.WaitGroup
		out = make(map[signet.Algorithm]result)
	)
	for _, alg := range append(signet.JWSAlgorithms(), signet.HTTPSigAlgorithms()...) {
		wg.Go(func() {
			var o, e bytes.Buffer
			code := run([]string{"keygen", string(alg), "--kid", "k-" + string(alg)}, strings.NewReader(""), &o, &e)
			mu.Lock()
			out[alg] = result{code, o.String(), e.String()}
			mu.Unlock()
		})
	}
	wg.Wait()
	return out
})

// privateJWK returns the keygen output for alg.
func privateJWK(t *testing.T, alg signet.Algorithm) []byte {
	t.Helper()
	r := keygenRuns()[alg]
	if r.code != exitOK {
		t.Fatalf("keygen %s: exit %d: %s", alg, r.code, r.stderr)
	}
	return []byte(r.stdout)
}

// privateKey returns the key of the keygen output for alg.
func privateKey(t *testing.T, alg signet.Algorithm) *signet.Key {
	t.Helper()
	k, err := jwk.ParseKey(privateJWK(t, alg))
	if err != nil {
		t.Fatalf("keygen %s output: %v", alg, err)
	}
	return k
}

// newKeyFile generates a key for alg with kid and writes its private JWK
// to dir; it returns the key and the file's path.
func newKeyFile(t *testing.T, dir string, alg signet.Algorithm, kid string) (*signet.Key, string) {
	t.Helper()
	k, err := signet.GenerateKeyWithID(alg, kid)
	if err != nil {
		t.Fatal(err)
	}
	b, err := jwk.Marshal(k)
	if err != nil {
		t.Fatal(err)
	}
	return k, writeFile(t, dir, kid+".jwk", b)
}

func TestHelp(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}, {"jwt", "help"}, {"jwe", "help"}, {"paseto", "help"}, {"httpsig", "help"}} {
		r := runCLI(t, "", args...)
		wantCode(t, r, exitOK, strings.Join(args, " "))
		for _, want := range []string{"signet keygen ALG", "signet pub", "signet jwt sign", "signet jwt verify", "signet jwt inspect", "signet jwe encrypt", "signet jwe decrypt", "signet paseto", "signet httpsig sign", "signet httpsig verify", "signet httpsig base", "EdDSA", "v4.local", "ed25519"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("%q: help lacks %q", args, want)
			}
		}
	}
	for _, args := range [][]string{
		{"keygen", "-h"}, {"pub", "-h"}, {"jwt", "sign", "-h"}, {"jwt", "verify", "--help"}, {"jwt", "inspect", "-h"},
		{"paseto", "sign", "-h"}, {"paseto", "decrypt", "--help"},
		{"httpsig", "sign", "-h"}, {"httpsig", "verify", "--help"}, {"httpsig", "base", "-h"},
	} {
		r := runCLI(t, "", args...)
		wantCode(t, r, exitOK, strings.Join(args, " "))
		if !strings.HasPrefix(r.stdout, "Usage:\n  signet "+strings.Join(args[:len(args)-1], " ")) {
			t.Errorf("%q: help is %q", args, r.stdout)
		}
	}
	if r := runCLI(t, "", "jwt", "verify", "-h"); !strings.Contains(r.stdout, "-leeway") || !strings.Contains(r.stdout, "-jwks") {
		t.Errorf("jwt verify -h does not list its flags: %q", r.stdout)
	}
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, key := newKeyFile(t, dir, signet.EdDSA, "ed")
	tests := []argsCase{
		{"no command", nil, "no command"},
		{"unknown command", []string{"frobnicate"}, `unknown command "frobnicate"`},
		{"jwt without subcommand", []string{"jwt"}, "no subcommand"},
		{"unknown jwt subcommand", []string{"jwt", "decode"}, `unknown subcommand "decode"`},
		{"sign without key", []string{"jwt", "sign"}, "--key is required"},
		{"verify without key", []string{"jwt", "verify"}, "exactly one of --key, --jwks and --jwks-url"},
		{"verify with key and jwks", []string{"jwt", "verify", "--key", key, "--jwks", key}, "exactly one of --key, --jwks and --jwks-url"},
		{"verify jwks with alg", []string{"jwt", "verify", "--jwks", key, "--alg", "ES256"}, "--alg applies to --key"},
		{"unknown alg flag", []string{"jwt", "sign", "--key", key, "--alg", "HS999"}, `unknown algorithm "HS999"`},
		{"none alg flag", []string{"jwt", "verify", "--key", key, "--alg", "none"}, `unknown algorithm "none"`},
		{"unknown keygen alg", []string{"keygen", "FOO"}, `unknown algorithm "FOO"`},
		{"keygen lowercase alg", []string{"keygen", "es256"}, `unknown algorithm "es256"`},
		{"keygen Ed25519 (RFC 9864's name for EdDSA)", []string{"keygen", "Ed25519"}, `"Ed25519" is RFC 9864's name for the JWS algorithm EdDSA: name it EdDSA`},
		{"jwt verify --alg Ed25519", []string{"jwt", "verify", "--key", key, "--alg", "Ed25519"}, `name it EdDSA (an EdDSA key verifies JWTs whose header says either), or ed25519`},
		{"keygen without alg", []string{"keygen"}, "exactly one algorithm"},
		{"keygen two algs", []string{"keygen", "ES256", "EdDSA"}, "exactly one algorithm"},
		{"keygen PASETO with kid", []string{"keygen", "v3.local", "--kid", "x"}, "PASERK has no key ID"},
		{"pub unknown alg", []string{"pub", "--alg", "RS1"}, "unknown algorithm"},
		{"pub argument", []string{"pub", "key.pem"}, "unexpected argument"},
		{"bad flag", []string{"jwt", "sign", "--bogus"}, "flag provided but not defined: -bogus"},
		{"flag without value", []string{"jwt", "sign", "--key"}, "flag needs an argument"},
		{"bad duration", []string{"jwt", "sign", "--key", key, "--exp", "soon"}, "invalid value"},
		{"negative exp", []string{"jwt", "sign", "--key", key, "--exp", "-1h"}, "positive duration"},
		{"zero exp", []string{"jwt", "sign", "--key", key, "--exp", "0s"}, "positive duration"},
		{"sign argument", []string{"jwt", "sign", "--key", key, "claims.json"}, "unexpected argument"},
		{"leeway too large", []string{"jwt", "verify", "--key", key, "--leeway", "1h"}, "--leeway"},
		{"negative leeway", []string{"jwt", "verify", "--key", key, "--leeway", "-1s"}, "--leeway"},
		{"inspect argument", []string{"jwt", "inspect", "token"}, "unexpected argument"},
		{"paseto without subcommand", []string{"paseto"}, "no subcommand"},
		{"unknown paseto subcommand", []string{"paseto", "seal"}, `unknown subcommand "seal"`},
		{"paseto sign without key", []string{"paseto", "sign"}, "--key is required"},
		{"httpsig without subcommand", []string{"httpsig"}, "no subcommand"},
		{"httpsig verify without key", []string{"httpsig", "verify"}, "exactly one of --key and --jwks"},
		{"jwt sign with an httpsig alg", []string{"jwt", "sign", "--key", key, "--alg", "ed25519"}, "use signet httpsig"},
		{"serve without clients or store", []string{"serve"}, "--clients is required"},
	}
	runArgsCases(t, time.Time{}, exitUsage, "", tests)
	// The usage text comes with the error where the command line was
	// unclear, on stderr.
	for _, args := range [][]string{{"frobnicate"}, {"jwt", "sign"}, {"jwt", "sign", "--bogus"}} {
		if r := runCLI(t, "", args...); !strings.Contains(r.stderr, "Usage:") {
			t.Errorf("%q: no usage on stderr: %q", args, r.stderr)
		}
	}
}

func TestOneLine(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"signet: token expired: exp 1, now 2", "signet: token expired: exp 1, now 2"},
		{"key file k.jwk: signet: malformed input: JWK", "signet: key file k.jwk: malformed input: JWK"},
		{"read: two\nlines\r", "signet: read: two lines "},
	}
	for _, tt := range tests {
		if got := oneLine(tt.in); got != tt.want {
			t.Errorf("oneLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// failingWriter refuses every write, as a closed pipe does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, os.ErrClosed }

func TestStdoutWriteError(t *testing.T) {
	t.Parallel()
	var errb bytes.Buffer
	if code := run([]string{"help"}, strings.NewReader(""), failingWriter{}, &errb); code != exitRejected {
		t.Errorf("exit %d writing to a closed stdout, want 1", code)
	}
	if !strings.HasPrefix(errb.String(), "signet: write output: ") {
		t.Errorf("stderr %q", errb.String())
	}
}

// TestEmptyCheckFlagRefused: a check flag given with an empty value
// ("--iss $ISSUER" with ISSUER unset) would otherwise mean no check at
// all: any issuer, subject, typ or tag accepted, no component required.
// As for --aud, it is a usage error, naming the flag; leaving the flag
// out is how to ask for no check.
func TestEmptyCheckFlagRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, key := newKeyFile(t, dir, signet.ES256, "es")
	v4 := writeFile(t, dir, "v4.key", []byte("k4.local.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n"))
	tests := []argsCase{
		{"jwt verify --iss", []string{"jwt", "verify", "--key", key, "--iss", ""}, "--iss is empty"},
		{"jwt verify --iss=", []string{"jwt", "verify", "--key", key, "--iss="}, "--iss is empty"},
		{"jwt verify --typ", []string{"jwt", "verify", "--key", key, "--typ", ""}, "--typ is empty"},
		{"jwe decrypt --iss", []string{"jwe", "decrypt", "--key", key, "--iss", ""}, "--iss is empty"},
		{"paseto decrypt --iss", []string{"paseto", "decrypt", "--key", v4, "--iss", ""}, "--iss is empty"},
		{"paseto verify --sub", []string{"paseto", "verify", "--key", v4, "--sub", ""}, "--sub is empty"},
		{"httpsig verify --tag", []string{"httpsig", "verify", "--key", key, "--tag", ""}, "--tag is empty"},
		{"httpsig verify --require", []string{"httpsig", "verify", "--key", key, "--require", " "}, "--require is empty"},
	}
	runArgsCases(t, testNow, exitUsage, "x", tests)

	// A context already done: a guard that started would stop at once.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stderr strings.Builder
	args := []string{"--upstream", "http://127.0.0.1:9", "--key", key, "--addr", "127.0.0.1:0", "--iss", ""}
	if code := guardMain(ctx, args, io.Discard, &stderr, guardHooks{}); code != exitUsage || !strings.Contains(stderr.String(), "--iss is empty") {
		t.Errorf("guard %q: exit %d, %q", args, code, stderr.String())
	}
}
