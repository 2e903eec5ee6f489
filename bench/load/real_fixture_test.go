package load

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/jwt"
)

// The client's Basic header is RFC 6749 §2.3.1's (form-urlencoded id and
// secret), and the clients file holds the secret's SHA-256 only.
func TestRealClientFile(t *testing.T) {
	c, err := newRealClient()
	if err != nil {
		t.Fatal(err)
	}
	c.Secret += "+/=" // characters form-encoding changes
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(c.Basic(), "Basic "))
	if err != nil || string(raw) != c.ID+":"+strings.NewReplacer("+", "%2B", "/", "%2F", "=", "%3D").Replace(c.Secret) {
		t.Errorf("Basic %q decodes to %q (%v)", c.Basic(), raw, err)
	}
	p := filepath.Join(t.TempDir(), "clients.json")
	if err := writeClientsFile(p, c); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Clients []map[string]any `json:"clients"`
	}
	if err := json.Unmarshal(data, &f); err != nil || len(f.Clients) != 1 {
		t.Fatalf("clients file %s: %v", data, err)
	}
	sum := sha256.Sum256([]byte(c.Secret))
	if got := f.Clients[0]["client_secret_sha256"]; got != hex.EncodeToString(sum[:]) || strings.Contains(string(data), c.Secret) {
		t.Errorf("clients file %s: hash %v", data, got)
	}
}

// Minted tokens verify against the JWK Set the scenario serves, with the
// issuer and audience the guard and the middleware require, and are
// distinct.
func TestRealTokensAndJWKS(t *testing.T) {
	key, err := signet.GenerateKeyWithID(signet.ES256, "k")
	if err != nil {
		t.Fatal(err)
	}
	toks, err := mintTokens(key, 5)
	if err != nil {
		t.Fatal(err)
	}
	js, err := startJWKSServer(key)
	if err != nil {
		t.Fatal(err)
	}
	defer js.Close()
	resp, err := http.Get(js.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	set, _, err := jwk.ReadSet(body, publishedAlgorithms)
	if err != nil {
		t.Fatalf("JWKS %s: %v", body, err)
	}
	seen := map[string]bool{}
	for _, tok := range toks {
		c, err := jwt.Verify[jwt.Claims](set, tok, jwt.Policy{Issuer: realIssuer, Audience: []string{realAudience}})
		if err != nil {
			t.Fatal(err)
		}
		if seen[c.ID] {
			t.Errorf("jti %s repeats", c.ID)
		}
		seen[c.ID] = true
	}
	p := filepath.Join(t.TempDir(), "tokens.txt")
	if err := writeLines(p, toks); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(p); strings.Count(string(data), "\n") != len(toks) {
		t.Errorf("token file holds %q", data)
	}
}

// A scenario whose tokens introspect inactive, or whose probe is refused,
// fails at its setup.
func TestRealSetupChecks(t *testing.T) {
	answer := `{"active":true}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/probe" {
			if r.Header.Get("Authorization") != "Bearer ok" {
				http.Error(w, "no", http.StatusUnauthorized)
			}
			return
		}
		io.WriteString(w, answer)
	}))
	defer srv.Close()
	ctx := context.Background()
	c := realClient{ID: "a", Secret: "b"}
	if err := checkIntrospection(ctx, srv.URL, c, []string{"t1", "t2"}); err != nil {
		t.Errorf("active tokens: %v", err)
	}
	answer = `{"active":false}`
	if err := checkIntrospection(ctx, srv.URL, c, []string{"t1"}); err == nil {
		t.Error("inactive token: no error")
	}
	if err := firstRequest(ctx, srv.URL+"/probe", "Bearer ok"); err != nil {
		t.Errorf("probe: %v", err)
	}
	if err := firstRequest(ctx, srv.URL+"/probe", "Bearer bad"); err == nil {
		t.Error("refused probe: no error")
	}
}
