package paseto_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/paseto"
)

type aliasClaims struct {
	paseto.Claims
	Name  string            `json:"name"`
	Roles []string          `json:"roles"`
	Attrs map[string]string `json:"attrs"`
	Any   any               `json:"any"`
}

// TestClaimsOutliveNextToken: the strings a Decrypt or Verify returns
// (views of the payload, for the plan's reader) never change afterwards,
// whatever the same key opens next, on any goroutine, successfully or
// not: no pooled buffer of the key holds them.
func TestClaimsOutliveNextToken(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, alg := range []signet.Algorithm{signet.V4Local, signet.V3Local, signet.V4Public} {
		t.Run(string(alg), func(t *testing.T) {
			k, err := signet.GenerateKey(alg)
			if err != nil {
				t.Fatal(err)
			}
			mk := func(i int, plain bool) string {
				c := aliasClaims{Name: fmt.Sprintf("name-%04d", i), Roles: []string{fmt.Sprintf("role-%04d", i)},
					Attrs: map[string]string{"k": fmt.Sprintf("attr-%04d", i)}, Any: fmt.Sprintf("any-%04d", i)}
				if !plain {
					c.Name += "\u00e9" // not the plain shape: the general reader
				}
				var tok string
				var err error
				if alg == signet.V4Public {
					tok, err = paseto.Sign(k, c, paseto.Options{Now: fixed(now)})
				} else {
					tok, err = paseto.Encrypt(k, c, paseto.Options{Now: fixed(now)})
				}
				if err != nil {
					panic(err)
				}
				return tok
			}
			open := func(tok string) (aliasClaims, error) {
				p := paseto.Policy{Now: fixed(now)}
				if alg == signet.V4Public {
					return paseto.Verify[aliasClaims](k, tok, p)
				}
				return paseto.Decrypt[aliasClaims](k, tok, p)
			}
			check := func(c aliasClaims, i int, plain bool) {
				t.Helper()
				want := fmt.Sprintf("name-%04d", i)
				if !plain {
					want += "\u00e9"
				}
				if c.Name != want || c.Roles[0] != fmt.Sprintf("role-%04d", i) || c.Attrs["k"] != fmt.Sprintf("attr-%04d", i) || c.Any != fmt.Sprintf("any-%04d", i) {
					t.Fatalf("claims of token %d changed: %+v", i, c)
				}
			}
			var kept []aliasClaims
			for i := range 50 {
				c, err := open(mk(i, i%2 == 0))
				if err != nil {
					t.Fatal(err)
				}
				kept = append(kept, c)
				// A failed open with the same key in between.
				bad := mk(i+1000, true)
				bad = bad[:len(bad)-2] + strings.Map(func(r rune) rune { return r ^ 1 }, bad[len(bad)-2:])
				if _, err := open(bad); err == nil {
					t.Fatal("tampered token opened")
				}
			}
			var wg sync.WaitGroup
			for g := range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range 50 {
						_, _ = open(mk(100+g*50+i, i%3 == 0))
					}
				}()
			}
			wg.Wait()
			for i, c := range kept {
				check(c, i, i%2 == 0)
			}
		})
	}
}

// TestLargeTokenInPlace: a v4.local token over the pooled scratch's size
// is built in its own buffer, n ‖ c ‖ t at the tail and encoded forward
// over it: every length around the threshold and far above it, with and
// without a footer, opens to the payload it carries.
func TestLargeTokenInPlace(t *testing.T) {
	k, err := signet.GenerateKey(signet.V4Local)
	if err != nil {
		t.Fatal(err)
	}
	sizes := []int{}
	for n := 3950; n < 4120; n++ {
		sizes = append(sizes, n)
	}
	sizes = append(sizes, 8191, 8192, 8193, 30001, 65536+7)
	for _, n := range sizes {
		for _, footer := range []string{"", "kid-ish footer"} {
			body := make([]byte, n)
			for i := range body {
				body[i] = 'a' + byte(i*7%26)
			}
			payload := `{"a":"` + string(body) + `"}`
			tok, err := paseto.EncryptBytes(k, []byte(payload), paseto.Options{Footer: []byte(footer)})
			if err != nil {
				t.Fatal(n, err)
			}
			got, err := paseto.DecryptBytes(k, tok, paseto.Policy{MaxSize: 1 << 20, Footer: []byte(footer)})
			if err != nil || string(got) != payload {
				t.Fatalf("%d bytes, footer %q: %v", n, footer, err)
			}
		}
	}
}
