package main

import (
	"fmt"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
)

// keygen: signet keygen ALG [--kid ID]. The new private key goes to
// stdout as a JWK.
func (c *cli) keygen(args []string) error {
	cmd := newCommand("keygen", "keygen ALG [--kid ID]")
	kid := cmd.fs.String("kid", "", "key `ID` to record in the JWK (\"kid\")")
	pos, _, err := c.parse(cmd, args)
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
