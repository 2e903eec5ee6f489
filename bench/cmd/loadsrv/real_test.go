package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/jwt"
)

// get sends GET url with an optional Authorization header.
func get(t *testing.T, url, auth string) (int, string, http.Header) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

// -proxy forwards every path to the upstream as it came, with
// X-Forwarded-For, and answers what the upstream answered.
func TestRealProxy(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Seen", r.URL.Path+"|"+r.Header.Get("Authorization")+"|"+r.Header.Get("X-Forwarded-For"))
		w.WriteHeader(http.StatusTeapot)
		io.WriteString(w, "upstream")
	}))
	defer up.Close()
	url, stop := start(t, "-proxy", up.URL)
	defer func() {
		if err := stop(); err != nil {
			t.Error(err)
		}
	}()
	for _, path := range []string{"/hello", "/any/path"} {
		code, body, h := get(t, url+path, "Bearer x")
		if code != http.StatusTeapot || body != "upstream" || h.Get("X-Seen") != path+"|Bearer x|127.0.0.1" {
			t.Errorf("%s: %d %q, upstream saw %q", path, code, body, h.Get("X-Seen"))
		}
	}
}

// -bearer-key: /bearer/hello answers the study's hello to a valid token
// only, with the middleware's RFC 6750 answers otherwise; /hello stays.
func TestRealBearer(t *testing.T) {
	for _, alg := range []signet.Algorithm{signet.ES256, signet.HS256} {
		t.Run(string(alg), func(t *testing.T) {
			key, err := signet.GenerateKey(alg)
			if err != nil {
				t.Fatal(err)
			}
			j, err := jwk.Marshal(key)
			if err != nil {
				t.Fatal(err)
			}
			keyFile := filepath.Join(t.TempDir(), "key.jwk")
			if err := os.WriteFile(keyFile, j, 0o600); err != nil {
				t.Fatal(err)
			}
			url, stop := start(t, "-bearer-key", keyFile, "-bearer-iss", "https://iss.test", "-bearer-aud", "https://aud.test")
			defer stop()
			now := time.Now()
			sign := func(iss, scope string, exp time.Time) string {
				tok, err := jwt.Sign(key, realClaims{Claims: jwt.Claims{Issuer: iss, Subject: "u", Audience: jwt.Audience{"https://aud.test"},
					ExpiresAt: jwt.At(exp), IssuedAt: jwt.At(now)}, Scope: scope})
				if err != nil {
					t.Fatal(err)
				}
				return "Bearer " + tok
			}
			other, _ := signet.GenerateKey(alg)
			forged, err := jwt.Sign(other, jwt.Claims{Issuer: "https://iss.test", Audience: jwt.Audience{"https://aud.test"}, ExpiresAt: jwt.At(now.Add(time.Hour))})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				name, auth string
				code       int
				body       string
			}{
				{"valid", sign("https://iss.test", "read write", now.Add(time.Hour)), 200, `{"message":"hello"}`},
				{"none", "", 401, ""},
				{"other issuer", sign("https://other.test", "read", now.Add(time.Hour)), 401, ""},
				{"expired", sign("https://iss.test", "read", now.Add(-time.Hour)), 401, ""},
				{"no read scope", sign("https://iss.test", "write", now.Add(time.Hour)), 403, ""},
				{"other key", "Bearer " + forged, 401, ""},
			} {
				code, body, _ := get(t, url+"/bearer/hello", c.auth)
				if code != c.code || (c.body != "" && strings.TrimSpace(body) != c.body) {
					t.Errorf("%s: %d %q, want %d %q", c.name, code, body, c.code, c.body)
				}
			}
			if code, _, _ := get(t, url+"/hello", ""); code != 200 {
				t.Errorf("/hello: %d", code)
			}
		})
	}
}

// The modes' flags are checked before the server listens.
func TestRealFlags(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jwk")
	os.WriteFile(bad, []byte(`{"kty":"oct"}`), 0o600)
	key, _ := signet.GenerateKey(signet.ES256)
	j, _ := jwk.Marshal(key)
	good := filepath.Join(dir, "key.jwk")
	os.WriteFile(good, j, 0o600)
	for _, args := range [][]string{
		{"-proxy", "ftp://x"},
		{"-proxy", "http://"},
		{"-proxy", "http://127.0.0.1:1", "-bearer-key", good, "-bearer-iss", "i", "-bearer-aud", "a"},
		{"-bearer-key", filepath.Join(dir, "missing.jwk"), "-bearer-iss", "i", "-bearer-aud", "a"},
		{"-bearer-key", bad, "-bearer-iss", "i", "-bearer-aud", "a"},
		{"-bearer-key", good},
	} {
		c, err := parseFlags(args)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if _, err := c.real.handler(http.NotFoundHandler()); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}
