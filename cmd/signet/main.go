package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Exit codes (docs/design.md, "The command line").
const (
	exitOK       = 0 // success
	exitRejected = 1 // the input or a key was rejected; one line on stderr
	exitUsage    = 2 // the command line is wrong
)

// maxInput caps everything the CLI reads: stdin, claims files, key files
// and JWK Sets. The library applies its own, often smaller, limits on top.
const maxInput = 1 << 20

// run is the whole CLI: it executes the command in args (without the
// program name) and returns the exit code. Tests call it directly.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "serve" {
		// serve runs until a signal and writes as it goes, unbuffered.
		return runServe(args[1:], stdout, stderr, processSignals)
	}
	if len(args) > 0 && args[0] == "guard" {
		// guard, too, runs until a signal.
		return runGuard(args[1:], stdout, stderr, processSignals)
	}
	c := &cli{stdin: stdin, stderr: stderr, now: time.Now}
	return c.main(args, stdout)
}

// cli is one execution of the command line. now is the clock, injectable
// for tests; stdout collects the output, written out only on success.
type cli struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	now    func() time.Time
	// secretOut is set by a command whose output is secret (keygen): a
	// file stdout was redirected to is then made private before it is
	// written (protectSecretFile).
	secretOut bool
}

// main runs args and maps the outcome to an exit code. Output is buffered
// so that nothing reaches stdout unless the command succeeds.
func (c *cli) main(args []string, stdout io.Writer) int {
	var out bytes.Buffer
	c.stdout = &out
	if err := c.dispatch(args); err != nil && !errors.Is(err, errHelp) {
		return c.report(err)
	}
	if c.secretOut {
		c.protectSecretFile(stdout)
	}
	if _, err := stdout.Write(out.Bytes()); err != nil {
		return c.report(fmt.Errorf("write output: %w", err))
	}
	return exitOK
}

// report prints err on stderr and returns its exit code: a usage error
// gets its message and the relevant usage text; a rejection one line.
func (c *cli) report(err error) int {
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintln(c.stderr, oneLine(ue.msg))
		if ue.usage != "" {
			fmt.Fprint(c.stderr, ue.usage)
		}
		return exitUsage
	}
	fmt.Fprintln(c.stderr, oneLine(err.Error()))
	return exitRejected
}

// oneLine formats a message as the single stderr line of a failure,
// starting "signet: ", with the library's own "signet: " prefixes folded
// into it.
func oneLine(msg string) string {
	msg = strings.TrimPrefix(msg, "signet: ")
	msg = strings.ReplaceAll(msg, ": signet: ", ": ")
	msg = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, msg)
	return "signet: " + msg
}

// warn prints a warning on stderr; the command goes on.
func (c *cli) warn(format string, args ...any) {
	fmt.Fprintf(c.stderr, "signet: warning: "+format+"\n", args...)
}

// dispatch runs the command named by args[0].
func (c *cli) dispatch(args []string) error {
	if len(args) == 0 {
		return &usageError{msg: "no command given", usage: usageText}
	}
	switch cmd, rest := args[0], args[1:]; cmd {
	case "help", "-h", "-help", "--help":
		_, err := io.WriteString(c.stdout, usageText)
		return err
	case "keygen":
		return c.keygen(rest)
	case "pub":
		return c.pub(rest)
	case "jwt":
		return c.jwt(rest)
	case "jwe":
		return c.jweCmd(rest)
	case "paseto":
		return c.paseto(rest)
	case "httpsig":
		return c.httpsigCmd(rest)
	case "bench":
		return c.bench(rest)
	default:
		return &usageError{msg: fmt.Sprintf("unknown command %q", cmd), usage: usageText}
	}
}

// jwt runs the jwt subcommands.
func (c *cli) jwt(args []string) error {
	return c.runSubcommand("jwt", args,
		subcommand{"sign", c.jwtSign},
		subcommand{"verify", c.jwtVerify},
		subcommand{"inspect", c.jwtInspect})
}

