package main

import (
	"fmt"
	"time"

	"github.com/signet-go/signet/jwt"
)

// policyFlags are the claim checks that jwt verify and jwe decrypt share:
// --iss, --aud, --any-aud, --leeway, --no-exp and --typ.
type policyFlags struct {
	iss    *string
	aud    *audiences
	anyAud *bool
	leeway *time.Duration
	noExp  *bool
	typ    *string
}

// addPolicyFlags registers the checks on cmd; typHelp says what --typ
// applies to.
func addPolicyFlags(cmd *command, typHelp string) policyFlags {
	var f policyFlags
	f.iss = cmd.fs.String("iss", "", "required issuer (iss claim)")
	f.aud, f.anyAud = audienceFlags(cmd)
	f.leeway = cmd.fs.Duration("leeway", 0, fmt.Sprintf("clock skew allowed for exp, nbf and iat, at most %v", jwt.MaxLeeway))
	f.noExp = cmd.fs.Bool("no-exp", false, "accept a token without exp (exp is still checked when present)")
	f.typ = cmd.fs.String("typ", "", typHelp)
	return f
}

// usageErr is the usage error of flags that cannot go together, nil when
// they can.
func (f policyFlags) usageErr(cmd *command) error {
	switch {
	case *f.leeway < 0 || *f.leeway > jwt.MaxLeeway:
		return cmd.usageErr("--leeway must be between 0 and %v", jwt.MaxLeeway)
	case len(*f.aud) > 0 && *f.anyAud:
		return cmd.usageErr("give --aud or --any-aud, not both")
	}
	return cmd.emptyCheckErr("iss", "typ")
}

// policy is the Policy the flags ask for, at the CLI's clock and input
// limit.
func (f policyFlags) policy(c *cli) jwt.Policy {
	return jwt.Policy{
		Issuer:         *f.iss,
		Audience:       *f.aud,
		IgnoreAudience: *f.anyAud,
		Type:           *f.typ,
		Leeway:         *f.leeway,
		NoExpiry:       *f.noExp,
		Now:            c.now,
		MaxSize:        maxInput,
	}
}
