package main

import (
	"bytes"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/pem"
	"fmt"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/clip"
	"github.com/signet-go/signet/internal/jsonx"
)

// secretEncoding is how a raw HMAC secret file is written, as
// --secret-encoding says. Without the flag a --key file is a JWK, PEM or
// PASERK key and never a raw secret; with it the file is a raw secret and
// never read as a key. Nothing is guessed from a secret's bytes.
type secretEncoding int

const (
	secretNone   secretEncoding = iota // no --secret-encoding: the file is a key
	secretRaw                          // the file's bytes are the secret, exactly
	secretBase64                       // base64 text (standard or URL alphabet, padding optional), white space ignored
	secretHex                          // hex text, white space ignored
)

var secretEncodings = map[string]secretEncoding{"raw": secretRaw, "base64": secretBase64, "hex": secretHex}

// asciiSpace is the white space ignored around and inside base64 and hex
// secrets, and around the text keys keyKind recognizes.
const asciiSpace = " \t\r\n\v\f"

// addSecretFlag adds --secret-encoding to a command that reads --key.
func addSecretFlag(cmd *command) *string {
	return cmd.fs.String("secret-encoding", "", "the --key file is a raw HMAC secret written as `ENC`: raw (the file's bytes, exactly, a final newline included), base64 or hex (white space ignored); needs --alg")
}

// secretEncoding reads --secret-encoding (name, when set says it was
// given) against --alg (alg, "" when absent): a raw secret does not say
// which algorithm it is for, so --alg must name an HMAC one. A wrong
// combination is a usage error.
func (cmd *command) secretEncoding(name string, set map[string]bool, alg signet.Algorithm) (secretEncoding, error) {
	if !set["secret-encoding"] {
		return secretNone, nil
	}
	enc, ok := secretEncodings[name]
	switch {
	case !ok:
		return secretNone, cmd.usageErr("--secret-encoding must be raw, base64 or hex, not %q", clip.String(name))
	case set["jwks"]:
		return secretNone, cmd.usageErr("--secret-encoding applies to --key; a JWK Set holds JWKs")
	case !isHMAC(alg):
		return secretNone, cmd.usageErr("--secret-encoding needs --alg naming an HMAC algorithm (HS256, HS384 or HS512; hmac-sha256 for httpsig): a raw secret does not say which algorithm it is for")
	}
	return enc, nil
}

// isHMAC reports whether alg is an HMAC algorithm, the only kind a raw
// secret is for.
func isHMAC(alg signet.Algorithm) bool {
	switch alg {
	case signet.HS256, signet.HS384, signet.HS512, signet.HMACSHA256:
		return true
	}
	return false
}

// parseSecret reads a raw HMAC secret file written in enc, for alg (an
// HMAC algorithm). A file that is, or decodes to, a key in a standard
// encoding is refused (keyKind): a public key used as an HMAC secret lets
// anyone who has it forge tokens. Its errors never quote the file.
func parseSecret(data []byte, alg signet.Algorithm, enc secretEncoding) (*signet.Key, error) {
	secret, err := readSecret(data, enc, "an HMAC secret", "a JWK, PEM or PASERK file")
	if err != nil {
		return nil, err
	}
	return signet.NewKey(alg, secret)
}

// readSecret returns the secret of a file written in enc, refusing a file
// that is, or decodes to, a key in a standard encoding (keyKind): use says
// what the secret is for ("an HMAC secret"), formats where a key is read
// from instead ("a JWK or PEM file").
func readSecret(data []byte, enc secretEncoding, use, formats string) ([]byte, error) {
	kind := keyKind(data)
	var secret []byte
	if kind == "" {
		var err error
		if secret, err = decodeSecret(data, enc); err != nil {
			return nil, err
		}
		if enc != secretRaw {
			kind = keyKind(secret)
		}
	}
	if kind != "" {
		return nil, fmt.Errorf("%w: the secret file holds %s: a public or private key is never used as %s (read a key from %s, without --secret-encoding)", signet.ErrKeyUsage, kind, use, formats)
	}
	return secret, nil
}

// decodeSecret returns the secret a file written in enc holds.
func decodeSecret(data []byte, enc secretEncoding) ([]byte, error) {
	if enc == secretRaw {
		if len(data) == 0 {
			return nil, fmt.Errorf("%w: the secret file is empty", signet.ErrMalformed)
		}
		return data, nil
	}
	t := stripSpace(data)
	if len(t) == 0 {
		return nil, fmt.Errorf("%w: the secret file holds no text", signet.ErrMalformed)
	}
	if enc == secretHex {
		out := make([]byte, hex.DecodedLen(len(t)))
		if _, err := hex.Decode(out, t); err != nil { // err would quote a byte
			return nil, fmt.Errorf("%w: the secret file is not hex", signet.ErrMalformed)
		}
		return out, nil
	}
	out, ok := decodeBase64(t)
	if !ok {
		return nil, fmt.Errorf("%w: the secret file is not base64 (standard or URL alphabet, canonical)", signet.ErrMalformed)
	}
	return out, nil
}

// decodeBase64 decodes t, in the URL alphabet when it has '-' or '_' and
// the standard one otherwise, padded when it ends in '=', strictly (no
// stray bits).
func decodeBase64(t []byte) ([]byte, bool) {
	url, padded := bytes.ContainsAny(t, "-_"), bytes.HasSuffix(t, []byte("="))
	enc := base64.RawStdEncoding
	switch {
	case url && padded:
		enc = base64.URLEncoding
	case url:
		enc = base64.RawURLEncoding
	case padded:
		enc = base64.StdEncoding
	}
	enc = enc.Strict()
	out := make([]byte, enc.DecodedLen(len(t)))
	n, err := enc.Decode(out, t)
	return out[:n], err == nil
}

