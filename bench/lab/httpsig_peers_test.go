package lab

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet/httpsig"
)

// httpsigSpec is the key of alg for a test of lib: the lab's, except
// that yaronf, which refuses HMAC keys shorter than 64 bytes, gets the
// 64-byte secret (RFC 9421's own test-shared-secret is 64 bytes long).
func httpsigSpec(t *testing.T, lib, alg string) KeySpec {
	t.Helper()
	k := labKeys(t)
	spec, err := k.Spec(alg)
	if err != nil {
		t.Fatal(err)
	}
	if lib == "yaronf" && alg == "hmac-sha256" {
		spec.Secret = k.HMAC64
	}
	return spec
}

// httpsigPeer binds the RFC 9421 library lib to alg, or skips the test
// for a documented reason.
func httpsigPeer(t *testing.T, lib HTTPSigLib, spec KeySpec) HTTPSig {
	t.Helper()
	if lib.Name() == "yaronf" && spec.Alg == "hmac-sha256" && len(spec.Secret) < 64 {
		t.Skipf("yaronf v0.3.2 refuses HMAC keys shorter than 64 bytes; the lab's hmac-sha256 key has %d", len(spec.Secret))
	}
	h, err := lib.New(spec)
	if err != nil {
		t.Fatalf("%s %s: %v", lib.Name(), spec.Alg, err)
	}
	return h
}

