package jwt

import (
	"fmt"
	"strings"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/clip"
	"github.com/signet-go/signet/internal/joseheader"
	"github.com/signet-go/signet/internal/jsonx"
)

// Header is the protected header of a verified JWS, reduced to the members
// signet acts on. Members that name keys or URLs (jwk, jku, x5u, x5c, kid
// aside) are never trusted or fetched: the caller's keys decide.
type Header struct {
	Algorithm   signet.Algorithm // alg: always the verifying key's algorithm (EdDSA for a header alg "Ed25519")
	KeyID       string           // kid, "" when absent
	Type        string           // typ, "" when absent
	ContentType string           // cty, "" when absent
}

// parseHeader reads a decoded protected header strictly: a JSON object
// without duplicate names, alg a string (never "none"), kid/typ/cty
// strings, crit refused (signet understands no extension), b64, zip and enc
// refused (RFC 7797 payloads, compression and JWE are not supported).
func parseHeader(s string) (Header, error) {
	if h, ok := fastHeader(s); ok {
		return h, nil
	}
	var h Header
	var hasAlg bool
	var err error
	m := jsonx.NewMembers(s)
	for err == nil && m.Next(s) {
		v := m.Value(s)
		switch m.Name(s) {
		case "alg":
			var a string
			a, err = headerString("alg", v)
			h.Algorithm, hasAlg = headerAlg(a), true
		case "kid":
			h.KeyID, err = headerString("kid", v)
		case "typ":
			h.Type, err = headerString("typ", v)
		case "cty":
			h.ContentType, err = headerString("cty", v)
		case "crit":
			err = joseheader.CritError(v)
		case "b64":
			err = fmt.Errorf("%w: header b64 (RFC 7797)", signet.ErrUnsupported)
		case "zip":
			err = fmt.Errorf("%w: header zip", signet.ErrUnsupported)
		case "enc":
			err = fmt.Errorf("%w: header enc (JWE)", signet.ErrUnsupported)
		}
	}
	if err == nil && m.Err() != nil {
		err = fmt.Errorf("%w: header: %v", signet.ErrMalformed, m.Err())
	}
	switch {
	case err != nil:
		return Header{}, err
	case !hasAlg:
		return Header{}, fmt.Errorf("%w: header has no alg", signet.ErrMalformed)
	case isNone(string(h.Algorithm)):
		return Header{}, fmt.Errorf("%w: alg %q is never accepted", signet.ErrAlgorithmMismatch, clip.String(string(h.Algorithm)))
	case joseheader.SameType(h.ContentType, "JWT"):
		return Header{}, fmt.Errorf("%w: nested JWT (cty JWT)", signet.ErrUnsupported)
	}
	return h, nil
}

// fastHeader recognises the headers signet writes, {"alg":"A"} with
// ,"kid":"K" and ,"typ":"T" optional and in that order, all values plain
// printable ASCII. Whatever it accepts, the general parser accepts with the
// same result; anything else (including alg "none") goes to that parser.
func fastHeader(s string) (Header, bool) {
	var h Header
	rest, ok := strings.CutPrefix(s, `{"alg":"`)
	if !ok {
		return h, false
	}
	var alg string
	if alg, rest, ok = plainValue(rest); !ok || isNone(alg) {
		return h, false
	}
	h.Algorithm = headerAlg(alg)
	if r, found := strings.CutPrefix(rest, `,"kid":"`); found {
		if h.KeyID, rest, ok = plainValue(r); !ok {
			return h, false
		}
	}
	if r, found := strings.CutPrefix(rest, `,"typ":"`); found {
		if h.Type, rest, ok = plainValue(r); !ok {
			return h, false
		}
	}
	return h, rest == "}"
}

// plainValue splits s at its first quote; the value before it must be
// printable ASCII without a backslash.
func plainValue(s string) (value, rest string, ok bool) {
	i := jsonx.PlainRun(s, 0)
	if i >= len(s) || s[i] != '"' {
		return "", "", false
	}
	return s[:i], s[i+1:], true
}

// headerString reads a string member; name is one of the constant member
// names, never input.
func headerString(name, v string) (string, error) {
	if v[0] != '"' {
		return "", fmt.Errorf("%w: header %s must be a string", signet.ErrMalformed, name)
	}
	s, err := jsonx.Unquote(v)
	if err != nil {
		return "", fmt.Errorf("%w: header %s: %v", signet.ErrMalformed, name, err)
	}
	return s, nil
}

// headerAlg names the algorithm a header's alg asks for. "Ed25519", the
// fully-specified name RFC 9864 gives EdDSA with the Ed25519 parameter set
// (and prefers to the polymorphic "EdDSA" of RFC 8037), is signet.EdDSA:
// signet's EdDSA is Ed25519 and nothing else, so both names ask for the
// same check by the same key. The key still decides: an "Ed25519" header
// meets an ES256 or HS256 key with ErrAlgorithmMismatch, like "EdDSA". The
// lowercase "ed25519" stays the RFC 9421 algorithm, which is no JWS one.
func headerAlg(a string) signet.Algorithm {
	if a == "Ed25519" {
		return signet.EdDSA
	}
	return signet.Algorithm(a)
}

func isNone(alg string) bool {
	return len(alg) == 4 && (alg[0]|0x20) == 'n' && (alg[1]|0x20) == 'o' && (alg[2]|0x20) == 'n' && (alg[3]|0x20) == 'e'
}

// appendHeader writes the protected header signet signs with: alg, then kid
// and typ when set. Values are JSON-escaped.
func appendHeader(b []byte, alg signet.Algorithm, kid, typ string) []byte {
	b = append(b, `{"alg":`...)
	b = jsonx.AppendString(b, string(alg))
	if kid != "" {
		b = append(b, `,"kid":`...)
		b = jsonx.AppendString(b, kid)
	}
	if typ != "" {
		b = append(b, `,"typ":`...)
		b = jsonx.AppendString(b, typ)
	}
	return append(b, '}')
}
