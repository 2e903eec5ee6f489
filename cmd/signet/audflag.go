package main

import (
	"errors"
	"strings"
)

// audiences is the value of --aud: repeatable, each value a comma-separated
// list ("--aud api --aud billing" is "--aud api,billing"); the token's aud
// must hold at least one of them.
type audiences []string

func (a *audiences) String() string { return strings.Join(*a, ",") }

// Set adds the audiences of one --aud; empty names are refused.
func (a *audiences) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s == "" {
			return errEmptyAudience
		}
		*a = append(*a, s)
	}
	return nil
}

var errEmptyAudience = errors.New("an empty audience name")

// audienceFlags declares --aud and --any-aud on cmd.
func audienceFlags(cmd *command) (aud *audiences, anyAud *bool) {
	aud = new(audiences)
	cmd.fs.Var(aud, "aud", "accepted audience `S` (repeatable, or a comma-separated list): the aud claim must hold one of them; without --aud a token that has aud is refused")
	anyAud = cmd.fs.Bool("any-aud", false, "do not check aud at all (only when the audience is checked elsewhere); not with --aud")
	return aud, anyAud
}
