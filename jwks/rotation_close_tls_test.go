package jwks_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/jwks"
	"github.com/signet-go/signet/jwt"
)

// TestCloseRaces: Select misses, Refresh and Close racing on a key
// server that answers slowly end without a data race, a deadlock or a
// goroutine left behind, and every error wraps a sentinel.
func TestCloseRaces(t *testing.T) {
	ec := genKey(t, signet.ES256, "ec")
	srv := newKeyServer(t, ec)
	for round := range 5 {
		clk := newClock()
		r := start(t, srv.url(), jwks.Options{Algorithms: []signet.Algorithm{signet.ES256}, Now: clk.Now, Cooldown: time.Millisecond, FetchTimeout: time.Second})
		if round%2 == 1 {
			srv.setMode(hang)
		} else {
			srv.setMode(serve)
		}
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 30 {
					clk.Advance(time.Millisecond)
					_, err := r.Select(fmt.Sprintf("k%d-%d", g, i), signet.ES256)
					if err != nil && !errors.Is(err, signet.ErrKeyNotFound) && !errors.Is(err, signet.ErrUnavailable) {
						t.Errorf("Select: %v", err)
					}
					if i%7 == 0 {
						ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
						if err := r.Refresh(ctx); err != nil && !errors.Is(err, signet.ErrUnavailable) {
							t.Errorf("Refresh: %v", err)
						}
						cancel()
					}
				}
			}()
		}
		time.Sleep(time.Duration(round*5) * time.Millisecond)
		r.Close()
		wg.Wait()
		srv.open()
		checkNoRemoteGoroutines(t)
	}
}

// TestKidChangesType: a kid that the key server moves to another key
// type on refresh is bound to the new key's algorithm only — a token for
// the old type is refused with signet.ErrAlgorithmMismatch — and an "oct"
// key published under a held kid never serves, not even once the set held
// is replaced.
func TestKidChangesType(t *testing.T) {
	clk := newClock()
	rsaKey := genKey(t, signet.RS256, "k1")
	ecKey := genKey(t, signet.ES256, "k1")
	other := genKey(t, signet.ES256, "k2")
	srv := newKeyServer(t, rsaKey)
	r := start(t, srv.url(), jwks.Options{Algorithms: []signet.Algorithm{signet.RS256, signet.ES256}, Now: clk.Now})
	policy := jwt.Policy{Now: time.Now}
	verify := func(tok string) error {
		_, err := jwt.Verify[jwt.Claims](r, tok, policy)
		return err
	}
	if err := verify(signedBy(t, rsaKey)); err != nil {
		t.Fatalf("RSA k1 before the change: %v", err)
	}

	srv.setKeys(t, ecKey) // k1 is now an EC key
	if err := r.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := verify(signedBy(t, rsaKey)); !errors.Is(err, signet.ErrAlgorithmMismatch) {
		t.Fatalf("RS256 token for k1 after k1 became EC: %v, want ErrAlgorithmMismatch", err)
	}
	if err := verify(signedBy(t, ecKey)); err != nil {
		t.Fatalf("ES256 token for the new k1: %v", err)
	}

	// k1 becomes a shared secret beside a usable key: k1 is left out.
	secret := make([]byte, 32)
	mac, err := signet.NewKey(signet.HS256, secret)
	if err != nil {
		t.Fatal(err)
	}
	mac = mac.WithKeyID("k1")
	ecJWK, err := jwkPublic(other)
	if err != nil {
		t.Fatal(err)
	}
	srv.setBody([]byte(`{"keys":[{"kty":"oct","kid":"k1","alg":"HS256","k":"` + base64.RawURLEncoding.EncodeToString(secret) + `"},` + ecJWK + `]}`))
	if err := r.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Cached().Lookup("k1"); ok {
		t.Fatal("k1 is still held after the set replaced it with an oct key")
	}
	macTok, err := jwt.Sign(mac, jwt.Claims{Subject: "s", ExpiresAt: jwt.At(time.Now().Add(time.Hour))})
	if err != nil {
		t.Fatal(err)
	}
	if err := verify(macTok); !errors.Is(err, signet.ErrKeyNotFound) {
		t.Fatalf("HS256 token for the oct k1: %v, want ErrKeyNotFound", err)
	}
	if err := verify(signedBy(t, ecKey)); !errors.Is(err, signet.ErrKeyNotFound) {
		t.Fatalf("ES256 token for the withdrawn EC k1: %v, want ErrKeyNotFound", err)
	}
}

// TestTLSVerified: an https key server whose certificate the
// client does not trust serves nothing (signet.ErrUnavailable), and the
// same server serves once the caller's client trusts it: the Remote
// neither skips nor weakens certificate checks.
func TestTLSVerified(t *testing.T) {
	ec := genKey(t, signet.ES256, "ec")
	body, err := jwk.MarshalSet(ec)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write(body) }))
	ts.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake is expected
	ts.StartTLS()
	t.Cleanup(ts.Close)
	opts := jwks.Options{Algorithms: []signet.Algorithm{signet.ES256}}
	untrusted := start(t, ts.URL, opts)
	if err := untrusted.Ready(); !errors.Is(err, signet.ErrUnavailable) || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("untrusted certificate: Ready = %v, want ErrUnavailable for the certificate", err)
	}
	if _, err := untrusted.Select("ec", signet.ES256); !errors.Is(err, signet.ErrUnavailable) {
		t.Fatalf("untrusted certificate: Select = %v, want ErrUnavailable", err)
	}
	opts.Client = ts.Client()
	trusted := start(t, ts.URL, opts)
	if err := trusted.Ready(); err != nil {
		t.Fatalf("trusted certificate: %v", err)
	}
}
