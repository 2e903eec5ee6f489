package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/b64"
	"github.com/signet-go/signet/internal/clip"
	"github.com/signet-go/signet/internal/jsonx"
)

// inspection is what jwt inspect prints for a JWS.
type inspection struct {
	Header   json.RawMessage `json:"header"`
	Claims   json.RawMessage `json:"claims"`
	Verified bool            `json:"verified"`
}

// jweInspection is what jwt inspect prints for a JWE: the protected
// header only, the rest being encrypted.
type jweInspection struct {
	Header    json.RawMessage `json:"header"`
	Encrypted bool            `json:"encrypted"`
	Verified  bool            `json:"verified"`
}

// jwtInspect: signet jwt inspect < TOKEN.
func (c *cli) jwtInspect(args []string) error { return c.inspect("jwt inspect", args) }

// inspect: signet jwt inspect < TOKEN (and jwe inspect, the same). It
// decodes, strictly, without verifying or decrypting anything, and says
// so: a JWS (three segments) shows its header and claims, a JWE (five
// segments) its protected header.
func (c *cli) inspect(name string, args []string) error {
	cmd := newCommand(name, name+" < TOKEN")
	pos, _, err := c.parse(cmd, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return cmd.usageErr("unexpected argument %q (the token is read from stdin)", clip.String(pos[0]))
	}
	token, err := readToken(c)
	if err != nil {
		return err
	}
	parts := strings.Split(token, ".")
	var v any
	var warning string
	switch len(parts) {
	case 3:
		if v, err = inspectJWS(parts); err != nil {
			return err
		}
		warning = "not verified: the signature was not checked; do not trust these claims"
	case 5:
		if v, err = inspectJWE(parts); err != nil {
			return err
		}
		warning = "not decrypted: this is a JWE, whose claims are encrypted; nothing was checked, not even the header (signet jwe decrypt reads it)"
	default:
		return fmt.Errorf("%w: want 3 segments (a JWS: header.payload.signature) or 5 (a JWE: header.key.iv.ciphertext.tag), have %d", signet.ErrMalformed, len(parts))
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("%w: %v", signet.ErrMalformed, err)
	}
	if _, err := c.stdout.Write(escapeTerminalControls(out.Bytes())); err != nil {
		return err
	}
	c.warn("%s", warning)
	return nil
}

// inspectJWS decodes the three segments of a compact JWS.
func inspectJWS(parts []string) (any, error) {
	header, err := decodeObjectSegment(parts[0], "header")
	if err != nil {
		return nil, err
	}
	claims, err := decodeObjectSegment(parts[1], "claims")
	if err != nil {
		return nil, err
	}
	if parts[2] == "" {
		return nil, fmt.Errorf("%w: empty signature", signet.ErrMalformed)
	}
	if _, err := b64.DecodeString(parts[2]); err != nil {
		return nil, fmt.Errorf("%w: signature is not strict base64url", signet.ErrMalformed)
	}
	return inspection{Header: header, Claims: claims}, nil
}

// inspectJWE decodes the protected header of a compact JWE and checks
// that the other four segments are strict base64url, only the encrypted
// key (empty for dir and ECDH-ES) allowed to be empty.
func inspectJWE(parts []string) (any, error) {
	header, err := decodeObjectSegment(parts[0], "header")
	if err != nil {
		return nil, err
	}
	for i, what := range []string{"encrypted key", "iv", "ciphertext", "tag"} {
		seg := parts[i+1]
		if seg == "" {
			if i == 0 {
				continue
			}
			return nil, fmt.Errorf("%w: empty %s", signet.ErrMalformed, what)
		}
		if _, err := b64.DecodeString(seg); err != nil {
			return nil, fmt.Errorf("%w: %s is not strict base64url", signet.ErrMalformed, what)
		}
	}
	return jweInspection{Header: header, Encrypted: true}, nil
}

// decodeObjectSegment decodes one segment of a compact JWS or JWE, strict
// base64url, and checks that it is a JSON object without repeated names.
func decodeObjectSegment(seg, what string) (json.RawMessage, error) {
	b, err := b64.DecodeString(seg)
	if err != nil {
		return nil, fmt.Errorf("%w: %s is not strict base64url", signet.ErrMalformed, what)
	}
	if len(b) == 0 || b[0] != '{' {
		return nil, fmt.Errorf("%w: %s is not a JSON object", signet.ErrMalformed, what)
	}
	if err := jsonx.Valid(string(b)); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", signet.ErrMalformed, what, err)
	}
	return b, nil
}

// escapeTerminalControls rewrites, in JSON text js, every character a
// terminal may act on or that changes how the text is shown, as a \uXXXX
// escape (a UTF-16 surrogate pair beyond U+FFFF): DEL and the C1 controls
// (U+009B is CSI, as ESC [ is), the format characters (bidi overrides and
// isolates, invisible tags) and the line and paragraph separators. JSON
// escapes the C0 controls already, but takes these raw; an untrusted
// token must not reach a terminal with them. Outside strings valid JSON
// is ASCII without DEL, so each such character is inside a string, where
// its escape means the same: the output is the same JSON value. (A byte
// that is not UTF-8, which the decoder already refuses, would become
// \ufffd.)
func escapeTerminalControls(js []byte) []byte {
	const hexd = "0123456789abcdef"
	var out []byte
	start := 0
	for i := 0; i < len(js); {
		if js[i] < 0x7f {
			i++
			continue
		}
		r, size := utf8.DecodeRune(js[i:])
		invalid := r == utf8.RuneError && size == 1 // a lone byte such as 0x9b, 8-bit CSI
		if !invalid && !unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp) {
			i += size
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(js)+32)
		}
		out = append(out, js[start:i]...)
		var units [2]uint16
		for _, u := range utf16.AppendRune(units[:0], r) {
			out = append(out, '\\', 'u', hexd[u>>12&0xf], hexd[u>>8&0xf], hexd[u>>4&0xf], hexd[u&0xf])
		}
		i += size
		start = i
	}
	if out == nil {
		return js
	}
	return append(out, js[start:]...)
}
