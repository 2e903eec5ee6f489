package paseto_test

import (
	"errors"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/paseto"
)

// FuzzOpen feeds arbitrary tokens to Decrypt and Verify: no panic, no
// acceptance of a token the key did not make, and every error a sentinel.
func FuzzOpen(f *testing.F) {
	local, _ := signet.NewKey(signet.V4Local, make([]byte, 32))
	secret, _ := signet.GenerateKey(signet.V4Public)
	public, _ := secret.Public()
	o := paseto.Options{Now: fixed(time.Unix(1_800_000_000, 0)), Footer: []byte(`{"kid":"k"}`)}
	for _, c := range []paseto.Claims{{Subject: "a"}, {Audience: "b", ID: "c"}} {
		tok, _ := paseto.Encrypt(local, c, o)
		f.Add(tok)
		tok, _ = paseto.Sign(secret, c, o)
		f.Add(tok)
	}
	f.Add("v4.local.AAAA")
	f.Add("v3.public.AAAA.AAAA")
	f.Add("v4.local..")
	sentinels := []error{signet.ErrMalformed, signet.ErrTooLarge, signet.ErrSignatureInvalid, signet.ErrAlgorithmMismatch,
		signet.ErrKeyNotFound, signet.ErrUnsupported, signet.ErrExpired, signet.ErrNotYetValid, signet.ErrIssuedInFuture,
		signet.ErrMissingClaim, signet.ErrFooter, signet.ErrAudience}
	f.Fuzz(func(t *testing.T, tok string) {
		p := paseto.Policy{Now: fixed(time.Unix(1_800_000_000, 0)), IgnoreAudience: true}
		for _, try := range []func() error{
			func() error { _, err := paseto.Decrypt[paseto.Claims](local, tok, p); return err },
			func() error { _, err := paseto.Verify[paseto.Map](public, tok, p); return err },
			func() error { _, err := paseto.DecryptBytes(local, tok, p); return err },
		} {
			err := try()
			if err == nil {
				continue // only the seeds are valid; a forgery would need the key
			}
			ok := false
			for _, s := range sentinels {
				ok = ok || errors.Is(err, s)
			}
			if !ok {
				t.Fatalf("error without a sentinel: %v", err)
			}
		}
	})
}
