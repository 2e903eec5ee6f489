package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/clip"
	"github.com/signet-go/signet/internal/jsonx"
	"github.com/signet-go/signet/jwe"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/jwt"
)

// jweCmd runs the jwe subcommands.
func (c *cli) jweCmd(args []string) error {
	return c.runSubcommand("jwe", args,
		subcommand{"encrypt", c.jweEncrypt},
		subcommand{"decrypt", c.jweDecrypt},
		subcommand{"inspect", func(rest []string) error { return c.inspect("jwe inspect", rest) }})
}

// jweKeyFlags are the flags that say how to read a JWE --key file.
type jweKeyFlags struct {
	path      *string
	alg       *string
	enc       *string
	secretEnc *string
}

// addJWEKeyFlags declares --key, --alg, --enc and --secret-encoding;
// keyHelp describes --key.
func addJWEKeyFlags(cmd *command, keyHelp string) jweKeyFlags {
	return jweKeyFlags{
		path:      cmd.fs.String("key", "", keyHelp),
		alg:       cmd.fs.String("alg", "", "JWE key-management `ALG` for a key file that does not name it (PEM, a raw secret or password, a JWK without \"alg\")"),
		enc:       cmd.fs.String("enc", string(signet.A256GCM), "content encryption `ENC` the key is for (a JWK names its alg, never its enc): "+encryptionList()),
		secretEnc: cmd.fs.String("secret-encoding", "", "the --key file is a raw secret (dir, A*KW, A*GCMKW) or a PBES2 password, written as `ENC`: raw (the file's bytes, exactly, a final newline included), base64 or hex (white space ignored); needs --alg"),
	}
}

// jweKeySpec checks the key flags: the algorithm (a JWE one, or "" when
// not given), the content encryption and the secret encoding.
func (cmd *command) jweKeySpec(f jweKeyFlags, set map[string]bool) (signet.Algorithm, signet.Encryption, secretEncoding, error) {
	var alg signet.Algorithm
	if set["alg"] {
		var err error
		if alg, err = cmd.parseAlg(*f.alg); err != nil {
			return "", "", secretNone, err
		}
		if !alg.IsJWE() {
			return "", "", secretNone, cmd.usageErr("--alg %s is not a JWE key-management algorithm (jwe takes %s)", alg, jweAlgorithmList())
		}
	}
	enc, err := signet.ParseEncryption(*f.enc)
	if err != nil {
		return "", "", secretNone, cmd.usageErr("unknown content encryption %q (one of %s)", clip.String(*f.enc), encryptionList())
	}
	if !set["secret-encoding"] {
		return alg, enc, secretNone, nil
	}
	se, ok := secretEncodings[*f.secretEnc]
	switch {
	case !ok:
		return "", "", secretNone, cmd.usageErr("--secret-encoding must be raw, base64 or hex, not %q", clip.String(*f.secretEnc))
	case !jweSecretAlg(alg):
		return "", "", secretNone, cmd.usageErr("--secret-encoding needs --alg naming a JWE algorithm with a shared secret (dir, A128KW, A256KW, A128GCMKW, A256GCMKW) or a password (PBES2-HS256+A128KW, PBES2-HS512+A256KW): a raw secret does not say which algorithm it is for")
	}
	return alg, enc, se, nil
}

// jweSecretAlg reports whether alg is a JWE algorithm whose key is a
// shared secret or a password.
func jweSecretAlg(alg signet.Algorithm) bool {
	switch alg {
	case signet.Dir, signet.A128KW, signet.A256KW, signet.A128GCMKW, signet.A256GCMKW, signet.PBES2HS256A128KW, signet.PBES2HS512A256KW:
		return true
	}
	return false
}

// loadJWEKey reads the JWE key file at path for the content encryption
// enc, bound to alg when alg is not "": a JWK, a PEM key (with alg), or
// with se a raw secret or password (with alg). Its errors never quote
// the key.
func loadJWEKey(path string, alg signet.Algorithm, enc signet.Encryption, se secretEncoding) (*signet.Key, error) {
	data, err := readFile(path, "key file")
	if err != nil {
		return nil, err
	}
	k, err := parseJWEKey(data, alg, enc, se)
	if err != nil {
		return nil, fmt.Errorf("key file %s: %w", path, err)
	}
	return k, nil
}