// signetAs is signet's adapter signing and verifying in the shape lib
// uses: the reference request's (docs/design.md), or for common-fate its
// own (@target-uri for @path, alg and its tag sent, and a tag required).
func signetAs(t *testing.T, lib string, spec KeySpec, now func() time.Time) HTTPSig {
	t.Helper()
	o := httpsig.Options{Components: httpsigComponents, Now: now}
	var p httpsig.Policy
	if lib == "common-fate" {
		o.Components, o.Tag, o.Alg = commonFateComponents, commonFateTag, true
		p.Tag = commonFateTag
	}
	s, err := newSignetHTTPSig(spec, o, p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// httpsigKnownFailure is the documented peer bug that makes a
// cross-verification fail, or "".
func httpsigKnownFailure(from, to, alg string) string {
	switch {
	case to == "common-fate" && alg != "hmac-sha256":
		return "common-fate v0.2.1 rebuilds @signature-params in its own parameter order (keyid, alg, tag, nonce, created), not as received (RFC 9421 §2.3); signet sends created first"
	case from == "common-fate" && alg == "ecdsa-p384-sha384":
		return "common-fate v0.2.1's ecdsa-p384-sha384 signs base ‖ SHA-384(\"\") truncated to 48 bytes (Sum instead of Write), not SHA-384(base): only the first 48 bytes of the base are signed"
	case from == "yaronf" && alg == "rsa-pss-sha512":
		return "yaronf v0.3.2 signs RSA-PSS with the maximum salt length, not RFC 9421's 64 bytes (fixed upstream in v0.4.2); a strict verifier refuses it"
	case (from == "common-fate" || to == "common-fate") && alg == "hmac-sha256":
		return "common-fate v0.2.1's hmac-sha256 is base ‖ HMAC(key, \"\") (Sum instead of Write), not HMAC(key, base): no interoperation, and forgeable"
	}
	return ""
}

// TestHTTPSigCross: a request one library signs, the other verifies,
// signet against each peer, both ways, per algorithm.
func TestHTTPSigCross(t *testing.T) {
	for _, alg := range HTTPSigAlgs {
		for _, lib := range HTTPSigLibs()[1:] {
			if !slices.Contains(lib.Algs(), alg) {
				continue
			}
			peer := lib.Name()
			for _, dir := range [][2]string{{"signet", peer}, {peer, "signet"}} {
				t.Run(fmt.Sprintf("%s/%s→%s", alg, dir[0], dir[1]), func(t *testing.T) {
					spec := httpsigSpec(t, peer, alg)
					p := httpsigPeer(t, lib, spec)
					s := signetAs(t, peer, spec, nil)
					signer, verifier := s, p
					if dir[0] != "signet" {
						signer, verifier = p, s
					}
					r := httpsigRequest()
					if err := signer.Sign(r); err != nil {
						t.Fatalf("%s sign: %v", dir[0], err)
					}
					err := verifier.Verify(httpsigClone(r))
					if reason := httpsigKnownFailure(dir[0], dir[1], alg); reason != "" {
						if err == nil {
							t.Fatalf("%s now verifies %s's signature: the known failure (%s) is gone", dir[1], dir[0], reason)
						}
						t.Skip(reason)
					}
					if err != nil {
						t.Fatalf("%s does not verify %s's signature: %v\nSignature-Input: %s\nSignature: %s",
							dir[1], dir[0], err, r.Header.Get("Signature-Input"), r.Header.Get("Signature"))
					}
					if verifier.Verify(httpsigForge(r)) == nil {
						t.Errorf("%s verifies %s's signature with a flipped bit", dir[1], dir[0])
					}
					// A signature over another method must fail.
					moved := httpsigClone(r)
					moved.Method = http.MethodDelete
					if verifier.Verify(moved) == nil {
						t.Errorf("%s verifies %s's POST signature on a DELETE", dir[1], dir[0])
					}
				})
			}
		}
	}
}

// TestHTTPSigTamper: every library refuses its own signature on a
// request whose path was changed after signing.
func TestHTTPSigTamper(t *testing.T) {
	for _, alg := range HTTPSigAlgs {
		for _, lib := range HTTPSigLibs() {
			if !slices.Contains(lib.Algs(), alg) {
				continue
			}
			t.Run(alg+"/"+lib.Name(), func(t *testing.T) {
				h := httpsigPeer(t, lib, httpsigSpec(t, lib.Name(), alg))
				r := httpsigRequest()
				if err := h.Sign(r); err != nil {
					t.Fatal(err)
				}
				moved := httpsigClone(r)
				moved.URL.Path = "/api/admin/everything"
				err := h.Verify(moved)
				if lib.Name() == "common-fate" && alg == "ecdsa-p384-sha384" {
					if err != nil {
						t.Fatalf("common-fate now refuses a changed path (%v): the truncation bug is gone", err)
					}
					t.Skip(httpsigKnownFailure("common-fate", "", alg) + ": it accepts its own signature on another path")
				}
				if err == nil {
					t.Errorf("%s accepts its own signature on another path", lib.Name())
				}
			})
		}
	}
}

// TestHTTPSigTooOld: every library refuses a signature created ten
// minutes ago (the adapters accept five), made by signet in its shape;
// each is first shown to accept a fresh one.
func TestHTTPSigTooOld(t *testing.T) {
	k := labKeys(t)
	spec, err := k.Spec("ed25519")
	if err != nil {
		t.Fatal(err)
	}
	for _, lib := range HTTPSigLibs() {
		t.Run(lib.Name(), func(t *testing.T) {
			if lib.Name() == "common-fate" {
				t.Skip("only common-fate's own signer makes signatures it accepts (see TestHTTPSigCross), and that signer's created cannot be set")
			}
			h := httpsigPeer(t, lib, spec)
			fresh := httpsigRequest()
			if err := signetAs(t, lib.Name(), spec, nil).Sign(fresh); err != nil {
				t.Fatal(err)
			}
			if err := h.Verify(fresh); err != nil {
				t.Skipf("%s does not verify signet's fresh signature (see TestHTTPSigCross): %v", lib.Name(), err)
			}
			stale := httpsigRequest()
			if err := signetAs(t, lib.Name(), spec, func() time.Time { return time.Now().Add(-10 * time.Minute) }).Sign(stale); err != nil {
				t.Fatal(err)
			}
			if h.Verify(stale) == nil {
				t.Errorf("%s accepts a signature created ten minutes ago: %s", lib.Name(), stale.Header.Get("Signature-Input"))
			}
		})
	}
}

// TestHTTPSigCases: the cases build and are named as docs/design.md says.
func TestHTTPSigCases(t *testing.T) {
	cs, seen := caseNames(t, Options{Formats: []string{"HTTPSig"}, Parallel: true, Quick: true})
	for _, c := range cs {
		if !strings.HasPrefix(c.Name(), "BenchmarkHTTPSig/") {
			t.Errorf("case %s", c.Name())
		}
	}
	for _, want := range []string{
		"BenchmarkHTTPSig/hmac-sha256/Sign/floor", "BenchmarkHTTPSig/hmac-sha256/Verify/Parallel/signet",
		"BenchmarkHTTPSig/ed25519/Sign/yaronf", "BenchmarkHTTPSig/ecdsa-p256-sha256/Verify/remitly",
		"BenchmarkHTTPSig/rsa-pss-sha512/Sign/common-fate",
	} {
		if !seen[want] {
			t.Errorf("no case %s", want)
		}
	}
}
