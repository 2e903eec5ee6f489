package main

import (
	"crypto/ecdh"
	"crypto/rand"
	"fmt"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/clip"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/paserk"
)

// keygen: signet keygen ALG [--kid ID] [--enc ENC] [--crv CRV]. The new
// private key goes to stdout as a JWK, or as a PASERK (k4.local,
// k4.secret, k3.local, k3.secret) for the PASETO algorithms. A JWE key
// (ALG a key-management algorithm) is a JWK with "use":"enc", made for
// --enc (default A256GCM) and, for ECDH-ES, on --crv (default P-256).
func (c *cli) keygen(args []string) error {
	cmd := newCommand("keygen", "keygen ALG [--kid ID] [--enc ENC] [--crv P-256|P-384|X25519]")
	kid := cmd.fs.String("kid", "", "key `ID` to record in the JWK (\"kid\"); not for PASETO keys")
	encName := cmd.fs.String("enc", string(signet.A256GCM), "for a JWE key: the content encryption `ENC` it is made for ("+encryptionList()+"); a dir key is a key of its size, the others do not depend on it")
	crv := cmd.fs.String("crv", "P-256", "for an ECDH-ES key: the curve `CRV`, P-256, P-384 or X25519")
	pos, set, err := c.parse(cmd, args)
	if err != nil {
		return err
	}
	c.secretOut = true // a private key or a shared secret
	if len(pos) != 1 {
		return cmd.usageErr("want exactly one algorithm (one of %s %s)", algorithmList(), jweAlgorithmList())
	}
	alg, err := cmd.parseAlg(pos[0])
	if err != nil {
		return err
	}
	if alg.IsJWE() {
		return c.keygenJWE(cmd, alg, *kid, *encName, *crv, set)
	}
	switch {
	case set["enc"]:
		return cmd.usageErr("--enc applies to JWE keys (%s), not to %s", jweAlgorithmList(), alg)
	case set["crv"]:
		return cmd.usageErr("--crv applies to ECDH-ES keys, not to %s (its algorithm fixes its curve)", alg)
	}
	if pasetoAlgorithms[alg] {
		if set["kid"] {
			return cmd.usageErr("--kid does not apply to %s: a PASERK has no key ID; a PASETO key's ID is its PASERK ID (paserk.ID, %s.lid or %[2]s.pid), computed from the key", alg, paserkVersion(alg))
		}
		return c.keygenPASERK(alg)
	}
	key, err := signet.GenerateKeyWithID(alg, *kid)
	if err != nil {
		return err
	}
	return c.writeJWK(key)
}

// writeJWK prints key as a private JWK, on one line.
func (c *cli) writeJWK(key *signet.Key) error {
	out, err := jwk.Marshal(key)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(c.stdout, "%s\n", out)
	return err
}

// ecdhCurves are the curves --crv names, for ECDH-ES keys.
var ecdhCurves = map[string]ecdh.Curve{"P-256": ecdh.P256(), "P-384": ecdh.P384(), "X25519": ecdh.X25519()}

// keygenJWE prints a new JWE key for alg and the content encryption
// encName as a JWK ("use":"enc"). A PBES2 key is a random password of 32
// base64url characters (192 bits) in the JWK's "k"; a password of one's
// own is read from a file with --secret-encoding instead.
func (c *cli) keygenJWE(cmd *command, alg signet.Algorithm, kid, encName, crv string, set map[string]bool) error {
	enc, err := signet.ParseEncryption(encName)
	if err != nil {
		return cmd.usageErr("unknown content encryption %q (one of %s)", clip.String(encName), encryptionList())
	}
	isECDH := alg == signet.ECDHES || alg == signet.ECDHESA128KW || alg == signet.ECDHESA256KW
	curve, ok := ecdhCurves[crv]
	switch {
	case set["crv"] && !isECDH:
		return cmd.usageErr("--crv applies to ECDH-ES keys, not to %s", alg)
	case !ok:
		return cmd.usageErr("--crv must be P-256, P-384 or X25519, not %q", clip.String(crv))
	case alg == signet.RSAOAEP:
		return cmd.usageErr("RSA-OAEP (SHA-1) keys only decrypt what others send: signet reads them but does not make them; make an RSA-OAEP-256 key")
	}
	var key *signet.Key
	if isECDH {
		var priv *ecdh.PrivateKey
		if priv, err = curve.GenerateKey(rand.Reader); err != nil {
			return fmt.Errorf("generate %s key: %w", alg, err)
		}
		key, err = signet.NewEncryptionKeyWithID(alg, enc, kid, priv)
	} else {
		key, err = signet.GenerateEncryptionKeyWithID(alg, enc, kid)
	}
	if err != nil {
		return err
	}
	if err := c.writeJWK(key); err != nil {
		return err
	}
	if enc != signet.A256GCM {
		c.warn("a JWK names its alg, not its enc: give --enc %s to signet jwe encrypt and decrypt with this key", enc)
	}
	return nil
}

// keygenPASERK prints a new PASETO key for alg as a PASERK.
func (c *cli) keygenPASERK(alg signet.Algorithm) error {
	key, err := signet.GenerateKey(alg)
	if err != nil {
		return err
	}
	s, err := paserk.Encode(key)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(c.stdout, s)
	return err
}
