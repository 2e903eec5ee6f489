package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

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
	if _, err := c.stdout.Write(out.Bytes()); err != nil {
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
