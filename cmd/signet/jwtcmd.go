package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/claimcheck"
	"github.com/signet-go/signet/internal/clip"
	"github.com/signet-go/signet/internal/jsonx"
	"github.com/signet-go/signet/jwks"
	"github.com/signet-go/signet/jwt"
)

// jwtSign: signet jwt sign --key F [--claims F] [--exp DURATION] [--kid ID]
// [--alg ALG] [--secret-encoding ENC]. The claims are signed as given,
// byte for byte, unless --exp sets exp; the token is printed once
// signet's verifier reads it back (readBackJWT).
func (c *cli) jwtSign(args []string) error {
	cmd := newCommand("jwt sign", "jwt sign --key F [--claims F] [--exp DURATION] [--kid ID] [--alg ALG] [--secret-encoding ENC]")
	keyPath := cmd.fs.String("key", "", "private key `file` (JWK, PEM, or a raw HMAC secret with --secret-encoding)")
	f := addIssueFlags(cmd)
	algName := cmd.fs.String("alg", "", "`ALG` for a key file that does not name it (raw secret, RSA PEM, JWK without \"alg\")")
	secretEnc := addSecretFlag(cmd)
	pos, set, err := c.parse(cmd, args)
	if err != nil {
		return err
	}
	if err := f.usageErr(cmd, pos, *keyPath, set); err != nil {
		return err
	}
	alg, err := cmd.jwsAlg(*algName, set["alg"])
	if err != nil {
		return err
	}
	enc, err := cmd.secretEncoding(*secretEnc, set, alg)
	if err != nil {
		return err
	}

	claims, err := f.readClaims(c)
	if err != nil {
		return err
	}
	key, err := loadJWSKey(*keyPath, alg, enc)
	if err != nil {
		return err
	}
	if err := requirePrivate(key, *keyPath, "signing"); err != nil {
		return err
	}
	now := c.now()
	if key, err = f.apply(&claims, key, now, set); err != nil {
		return err
	}
	token, err := jwt.SignBytes(key, claims.body, "JWT")
	if err != nil {
		return err
	}
	if _, err := readBackJWT(key, token, now); err != nil {
		return err
	}
	return c.printIssued(token, claims, now, jwt.DefaultMaxSize, issueWords{readers: "verifiers", reader: "signet jwt verify", done: "signed"})
}

// checkClaims checks that claims are a JSON object without repeated
// member names whose registered claims have the types RFC 7519 gives them,
// before the key is read; readBackJWT then holds the token to every rule
// of signet's verifier. It returns exp when present.
func checkClaims(claims []byte) (exp int64, hasExp bool, err error) {
	if len(claims) == 0 || claims[0] != '{' {
		return 0, false, fmt.Errorf("%w: claims must be a JSON object", signet.ErrMalformed)
	}
	s := string(claims)
	if err := jsonx.Valid(s); err != nil {
		return 0, false, fmt.Errorf("%w: claims: %v", signet.ErrMalformed, err)
	}
	m := jsonx.NewMembers(s)
	for m.Next(s) {
		name, ok := m.Name(s), true
		switch name {
		case "iss", "sub", "jti":
			_, ok = m.String(s)
		case "exp", "nbf", "iat":
			var v int64
			v, ok = m.Int(s)
			ok = ok && claimcheck.ValidNumericDate(v) // what jwt.Verify reads
			if name == "exp" {
				exp, hasExp = v, true
			}
		case "aud":
			ok = isAudience(m.Value(s))
		}
		if !ok {
			return 0, false, fmt.Errorf("%w: claim %s: %s", signet.ErrMalformed, name, claimType(name))
		}
	}
	if err := m.Err(); err != nil {
		return 0, false, fmt.Errorf("%w: claims: %v", signet.ErrMalformed, err)
	}
	return exp, hasExp, nil
}

