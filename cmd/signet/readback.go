package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwt"
	"github.com/signet-go/signet/paseto"
)

// policyVerdicts are the errors a verifier returns for claims it has read
// in full but its policy refuses: they depend on its clock and its
// settings (issuer, audience, …), not on the token's form.
var policyVerdicts = []error{
	signet.ErrExpired, signet.ErrNotYetValid, signet.ErrIssuedInFuture, signet.ErrMissingClaim,
	signet.ErrAudience, signet.ErrIssuer, signet.ErrSubject, signet.ErrTokenID, signet.ErrType,
}

// readBack is the issue-time check of what the CLI issues: the token just
// made is read by the library's verifier, with the key that made it (its
// public half for a signature), the issuing time as clock, exp not
// required and the CLI's own size limit. Every rule of the reader's (JSON,
// claim types, RFC 3339 times, footer, size) thus holds at issue, and the
// token is refused (not printed) unless the reader read it in full: err
// is nil or a policy verdict (policyVerdicts). readBack returns that
// verdict, for warnings.
func readBack(key *signet.Key, read func(signet.Keys) error) (verdict error, err error) {
	vk := key
	if !key.Symmetric() {
		if vk, err = key.Public(); err != nil {
			return nil, err
		}
	}
	verdict = read(vk)
	if verdict == nil || isPolicyVerdict(verdict) {
		return verdict, nil
	}
	return nil, fmt.Errorf("the token would be refused by signet's own verifier, so it was not issued: %w", verdict)
}

// isPolicyVerdict reports whether err is one of policyVerdicts.
func isPolicyVerdict(err error) bool {
	for _, s := range policyVerdicts {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// readBackJWT reads back a JWT issued at now (readBack).
func readBackJWT(key *signet.Key, token string, now time.Time) (verdict, err error) {
	return readBack(key, func(k signet.Keys) error {
		_, err := jwt.Verify[json.RawMessage](k, token, jwt.Policy{NoExpiry: true, Now: func() time.Time { return now }, MaxSize: maxInput})
		return err
	})
}

// readBackPASETO reads back a PASETO token issued at now with o
// (readBack): public for sign, local for encrypt.
func readBackPASETO(key *signet.Key, token string, o paseto.Options, public bool) (verdict, err error) {
	p := paseto.Policy{NoExpiry: true, Now: o.Now, MaxSize: maxInput, Footer: o.Footer, Implicit: o.Implicit}
	return readBack(key, func(k signet.Keys) error {
		var err error
		if public {
			_, err = paseto.Verify[json.RawMessage](k, token, p)
		} else {
			_, err = paseto.Decrypt[json.RawMessage](k, token, p)
		}
		return err
	})
}
