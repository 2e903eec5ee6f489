package lab

import (
	"crypto/rsa"
	"encoding/base64"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	jwtKeysOnce sync.Once
	jwtKeys     *Keys
	jwtKeysErr  error
)

func jwtTestKeys(t testing.TB) *Keys {
	t.Helper()
	jwtKeysOnce.Do(func() { jwtKeys, jwtKeysErr = NewKeys() })
	if jwtKeysErr != nil {
		t.Fatal(jwtKeysErr)
	}
	return jwtKeys
}

// peerJWTLibs are the JWT libraries other than signet.
func peerJWTLibs() []JWTLib {
	var out []JWTLib
	for _, lib := range JWTLibs() {
		if lib.Name() != "signet" {
			out = append(out, lib)
		}
	}
	return out
}

// jwtMaxSaltPSS are the peers that sign PS256/384/512 with the largest salt
// the key allows (crypto/rsa's PSSSaltLengthAuto) where RFC 7518 §3.5 says
// the salt is as long as the hash. signet (like jwx) verifies with the
// RFC's salt length and refuses their PS tokens; lenient verifiers
// (golang-jwt, go-jose, the two themselves) accept any salt length.
var jwtMaxSaltPSS = map[string]bool{"cristalhq": true, "kataras": true}

// TestJWTPeersInterop: for every peer and algorithm, a token signet signs
// verifies in the peer (also bound to the public key or secret alone), a
// token the peer signs verifies in signet, and both read back the same
// payload; with the key's kid in the header (as the benchmarks sign) and
// without. The one exception, jwtMaxSaltPSS, is pinned: signet refuses
// those tokens, and only because of the salt length.
func TestJWTPeersInterop(t *testing.T) {
	keys := jwtTestKeys(t)
	for _, lib := range peerJWTLibs() {
		if len(lib.Algs()) == 0 {
			t.Errorf("%s: no algorithms", lib.Name())
		}
		for _, alg := range lib.Algs() {
			for _, kid := range []string{"kid", "nokid"} {
				t.Run(lib.Name()+"/"+alg+"/"+kid, func(t *testing.T) {
					spec, err := keys.Spec(alg)
					if err != nil {
						t.Fatal(err)
					}
					if kid == "nokid" {
						spec.KeyID = ""
					}
					sig, err := signetJWT{}.New(spec)
					if err != nil {
						t.Fatal(err)
					}
					peer, err := lib.New(spec)
					if err != nil {
						t.Fatal(err)
					}
					pub := spec
					pub.Private = nil
					peerVerifier, err := lib.New(pub)
					if err != nil {
						t.Fatalf("verify-only: %v", err)
					}
					for _, size := range []string{"tiny", "small", "medium"} {
						p := NewPayload(size, time.Now())

						tok, err := sig.Sign(p)
						if err != nil {
							t.Fatal(err)
						}
						for name, v := range map[string]JWT{"peer": peer, "verify-only peer": peerVerifier} {
							var back Payload
							err := v.Verify(tok, &back)
							if p.IssuedAt == 0 {
								back.IssuedAt = 0 // signet adds iat to a payload without one
							}
							if err != nil {
								t.Errorf("%s: %s refuses signet's token: %v", size, name, err)
							} else if !reflect.DeepEqual(&back, p) {
								t.Errorf("%s: %s reads signet's token as\n%+v\nwant\n%+v", size, name, back, *p)
							}
						}

						tok, err = peer.Sign(p)
						if err != nil {
							t.Fatal(err)
						}
						var back Payload
						if jwtMaxSaltPSS[lib.Name()] && alg[:2] == "PS" {
							if sig.Verify(tok, &back) == nil {
								t.Errorf("%s: signet accepts the peer's PSS token: has the peer moved to the RFC 7518 salt length? Update jwtMaxSaltPSS", size)
							}
							if err := jwtVerifyPSSAnySalt(spec, tok); err != nil {
								t.Errorf("%s: the peer's PSS signature is wrong for any salt length: %v", size, err)
							}
						} else if err := sig.Verify(tok, &back); err != nil {
							t.Errorf("%s: signet refuses the peer's token: %v", size, err)
						} else if !reflect.DeepEqual(&back, p) {
							t.Errorf("%s: signet reads the peer's token as\n%+v\nwant\n%+v", size, back, *p)
						}
						if err := peerVerifier.Verify(tok, &back); err != nil {
							t.Errorf("%s: verify-only peer refuses the peer's token: %v", size, err)
						}
					}
				})
			}
		}
	}
}

// jwtVerifyPSSAnySalt checks a PS token's signature with crypto/rsa, salt
// length auto-detected.
func jwtVerifyPSSAnySalt(spec KeySpec, tok string) error {
	dot := strings.LastIndexByte(tok, '.')
	sig, err := base64.RawURLEncoding.DecodeString(tok[dot+1:])
	if err != nil {
		return err
	}
	h := jwsHash(spec.Alg)
	return rsa.VerifyPSS(spec.Public.(*rsa.PublicKey), h, digest(h, []byte(tok[:dot])), sig, &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthAuto})
}

// TestJWTPeersExpired: every adapter refuses a token that expired an hour ago,
// whether signet or the library itself signed it, and a token without
// exp (signet requires exp; the adapters require it too).
func TestJWTPeersExpired(t *testing.T) {
	keys := jwtTestKeys(t)
	expired := NewPayload("small", time.Now().Add(-2*time.Hour)) // exp an hour ago
	noExp := NewPayload("small", time.Now())
	noExp.ExpiresAt = 0
	for _, lib := range JWTLibs() {
		for _, alg := range lib.Algs() {
			t.Run(lib.Name()+"/"+alg, func(t *testing.T) {
				spec, err := keys.Spec(alg)
				if err != nil {
					t.Fatal(err)
				}
				sig, err := signetJWT{}.New(spec)
				if err != nil {
					t.Fatal(err)
				}
				j, err := lib.New(spec)
				if err != nil {
					t.Fatal(err)
				}
				for _, c := range []struct {
					what   string
					signer JWT
					p      *Payload
				}{
					{"signet's expired token", sig, expired},
					{"its own expired token", j, expired},
					{"its own token without exp", j, noExp},
				} {
					tok, err := c.signer.Sign(c.p)
					if err != nil {
						t.Fatalf("%s: sign: %v", c.what, err)
					}
					var back Payload
					if j.Verify(tok, &back) == nil {
						t.Errorf("accepts %s", c.what)
					}
				}
			})
		}
	}
}

// TestJWTPeersConcurrent: one adapter value signs and verifies from
// several goroutines at once, as the parallel benchmarks do (run with
// -race).
func TestJWTPeersConcurrent(t *testing.T) {
	keys := jwtTestKeys(t)
	for _, lib := range JWTLibs() {
		for _, alg := range []string{"HS256", "ES256", "EdDSA"} {
			t.Run(lib.Name()+"/"+alg, func(t *testing.T) {
				spec, err := keys.Spec(alg)
				if err != nil {
					t.Fatal(err)
				}
				j, err := lib.New(spec)
				if err != nil {
					t.Fatal(err)
				}
				p := NewPayload("medium", time.Now())
				var wg sync.WaitGroup
				for range 4 {
					wg.Go(func() {
						for range 20 {
							tok, err := j.Sign(p)
							if err != nil {
								t.Error(err)
								return
							}
							var back Payload
							if err := j.Verify(tok, &back); err != nil {
								t.Error(err)
								return
							}
							if !reflect.DeepEqual(&back, p) {
								t.Errorf("read back %+v", back)
								return
							}
						}
					})
				}
				wg.Wait()
			})
		}
	}
}
