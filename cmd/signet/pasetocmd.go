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
	"github.com/signet-go/signet/paseto"
)

// paseto runs the paseto subcommands.
func (c *cli) paseto(args []string) error {
	issue := func(public bool) func([]string) error {
		return func(rest []string) error { return c.pasetoIssue(rest, public) }
	}
	check := func(public bool) func([]string) error {
		return func(rest []string) error { return c.pasetoCheck(rest, public) }
	}
	return c.runSubcommand("paseto", args,
		subcommand{"encrypt", issue(false)},
		subcommand{"decrypt", check(false)},
		subcommand{"sign", issue(true)},
		subcommand{"verify", check(true)})
}

// pasetoIssue: signet paseto encrypt|sign --key F [--claims F]
// [--exp DURATION | --no-exp] [--footer S] [--implicit S] (and [--alg ALG]
// for sign). The claims are issued as given, byte for byte, unless --exp
// sets exp; they must have exp unless --no-exp is given.
func (c *cli) pasetoIssue(args []string, public bool) error {
	name := "paseto encrypt"
	synopsis := "paseto encrypt --key F [--claims F] [--exp DURATION | --no-exp] [--footer S] [--implicit S]"
	keyHelp := "local key `file`: a k4.local or k3.local PASERK"
	if public {
		name = "paseto sign"
		synopsis = "paseto sign --key F [--claims F] [--exp DURATION | --no-exp] [--footer S] [--implicit S] [--alg ALG]"
		keyHelp = "private key `file`: a k4.secret or k3.secret PASERK, or PEM with --alg"
	}
	cmd := newCommand(name, synopsis)
	keyPath := cmd.fs.String("key", "", keyHelp)
	claimsPath := cmd.fs.String("claims", "", "claims JSON `file` (default: stdin)")
	exp := cmd.fs.Duration("exp", 0, "set exp to now + `DURATION` (e.g. 15m, 1h), replacing any exp in the claims")
	noExp := cmd.fs.Bool("no-exp", false, "allow claims without exp: the token then never expires")
	footer := cmd.fs.String("footer", "", "footer `S`, authenticated but NOT encrypted: a key ID, never a key")
	implicit := cmd.fs.String("implicit", "", "implicit assertion `S`: authenticated, not stored in the token; the reader must give the same")
	var algName *string
	if public {
		algName = cmd.fs.String("alg", "", "`ALG` of a PEM key file: v4.public (Ed25519) or v3.public (P-384)")
	}
	pos, set, err := c.parse(cmd, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) != 0:
		return cmd.usageErr("unexpected argument %q", clip.String(pos[0]))
	case *keyPath == "":
		return cmd.usageErr("--key is required")
	case set["exp"] && *exp <= 0:
		return cmd.usageErr("--exp must be a positive duration, not %v", *exp)
	case set["exp"] && *noExp:
		return cmd.usageErr("give --exp or --no-exp, not both")
	}
	alg, err := cmd.pasetoPublicAlg(algName, set["alg"])
	if err != nil {
		return err
	}

	claims, err := c.readClaims(*claimsPath)
	if err != nil {
		return err
	}
	hasExp, err := checkPASETOClaims(claims)
	if err != nil {
		return err
	}
	if !hasExp && !set["exp"] && !*noExp {
		return fmt.Errorf("%w: exp: the claims have no exp, and verifiers refuse a token without one by default; set it with --exp, or give --no-exp for a token that never expires", signet.ErrMissingClaim)
	}
	if holdsKey(*footer) {
		return fmt.Errorf("%w: the --footer holds a PASERK key, but a footer is not encrypted: put the key's ID there (paserk.ID), never the key", signet.ErrKeyUsage)
	}

	key, err := loadPASETOKey(*keyPath, alg, public, name)
	if err != nil {
		return err
	}

	now := c.now()
	if set["exp"] {
		if claims, err = setPASETOExp(claims, now.Add(*exp)); err != nil {
			return err
		}
	}
	o := paseto.Options{Now: func() time.Time { return now }}
	if set["footer"] {
		o.Footer = []byte(*footer)
	}
	if set["implicit"] {
		o.Implicit = []byte(*implicit)
	}
	var token string
	if public {
		token, err = paseto.SignBytes(key, claims, o)
	} else {
		token, err = paseto.EncryptBytes(key, claims, o)
	}
	if err != nil {
		return err
	}
	verdict, err := readBackPASETO(key, token, o, public)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintln(c.stdout, token); err != nil {
		return err
	}
	if errors.Is(verdict, signet.ErrExpired) {
		c.warn("the token expired before it was issued (%s)", strings.TrimPrefix(verdict.Error(), "signet: "))
	}
	c.warnSize(token, paseto.DefaultMaxSize, "readers")
	return nil
}

