package main

import (
	"errors"
	"strings"

	"github.com/signet-go/signet"
)

// scopeList is the value of --scope: repeatable, each value a
// space-separated list of scope names (RFC 6749 §3.3).
type scopeList []string

func (s *scopeList) String() string { return strings.Join(*s, " ") }

// Set adds the scopes of one --scope.
func (s *scopeList) Set(v string) error {
	names := strings.Fields(v)
	if len(names) == 0 {
		return errors.New("an empty scope")
	}
	*s = append(*s, names...)
	return nil
}

// algList is the value of a repeatable --alg: each value one algorithm
// name or a comma-separated list. The names are checked by the command
// (jwsAlg), which knows which kinds it takes.
type algList []signet.Algorithm

func (a *algList) String() string {
	names := make([]string, len(*a))
	for i, x := range *a {
		names[i] = string(x)
	}
	return strings.Join(names, ",")
}

// Set adds the algorithms of one --alg.
func (a *algList) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s == "" {
			return errors.New("an empty algorithm name")
		}
		*a = append(*a, signet.Algorithm(s))
	}
	return nil
}