// parseJWEKey is loadJWEKey on the file's bytes.
func parseJWEKey(data []byte, alg signet.Algorithm, enc signet.Encryption, se secretEncoding) (*signet.Key, error) {
	if se != secretNone {
		secret, err := readSecret(data, se, "a secret or password", "a JWK or PEM file")
		if err != nil {
			return nil, err
		}
		return signet.NewEncryptionKey(alg, enc, secret)
	}
	data = bytes.TrimPrefix(data, utf8BOM)
	switch detectFormat(data) {
	case formatJWK:
		jwkAlg, err := scanJWKAlg(data)
		if err != nil {
			return nil, err
		}
		if alg == "" && jwkAlg == "" {
			return nil, fmt.Errorf("%w: JWK has no \"alg\"; give --alg", signet.ErrUnsupported)
		}
		if a, err := signet.ParseAlgorithm(jwkAlg); err == nil && !a.IsJWE() {
			return nil, fmt.Errorf("%w: the JWK is a %s key, not a JWE key (use %s)", signet.ErrAlgorithmMismatch, clip.String(jwkAlg), commandFor(a))
		}
		return jwk.ParseEncryptionKeyFor(data, alg, enc)
	case formatPEM:
		if alg == "" {
			return nil, fmt.Errorf("%w: a PEM key does not name its JWE algorithm; give --alg (RSA-OAEP-256, RSA-OAEP, ECDH-ES, ECDH-ES+A128KW or ECDH-ES+A256KW)", signet.ErrUnsupported)
		}
		return signet.ParseEncryptionPEM(data, alg, enc)
	case formatPASERK:
		return nil, fmt.Errorf("%w: the file holds a PASERK, a PASETO key (use signet paseto)", signet.ErrAlgorithmMismatch)
	}
	switch kind := keyKind(data); {
	case len(data) == 0:
		return nil, fmt.Errorf("%w: empty", signet.ErrMalformed)
	case kind != "":
		return nil, fmt.Errorf("%w: the file holds %s: signet reads JWE keys as JWK or PEM", signet.ErrUnsupported, kind)
	}
	return nil, fmt.Errorf("%w: not a JWK or PEM key (a raw secret or password needs --secret-encoding and --alg)", signet.ErrMalformed)
}

// isDirEncName reports whether a JWK "alg" is a content encryption's name,
// as RFC 7520 §5.6's dir key has it.
func isDirEncName(s string) bool {
	_, err := signet.ParseEncryption(s)
	return err == nil
}

// commandFor names the signet command that uses keys of alg.
func commandFor(alg signet.Algorithm) string {
	switch {
	case alg.IsJWS():
		return "signet jwt"
	case alg.IsHTTPSig():
		return "signet httpsig"
	case pasetoAlgorithms[alg]:
		return "signet paseto"
	}
	return "another signet command"
}

// scanJWKAlg is scanJWK (a JWK Set refused too) that returns the "alg"
// member's value ("" when absent or not a string).
func scanJWKAlg(data []byte) (string, error) {
	if _, err := scanJWK(data); err != nil {
		return "", err
	}
	s := string(data)
	alg := ""
	m := jsonx.NewMembers(s)
	for m.Next(s) {
		if m.Name(s) == "alg" {
			alg, _ = m.String(s)
		}
	}
	if err := m.Err(); err != nil {
		return "", fmt.Errorf("%w: JWK: %v", signet.ErrMalformed, err)
	}
	return alg, nil
}

