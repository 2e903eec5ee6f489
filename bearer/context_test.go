package bearer_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/bearer"
	"github.com/signet-go/signet/jwt"
)

type parentKey struct{}

// TestClaimsFrom checks the typed getter: the claims of the verifying
// middleware's T only, the parent context still reached and cancelled.
func TestClaimsFrom(t *testing.T) {
	if _, ok := bearer.ClaimsFrom[Claims](context.Background()); ok {
		t.Fatal("claims in an empty context")
	}
	f := newFixture(t, signet.HS256)
	tok := f.sign(t, claims(), "")
	m, err := bearer.New[Claims](f.pub, bearer.Options{Policy: policy()})
	if err != nil {
		t.Fatal(err)
	}
	parent, cancel := context.WithCancel(context.WithValue(context.Background(), parentKey{}, "parent"))
	var seen context.Context
	h := m.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		seen = ctx
		c, ok := bearer.ClaimsFrom[Claims](ctx)
		if !ok || c.Subject != "alice" || c.Tenant != "acme" || c.ExpiresAt != jwt.At(now.Add(3600e9)) {
			t.Errorf("claims %+v %v", c, ok)
		}
		if _, ok := bearer.ClaimsFrom[jwt.Claims](ctx); ok {
			t.Error("claims of another type")
		}
		if _, ok := bearer.ClaimsFrom[*Claims](ctx); ok {
			t.Error("claims of the pointer type")
		}
		if ctx.Value(parentKey{}) != "parent" {
			t.Error("parent value lost")
		}
		// A context derived from it keeps the claims.
		child, stop := context.WithCancel(context.WithValue(ctx, parentKey{}, "child"))
		defer stop()
		if c, ok := bearer.ClaimsFrom[Claims](child); !ok || c.Subject != "alice" {
			t.Error("claims lost in a derived context")
		}
		if s := fmt.Sprint(ctx); strings.Contains(s, "alice") || !strings.Contains(s, "bearer claims") {
			t.Errorf("context prints %s", s)
		}
	}))
	r := request("Bearer " + tok).WithContext(parent)
	h.ServeHTTP(httptest.NewRecorder(), r)
	if seen == nil {
		t.Fatal("handler not reached")
	}
	cancel()
	<-seen.Done()
	if seen.Err() != context.Canceled {
		t.Fatalf("context not cancelled with its parent: %v", seen.Err())
	}
}

// TestClaimsTypes: any T jwt.Verify decodes into is handed on.
func TestClaimsTypes(t *testing.T) {
	f := newFixture(t, signet.EdDSA)
	tok := f.sign(t, claims(), "")
	check := func(name string, w func(http.Handler) http.Handler, get func(*http.Request) (string, bool)) {
		t.Helper()
		var got string
		var ok bool
		h := w(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got, ok = get(r) }))
		h.ServeHTTP(httptest.NewRecorder(), request("Bearer "+tok))
		if !ok || got != "alice" {
			t.Errorf("%s: %q %v", name, got, ok)
		}
	}
	opts := bearer.Options{Policy: policy(), Scopes: []string{"orders:read"}}
	mc, _ := bearer.New[jwt.Claims](f.pub, opts)
	check("jwt.Claims", mc.Wrap, func(r *http.Request) (string, bool) {
		c, ok := bearer.ClaimsFrom[jwt.Claims](r.Context())
		return c.Subject, ok
	})
	mp, _ := bearer.New[*Claims](f.pub, opts)
	check("*Claims", mp.Wrap, func(r *http.Request) (string, bool) {
		c, ok := bearer.ClaimsFrom[*Claims](r.Context())
		if !ok || c == nil {
			return "", false
		}
		return c.Subject, ok
	})
	mm, _ := bearer.New[jwt.Map](f.pub, opts)
	check("jwt.Map", mm.Wrap, func(r *http.Request) (string, bool) {
		c, ok := bearer.ClaimsFrom[jwt.Map](r.Context())
		s, _ := c["sub"].(string)
		return s, ok
	})
	type own struct {
		Sub   string `json:"sub"`
		Scope string `json:"scope"`
	}
	mo, _ := bearer.New[own](f.pub, opts)
	check("own struct", mo.Wrap, func(r *http.Request) (string, bool) {
		c, ok := bearer.ClaimsFrom[own](r.Context())
		return c.Sub, ok
	})
}

// TestConcurrent runs one middleware from many goroutines (for -race).
func TestConcurrent(t *testing.T) {
	f := newFixture(t, signet.HS256)
	m, err := bearer.New[Claims](f.pub, bearer.Options{Policy: policy(), AccessToken: true, Scopes: []string{"orders:read"}})
	if err != nil {
		t.Fatal(err)
	}
	toks := []string{f.sign(t, claims(), "at+jwt"), f.sign(t, with(map[string]any{"sub": "bob"}), "at+jwt")}
	h := m.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, _ := bearer.ClaimsFrom[Claims](r.Context())
		fmt.Fprint(w, c.Subject)
	}))
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				n := (g + i) % 3
				rec := httptest.NewRecorder()
				if n == 2 {
					h.ServeHTTP(rec, request("Bearer "+forge(toks[0])))
					if rec.Code != 401 {
						t.Errorf("forged: %d", rec.Code)
					}
					continue
				}
				h.ServeHTTP(rec, request("Bearer "+toks[n]))
				if want := []string{"alice", "bob"}[n]; rec.Code != 200 || rec.Body.String() != want {
					t.Errorf("got %d %q, want %q", rec.Code, rec.Body, want)
				}
			}
		}()
	}
	wg.Wait()
}
