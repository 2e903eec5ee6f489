package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
)

// interopCase is one case of the interop request (bench/xlang/README.md).
type interopCase struct {
	ID     string         `json:"id"`
	Op     string         `json:"op"` // "sign" or "verify"
	Alg    string         `json:"alg"`
	Key    interopKey     `json:"key"`
	Claims map[string]any `json:"claims,omitempty"`
	Token  string         `json:"token,omitempty"`
}

// interopKey is a case's key: the HMAC secret, or a PEM key pair.
type interopKey struct {
	SecretB64URL    string `json:"secret_b64url,omitempty"`
	PrivatePKCS8PEM string `json:"private_pkcs8_pem,omitempty"`
	PublicSPKIPEM   string `json:"public_spki_pem,omitempty"`
}

func (k interopKey) secret() ([]byte, error) {
	return base64.RawURLEncoding.DecodeString(k.SecretB64URL)
}

// interopResult is one case's answer.
type interopResult struct {
	ID     string         `json:"id"`
	Token  string         `json:"token,omitempty"`
	OK     *bool          `json:"ok,omitempty"`
	Claims map[string]any `json:"claims,omitempty"`
	Error  string         `json:"error,omitempty"`
}

func (c *interopCase) failed(err error) interopResult {
	f := false
	return interopResult{ID: c.ID, OK: &f, Error: err.Error()}
}

func (c *interopCase) verified(claims map[string]any) interopResult {
	t := true
	return interopResult{ID: c.ID, OK: &t, Claims: claims}
}

func interop(lib library, stdin io.Reader, stdout io.Writer) error {
	var req struct {
		Cases []interopCase `json:"cases"`
	}
	if err := json.NewDecoder(io.LimitReader(stdin, 16<<20)).Decode(&req); err != nil {
		return fmt.Errorf("reading the request: %w", err)
	}
	resp := struct {
		Results []interopResult `json:"results"`
	}{Results: make([]interopResult, 0, len(req.Cases))}
	for i := range req.Cases {
		c := &req.Cases[i]
		switch c.Op {
		case "sign", "verify":
			resp.Results = append(resp.Results, lib.interop(c))
		default:
			resp.Results = append(resp.Results, c.failed(fmt.Errorf("unknown op %q", c.Op)))
		}
	}
	return json.NewEncoder(stdout).Encode(resp)
}
