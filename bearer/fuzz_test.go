package bearer_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/bearer"
)

// FuzzToken feeds Token any Authorization header (one, or two when second
// is set): it never panics, every error is one of its three classes, and
// a token it returns is the header's token68 after "Bearer" and spaces,
// within the size limit. The seed corpus is in testdata/fuzz/FuzzToken.
func FuzzToken(f *testing.F) {
	for _, s := range []string{
		"Bearer eyJhbGciOiJIUzI1NiJ9.e30.c2ln", "bearer a", "Bearer", "Bearer ",
		"Basic YTpi", "Bearer a b", "Bearer a==", "Bearer =", "", "Bearer\ta", "BEARER  abc~+/",
	} {
		f.Add(s, "", false)
	}
	f.Add("Bearer a", "Bearer b", true)
	f.Fuzz(func(t *testing.T, first, second string, two bool) {
		r := &http.Request{Header: http.Header{"Authorization": {first}}}
		if two {
			r.Header["Authorization"] = append(r.Header["Authorization"], second)
		}
		tok, err := bearer.Token(r)
		if err != nil {
			if tok != "" {
				t.Fatalf("token %q with error %v", tok, err)
			}
			if !errors.Is(err, bearer.ErrNoToken) && !errors.Is(err, bearer.ErrInvalidRequest) && !errors.Is(err, signet.ErrTooLarge) {
				t.Fatalf("error of no class: %v", err)
			}
			return
		}
		if two {
			t.Fatal("two headers accepted")
		}
		if len(tok) > bearer.DefaultMaxSize || len(first) < 8 || !strings.EqualFold(first[:6], "bearer") ||
			strings.TrimLeft(first[6:], " ") != tok || first[6] != ' ' {
			t.Fatalf("Token(%q) = %q", first, tok)
		}
		body := strings.TrimRight(tok, "=")
		if body == "" || strings.Trim(body, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/") != "" {
			t.Fatalf("not token68: %q", tok)
		}
	})
}

// FuzzMiddleware sends the middleware any Authorization header: it never
// panics, lets through only the one good token, and answers each refusal
// as Token's verdict says (400 for what Token calls malformed, 401 for
// the rest), although it checks the token68 syntax only after jwt
// refused a token.
func FuzzMiddleware(f *testing.F) {
	fx := newFixture(f, signet.HS256)
	good := fx.sign(f, claims(), "")
	m, err := bearer.New[Claims](fx.pub, bearer.Options{Policy: policy(), Scopes: []string{"orders:read"}})
	if err != nil {
		f.Fatal(err)
	}
	h := m.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) }))
	for _, s := range []string{"Bearer " + good, "bearer  " + good, "Bearer " + good + " x", "Bearer " + good[:20] + "\"" + good[21:],
		"Bearer " + good[:len(good)-1], "Bearer a.b.c", "Bearer ...", "Bearer =", "Basic x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, auth string) {
		r := &http.Request{Method: "GET", Header: http.Header{"Authorization": {auth}}}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		tok, err := bearer.Token(r)
		want := http.StatusUnauthorized
		switch {
		case err == nil && tok == good:
			want = http.StatusNoContent
		case errors.Is(err, bearer.ErrInvalidRequest):
			want = http.StatusBadRequest
		}
		if w.Code != want {
			t.Fatalf("%q: %d, want %d (Token: %v)", auth, w.Code, want, err)
		}
	})
}