// usageText is the help printed by "signet help" and with usage errors.
var usageText = strings.NewReplacer("JWEALGORITHMS", jweAlgorithmList(), "ALGORITHMS", algorithmList(), "ENCRYPTIONS", encryptionList()).Replace(usageTemplate)

const usageTemplate = `Usage:
  signet keygen ALG [--kid ID] [--enc ENC] [--crv P-256|P-384|X25519]
        print a new private key for ALG: a JWK, or a PASERK (k4.local,
        k4.secret, k3.local, k3.secret) for v4.* and v3.* (no --kid);
        for a JWE key-management ALG a JWK with "use":"enc", made for the
        content encryption --enc (default A256GCM; the JWK does not
        record it: give the same --enc to jwe encrypt and decrypt), on the
        curve --crv for ECDH-ES* (default P-256); for PBES2* a random
        password (32 characters, 192 bits) as the JWK's "k"
  signet pub [--alg ALG] < KEY
        print the public half of a private key, in the same encoding
        (JWK in, JWK out; PEM in, SPKI PEM out; k4.secret in, k4.public out)
  signet jwt sign --key F [--claims F] [--exp DURATION] [--kid ID] [--alg ALG] [--secret-encoding ENC]
        sign the claims JSON (from --claims F, or stdin) as a JWT
  signet jwt verify (--key F | --jwks F | --jwks-url URL) [--iss S] [--aud S]... [--any-aud] [--leeway D] [--no-exp] [--typ T] [--alg ALG]... [--secret-encoding ENC]
        verify the JWT on stdin and print its claims; --jwks-url fetches
        the issuer's JWK Set (https, or http to loopback) for keys of the
        --alg algorithms (default RS256 ES256 EdDSA)
  signet jwt inspect
        print the header and claims of the JWT on stdin, NOT verified
        (for a JWE, five segments: its protected header, NOT decrypted)
  signet jwe encrypt --key F [--claims F] [--exp DURATION] [--kid ID] [--alg ALG] [--enc ENC] [--secret-encoding ENC] [--p2c N] [--nested-sign-key G [--nested-sign-alg ALG]]
        encrypt the claims JSON (from --claims F, or stdin) as a JWE
        (RFC 7516, compact) for the recipient's key: a public key for
        ECDH-ES* and RSA-OAEP-256, the shared secret or password for dir,
        A*KW, A*GCMKW and PBES2*; with --nested-sign-key G, sign them
        as a JWT with G first and encrypt that (a nested JWT, cty JWT)
  signet jwe decrypt --key F [--verify-key G [--verify-alg ALG]] [--alg ALG] [--enc ENC] [--secret-encoding ENC] [--iss S] [--aud S]... [--any-aud] [--leeway D] [--no-exp] [--typ T]
        decrypt the JWE on stdin and print its claims, checked as jwt
        verify checks them; a nested JWT needs --verify-key G, the
        signer's key, and the JWT inside must verify with it
  signet jwe inspect
        print the protected header of the JWE on stdin, NOT decrypted
  signet paseto encrypt|sign --key F [--claims F] [--exp DURATION | --no-exp] [--footer S] [--implicit S]
        issue the claims JSON (from --claims F, or stdin) as a local
        (encrypted) or public (signed) PASETO token
  signet paseto decrypt|verify --key F [--footer S] [--implicit S] [--iss S] [--aud S]... [--any-aud] [--sub S] [--leeway D] [--no-exp]
        check the PASETO token on stdin and print its claims
        (sign and verify also take --alg v4.public|v3.public for a PEM key)
  signet httpsig sign --key F --label L --components '"@method" "@path" …' [--keyid K] [--created now|UNIX] [--expires UNIX] [--nonce N] [--tag T] [--digest sha-256|sha-512]
        sign the HTTP/1.1 message on stdin (RFC 9421) and print it with
        Signature-Input and Signature added
  signet httpsig verify (--key F | --jwks F) [--label L] [--tag T] [--require '"content-digest" …'] [--insecure-skip-default-coverage] [--max-age D] [--no-created] [--unsigned-body] [--now UNIX]
        verify a signature of the message on stdin; print it as JSON
  signet httpsig base [--label L]
        print the signature base of a signature of the message on stdin
        (the httpsig commands also take --alg ALG for a key file that does
        not name it, --secret-encoding ENC for a raw secret, --scheme
        https|http, and --request F for a response)
  signet bench [--http] [--quick|--full] [--out DIR] [--lab DIR]
        run the lab (benchmarks against the peer libraries, the attack
        corpus) from a signet checkout; write the report to DIR
        (default out/report): the same as make report; with --http the
        HTTP lab under wrk (HTTP.md): the same as make load
  signet serve --clients F [--addr 127.0.0.1:8080] [--issuer URL] [--data DIR | --redis URL]
               [--kek-file F] [--alg ES256] [--format jwt|paseto] [--rotate 168h]
               [--tls-cert F --tls-key F] [--admin-addr ADDR] [--trusted-proxy CIDR]...
        run the OAuth 2.0 token service (client credentials, RFC 9068
        access tokens, introspection, revocation, JWKS with rotating keys);
        JSON logs on stderr, SIGTERM stops it gracefully, SIGHUP reloads
        the clients file, ready when GET /readyz answers 200
  signet serve --dev [--addr 127.0.0.1:8080]
        an in-memory instance for trying it out: prints a client id, its
        secret and a curl line that gets a token
  signet guard --upstream URL (--jwks-url URL | --key F | --jwks F) [--addr 127.0.0.1:8081]
               [--iss S] [--aud S]... [--any-aud] [--scope S]... [--claims-header NAME]
               [--admin-addr ADDR] [--alg ALG]... [--access-token] [--forward-token]
               [--leeway D] [--cache N] [--jwks-max-stale 24h]
        a verifying reverse proxy: checks each request's Bearer JWT (keys
        from the JWK Set URL, kept fresh, or from files; iss, aud, scope),
        forwards it to the upstream with the claims in X-Signet-Claims
        (base64url of the claims JSON as signed; every incoming copy
        removed) and without the Authorization header (--forward-token
        keeps it); RFC 6750 answers, 503 when the keys are unavailable;
        JSON logs on stderr, SIGTERM stops it gracefully, SIGHUP
        refetches the key set, ready when GET /readyz answers 200
  signet help
        print this help

Algorithms: ALGORITHMS
JWE key management: JWEALGORITHMS
JWE content encryption: ENCRYPTIONS

Key files are JWK (JSON, private or public), PEM (PKCS #8, SPKI, PKCS #1,
SEC 1) or PASERK (k4.local, k4.public, k4.secret and the same with k3).
A raw HMAC secret is read only with --secret-encoding: raw (the file's
bytes exactly, a final newline included), base64 or hex (white space
ignored), and an HMAC --alg; a file holding a key in any encoding is
refused as a secret. --alg is needed only where the file does not name
the algorithm: a raw secret, an RSA PEM key, a JWK without "alg", a PEM
key for v4.public or v3.public. PASETO local keys are read only as
PASERK. For httpsig, an Ed25519, P-256 or P-384 key in PEM or in a JWK
without "alg" is read for ed25519, ecdsa-p256-sha256 or ecdsa-p384-sha384
without --alg. Files are read only when they are regular files of at
most 1 MiB: a named pipe or a device is refused.

A JWE key file is a JWK whose "alg" is a key-management algorithm (the
content encryption is --enc, default A256GCM: a JWK does not name it),
PEM with --alg (RSA-OAEP-256, RSA-OAEP, ECDH-ES*: RSA, P-256, P-384 or
X25519 keys), or with --secret-encoding and --alg a raw secret (dir,
A*KW, A*GCMKW) or a PBES2 password of at least 16 bytes (raw keeps a
final newline: write the file with printf). RSA-OAEP (SHA-1) keys only
decrypt. PBES2 tokens take --p2c iterations (default 310000; signet
reads at most 600000, npm jose at most 10000 unless told more).

Exit status: 0 success, 1 rejected (reason on stderr), 2 usage error.
Run "signet COMMAND -h" for the flags of a command.
`
