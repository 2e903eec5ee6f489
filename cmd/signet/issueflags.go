package main

import (
	"fmt"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/clip"
)

// issueFlags are the flags jwt sign and jwe encrypt share: where the
// claims come from (--claims), --exp and --kid.
type issueFlags struct {
	claims *string
	exp    *time.Duration
	kid    *string
}

// addIssueFlags declares --claims, --exp and --kid.
func addIssueFlags(cmd *command) issueFlags {
	return issueFlags{
		claims: cmd.fs.String("claims", "", "claims JSON `file` (default: stdin)"),
		exp:    cmd.fs.Duration("exp", 0, "set exp to now + `DURATION` (e.g. 15m, 1h), replacing any exp in the claims"),
		kid:    cmd.fs.String("kid", "", "key `ID` for the header, replacing the key's own"),
	}
}

// usageErr checks the command line of an issuing command: no positional
// argument, a --key (keyPath) and a positive --exp.
func (f issueFlags) usageErr(cmd *command, pos []string, keyPath string, set map[string]bool) error {
	switch {
	case len(pos) != 0:
		return cmd.usageErr("unexpected argument %q", clip.String(pos[0]))
	case keyPath == "":
		return cmd.usageErr("--key is required")
	case set["exp"] && *f.exp <= 0:
		return cmd.usageErr("--exp must be a positive duration, not %v", *f.exp)
	}
	return nil
}

// issueClaims are the claims an issuing command signs or encrypts, byte
// for byte, with their exp when they have one.
type issueClaims struct {
	body   []byte
	exp    int64
	hasExp bool
}

// readClaims reads the claims of --claims (or stdin) and checks them
// (checkClaims), before the key is read.
func (f issueFlags) readClaims(c *cli) (issueClaims, error) {
	body, err := c.readClaims(*f.claims)
	if err != nil {
		return issueClaims{}, err
	}
	exp, hasExp, err := checkClaims(body)
	if err != nil {
		return issueClaims{}, err
	}
	return issueClaims{body: body, exp: exp, hasExp: hasExp}, nil
}

// apply sets what the flags given (set) change, at now: exp (--exp) in
// ic, the key ID (--kid) of the key returned.
func (f issueFlags) apply(ic *issueClaims, key *signet.Key, now time.Time, set map[string]bool) (*signet.Key, error) {
	if set["kid"] {
		key = key.WithKeyID(*f.kid)
	}
	if set["exp"] {
		body, err := setExp(ic.body, now.Add(*f.exp).Unix())
		if err != nil {
			return nil, err
		}
		ic.body, ic.exp, ic.hasExp = body, now.Add(*f.exp).Unix(), true
	}
	return key, nil
}

// issueWords are how the warnings of an issuing command name its
// readers: "verifiers" and "signet jwt verify" for jwt sign, and what it
// did: "signed".
type issueWords struct {
	readers string // "verifiers"
	reader  string // "signet jwt verify"
	done    string // "signed"
}

// printIssued prints token, issued at now with the claims ic, then warns
// of what readers refuse: a token without exp, one already expired, one
// larger than maxSize.
func (c *cli) printIssued(token string, ic issueClaims, now time.Time, maxSize int, w issueWords) error {
	if _, err := fmt.Fprintln(c.stdout, token); err != nil {
		return err
	}
	switch {
	case !ic.hasExp:
		c.warn("the token has no exp: %s refuse it by default (%s needs --no-exp); set one with --exp", w.readers, w.reader)
	case ic.exp <= now.Unix():
		c.warn("the token expired at exp %d, before it was %s", ic.exp, w.done)
	}
	c.warnSize(token, maxSize, w.readers)
	return nil
}

// warnSize warns when token is larger than maxSize, the default limit of
// signet's readers (named by readers: "verifiers", "readers").
func (c *cli) warnSize(token string, maxSize int, readers string) {
	if len(token) > maxSize {
		c.warn("the token is %d bytes: %s with signet's default limit (%d bytes) refuse it", len(token), readers, maxSize)
	}
}

// requirePrivate refuses a public key (read from path) for use ("signing",
// "decrypting"), which needs the private key.
func requirePrivate(key *signet.Key, path, use string) error {
	if key.CanSign() {
		return nil
	}
	return fmt.Errorf("key file %s: %w: it holds a public %s key; %s needs the private key", path, signet.ErrKeyUsage, key.Algorithm(), use)
}
