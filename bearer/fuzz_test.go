package bearer_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/bearer"
	"github.com/signet-go/signet/jwt"
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

// FuzzScopes signs any payload and checks the middleware's own reading of
// the scope claim (the one-pass reader, or the general one for other
// shapes) against encoding/json's: for a payload jwt.Verify accepts, a
// required scope passes exactly when the top-level "scope" member is a
// string holding it as one of its space-separated names; a scope member
// of another type is ErrMalformed; no such name, ErrInsufficientScope. A
// scope New refuses is ErrUnsupported.
func FuzzScopes(f *testing.F) {
	key, err := signet.GenerateKey(signet.HS256)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range [][2]string{
		{`{"scope":"a b c"}`, "b"},
		{`{"scope":"a b c"}`, "a b"},
		{`{"scope":"ab"}`, "a"},
		{`{"scope":"a\tb"}`, "b"},
		{`{"scope":"a\u0020b"}`, "b"},
		{`{"scope":"\u0061"}`, "a"},
		{`{"sc\u006fpe":"a"}`, "a"},
		{`{"SCOPE":"a"}`, "a"},
		{`{"x":{"scope":"a"},"y":1}`, "a"},
		{`{"scope":["a"]}`, "a"},
		{`{"scope":null}`, "a"},
		{`{"scope":""}`, ""},
		{`{"scope":" a  b "}`, "b"},
		{` { "scope" : "a" } `, "a"},
		{`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16,"scope":"a"}`, "a"},
		{`{"scope":"a","scope":"b"}`, "b"},
	} {
		f.Add(s[0], s[1])
	}
	p := jwt.Policy{NoExpiry: true, Now: clock}
	f.Fuzz(func(t *testing.T, payload, need string) {
		if len(payload) > 4<<10 {
			return
		}
		m, err := bearer.New[jwt.Map](key, bearer.Options{Policy: p, Scopes: []string{need}})
		if err != nil {
			if !errors.Is(err, signet.ErrUnsupported) {
				t.Fatalf("New(scope %q): %v", need, err)
			}
			return
		}
		tok, err := jwt.SignBytes(key, []byte(payload), "")
		if err != nil {
			t.Fatal(err)
		}
		_, got := m.Verify(tok)
		if _, err := jwt.Verify[jwt.Map](key, tok, p); err != nil {
			if got == nil {
				t.Fatalf("%q: passed the scope check, refused by jwt.Verify: %v", payload, err)
			}
			return
		}
		var members map[string]json.RawMessage
		if err := json.Unmarshal([]byte(payload), &members); err != nil {
			t.Fatalf("%q: jwt.Verify accepted what encoding/json refuses: %v", payload, err)
		}
		var want error
		raw, has := members["scope"]
		var scope string
		switch {
		case !has:
			want = bearer.ErrInsufficientScope
		case string(raw) == "null" || json.Unmarshal(raw, &scope) != nil:
			want = signet.ErrMalformed
		case !slices.Contains(strings.Split(scope, " "), need):
			want = bearer.ErrInsufficientScope
		}
		if (got == nil) != (want == nil) || want != nil && !errors.Is(got, want) {
			t.Fatalf("%q needing %q: %v, want %v", payload, need, got, want)
		}
	})
}
