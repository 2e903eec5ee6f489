package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/jsonx"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/paserk"
)

// keyFormat is the encoding of a key file (without --secret-encoding),
// told by its first bytes.
type keyFormat int

const (
	formatUnknown keyFormat = iota // none of the three
	formatJWK                      // a JSON object
	formatPEM                      // a "-----BEGIN " block
	formatPASERK                   // k3.… or k4.…
)

// detectFormat tells a key's encoding: a JSON object is a JWK, text with
// a PEM block is PEM, a PASERK prefix is PASERK. It is never asked about
// a raw secret: --secret-encoding says that a file is one.
func detectFormat(data []byte) keyFormat {
	t := bytes.TrimLeft(bytes.TrimPrefix(data, utf8BOM), " \t\r\n")
	switch {
	case len(t) > 0 && t[0] == '{':
		return formatJWK
	case bytes.Contains(data, []byte("-----BEGIN ")):
		return formatPEM
	case bytes.HasPrefix(t, []byte("k3.")) || bytes.HasPrefix(t, []byte("k4.")):
		return formatPASERK
	}
	return formatUnknown
}

var utf8BOM = []byte("\xef\xbb\xbf")

// readLimited reads all of r, refusing more than maxInput bytes.
func readLimited(r io.Reader, what string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxInput+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", what, err)
	}
	if len(data) > maxInput {
		return nil, fmt.Errorf("%w: %s is larger than %d bytes", signet.ErrTooLarge, what, maxInput)
	}
	return data, nil
}

// readClaims reads claims JSON from the file at path, or stdin when path
// is empty, without surrounding white space.
func (c *cli) readClaims(path string) ([]byte, error) {
	var data []byte
	var err error
	if path != "" {
		data, err = readFile(path, "claims file")
	} else {
		data, err = readLimited(c.stdin, "claims on stdin")
	}
	return bytes.Trim(data, " \t\r\n"), err
}

// loadKey reads the key file at path (--key), bound to alg when alg is
// not "" (--alg); with enc (--secret-encoding), the file is a raw HMAC
// secret.
func loadKey(path string, alg signet.Algorithm, enc secretEncoding) (*signet.Key, error) {
	data, err := readFile(path, "key file")
	if err != nil {
		return nil, err
	}
	k, err := parseKey(data, alg, enc)
	if err != nil {
		return nil, fmt.Errorf("key file %s: %w", path, err)
	}
	return k, nil
}

// parseKey reads a key: a raw HMAC secret written in enc, or with
// secretNone a key in one of the CLI's encodings (JWK, PEM, PASERK). Its
// errors never quote the key.
func parseKey(data []byte, alg signet.Algorithm, enc secretEncoding) (*signet.Key, error) {
	if enc != secretNone {
		return parseSecret(data, alg, enc)
	}
	data = bytes.TrimPrefix(data, utf8BOM)
	k, err := parseKeyText(data, alg)
	switch {
	case err == nil || !errors.Is(err, signet.ErrMalformed):
	case isHMAC(alg):
		return nil, fmt.Errorf("%w (a raw HMAC secret needs --secret-encoding raw, base64 or hex)", err)
	case alg == "" && detectFormat(data) == formatUnknown:
		return nil, fmt.Errorf("%w (a raw HMAC secret needs --secret-encoding and --alg HS256, HS384, HS512 or hmac-sha256)", err)
	}
	return k, err
}

// parseKeyText reads a JWK, PEM or PASERK key.
func parseKeyText(data []byte, alg signet.Algorithm) (*signet.Key, error) {
	switch detectFormat(data) {
	case formatJWK:
		return parseJWK(data, alg)
	case formatPEM:
		if isLocal(alg) {
			return nil, errLocalNotPASERK(alg)
		}
		k, err := signet.ParsePEM(data, alg)
		if err != nil && alg == "" && errors.Is(err, signet.ErrUnsupported) {
			return nil, fmt.Errorf("%w (give --alg)", err)
		}
		return k, err
	case formatPASERK:
		return parsePASERK(data, alg)
	}
	switch kind := keyKind(data); {
	case len(data) == 0:
		return nil, fmt.Errorf("%w: empty", signet.ErrMalformed)
	case kind != "":
		return nil, fmt.Errorf("%w: the file holds %s: signet reads keys as JWK, PEM or PASERK", signet.ErrUnsupported, kind)
	case isLocal(alg):
		return nil, errLocalNotPASERK(alg)
	}
	return nil, fmt.Errorf("%w: not a JWK, PEM or PASERK key", signet.ErrMalformed)
}

// isLocal reports whether alg is a PASETO local (symmetric) algorithm.
func isLocal(alg signet.Algorithm) bool { return alg == signet.V4Local || alg == signet.V3Local }

// paserkVersion is the PASERK version prefix of a PASETO algorithm: k4
// for v4, k3 for v3.
func paserkVersion(alg signet.Algorithm) string {
	if alg == signet.V3Local || alg == signet.V3Public {
		return "k3"
	}
	return "k4"
}

