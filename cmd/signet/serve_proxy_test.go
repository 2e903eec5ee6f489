package main

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/signet-go/signet/server/oauth"
)

// TestServeTrustedProxy: behind a proxy named by --trusted-proxy, failed
// authentications count by the client address the proxy appended to
// X-Forwarded-For, so an attacker spending a client's failure allowance
// locks out only its own address; without the flag the header is
// ignored, and every request from the proxy's address is one source.
func TestServeTrustedProxy(t *testing.T) {
	attempt := func(r *running, xff, id, secret string) int {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, r.url("/oauth2/token"), strings.NewReader(grant.Encode()))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-Forwarded-For", xff)
		req.SetBasicAuth(url.QueryEscape(id), url.QueryEscape(secret))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode
	}
	client := func(r *running) (string, string) {
		out := r.stdout.String()
		id := regexp.MustCompile(`(?m)^client_id:\s+(\S+)$`).FindStringSubmatch(out)
		secret := regexp.MustCompile(`(?m)^client_secret:\s+(\S+)$`).FindStringSubmatch(out)
		if id == nil || secret == nil {
			t.Fatalf("no client printed:\n%s", out)
		}
		return id[1], secret[1]
	}
	spend := func(r *running, xff, id string) {
		t.Helper()
		for range oauth.FailureBurst {
			if code := attempt(r, xff, id, "wrong"); code != http.StatusUnauthorized {
				t.Fatalf("wrong secret: %d", code)
			}
		}
	}

	t.Run("trusted", func(t *testing.T) {
		r := startServe(t, []string{"--dev", "--addr", "127.0.0.1:0", "--trusted-proxy", "127.0.0.0/8"}, nil)
		id, secret := client(r)
		spend(r, "198.51.100.1", id)
		if code := attempt(r, "198.51.100.1", id, secret); code != http.StatusUnauthorized {
			t.Fatalf("the attacker's address is not held off: %d", code)
		}
		if code := attempt(r, "198.51.100.2", id, secret); code != http.StatusOK {
			t.Fatalf("another client address is held off: %d", code)
		}
		// A client cannot pose as another address: its own entries come
		// before the proxy's.
		if code := attempt(r, "198.51.100.2, 198.51.100.1", id, secret); code != http.StatusUnauthorized {
			t.Fatalf("the attacker's address escaped through its own X-Forwarded-For entry: %d", code)
		}
		if code := r.stop(); code != exitOK {
			t.Fatalf("exit %d:\n%s", code, r.stderr)
		}
	})
	t.Run("untrusted", func(t *testing.T) {
		r := startServe(t, []string{"--dev", "--addr", "127.0.0.1:0"}, nil)
		id, secret := client(r)
		spend(r, "198.51.100.1", id)
		if code := attempt(r, "198.51.100.2", id, secret); code != http.StatusUnauthorized {
			t.Fatalf("X-Forwarded-For trusted without --trusted-proxy: %d", code)
		}
		if code := r.stop(); code != exitOK {
			t.Fatalf("exit %d:\n%s", code, r.stderr)
		}
	})
}