// jweEncrypt: signet jwe encrypt --key F [--claims F] [--exp DURATION]
// [--kid ID] [--alg ALG] [--enc ENC] [--secret-encoding ENC] [--p2c N]
// [--nested-sign-key G]. The claims are encrypted as given, byte for byte,
// unless --exp sets exp; with --nested-sign-key they are signed as a JWT
// first, and that JWT is encrypted (cty "JWT").
func (c *cli) jweEncrypt(args []string) error {
	cmd := newCommand("jwe encrypt", "jwe encrypt --key F [--claims F] [--exp DURATION] [--kid ID] [--alg ALG] [--enc ENC] [--secret-encoding ENC] [--p2c N] [--nested-sign-key G [--nested-sign-alg ALG]]")
	kf := addJWEKeyFlags(cmd, "the recipient's key `file`: a public key (ECDH-ES*, RSA-OAEP-256) or the shared secret or password (dir, A*KW, A*GCMKW, PBES2*), as JWK, PEM (with --alg) or a raw secret (with --secret-encoding)")
	f := addIssueFlags(cmd)
	p2c := cmd.fs.Int("p2c", 0, fmt.Sprintf("PBKDF2 iteration count `N` for a PBES2 key, %d to %d (default %d; npm jose reads at most 10000 unless told otherwise)", jwe.MinPBES2Count, jwe.MaxPBES2Count, jwe.DefaultPBES2Count))
	signPath := cmd.fs.String("nested-sign-key", "", "sign the claims as a JWT with this private key `file` (JWK or PEM) first, then encrypt that JWT (a nested JWT, cty JWT)")
	signAlg := cmd.fs.String("nested-sign-alg", "", "JWS `ALG` of a --nested-sign-key file that does not name it (RSA PEM, JWK without \"alg\")")
	pos, set, err := c.parse(cmd, args)
	if err != nil {
		return err
	}
	if err := f.usageErr(cmd, pos, *kf.path, set); err != nil {
		return err
	}
	switch {
	case set["p2c"] && (*p2c < jwe.MinPBES2Count || *p2c > jwe.MaxPBES2Count):
		return cmd.usageErr("--p2c must be between %d and %d", jwe.MinPBES2Count, jwe.MaxPBES2Count)
	case set["nested-sign-key"] && *signPath == "":
		return cmd.usageErr("--nested-sign-key needs a file")
	case set["nested-sign-alg"] && !set["nested-sign-key"]:
		return cmd.usageErr("--nested-sign-alg applies to --nested-sign-key")
	}
	alg, enc, se, err := cmd.jweKeySpec(kf, set)
	if err != nil {
		return err
	}

	claims, err := f.readClaims(c)
	if err != nil {
		return err
	}
	key, err := loadJWEKey(*kf.path, alg, enc, se)
	if err != nil {
		return err
	}
	if set["p2c"] && !isPBES2(key.Algorithm()) {
		return cmd.usageErr("--p2c applies to PBES2 keys; the key file holds a %s key", key.Algorithm())
	}
	var signKey *signet.Key
	if set["nested-sign-key"] {
		if signKey, err = cmd.loadNestedKey(*signPath, *signAlg, set["nested-sign-alg"], "--nested-sign-alg"); err != nil {
			return err
		}
		if err := requirePrivate(signKey, *signPath, "signing"); err != nil {
			return err
		}
	}
	now := c.now()
	if key, err = f.apply(&claims, key, now, set); err != nil {
		return err
	}
	opts := jwe.Options{Now: func() time.Time { return now }, PBES2Count: *p2c}
	var token string
	if signKey != nil {
		inner, err := jwt.SignBytes(signKey, claims.body, "JWT")
		if err != nil {
			return err
		}
		if _, err := readBackJWT(signKey, inner, now); err != nil {
			return err
		}
		token, err = jwe.EncryptBytes(key, []byte(inner), "JWT", opts)
		if err != nil {
			return err
		}
	} else {
		if _, err := readBackClaims(claims.body, now); err != nil {
			return err
		}
		if token, err = jwe.EncryptBytes(key, claims.body, "", opts); err != nil {
			return err
		}
	}
	return c.printIssued(token, claims, now, jwe.DefaultMaxSize, issueWords{readers: "readers", reader: "signet jwe decrypt", done: "encrypted"})
}

// isPBES2 reports whether alg is a PBES2 algorithm.
func isPBES2(alg signet.Algorithm) bool {
	return alg == signet.PBES2HS256A128KW || alg == signet.PBES2HS512A256KW
}

// readBackClaims holds claims about to be encrypted at now to the rules of
// signet's reader (jwt.ParseClaims, what jwe.Decrypt applies to the
// plaintext), as readBack does for a signed token: the claims are refused
// unless the reader reads them in full; a policy verdict is returned.
func readBackClaims(claims []byte, now time.Time) (verdict, err error) {
	_, verdict = jwt.ParseClaims[json.RawMessage](claims, jwt.Policy{NoExpiry: true, Now: func() time.Time { return now }})
	if verdict == nil || isPolicyVerdict(verdict) {
		return verdict, nil
	}
	return nil, fmt.Errorf("the claims would be refused by signet's own reader, so they were not encrypted: %w", verdict)
}

