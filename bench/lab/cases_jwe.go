package lab

import (
	"fmt"
	"log"
	"slices"
	"strings"
)

// JWEAlgs are the JWE rows of the lab, each a key-management algorithm
// and a content encryption joined by "+" (the last "+" part is enc), in
// report order.
var JWEAlgs = []string{
	"dir+A256GCM",
	"A256KW+A256GCM",
	"ECDH-ES+A256KW+A256GCM",
	"RSA-OAEP-256+A256GCM",
	"PBES2-HS256+A128KW+A128GCM",
	"dir+A128CBC-HS256",
}

// JWEPBES2Count is the PBES2 iteration count (p2c) every library encrypts
// with in the lab: jwx refuses more than 10,000 by default when
// decrypting, signet takes at least 1,000, go-jose up to 1,000,000, so
// 10,000 is one count all three read with their defaults.
const JWEPBES2Count = 10_000

// SplitJWE splits a lab JWE row name into its alg and enc:
// "ECDH-ES+A256KW+A256GCM" → "ECDH-ES+A256KW", "A256GCM".
func SplitJWE(name string) (alg, enc string) {
	i := strings.LastIndexByte(name, '+')
	if i < 0 {
		return name, ""
	}
	return name[:i], name[i+1:]
}

// jweCases: Encrypt and Decrypt of one payload with one JWE alg+enc, per
// library, beside the floor (floor_jwe.go). Encrypt takes the
// recipient's public key where the algorithm has one (a sender holds no
// more); Decrypt the private key or the shared secret.
func jweCases(libs []JWELib, k *Keys, name, size string) ([]Case, error) {
	spec, err := k.Spec(name)
	if err != nil {
		return nil, err
	}
	p := NewPayload(size, now)
	spec.Registered = p.Data == nil
	c := func(op, lib string, run func()) Case {
		return Case{Format: "JWE", Alg: name, Op: op, Lib: lib, Run: loop(run)}
	}
	floor, err := newJWEFloor(spec, p)
	if err != nil {
		return nil, fmt.Errorf("JWE %s floor: %w", name, err)
	}
	out := []Case{c("Encrypt", "floor", floor.encrypt), c("Decrypt", "floor", floor.decrypt)}
	for _, lib := range libs {
		if !slices.Contains(lib.Algs(), name) {
			continue
		}
		lname := lib.Name()
		x, tok, err := jweSelfCheck(lib, spec, p)
		if err != nil {
			if lname == "signet" {
				return nil, err
			}
			log.Printf("lab: JWE %s: leaving out %s: %v", name, lname, err)
			continue
		}
		out = append(out,
			c("Encrypt", lname, func() {
				if _, err := x.Encrypt(p); err != nil {
					panic(fmt.Sprintf("%s %s encrypt: %v", lname, name, err))
				}
			}),
			c("Decrypt", lname, func() {
				var back Payload
				if err := x.Decrypt(tok, &back); err != nil {
					panic(fmt.Sprintf("%s %s decrypt: %v", lname, name, err))
				}
			}),
		)
	}
	return out, nil
}

// jweSelfCheck binds lib to spec and checks it on p: its own token
// decrypts to the same claims, and the token with one tag bit flipped is
// refused. It returns the library and its token.
func jweSelfCheck(lib JWELib, spec KeySpec, p *Payload) (JWE, string, error) {
	name := lib.Name()
	x, err := lib.New(spec)
	if err != nil {
		return nil, "", fmt.Errorf("%s %s: %w", name, spec.Alg, err)
	}
	tok, err := x.Encrypt(p)
	if err != nil {
		return nil, "", fmt.Errorf("%s %s: encrypt: %w", name, spec.Alg, err)
	}
	var back Payload
	if err := x.Decrypt(tok, &back); err != nil {
		return nil, "", fmt.Errorf("%s %s: its own token does not decrypt: %w", name, spec.Alg, err)
	}
	if back.Subject != p.Subject || back.ExpiresAt != p.ExpiresAt || back.Audience != p.Audience || (back.Data == nil) != (p.Data == nil) {
		return nil, "", fmt.Errorf("%s %s: its own token decrypts to other claims", name, spec.Alg)
	}
	if x.Decrypt(forge(tok), &back) == nil {
		return nil, "", fmt.Errorf("%s %s: accepts a token with a flipped tag", name, spec.Alg)
	}
	return x, tok, nil
}

// jweSizeCases: Encrypt and Decrypt of one payload size class.
func jweSizeCases(libs []JWELib, k *Keys, name, size string) ([]Case, error) {
	cs, err := jweCases(libs, k, name, size)
	for i := range cs {
		cs[i].Size = size
	}
	return cs, err
}
