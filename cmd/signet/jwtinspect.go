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

// inspection is what jwt inspect prints.
type inspection struct {
	Header   json.RawMessage `json:"header"`
	Claims   json.RawMessage `json:"claims"`
	Verified bool            `json:"verified"`
}

// jwtInspect: signet jwt inspect < TOKEN. It decodes, strictly, without
// verifying anything, and says so.
func (c *cli) jwtInspect(args []string) error {
	cmd := newCommand("jwt inspect", "jwt inspect < TOKEN")
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
	if len(parts) != 3 {
		return fmt.Errorf("%w: want 3 segments (header.payload.signature), have %d", signet.ErrMalformed, len(parts))
	}
	header, err := decodeObjectSegment(parts[0], "header")
	if err != nil {
		return err
	}
	claims, err := decodeObjectSegment(parts[1], "claims")
	if err != nil {
		return err
	}
	if parts[2] == "" {
		return fmt.Errorf("%w: empty signature", signet.ErrMalformed)
	}
	if _, err := b64.DecodeString(parts[2]); err != nil {
		return fmt.Errorf("%w: signature is not strict base64url", signet.ErrMalformed)
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(inspection{Header: header, Claims: claims}); err != nil {
		return fmt.Errorf("%w: %v", signet.ErrMalformed, err)
	}
	if _, err := c.stdout.Write(out.Bytes()); err != nil {
		return err
	}
	c.warn("not verified: the signature was not checked; do not trust these claims")
	return nil
}

// decodeObjectSegment decodes one segment of a compact JWS, strict
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
