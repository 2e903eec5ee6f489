package oauth

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzRequest sends arbitrary bodies and Authorization headers to the
// token, introspection and revocation endpoints: every answer is 200 or
// a 4xx/503 RFC 6749 §5.2 JSON error, never a panic or a 500.
func FuzzRequest(f *testing.F) {
	seeds := []struct{ body, auth string }{
		{"grant_type=client_credentials", "Basic " + b64("svc-basic:"+secretBasic)},
		{"grant_type=client_credentials&client_id=svc-post&client_secret=" + secretPost, ""},
		{"grant_type=client_credentials&grant_type=client_credentials", ""},
		{"grant_type=client_credentials&scope=read+write&resource=https%3A%2F%2Fapi.example.com", "Basic " + b64("svc-basic:"+secretBasic)},
		{"grant_type=client_credentials&client_assertion_type=urn%3Aietf%3Aparams%3Aoauth%3Aclient-assertion-type%3Ajwt-bearer&client_assertion=e30.e30.", ""},
		{"token=abc&token_type_hint=access_token", "Basic " + b64("svc-basic:"+secretBasic)},
		{"%zz=%", "Basic %%%"},
		{"&&&=&a=b=c", "Basic " + b64("a%2:b")},
		{"a=%ff%fe", "basic   " + b64(":")},
		{"", "Bearer x"},
	}
	for _, s := range seeds {
		f.Add(s.body, s.auth, uint8(0))
	}
	e := newEnv(f, FormatJWT)
	paths := []string{PathToken, PathIntrospect, PathRevoke}
	f.Fuzz(func(t *testing.T, body, auth string, which uint8) {
		if len(body) > 2*MaxBodySize {
			return
		}
		e.clock.Advance(FailureBurst * FailureRefill)
		r := httptest.NewRequest(http.MethodPost, paths[int(which)%len(paths)], strings.NewReader(body))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if auth != "" {
			r.Header.Set("Authorization", auth)
		}
		w := httptest.NewRecorder()
		e.h.ServeHTTP(w, r)
		switch {
		case w.Code == 200:
		case w.Code >= 400 && w.Code < 500, w.Code == 503:
			var m map[string]any
			if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil || m["error"] == nil {
				t.Fatalf("%d with body %q", w.Code, w.Body)
			}
		default:
			t.Fatalf("status %d: %q", w.Code, w.Body)
		}
	})
}

// FuzzParseClients: any input is a set of clients or an error, never a
// panic.
func FuzzParseClients(f *testing.F) {
	f.Add(testClientsJSON(f, []byte(`{"keys":[]}`), []byte(`{"keys":[]}`)))
	f.Add([]byte(`{"clients":[{"client_id":"a","client_secret_sha256":"` + hashHex("s") + `","audience":["x"],"scope":"a b","access_token_ttl":"1h"}]}`))
	f.Add([]byte(`{"clients":[{"client_id":"a","client_id":"b"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cs, err := ParseClients(data)
		if err == nil && cs == nil {
			t.Fatal("no clients and no error")
		}
	})
}

// FuzzUnescape: unescape decodes as url.QueryUnescape does, and refuses
// exactly what it refuses plus invalid UTF-8 and control characters.
func FuzzUnescape(f *testing.F) {
	for _, s := range []string{"", "a+b", "%41%62", "%4", "%", "%zz", "%e2%82%ac", "%ff", "a%0Ab", "%7f", "caf%C3%A9+%2B"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := unescape(s)
		want, werr := url.QueryUnescape(s)
		if werr == nil && (!utf8.ValidString(want) || strings.ContainsFunc(want, func(r rune) bool { return r < 0x20 || r == 0x7f })) {
			werr = errEncoding
		}
		if (err == nil) != (werr == nil) || got != wantIf(werr, want) {
			t.Fatalf("unescape(%q) = %q, %v; want %q, %v", s, got, err, want, werr)
		}
	})
}

func wantIf(err error, s string) string {
	if err != nil {
		return ""
	}
	return s
}
