package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/clip"
)

// usageError is a command line the CLI cannot act on: exit code 2, the
// message on stderr, then the usage text when there is one.
type usageError struct {
	msg   string
	usage string
}

func (e *usageError) Error() string { return e.msg }

// command is one subcommand's flag set and synopsis.
type command struct {
	name     string // as typed: "keygen", "jwt sign"
	synopsis string // the usage line, without "signet "
	fs       *flag.FlagSet
}

func newCommand(name, synopsis string) *command {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors and usage are reported by the caller
	fs.Usage = func() {}
	return &command{name: name, synopsis: synopsis, fs: fs}
}

// usage is the command's help: the synopsis and its flags.
func (cmd *command) usage() string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "Usage:\n  signet %s\n", cmd.synopsis)
	n := 0
	cmd.fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		b.WriteString("\nFlags:\n")
		cmd.fs.SetOutput(&b)
		cmd.fs.PrintDefaults()
		cmd.fs.SetOutput(io.Discard)
	}
	return b.String()
}

// usageErr makes a usage error for this command, with its help.
func (cmd *command) usageErr(format string, args ...any) error {
	return &usageError{msg: cmd.name + ": " + fmt.Sprintf(format, args...), usage: cmd.usage()}
}

// errHelp is returned by parse when -h was given: the help went to
// stdout and the command has nothing more to do.
var errHelp = errors.New("help printed")

// parse parses args, with flags allowed before and after positional
// arguments (as in "keygen ES256 --kid k1"); "--" ends the flags. It
// returns the positional arguments and the set of flags given.
func (c *cli) parse(cmd *command, args []string) ([]string, map[string]bool, error) {
	var pos []string
	for {
		if err := cmd.fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				if _, werr := io.WriteString(c.stdout, cmd.usage()); werr != nil {
					return nil, nil, werr
				}
				return nil, nil, errHelp
			}
			return nil, nil, cmd.usageErr("%v", err)
		}
		rest := cmd.fs.Args()
		if len(rest) == 0 {
			break
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			pos = append(pos, rest...)
			break
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
	set := make(map[string]bool)
	cmd.fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return pos, set, nil
}

// pasetoAlgorithms are the PASETO versions and purposes.
var pasetoAlgorithms = map[signet.Algorithm]bool{
	signet.V3Local: true, signet.V3Public: true, signet.V4Local: true, signet.V4Public: true,
}

// parseAlg reads an algorithm named on the command line: JWS, PASETO or
// RFC 9421.
// An unknown name is a usage error. "Ed25519", RFC 9864's name for the JWS
// algorithm EdDSA, is one too, with a hint: one name per kind of key, the
// lowercase ed25519 being the RFC 9421 algorithm, a key of another kind.
func (cmd *command) parseAlg(name string) (signet.Algorithm, error) {
	if name == "Ed25519" {
		return "", cmd.usageErr("%q is RFC 9864's name for the JWS algorithm %s: name it %[2]s (an %[2]s key verifies JWTs whose header says either), or %s for HTTP message signatures", name, signet.EdDSA, signet.Ed25519)
	}
	alg, err := signet.ParseAlgorithm(name)
	if err != nil {
		return "", cmd.usageErr("unknown algorithm %q (one of %s)", clip.String(name), algorithmList())
	}
	return alg, nil
}

// optionalAlg is parseAlg for the --alg flag, which may be absent ("").
func (cmd *command) optionalAlg(name string, given bool) (signet.Algorithm, error) {
	if !given {
		return "", nil
	}
	return cmd.parseAlg(name)
}

// jwsAlg is optionalAlg for the jwt commands: a PASETO or an RFC 9421
// algorithm is a usage error.
func (cmd *command) jwsAlg(name string, given bool) (signet.Algorithm, error) {
	alg, err := cmd.optionalAlg(name, given)
	switch {
	case err != nil:
		return "", err
	case pasetoAlgorithms[alg]:
		return "", cmd.usageErr("--alg %s is a PASETO algorithm: use signet paseto (jwt takes %s)", alg, jwsAlgorithmList())
	case alg.IsHTTPSig():
		return "", cmd.usageErr("--alg %s is an HTTP Message Signatures algorithm: use signet httpsig (jwt takes %s)", alg, jwsAlgorithmList())
	case alg.IsJWE():
		return "", cmd.usageErr("--alg %s is a JWE key-management algorithm: use signet jwe (jwt takes %s)", alg, jwsAlgorithmList())
	}
	return alg, nil
}

// algorithmList names every algorithm keys can be made for: the JWS ones,
// the PASETO ones, then the RFC 9421 ones.
func algorithmList() string { return joinAlgs(signet.Algorithms()) }

// jwsAlgorithmList names the JWS algorithms.
func jwsAlgorithmList() string { return joinAlgs(signet.JWSAlgorithms()) }

func joinAlgs(algs []signet.Algorithm) string {
	names := make([]string, len(algs))
	for i, a := range algs {
		names[i] = string(a)
	}
	return strings.Join(names, " ")
}

// subcommand is one subcommand of a command group (jwt, jwe, paseto,
// httpsig): its name and what runs it.
type subcommand struct {
	name string
	run  func(args []string) error
}

// runSubcommand runs the subcommand of group named by args[0]: "help"
// (and -h) prints the usage text; none, or an unknown one, is a usage
// error that lists subs.
func (c *cli) runSubcommand(group string, args []string, subs ...subcommand) error {
	names := make([]string, len(subs))
	for i, s := range subs {
		names[i] = s.name
	}
	list := strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	if len(args) == 0 {
		return &usageError{msg: fmt.Sprintf("%s: no subcommand given (%s)", group, list), usage: usageText}
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "help", "-h", "-help", "--help":
		_, err := io.WriteString(c.stdout, usageText)
		return err
	}
	for _, s := range subs {
		if s.name == sub {
			return s.run(rest)
		}
	}
	return &usageError{msg: fmt.Sprintf("%s: unknown subcommand %q (%s)", group, clip.String(sub), list), usage: usageText}
}

// emptyCheckErr is the usage error of a check flag among names given
// with an empty (or blank) value, nil when there is none. Such a flag
// ("--iss $ISSUER" with ISSUER unset) would ask for no check at all, as
// if it had been left out: a check the command line seems to make but
// does not. As for an empty --aud, it is refused.
func (cmd *command) emptyCheckErr(names ...string) error {
	var err error
	cmd.fs.Visit(func(f *flag.Flag) {
		if err == nil && slices.Contains(names, f.Name) && strings.TrimSpace(f.Value.String()) == "" {
			err = cmd.usageErr("--%s is empty: give the value to require (is a variable unset?), or leave the flag out for no check", f.Name)
		}
	})
	return err
}