// pasetoCheck: signet paseto decrypt|verify --key F [--footer S]
// [--implicit S] [--iss S] [--aud S]... [--any-aud] [--sub S] [--leeway D] [--no-exp]
// (and [--alg ALG] for verify). On success the claims, exactly as issued,
// go to stdout.
func (c *cli) pasetoCheck(args []string, public bool) error {
	name := "paseto decrypt"
	synopsis := "paseto decrypt --key F [--footer S] [--implicit S] [--iss S] [--aud S]... [--any-aud] [--sub S] [--leeway D] [--no-exp] < TOKEN"
	keyHelp := "local key `file`: a k4.local or k3.local PASERK"
	if public {
		name = "paseto verify"
		synopsis = "paseto verify --key F [--footer S] [--implicit S] [--iss S] [--aud S]... [--any-aud] [--sub S] [--leeway D] [--no-exp] [--alg ALG] < TOKEN"
		keyHelp = "public or private key `file`: a k4.public, k4.secret, k3.public or k3.secret PASERK, or PEM with --alg"
	}
	cmd := newCommand(name, synopsis)
	keyPath := cmd.fs.String("key", "", keyHelp)
	footer := cmd.fs.String("footer", "", "the footer `S` the token must carry (default: any footer)")
	implicit := cmd.fs.String("implicit", "", "the implicit assertion `S` the token was issued with")
	iss := cmd.fs.String("iss", "", "required issuer (iss claim)")
	aud, anyAud := audienceFlags(cmd)
	sub := cmd.fs.String("sub", "", "required subject (sub claim)")
	leeway := cmd.fs.Duration("leeway", 0, fmt.Sprintf("clock skew allowed for exp, nbf and iat, at most %v", paseto.MaxLeeway))
	noExp := cmd.fs.Bool("no-exp", false, "accept a token without exp (exp is still checked when present)")
	var algName *string
	if public {
		algName = cmd.fs.String("alg", "", "`ALG` of a PEM key file: v4.public (Ed25519) or v3.public (P-384)")
	}
	pos, set, err := c.parse(cmd, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) != 0:
		return cmd.usageErr("unexpected argument %q (the token is read from stdin)", clip.String(pos[0]))
	case *keyPath == "":
		return cmd.usageErr("--key is required")
	case *leeway < 0 || *leeway > paseto.MaxLeeway:
		return cmd.usageErr("--leeway must be between 0 and %v", paseto.MaxLeeway)
	case len(*aud) > 0 && *anyAud:
		return cmd.usageErr("give --aud or --any-aud, not both")
	}
	if err := cmd.emptyCheckErr("iss", "sub"); err != nil {
		return err
	}
	alg, err := cmd.pasetoPublicAlg(algName, set["alg"])
	if err != nil {
		return err
	}

	key, err := loadPASETOKey(*keyPath, alg, public, name)
	if err != nil {
		return err
	}
	token, err := readToken(c)
	if err != nil {
		return err
	}
	if err := checkTokenAlg(token, key.Algorithm()); err != nil {
		return err
	}
	p := paseto.Policy{
		Issuer:         *iss,
		Audience:       *aud,
		IgnoreAudience: *anyAud,
		Subject:        *sub,
		Leeway:         *leeway,
		NoExpiry:       *noExp,
		Now:            c.now,
		MaxSize:        maxInput,
	}
	if set["footer"] {
		p.Footer = []byte(*footer) // not nil: "" requires an empty footer
	}
	if set["implicit"] {
		p.Implicit = []byte(*implicit)
	}
	var claims json.RawMessage
	if public {
		claims, err = paseto.Verify[json.RawMessage](key, token, p)
	} else {
		claims, err = paseto.Decrypt[json.RawMessage](key, token, p)
	}
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(c.stdout, "%s\n", claims)
	return err
}

// checkTokenAlg refuses a token whose header names another PASETO
// version or purpose than keyAlg, saying which command reads it. Other
// headers are left to the library to refuse.
func checkTokenAlg(token string, keyAlg signet.Algorithm) error {
	for alg := range pasetoAlgorithms {
		if !strings.HasPrefix(token, string(alg)+".") || alg == keyAlg {
			continue
		}
		hint := ""
		switch {
		case isLocal(alg) && !isLocal(keyAlg):
			hint = " (a local token is read with paseto decrypt and a local key)"
		case !isLocal(alg) && isLocal(keyAlg):
			hint = " (a public token is read with paseto verify and a public key)"
		}
		return fmt.Errorf("%w: the token is %s, the key %s%s", signet.ErrAlgorithmMismatch, alg, keyAlg, hint)
	}
	return nil
}