// claimType says what a registered claim must be.
func claimType(name string) string {
	switch name {
	case "exp", "nbf", "iat":
		return "want a number of seconds from 0 to 2^53"
	case "aud":
		return "want a string or an array of strings"
	}
	return "want a string"
}

// isAudience reports whether raw (valid JSON) is a string or an array of
// strings.
func isAudience(raw string) bool {
	if raw[0] == '"' {
		return true
	}
	if raw[0] != '[' {
		return false
	}
	e := jsonx.NewElements(raw)
	for e.Next(raw) {
		if _, ok := e.String(raw); !ok {
			return false
		}
	}
	return e.Err() == nil
}

// setExp returns claims with exp set to exp. The claims are decoded into
// a jwt.Map with numbers kept as written, and encoded again (members then
// come in name order).
func setExp(claims []byte, exp int64) ([]byte, error) {
	var m jwt.Map
	d := json.NewDecoder(bytes.NewReader(claims))
	d.UseNumber()
	if err := d.Decode(&m); err != nil {
		return nil, fmt.Errorf("%w: claims: %v", signet.ErrMalformed, err)
	}
	m["exp"] = json.Number(strconv.FormatInt(exp, 10))
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return nil, fmt.Errorf("encode claims: %w", err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// jwtVerify: signet jwt verify (--key F | --jwks F | --jwks-url URL)
// [--iss S] [--aud S]... [--any-aud] [--leeway D] [--no-exp] [--typ T] [--alg ALG]...
// On success the claims, exactly as signed, go to stdout.
func (c *cli) jwtVerify(args []string) error {
	cmd := newCommand("jwt verify", "jwt verify (--key F | --jwks F | --jwks-url URL) [--iss S] [--aud S]... [--any-aud] [--leeway D] [--no-exp] [--typ T] [--alg ALG]... [--secret-encoding ENC] < TOKEN")
	keyPath := cmd.fs.String("key", "", "key `file` (JWK or PEM, public or private, or a raw HMAC secret with --secret-encoding)")
	jwksPath := cmd.fs.String("jwks", "", "JWK Set `file`; the token's kid selects the key")
	jwksURL := cmd.fs.String("jwks-url", "", "the issuer's JWK Set `URL` (https; http only to loopback), fetched at start (and once more if the token names a kid it lacks); the token's kid selects the key")
	pf := addPolicyFlags(cmd, "required typ header `T`, e.g. at+jwt for an OAuth access token (RFC 9068); default: absent or JWT")
	var algs algList
	cmd.fs.Var(&algs, "alg", "`ALG` for a --key file that does not name it (raw secret, RSA PEM, JWK without \"alg\"); with --jwks-url, an algorithm the token may use (repeatable; default RS256, ES256, EdDSA)")
	secretEnc := addSecretFlag(cmd)
	pos, set, err := c.parse(cmd, args)
	if err != nil {
		return err
	}
	sources := 0
	for _, s := range []string{*keyPath, *jwksPath, *jwksURL} {
		if s != "" {
			sources++
		}
	}
	switch {
	case len(pos) != 0:
		return cmd.usageErr("unexpected argument %q (the token is read from stdin)", clip.String(pos[0]))
	case sources != 1:
		return cmd.usageErr("give exactly one of --key, --jwks and --jwks-url")
	case *jwksPath != "" && set["alg"]:
		return cmd.usageErr("--alg applies to --key and --jwks-url; a JWK Set file names each key's algorithm")
	case *keyPath != "" && len(algs) > 1:
		return cmd.usageErr("--key takes one --alg")
	}
	if err := pf.usageErr(cmd); err != nil {
		return err
	}
	for i := range algs {
		if algs[i], err = cmd.jwsAlg(string(algs[i]), true); err != nil {
			return err
		}
		if *jwksURL != "" && algs[i].Symmetric() {
			return cmd.usageErr("--alg %s uses a shared secret, which never comes from a published key set", algs[i])
		}
	}
	var alg signet.Algorithm
	if *keyPath != "" && len(algs) == 1 {
		alg = algs[0]
	}
	enc, err := cmd.secretEncoding(*secretEnc, set, alg)
	if err != nil {
		return err
	}

	var keys signet.Keys
	switch {
	case *keyPath != "":
		keys, err = loadJWSKey(*keyPath, alg, enc)
	case *jwksPath != "":
		keys, err = loadKeySet(*jwksPath)
	default:
		if len(algs) == 0 {
			algs = defaultRemoteAlgorithms
		}
		var remote *jwks.Remote
		remote, err = c.fetchKeySet(*jwksURL, algs)
		if remote != nil {
			defer remote.Close()
			keys = remote
		}
	}
	if err != nil {
		return err
	}
	token, err := readCompactToken(c, true)
	if err != nil {
		return err
	}
	p := pf.policy(c)
	claims, err := jwt.Verify[json.RawMessage](keys, token, p)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(c.stdout, "%s\n", claims)
	return err
}

// fetchKeySet fetches the JWK Set at url for jwt verify --jwks-url: a
// jwks.Remote that has made its first fetch (within jwks's start and
// fetch timeouts). A URL the remote set refuses (plain http to a host
// that is not loopback, …) is a usage error; a set that could not be
// fetched, a rejection (exit 1).
func (c *cli) fetchKeySet(url string, algs []signet.Algorithm) (*jwks.Remote, error) {
	remote, err := jwks.New(context.Background(), url, jwks.Options{Algorithms: algs})
	if err != nil {
		return nil, &usageError{msg: "jwt verify: --jwks-url: " + err.Error()}
	}
	if err := remote.Ready(); err != nil {
		remote.Close()
		return nil, fmt.Errorf("--jwks-url %s: %w", clip.String(url), err)
	}
	return remote, nil
}

// loadJWSKey is loadKey for the jwt commands: a PASETO key (a PASERK) or
// an RFC 9421 key is refused with a pointer to signet paseto or httpsig.
func loadJWSKey(path string, alg signet.Algorithm, enc secretEncoding) (*signet.Key, error) {
	key, err := loadKey(path, alg, enc)
	if err != nil {
		return nil, err
	}
	switch a := key.Algorithm(); {
	case a.IsHTTPSig():
		return nil, fmt.Errorf("key file %s: %w: it holds a %s key, which is for HTTP message signatures, not JWTs (use signet httpsig)", path, signet.ErrAlgorithmMismatch, a)
	case !a.IsJWS():
		return nil, fmt.Errorf("key file %s: %w: it holds a %s key, which is for PASETO tokens, not JWTs (use signet paseto)", path, signet.ErrAlgorithmMismatch, a)
	}
	return key, nil
}

// readToken reads a token from stdin, without surrounding white space.
func readToken(c *cli) (string, error) {
	data, err := readLimited(c.stdin, "token on stdin")
	if err != nil {
		return "", err
	}
	token := strings.TrimSpace(string(data))
	if token == "" {
		return "", fmt.Errorf("%w: no token on stdin", signet.ErrMalformed)
	}
	return token, nil
}

// readCompactToken reads a compact JWS (jws) or JWE from stdin
// (readToken), and refuses the other kind, by its count of segments, with
// a pointer to the command that reads it.
func readCompactToken(c *cli, jws bool) (string, error) {
	token, err := readToken(c)
	if err != nil {
		return "", err
	}
	switch n := strings.Count(token, "."); {
	case jws && n == 4:
		return "", fmt.Errorf("%w: the token has 5 segments: it is a JWE, an encrypted token (read it with signet jwe decrypt)", signet.ErrMalformed)
	case !jws && n == 2:
		return "", fmt.Errorf("%w: the token has 3 segments: it is a JWS, a signed token (read it with signet jwt verify)", signet.ErrMalformed)
	}
	return token, nil
}
