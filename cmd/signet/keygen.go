package main

import (
	"fmt"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/paserk"
)

// keygen: signet keygen ALG [--kid ID]. The new private key goes to
// stdout as a JWK, or as a PASERK (k4.local, k4.secret, k3.local,
// k3.secret) for the PASETO algorithms.
func (c *cli) keygen(args []string) error {
	cmd := newCommand("keygen", "keygen ALG [--kid ID]")
	kid := cmd.fs.String("kid", "", "key `ID` to record in the JWK (\"kid\"); not for PASETO keys")
	pos, set, err := c.parse(cmd, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return cmd.usageErr("want exactly one algorithm (one of %s)", algorithmList())
	}
	alg, err := cmd.parseAlg(pos[0])
	if err != nil {
		return err
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
	out, err := jwk.Marshal(key)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(c.stdout, "%s\n", out)
	return err
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
