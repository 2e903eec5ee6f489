package bearer_test

import (
	"errors"
	"net/http"
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
