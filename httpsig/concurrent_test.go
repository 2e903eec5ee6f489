package httpsig

import (
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/signet-go/signet"
)

// TestConcurrent: one Signer and one Verifier shared by many goroutines
// (run under -race by make test), with nonces, the component-list cache
// filling up and the replay store in use.
func TestConcurrent(t *testing.T) {
	k, pub := mustKey(t, signet.ECDSAP256SHA256, "shared")
	hk, _ := mustKey(t, signet.HMACSHA256, "hmac")
	v := mustVerifier(t, Policy{UnsignedBody: true}, pub, hk)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each goroutine its own component list, so that the cache grows.
			s := mustSigner(t, k, Options{Components: []string{"@method", "@authority", "@path", fmt.Sprintf("x-g%d", g)}, Nonce: true})
			hs := mustSigner(t, hk, Options{Label: "h", Components: []string{"@method", "@authority", "@path"}, Nonce: true})
			for range 50 {
				r, _ := http.NewRequest(http.MethodGet, "https://example.com/a", nil)
				r.Header.Set(fmt.Sprintf("X-G%d", g), "v")
				if err := s.SignRequest(r); err != nil {
					errs <- err
					return
				}
				if err := hs.SignRequest(r); err != nil {
					errs <- err
					return
				}
				if _, err := v.VerifyRequest(r); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}