// errLocalNotPASERK refuses a PASETO local key in another encoding than
// PASERK: raw bytes or PEM do not say which algorithm they are for, and a
// PASERK does (algorithm lucidity).
func errLocalNotPASERK(alg signet.Algorithm) error {
	return fmt.Errorf("%w: a %s key is read only as a PASERK (%s.local.…), which names its algorithm; not as PEM or a raw secret", signet.ErrUnsupported, alg, paserkVersion(alg))
}

// parsePASERK reads a plain PASERK key (k3 or k4; local, public or
// secret), which must be of alg when alg is not "". The other PASERK
// types, which hold a key ID or a key encrypted under a key or password,
// are refused with what they are. Its errors never quote the key.
func parsePASERK(data []byte, alg signet.Algorithm) (*signet.Key, error) {
	s := strings.TrimSpace(string(data))
	if err := checkPASERKType(s); err != nil {
		return nil, err
	}
	k, err := paserk.Decode(s)
	if err != nil {
		return nil, err
	}
	if alg != "" && k.Algorithm() != alg {
		return nil, fmt.Errorf("%w: the PASERK holds a %s key, --alg says %s", signet.ErrAlgorithmMismatch, k.Algorithm(), alg)
	}
	return k, nil
}

// checkPASERKType refuses the PASERK types that are not plain keys, naming
// the type but nothing else of s. s starts "k3." or "k4.".
func checkPASERKType(s string) error {
	ver, rest, _ := strings.Cut(s, ".")
	typ, _, ok := strings.Cut(rest, ".")
	if !ok {
		return nil // paserk.Decode says what is wrong
	}
	plain := fmt.Sprintf("signet reads only plain PASERK keys (%[1]s.local, %[1]s.public, %[1]s.secret)", ver)
	switch typ {
	case "local", "public", "secret":
		return nil
	case "lid", "pid", "sid":
		return fmt.Errorf("%w: a %s.%s PASERK is a key ID, not a key", signet.ErrUnsupported, ver, typ)
	case "local-wrap", "secret-wrap":
		return fmt.Errorf("%w: a %s.%s PASERK is a key encrypted with another key: %s; unwrap it first", signet.ErrUnsupported, ver, typ, plain)
	case "local-pw", "secret-pw":
		return fmt.Errorf("%w: a %s.%s PASERK is a key encrypted with a password: %s; unwrap it first", signet.ErrUnsupported, ver, typ, plain)
	case "seal":
		return fmt.Errorf("%w: a %s.seal PASERK is a key sealed to a public key: %s; unseal it first", signet.ErrUnsupported, ver, plain)
	}
	return fmt.Errorf("%w: unknown PASERK type: %s", signet.ErrUnsupported, plain)
}

// parseJWK reads a JWK, bound to alg when alg is not "". A JWK without
// "alg" needs --alg: the key, not the token, decides the algorithm.
func parseJWK(data []byte, alg signet.Algorithm) (*signet.Key, error) {
	namesAlg, err := scanJWK(data)
	if err != nil {
		return nil, err
	}
	if a, _ := scanJWKAlg(data); signet.Algorithm(a).IsJWE() {
		return nil, fmt.Errorf("%w: the JWK is a %s key, for encrypted tokens (use signet jwe)", signet.ErrAlgorithmMismatch, a)
	}
	if alg == "" && !namesAlg {
		return nil, fmt.Errorf("%w: JWK has no \"alg\"; give --alg", signet.ErrUnsupported)
	}
	return jwk.ParseKeyFor(data, alg)
}

// scanJWK checks that data is one JSON object without repeated names and
// reports whether it has an "alg" member. Its errors are jsonx's, which
// name no input: a JSON parser's "invalid character" would quote a byte
// of what may be a secret.
func scanJWK(data []byte) (namesAlg bool, err error) {
	s := string(data)
	var keys, kty bool
	m := jsonx.NewMembers(s)
	for m.Next(s) {
		switch m.Name(s) {
		case "alg":
			namesAlg = true
		case "keys":
			keys = true
		case "kty":
			kty = true
		}
	}
	if err := m.Err(); err != nil {
		return false, fmt.Errorf("%w: JWK: %v", signet.ErrMalformed, err)
	}
	if keys && !kty {
		return false, errJWKSet
	}
	return namesAlg, nil
}

// errJWKSet refuses a JWK Set (an object with "keys" and no "kty") where
// one key is read: which of its keys to take is not the CLI's to guess.
var errJWKSet = fmt.Errorf("%w: the file is a JWK Set (\"keys\"), not one JWK: give a set with --jwks (jwt verify, httpsig verify, guard), or take the one key out of it", signet.ErrUnsupported)

// loadKeySet reads the JWK Set file at path (--jwks).
func loadKeySet(path string) (*signet.KeySet, error) {
	data, err := readFile(path, "JWK Set")
	if err != nil {
		return nil, err
	}
	set, err := jwk.ParseSet(data)
	if err != nil {
		return nil, fmt.Errorf("JWK Set %s: %w", path, err)
	}
	if set.Len() == 0 {
		return nil, fmt.Errorf("JWK Set %s: %w: no key signet can verify with (keys need \"alg\" and \"use\":\"sig\" or none)", path, signet.ErrKeyNotFound)
	}
	return set, nil
}