// jweDecrypt: signet jwe decrypt --key F [--verify-key G] [--alg ALG]
// [--enc ENC] [--secret-encoding ENC] [--iss S] [--aud S]... [--any-aud]
// [--leeway D] [--no-exp] [--typ T]. On success the claims, exactly as
// encrypted (or signed, for a nested JWT), go to stdout.
func (c *cli) jweDecrypt(args []string) error {
	cmd := newCommand("jwe decrypt", "jwe decrypt --key F [--verify-key G [--verify-alg ALG]] [--alg ALG] [--enc ENC] [--secret-encoding ENC] [--iss S] [--aud S]... [--any-aud] [--leeway D] [--no-exp] [--typ T] < TOKEN")
	kf := addJWEKeyFlags(cmd, "the recipient's private key `file` (ECDH-ES*, RSA-OAEP-256, RSA-OAEP) or the shared secret or password (dir, A*KW, A*GCMKW, PBES2*), as JWK, PEM (with --alg) or a raw secret (with --secret-encoding)")
	verifyPath := cmd.fs.String("verify-key", "", "for a nested JWT (signed, then encrypted; cty JWT): the signer's key `file` (JWK or PEM, public or private) that the JWT inside must verify with")
	verifyAlg := cmd.fs.String("verify-alg", "", "JWS `ALG` of a --verify-key file that does not name it (RSA PEM, JWK without \"alg\")")
	pf := addPolicyFlags(cmd, "required typ header `T` (of the JWT inside, for a nested JWT); default: absent or JWT")
	pos, set, err := c.parse(cmd, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) != 0:
		return cmd.usageErr("unexpected argument %q (the token is read from stdin)", clip.String(pos[0]))
	case *kf.path == "":
		return cmd.usageErr("--key is required")
	case set["verify-key"] && *verifyPath == "":
		return cmd.usageErr("--verify-key needs a file")
	case set["verify-alg"] && !set["verify-key"]:
		return cmd.usageErr("--verify-alg applies to --verify-key")
	}
	if err := pf.usageErr(cmd); err != nil {
		return err
	}
	alg, enc, se, err := cmd.jweKeySpec(kf, set)
	if err != nil {
		return err
	}
	key, err := loadJWEKey(*kf.path, alg, enc, se)
	if err != nil {
		return err
	}
	if err := requirePrivate(key, *kf.path, "decrypting"); err != nil {
		return err
	}
	var verifyKey *signet.Key
	if set["verify-key"] {
		if verifyKey, err = cmd.loadNestedKey(*verifyPath, *verifyAlg, set["verify-alg"], "--verify-alg"); err != nil {
			return err
		}
	}
	token, err := readCompactToken(c, false)
	if err != nil {
		return err
	}
	p := pf.policy(c)
	var claims json.RawMessage
	if verifyKey != nil {
		claims, err = jwe.DecryptNested[json.RawMessage](key, verifyKey, token, p)
	} else {
		if nestedHeader(token) {
			return fmt.Errorf("%w: the token is a nested JWT (cty JWT: a signed JWT inside); give --verify-key with the signer's key", signet.ErrUnsupported)
		}
		claims, err = jwe.Decrypt[json.RawMessage](key, token, p)
	}
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(c.stdout, "%s\n", claims)
	return err
}

// nestedHeader reports whether token's first segment is a JSON object
// with "cty" naming a JWT, as RFC 7519 §5.2 has a nested JWT say.
// Anything it cannot read is left to the library to refuse.
func nestedHeader(token string) bool {
	seg, _, ok := strings.Cut(token, ".")
	if !ok {
		return false
	}
	h, err := decodeObjectSegment(seg, "header")
	if err != nil {
		return false
	}
	s := string(h)
	m := jsonx.NewMembers(s)
	for m.Next(s) {
		if m.Name(s) == "cty" {
			v, _ := m.String(s)
			return strings.EqualFold(v, "JWT") || strings.EqualFold(v, "application/jwt")
		}
	}
	return false
}

// jweAlgorithmList names the JWE key-management algorithms.
func jweAlgorithmList() string { return joinAlgs(signet.JWEAlgorithms()) }

// encryptionList names the JWE content encryptions.
func encryptionList() string {
	encs := signet.Encryptions()
	names := make([]string, len(encs))
	for i, e := range encs {
		names[i] = string(e)
	}
	return strings.Join(names, " ")
}

// loadNestedKey reads the JWS key of a nested JWT (--nested-sign-key,
// --verify-key), bound to the algorithm algName (its flag, flag, given
// when given says so) when the file does not name it: an RSA PEM key or a
// JWK without "alg" needs it, and is refused with a pointer to flag
// rather than to --alg, which names the JWE algorithm.
func (cmd *command) loadNestedKey(path, algName string, given bool, flag string) (*signet.Key, error) {
	alg, err := cmd.jwsAlg(algName, given)
	if err != nil {
		return nil, err
	}
	if alg == "" {
		data, err := readFile(path, "key file")
		if err != nil {
			return nil, err
		}
		data = bytes.TrimPrefix(data, utf8BOM)
		switch detectFormat(data) {
		case formatJWK:
			if jwkAlg, err := scanJWKAlg(data); err == nil && jwkAlg == "" {
				return nil, fmt.Errorf("key file %s: %w: JWK has no \"alg\"; give %s", path, signet.ErrUnsupported, flag)
			}
		case formatPEM:
			if _, err := signet.ParsePEM(data, ""); errors.Is(err, signet.ErrUnsupported) {
				return nil, fmt.Errorf("key file %s: %w: the PEM key does not name a JWS algorithm (an RSA key fits six); give %s", path, signet.ErrUnsupported, flag)
			}
		}
	}
	return loadJWSKey(path, alg, secretNone)
}
