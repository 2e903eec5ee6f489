package study

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/signet-go/signet"
)

var testKeys = sync.OnceValues(NewKeys)

func keys(t *testing.T) *Keys {
	t.Helper()
	k, err := testKeys()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func allAlgs() []string { return slices.Concat(JWTAlgs, PASETOAlgs) }

func mustNew(t *testing.T, lib, alg, size string) Tokens {
	t.Helper()
	toks, err := New(lib, alg, size, keys(t))
	if err != nil {
		t.Fatalf("%s %s %s: %v", lib, alg, size, err)
	}
	return toks
}

// studyBody is what the lab's scripts POST (the study's request body).
const studyBody = `{"page":1,"size":20}`

// serve runs one request against h and returns the recorded response.
func serve(h http.Handler, path, authorization string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, path, strings.NewReader(studyBody))
	r.Header.Set("Content-Type", "application/json")
	if authorization != "" {
		r.Header.Set("Authorization", authorization)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// issued returns the token of a 200 {"token":…} response, failing on any
// other shape.
func issued(t *testing.T, w *httptest.ResponseRecorder) string {
	t.Helper()
	if w.Code != http.StatusOK {
		t.Fatalf("issue: status %d, body %q", w.Code, w.Body)
	}
	var m map[string]string
	if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil {
		t.Fatalf("issue: body %q: %v", w.Body, err)
	}
	if keys := slices.Collect(maps.Keys(m)); len(keys) != 1 || m["token"] == "" {
		t.Fatalf("issue: body %q, want {\"token\":…} alone", w.Body)
	}
	return m["token"]
}

// TestCrossLibrary: for every algorithm and payload class, a token issued
// by one library's /issue is accepted by the other library's /check (and
// by its own), which answers the study's identity.
func TestCrossLibrary(t *testing.T) {
	for _, alg := range allAlgs() {
		for _, size := range Sizes {
			libs := Libs(alg)
			hs := map[string]http.Handler{}
			for _, lib := range libs {
				hs[lib] = Handler(mustNew(t, lib, alg, size))
			}
			for _, from := range libs {
				tok := issued(t, serve(hs[from], "/issue", ""))
				for _, to := range libs {
					w := serve(hs[to], "/check", "Bearer "+tok)
					if w.Code != http.StatusOK || w.Body.String() != `{"user_id":1,"username":"alice"}` {
						t.Errorf("%s %s: %s's token checked by %s: %d %q", alg, size, from, to, w.Code, w.Body)
					}
				}
			}
		}
	}
}

// forge flips one bit in the middle of the token's last segment (the JWS
// signature, the PASETO signature or tag): the encoding stays valid.
func forge(t *testing.T, tok string) string {
	t.Helper()
	dot := strings.LastIndexByte(tok, '.')
	b, err := base64.RawURLEncoding.DecodeString(tok[dot+1:])
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-20] ^= 1
	return tok[:dot+1] + base64.RawURLEncoding.EncodeToString(b)
}

// TestCheckRefuses: /check answers 401, the same challenge and body for
// every library, to a forged token, a missing or non-Bearer header, an
// expired token and a token of another algorithm; Check's error wraps
// ErrRefused.
func TestCheckRefuses(t *testing.T) {
	k := keys(t)
	past := time.Now().Add(-Lifetime - time.Hour)
	for _, alg := range allAlgs() {
		other := "HS256"
		if alg == "HS256" {
			other = "ES256"
		}
		if slices.Contains(PASETOAlgs, alg) {
			other = "v4.local"
			if alg == other {
				other = "v4.public"
			}
		}
		for _, lib := range Libs(alg) {
			toks := mustNew(t, lib, alg, "small")
			h := Handler(toks)
			good, err := toks.Issue(time.Now(), UserID)
			if err != nil {
				t.Fatal(err)
			}
			expired, err := toks.Issue(past, UserID)
			if err != nil {
				t.Fatal(err)
			}
			otherToks, err := New(lib, other, "small", k)
			if err != nil {
				t.Fatal(err)
			}
			wrongAlg, err := otherToks.Issue(time.Now(), UserID)
			if err != nil {
				t.Fatal(err)
			}
			for name, auth := range map[string]string{
				"forged":    "Bearer " + forge(t, good),
				"missing":   "",
				"basic":     "Basic " + base64.StdEncoding.EncodeToString([]byte("u:p")),
				"empty":     "Bearer ",
				"expired":   "Bearer " + expired,
				"other alg": "Bearer " + wrongAlg,
				"garbage":   "Bearer not.a.token",
			} {
				w := serve(h, "/check", auth)
				if w.Code != http.StatusUnauthorized || w.Body.String() != `{"error":"invalid token"}` ||
					w.Header().Get("WWW-Authenticate") != `Bearer error="invalid_token"` {
					t.Errorf("%s %s %s: %d %q %q", lib, alg, name, w.Code, w.Body, w.Header())
				}
			}
			for name, tok := range map[string]string{"forged": forge(t, good), "expired": expired, "other alg": wrongAlg} {
				if _, err := toks.Check(tok); !errors.Is(err, ErrRefused) {
					t.Errorf("%s %s %s: Check error %v, want ErrRefused", lib, alg, name, err)
				}
			}
			// The scheme is case-insensitive (RFC 6750 §2.1).
			if w := serve(h, "/check", "bearer "+good); w.Code != http.StatusOK {
				t.Errorf("%s %s: lower-case scheme: %d", lib, alg, w.Code)
			}
		}
	}
}

// TestResponseShape: every library answers in the same shape: the same
// status, headers and body for /hello, /check and a refusal; /issue a
// JSON object with the token alone.
func TestResponseShape(t *testing.T) {
	type shape struct {
		code   int
		header http.Header
		body   string
	}
	of := func(w *httptest.ResponseRecorder, body bool) shape {
		h := w.Header().Clone()
		s := shape{code: w.Code, header: h}
		if body {
			s.body = w.Body.String()
		}
		return s
	}
	want := map[string]shape{}
	same := func(what string, got shape, who string) {
		if w, ok := want[what]; !ok {
			want[what] = got
		} else if w.code != got.code || w.body != got.body || !equalHeaders(w.header, got.header) {
			t.Errorf("%s: %s answers %+v, others %+v", what, who, got, w)
		}
	}
	for _, alg := range allAlgs() {
		for _, lib := range Libs(alg) {
			toks := mustNew(t, lib, alg, "small")
			h := Handler(toks)
			who := lib + " " + alg
			same("hello", of(serve(h, "/hello", ""), true), who)
			wi := serve(h, "/issue", "")
			tok := issued(t, wi)
			same("issue", of(wi, false), who)
			same("check", of(serve(h, "/check", "Bearer "+tok), true), who)
			same("refused", of(serve(h, "/check", "Bearer "+forge(t, tok)), true), who)
		}
	}
	if got := want["hello"]; got.body != `{"message":"hello"}` || got.header.Get("Content-Type") != "application/json" {
		t.Errorf("hello: %+v", got)
	}
	// /hello alone: the same baseline without a library.
	if w := serve(Handler(nil), "/hello", ""); w.Body.String() != want["hello"].body {
		t.Errorf("hello without a library: %q", w.Body)
	}
	if w := serve(Handler(nil), "/issue", ""); w.Code != http.StatusNotFound {
		t.Errorf("/issue without a library: %d", w.Code)
	}
}

func equalHeaders(a, b http.Header) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

// claimsSize returns the length of a token's claims: the JWS payload
// decoded, or a PASETO v4.public message (v4.local's ciphertext has the
// same length as its claims).
func claimsSize(t *testing.T, tok string) int {
	t.Helper()
	parts := strings.Split(tok, ".")
	switch {
	case parts[0] == "v4" && len(parts) == 3:
		b, err := base64.RawURLEncoding.DecodeString(parts[2])
		if err != nil {
			t.Fatal(err)
		}
		if parts[1] == "local" {
			return len(b) - 32 - 32 // nonce, tag
		}
		return len(b) - 64 // signature
	case len(parts) == 3:
		b, err := base64.RawURLEncoding.DecodeString(parts[1])
		if err != nil {
			t.Fatal(err)
		}
		return len(b)
	}
	t.Fatalf("not a token: %q", tok)
	return 0
}

// TestPayloadSizes: the classes are the sizes the package doc states,
// within 15 % whatever the library (PASETO's RFC 3339 times are longer
// than JWT's numbers).
func TestPayloadSizes(t *testing.T) {
	bounds := map[string][2]int{"small": {50, 130}, "medium": {1024 * 85 / 100, 1024 * 115 / 100}, "large": {10240 * 85 / 100, 10240 * 115 / 100}}
	for _, alg := range []string{"HS256", "v4.public", "v4.local"} {
		for _, size := range Sizes {
			for _, lib := range Libs(alg) {
				tok, err := mustNew(t, lib, alg, size).Issue(time.Now(), UserID)
				if err != nil {
					t.Fatal(err)
				}
				if n, b := claimsSize(t, tok), bounds[size]; n < b[0] || n > b[1] {
					t.Errorf("%s %s %s: claims of %d bytes, want %d to %d", lib, alg, size, n, b[0], b[1])
				}
			}
		}
	}
	// Same claims, same work: for every algorithm and class, the libraries'
	// tokens issued at the same instant have the same length, and JWTs the
	// same header.
	now := time.Now()
	for _, alg := range allAlgs() {
		for _, size := range Sizes {
			var toks []string
			for _, lib := range Libs(alg) {
				tok, err := mustNew(t, lib, alg, size).Issue(now, UserID)
				if err != nil {
					t.Fatal(err)
				}
				toks = append(toks, tok)
			}
			if len(toks[0]) != len(toks[1]) {
				t.Errorf("%s %s: tokens of %d and %d bytes", alg, size, len(toks[0]), len(toks[1]))
			}
			if h0, _, _ := strings.Cut(toks[0], "."); !strings.HasPrefix(alg, "v4.") && !strings.HasPrefix(toks[1], h0+".") {
				t.Errorf("%s: headers differ: %q, %q", alg, toks[0], toks[1])
			}
		}
	}
	if _, err := Perms("huge"); !errors.Is(err, signet.ErrUnsupported) {
		t.Errorf("Perms of an unknown class: %v", err)
	}
	for _, c := range [][3]string{{LibSignet, "HS256", "huge"}, {LibGoPASETO, "HS256", "small"}, {LibGolangJWT, "v4.public", "small"}, {LibSignet, "RS512", "small"}, {"jwx", "HS256", "small"}} {
		if _, err := New(c[0], c[1], c[2], keys(t)); !errors.Is(err, signet.ErrUnsupported) {
			t.Errorf("New%v: %v, want ErrUnsupported", c, err)
		}
	}
}

// TestWriteTokens: the file holds n distinct tokens, one a line, each
// checked by the other library.
func TestWriteTokens(t *testing.T) {
	for _, alg := range []string{"ES256", "v4.local"} {
		libs := Libs(alg)
		toks, other := mustNew(t, libs[0], alg, "small"), mustNew(t, libs[1], alg, "small")
		path := filepath.Join(t.TempDir(), "tokens.txt")
		if err := WriteTokens(path, toks, 5, time.Now()); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		if len(lines) != 5 || len(slices.Compact(slices.Sorted(slices.Values(lines)))) != 5 {
			t.Fatalf("%s: %d lines, want 5 distinct", alg, len(lines))
		}
		for i, l := range lines {
			id, err := other.Check(l)
			if err != nil || id != (Identity{UserID: uint(i + 1), Username: Username}) {
				t.Errorf("%s: token %d: %+v %v", alg, i, id, err)
			}
		}
		if err := WriteTokens(path, toks, 0, time.Now()); err == nil {
			t.Error("WriteTokens wrote 0 tokens")
		}
	}
}

// TestFloors: every floor checks its own token, refuses the forged one
// (NewFloor runs both) and signs; Op maps the scenario operations.
func TestFloors(t *testing.T) {
	k := keys(t)
	for _, alg := range allAlgs() {
		for _, size := range Sizes {
			f, err := NewFloor(alg, size, k)
			if err != nil {
				t.Fatalf("%s %s: %v", alg, size, err)
			}
			f.Sign()
			f.Verify()
			f.Forged()
			for _, op := range []string{"issue", "check"} {
				if fn, err := f.Op(op); err != nil || fn == nil {
					t.Errorf("%s: Op(%s): %v", alg, op, err)
				}
			}
			if _, err := f.Op("hello"); err == nil {
				t.Errorf("%s: Op(hello) has a floor", alg)
			}
		}
	}
	if _, err := NewFloor("RS512", "small", k); !errors.Is(err, signet.ErrUnsupported) {
		t.Error("NewFloor: RS512 is not in the study")
	}
}

// TestCost: Cost reports a broken floor as an error and measures a
// working one (the figure itself is timing, not checked).
func TestCost(t *testing.T) {
	if _, err := Cost(func() { must(false) }, 1); err == nil {
		t.Error("Cost: a failing floor measured")
	}
	f, err := NewFloor("HS256", "small", keys(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Cost(f.Verify, 0); err == nil {
		t.Error("Cost: 0 runs measured")
	}
	if ns, err := Cost(f.Verify, 1); err != nil || ns <= 0 {
		t.Errorf("Cost: %v %v", ns, err)
	}
}

// TestBodyNotRead: the handlers answer whatever body the request has (the
// scripts' POST body is discarded, not parsed).
func TestBodyNotRead(t *testing.T) {
	h := Handler(mustNew(t, LibSignet, "HS256", "small"))
	r := httptest.NewRequest(http.MethodPost, "/issue", io.NopCloser(bytes.NewReader(bytes.Repeat([]byte("x"), 1<<16))))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	issued(t, w)
}

// TestConcurrent: one Tokens serves concurrent requests, as under wrk's
// ten connections (run with -race).
func TestConcurrent(t *testing.T) {
	for _, alg := range []string{"HS256", "ES256", "v4.local", "v4.public"} {
		for _, lib := range Libs(alg) {
			h := Handler(mustNew(t, lib, alg, "small"))
			var wg sync.WaitGroup
			errs := make(chan string, 8)
			for range 8 {
				wg.Go(func() {
					for range 20 {
						w := serve(h, "/issue", "")
						if w.Code != http.StatusOK {
							errs <- "issue: " + w.Body.String()
							return
						}
						var m map[string]string
						if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil {
							errs <- err.Error()
							return
						}
						if w := serve(h, "/check", "Bearer "+m["token"]); w.Code != http.StatusOK {
							errs <- "check: " + w.Body.String()
							return
						}
					}
				})
			}
			wg.Wait()
			close(errs)
			for e := range errs {
				t.Errorf("%s %s: %s", lib, alg, e)
			}
		}
	}
}
