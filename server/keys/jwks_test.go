package keys_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/server/keys"
	"github.com/signet-go/signet/server/storage"
)

func serveJWKS(m *keys.Manager, method string, hdr map[string]string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, "/.well-known/jwks.json", nil)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	m.JWKSHandler().ServeHTTP(rec, req)
	return rec
}

func TestJWKSHandler(t *testing.T) {
	clk := newClock()
	mem := storage.NewMemory(clk.Now)
	cfg := fastConfig(t, clk, mustKEK(t), signet.ES256)
	cfg.MaxAge = 15 * time.Minute
	m := mustNew(t, mem, cfg)

	if rec := serveJWKS(m, http.MethodGet, nil); rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("before the first load: %d %q", rec.Code, rec.Header().Get("Cache-Control"))
	}
	mustRefresh(t, m)
	clk.Advance(30 * time.Minute) // the next key's publish lead (2×MaxAge)
	mustRefresh(t, m)             // active, next and one retired key
	r := ring(t, mem)
	if len(r.Keys) != 3 {
		t.Fatalf("%d keys", len(r.Keys))
	}

	rec := serveJWKS(m, http.MethodGet, nil)
	h := rec.Header()
	if rec.Code != http.StatusOK {
		t.Fatalf("GET: %d", rec.Code)
	}
	if got := h.Get("Content-Type"); got != "application/jwk-set+json" {
		t.Errorf("Content-Type %q", got)
	}
	if got := h.Get("Cache-Control"); got != "public, max-age=900, stale-if-error=86400" {
		t.Errorf("Cache-Control %q", got)
	}
	etag := h.Get("Etag")
	if !regexp.MustCompile(`^"[A-Za-z0-9_-]{43}"$`).MatchString(etag) {
		t.Errorf("ETag %q is not a strong quoted hash", etag)
	}
	if h.Get("Content-Length") != "" && h.Get("Content-Length") != strconv.Itoa(rec.Body.Len()) {
		t.Errorf("Content-Length %q for %d bytes", h.Get("Content-Length"), rec.Body.Len())
	}
	body := rec.Body.String()
	set, err := jwk.ParseSet([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if set.Len() != 3 {
		t.Fatalf("JWKS holds %d keys; want next, active and retired", set.Len())
	}
	var doc struct {
		Keys []map[string]any `json:"keys"`
	}
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		t.Fatal(err)
	}
	for i, k := range r.Keys {
		e := doc.Keys[i]
		if e["kid"] != k.ID || e["alg"] != "ES256" || e["use"] != "sig" || e["kty"] != "EC" {
			t.Errorf("entry %d = %v; want kid %q, alg ES256, use sig", i, e, k.ID)
		}
		if _, ok := e["d"]; ok {
			t.Fatalf("entry %d publishes the private key", i)
		}
		pk, _ := set.Lookup(k.ID)
		if tp, _ := jwk.Thumbprint(pk); tp != k.ID {
			t.Errorf("kid %q is not the thumbprint %q", k.ID, tp)
		}
	}

	// Conditional requests.
	for _, inm := range []string{etag, "W/" + etag, `"other", ` + etag, "*"} {
		rec := serveJWKS(m, http.MethodGet, map[string]string{"If-None-Match": inm})
		if rec.Code != http.StatusNotModified || rec.Body.Len() != 0 || rec.Header().Get("Etag") != etag ||
			rec.Header().Get("Cache-Control") == "" {
			t.Errorf("If-None-Match %s: %d, %d bytes", inm, rec.Code, rec.Body.Len())
		}
	}
	if rec := serveJWKS(m, http.MethodGet, map[string]string{"If-None-Match": `"other"`}); rec.Code != http.StatusOK {
		t.Errorf("If-None-Match other: %d", rec.Code)
	}
	if rec := serveJWKS(m, http.MethodHead, nil); rec.Code != http.StatusOK || rec.Body.Len() != 0 || rec.Header().Get("Etag") != etag {
		t.Errorf("HEAD: %d, %d bytes", rec.Code, rec.Body.Len())
	}
	for _, meth := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodOptions} {
		if rec := serveJWKS(m, meth, nil); rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != "GET, HEAD" {
			t.Errorf("%s: %d Allow %q", meth, rec.Code, rec.Header().Get("Allow"))
		}
	}

	// Another instance on the same ring serves the same bytes and ETag.
	other := mustNew(t, mem, cfg)
	mustRefresh(t, other)
	if rec := serveJWKS(other, http.MethodGet, nil); rec.Body.String() != body || rec.Header().Get("Etag") != etag {
		t.Error("two instances on one ring serve different key sets")
	}
	// A rotation changes the ETag; the old one no longer matches.
	clk.Advance(30 * time.Minute)
	mustRefresh(t, m)
	rec = serveJWKS(m, http.MethodGet, map[string]string{"If-None-Match": etag})
	if rec.Code != http.StatusOK || rec.Header().Get("Etag") == etag {
		t.Errorf("after a rotation: %d, ETag unchanged %v", rec.Code, rec.Header().Get("Etag") == etag)
	}
}

// TestJWKSHMACNeverPublished: HS* keys rotate but the JWKS omits them.
func TestJWKSHMACNeverPublished(t *testing.T) {
	clk := newClock()
	mem := storage.NewMemory(clk.Now)
	m := mustNew(t, mem, fastConfig(t, clk, mustKEK(t), signet.HS256))
	mustRefresh(t, m)
	rec := serveJWKS(m, http.MethodGet, nil)
	if rec.Code != http.StatusOK || rec.Body.String() != `{"keys":[]}` {
		t.Fatalf("HS256 JWKS: %d %s", rec.Code, rec.Body)
	}
	ks, err := m.Verifier(t.Context())
	if err != nil || ks.(*signet.KeySet).Len() != 2 {
		t.Fatalf("Verifier = %v, %v; want the two HMAC keys", ks, err)
	}
	for _, k := range ring(t, mem).Keys {
		if k.Public != "" {
			t.Fatalf("an HMAC key record has a public form %q", k.Public)
		}
	}
}

// TestJWKSPASERK: v4.public keys are published as {"kid","paserk"}.
func TestJWKSPASERK(t *testing.T) {
	clk := newClock()
	mem := storage.NewMemory(clk.Now)
	m := mustNew(t, mem, fastConfig(t, clk, mustKEK(t), signet.V4Public))
	mustRefresh(t, m)
	rec := serveJWKS(m, http.MethodGet, nil)
	var doc struct {
		Keys []map[string]string `json:"keys"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	r := ring(t, mem)
	if len(doc.Keys) != 2 {
		t.Fatalf("%d keys", len(doc.Keys))
	}
	for i, e := range doc.Keys {
		if len(e) != 2 || e["kid"] != r.Keys[i].ID || !strings.HasPrefix(e["kid"], "k4.pid.") || !strings.HasPrefix(e["paserk"], "k4.public.") {
			t.Fatalf("entry %d = %v", i, e)
		}
	}
	k, err := m.Signer(t.Context())
	if err != nil || k.KeyID() != doc.Keys[0]["kid"] {
		t.Fatalf("signer kid %q, active published %q", k.KeyID(), doc.Keys[0]["kid"])
	}
}

func BenchmarkJWKSHandler(b *testing.B) {
	clk := newClock()
	m := mustNew(b, storage.NewMemory(clk.Now), fastConfig(b, clk, mustKEK(b), signet.ES256))
	mustRefresh(b, m)
	h := m.JWKSHandler()
	req := httptest.NewRequest(http.MethodGet, "/.well-known/jwks.json", nil)
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
	}
}