// pasetoPublicAlg reads the --alg flag of paseto sign and verify (algName
// is nil for the commands without it): only v4.public and v3.public,
// which are the PASETO keys PEM can hold.
func (cmd *command) pasetoPublicAlg(algName *string, given bool) (signet.Algorithm, error) {
	if algName == nil || !given {
		return "", nil
	}
	alg, err := cmd.parseAlg(*algName)
	if err != nil {
		return "", err
	}
	if alg != signet.V4Public && alg != signet.V3Public {
		return "", cmd.usageErr("--alg must be v4.public or v3.public, not %s (a PEM key file needs it; a PASERK names its own)", alg)
	}
	return alg, nil
}

// loadPASETOKey reads the --key file of the paseto command name (public:
// sign or verify) and checks that it fits: a local key for encrypt and
// decrypt, a v4.public or v3.public key for sign and verify, private to
// sign.
func loadPASETOKey(path string, alg signet.Algorithm, public bool, name string) (*signet.Key, error) {
	key, err := loadKey(path, alg, secretNone)
	if err != nil {
		return nil, err
	}
	a := key.Algorithm()
	switch {
	case !pasetoAlgorithms[a]:
		return nil, fmt.Errorf("key file %s: %w: it holds a %s key, not a PASETO key: give a PASERK (k4.…, k3.…), or PEM with --alg v4.public or v3.public", path, signet.ErrAlgorithmMismatch, a)
	case public && key.Symmetric():
		return nil, fmt.Errorf("key file %s: %w: it holds a %s key, a shared secret for local tokens: %s needs a v4.public or v3.public key (for local tokens use paseto encrypt and decrypt)", path, signet.ErrKeyUsage, a, name)
	case !public && !key.Symmetric():
		return nil, fmt.Errorf("key file %s: %w: it holds a %s key, for public tokens: %s needs a v4.local or v3.local key (for public tokens use paseto sign and verify)", path, signet.ErrKeyUsage, a, name)
	case name == "paseto sign" && !key.CanSign():
		return nil, fmt.Errorf("key file %s: %w: it holds a public %s key; signing needs the private key", path, signet.ErrKeyUsage, a)
	}
	return key, nil
}

// checkPASETOClaims checks, before the key is read, that claims are a
// JSON object without repeated member names (nor names differing only in
// case, which signet's readers refuse) whose registered claims are
// strings, as PASETO has them: iss, sub, aud and jti, and exp, nbf and iat
// as date-times. The date-times themselves are checked by signet's reader
// (readBackPASETO), which takes RFC 3339 as PASETO does and nothing more
// lenient. It reports whether exp is present.
func checkPASETOClaims(claims []byte) (hasExp bool, err error) {
	if len(claims) == 0 || claims[0] != '{' {
		return false, fmt.Errorf("%w: claims must be a JSON object", signet.ErrMalformed)
	}
	s := string(claims)
	if err := jsonx.ValidFold(s); err != nil {
		return false, fmt.Errorf("%w: claims: %v", signet.ErrMalformed, err)
	}
	m := jsonx.NewMembers(s)
	for m.Next(s) {
		name := m.Name(s)
		switch name {
		case "iss", "sub", "aud", "jti", "exp", "nbf", "iat":
		default:
			continue
		}
		if _, ok := m.String(s); !ok {
			want := "want a string"
			if name == "exp" || name == "nbf" || name == "iat" {
				want = "want an RFC 3339 date-time string, such as \"2025-01-02T15:04:05Z\""
			}
			return false, fmt.Errorf("%w: claim %s: %s", signet.ErrMalformed, name, want)
		}
		hasExp = hasExp || name == "exp"
	}
	if err := m.Err(); err != nil {
		return false, fmt.Errorf("%w: claims: %v", signet.ErrMalformed, err)
	}
	return hasExp, nil
}

// setPASETOExp returns claims with exp set to exp, as RFC 3339 in UTC. The
// claims are decoded with numbers kept as written, and encoded again
// (members then come in name order).
func setPASETOExp(claims []byte, exp time.Time) ([]byte, error) {
	var m map[string]any
	d := json.NewDecoder(bytes.NewReader(claims))
	d.UseNumber()
	if err := d.Decode(&m); err != nil {
		return nil, fmt.Errorf("%w: claims: %v", signet.ErrMalformed, err)
	}
	m["exp"] = exp.UTC().Format(time.RFC3339)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return nil, fmt.Errorf("encode claims: %w", err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// holdsKey reports whether s contains a PASERK that holds a key in the
// clear (local or secret) or under a password: none belongs in a footer,
// which anyone holding the token can read.
func holdsKey(s string) bool {
	for _, v := range []string{"k3.", "k4."} {
		for _, typ := range []string{"local.", "secret.", "local-pw.", "secret-pw."} {
			if strings.Contains(s, v+typ) {
				return true
			}
		}
	}
	return false
}
