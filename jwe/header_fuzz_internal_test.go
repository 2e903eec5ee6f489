package jwe

import (
	"crypto/ecdh"
	"errors"
	"testing"

	"github.com/signet-go/signet"
)

// FuzzParseHeader: the protected-header parser and the epk reader never
// panic, and fail only with sentinel errors.
func FuzzParseHeader(f *testing.F) {
	f.Add(`{"alg":"dir","enc":"A256GCM"}`)
	f.Add(`{"alg":"ECDH-ES","enc":"A128GCM","apu":"QWxpY2U","apv":"Qm9i","epk":{"kty":"EC","crv":"P-256","x":"gI0GAILBdu7T53akrFmMyGcsF3n5dO7MmwNBHKW5SV0","y":"SLW_xSffzlPWrHEVI30DHM_4egVwt3NQqeUD7nMFpps"}}`)
	f.Add(`{"alg":"PBES2-HS512+A256KW","p2s":"8Q1SzinasR3xchYz6ZZcHA","p2c":8192,"cty":"jwk-set+json","enc":"A128CBC-HS256"}`)
	f.Add(`{"alg":"A256GCMKW","kid":"18ec08e1","tag":"kfPduVQ3T3H6vnewt--ksw","iv":"KkYT0GX_2jHlfqN_","enc":"A128CBC-HS256"}`)
	f.Add(`{"alg":"dir","enc":"A256GCM","crit":["b64"],"zip":"DEF"}`)
	f.Add(`{"alg":"dir","p2c":1e999}`)
	pri, err := ecdh.P256().NewPrivateKey(append(make([]byte, 31), 7))
	if err != nil {
		f.Fatal(err)
	}
	k, err := signet.NewEncryptionKey(signet.ECDHES, signet.A128GCM, pri)
	if err != nil {
		f.Fatal(err)
	}
	st := stateOf(k)
	f.Fuzz(func(t *testing.T, s string) {
		h, err := parseHeader(s)
		if err != nil {
			if !errors.Is(err, signet.ErrMalformed) && !errors.Is(err, signet.ErrUnsupported) && !errors.Is(err, signet.ErrTooLarge) && !errors.Is(err, signet.ErrWeakKey) {
				t.Fatalf("%v", err)
			}
			return
		}
		if h.epk != "" {
			if _, err := parseEPK(h.epk, st); err != nil && !errors.Is(err, signet.ErrMalformed) && !errors.Is(err, signet.ErrWeakKey) {
				t.Fatalf("epk: %v", err)
			}
		}
	})
}
