package main

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/clip"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/paserk"
)

// pub: signet pub [--alg ALG] < private-key. It prints the public half in
// the encoding it was given: a JWK for a JWK, SPKI PEM for PEM, a
// k4.public or k3.public PASERK for a k4.secret or k3.secret.
func (c *cli) pub(args []string) error {
	cmd := newCommand("pub", "pub [--alg ALG] < KEY")
	algName := cmd.fs.String("alg", "", "`ALG` of a key whose encoding does not name it (a JWK without \"alg\", an RSA PEM key)")
	pos, set, err := c.parse(cmd, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return cmd.usageErr("unexpected argument %q (the key is read from stdin)", clip.String(pos[0]))
	}
	alg, err := cmd.optionalAlg(*algName, set["alg"])
	if err != nil {
		return err
	}
	data, err := readLimited(c.stdin, "key on stdin")
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return fmt.Errorf("%w: no key on stdin", signet.ErrMalformed)
	}
	var out []byte
	switch detectFormat(data) {
	case formatJWK:
		key, err := parsePubJWK(data, alg)
		if err != nil {
			return fmt.Errorf("key on stdin: %w", err)
		}
		if out, err = jwk.MarshalPublic(key); err != nil {
			return err
		}
		out = append(out, '\n')
	case formatPEM:
		if isLocal(alg) {
			return fmt.Errorf("key on stdin: %w", errLocalNotPASERK(alg))
		}
		var key *signet.Key
		if alg.IsJWE() {
			// The content encryption does not change the public half.
			key, err = signet.ParseEncryptionPEM(data, alg, signet.A256GCM)
		} else {
			key, err = parsePEMAnyRSA(data, alg)
		}
		if err != nil {
			return fmt.Errorf("key on stdin: %w", err)
		}
		pub, err := key.Public()
		if err != nil {
			return err
		}
		if out, err = signet.MarshalPEM(pub); err != nil {
			return err
		}
	case formatPASERK:
		key, err := parsePASERK(data, alg)
		if err != nil {
			return fmt.Errorf("key on stdin: %w", err)
		}
		if key.Symmetric() {
			return fmt.Errorf("%w: key on stdin is a %s key, a shared secret with no public half", signet.ErrKeyUsage, key.Algorithm())
		}
		pub, err := key.Public()
		if err != nil {
			return err
		}
		s, err := paserk.Encode(pub)
		if err != nil {
			return err
		}
		out = []byte(s + "\n")
	default:
		return fmt.Errorf("%w: key on stdin is not a JWK, PEM or PASERK key (an HMAC secret has no public half)", signet.ErrKeyUsage)
	}
	_, err = c.stdout.Write(out)
	return err
}

// parsePEMAnyRSA is ParsePEM for pub: SPKI output does not name an
// algorithm, so an RSA key without --alg is read as RS256, which accepts
// the same keys as the other five RSA algorithms.
func parsePEMAnyRSA(data []byte, alg signet.Algorithm) (*signet.Key, error) {
	k, err := signet.ParsePEM(data, alg)
	if err != nil && alg == "" && errors.Is(err, signet.ErrUnsupported) {
		if rk, rerr := signet.ParsePEM(data, signet.RS256); rerr == nil {
			return rk, nil
		}
	}
	return k, err
}

// parsePubJWK is parseJWK for pub, which also reads JWE keys: a JWK whose
// "alg" (or --alg) is a JWE key-management algorithm. A JWE JWK names no
// content encryption, and none changes the public half: it is read for
// A256GCM. A shared JWE secret or password has no public half.
func parsePubJWK(data []byte, alg signet.Algorithm) (*signet.Key, error) {
	jwkAlg, err := scanJWKAlg(data)
	if err != nil {
		return nil, err
	}
	a := alg
	if a == "" {
		a = signet.Algorithm(jwkAlg)
	}
	switch {
	case jweSecretAlg(a) || isDirEncName(string(a)):
		return nil, fmt.Errorf("%w: a %s key is a shared secret or password with no public half", signet.ErrKeyUsage, clip.String(string(a)))
	case a.IsJWE():
		return jwk.ParseEncryptionKeyFor(data, alg, signet.A256GCM)
	}
	return parseJWK(data, alg)
}