// stripSpace returns b without ASCII white space.
func stripSpace(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for _, c := range b {
		if bytes.IndexByte([]byte(asciiSpace), c) < 0 {
			out = append(out, c)
		}
	}
	return out
}

// keyKind names the key encoding b is, or "" when it is none of them: a
// PEM block of any type, a JSON object with "kty" (a JWK) or "keys" (a
// JWK Set), a PASERK (k3. or k4. and a PASERK type), an OpenSSH public
// key line, or DER (PKCS #8, SPKI, PKCS #1, SEC 1, an X.509 certificate)
// as bytes, base64 or hex. Each is recognized by parsing, never by a
// marker that a random secret could contain: a random secret is none of
// them.
func keyKind(b []byte) string {
	t := bytes.Trim(bytes.TrimPrefix(b, utf8BOM), asciiSpace)
	if blk, _ := pem.Decode(t); blk != nil {
		return fmt.Sprintf("a PEM block (%q)", clip.String(blk.Type))
	}
	if k := jsonKeyKind(t); k != "" {
		return k
	}
	if isPASERKText(t) {
		return "a PASERK"
	}
	if isSSHKey(t) {
		return "an OpenSSH public key"
	}
	if k := derKind(b); k != "" {
		return "a DER " + k
	}
	s := stripSpace(t)
	if len(s) == 0 {
		return ""
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if d, err := enc.DecodeString(string(s)); err == nil {
			if k := derKind(d); k != "" {
				return "a base64 DER " + k
			}
		}
	}
	if d, err := hex.DecodeString(string(s)); err == nil {
		if k := derKind(d); k != "" {
			return "a hex DER " + k
		}
	}
	return ""
}

// jsonKeyKind names a JWK or JWK Set: valid JSON, an object with a "kty"
// or a "keys" member.
func jsonKeyKind(t []byte) string {
	if len(t) == 0 || t[0] != '{' {
		return ""
	}
	s := string(t)
	if jsonx.Valid(s) != nil {
		return ""
	}
	m := jsonx.NewMembers(s)
	for m.Next(s) {
		switch m.Name(s) {
		case "kty":
			return "a JWK"
		case "keys":
			return "a JWK Set"
		}
	}
	return ""
}

// paserkTypes are the PASERK types: keys, key IDs, and wrapped, password
// protected and sealed keys.
var paserkTypes = []string{"local", "public", "secret", "lid", "pid", "sid", "local-wrap", "secret-wrap", "local-pw", "secret-pw", "seal"}

// isPASERKText reports whether t starts as a PASERK: "k3." or "k4.", a
// PASERK type and ".".
func isPASERKText(t []byte) bool {
	for _, v := range []string{"k3.", "k4."} {
		rest, ok := bytes.CutPrefix(t, []byte(v))
		if !ok {
			continue
		}
		for _, typ := range paserkTypes {
			if bytes.HasPrefix(rest, []byte(typ+".")) {
				return true
			}
		}
	}
	return false
}

// isSSHKey reports whether t starts with an OpenSSH public key line,
// "TYPE BASE64 …", whose base64 blob names the same TYPE.
func isSSHKey(t []byte) bool {
	line, _, _ := bytes.Cut(t, []byte("\n"))
	f := bytes.Fields(line)
	if len(f) < 2 {
		return false
	}
	blob, err := base64.StdEncoding.DecodeString(string(f[1]))
	if err != nil || len(blob) < 4 {
		return false
	}
	n := binary.BigEndian.Uint32(blob)
	return n > 0 && uint64(n) <= uint64(len(blob)-4) && bytes.Equal(blob[4:4+n], f[0])
}

// derKind names the DER key structure d is, parsed whole: "" when none.
// PKCS #8 and SPKI are parsed as structures, whatever their algorithm, so
// that a key signet cannot use is recognized as well.
func derKind(d []byte) string {
	if len(d) == 0 || d[0] != 0x30 { // every one is a SEQUENCE
		return ""
	}
	var p8 struct {
		Version    int
		Algorithm  pkix.AlgorithmIdentifier
		PrivateKey []byte
	}
	if rest, err := asn1.Unmarshal(d, &p8); err == nil && len(rest) == 0 {
		return "PKCS #8 private key"
	}
	if _, err := x509.ParsePKCS8PrivateKey(d); err == nil {
		return "PKCS #8 private key"
	}
	var spki struct {
		Algorithm pkix.AlgorithmIdentifier
		PublicKey asn1.BitString
	}
	if rest, err := asn1.Unmarshal(d, &spki); err == nil && len(rest) == 0 {
		return "SPKI public key"
	}
	if _, err := x509.ParsePKIXPublicKey(d); err == nil {
		return "SPKI public key"
	}
	if _, err := x509.ParsePKCS1PrivateKey(d); err == nil {
		return "PKCS #1 RSA private key"
	}
	if _, err := x509.ParsePKCS1PublicKey(d); err == nil {
		return "PKCS #1 RSA public key"
	}
	if _, err := x509.ParseECPrivateKey(d); err == nil {
		return "SEC 1 EC private key"
	}
	if _, err := x509.ParseCertificate(d); err == nil {
		return "X.509 certificate"
	}
	return ""
}
