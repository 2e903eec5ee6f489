package bearer_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/bearer"
)

// TestToken checks the extraction of RFC 6750 §2.1, header by header.
func TestToken(t *testing.T) {
	const tok = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln"
	for _, c := range []struct {
		auth []string
		want string
		err  error
	}{
		{[]string{"Bearer " + tok}, tok, nil},
		{[]string{"bearer " + tok}, tok, nil},
		{[]string{"BEARER " + tok}, tok, nil},
		{[]string{"Bearer   " + tok}, tok, nil},
		{[]string{"Bearer abc-._~+/=="}, "abc-._~+/==", nil},
		{[]string{"Bearer a"}, "a", nil},
		{nil, "", bearer.ErrNoToken},
		{[]string{""}, "", bearer.ErrNoToken},
		{[]string{"Basic YWxpY2U6cGFzcw=="}, "", bearer.ErrNoToken},
		{[]string{"DPoP " + tok}, "", bearer.ErrNoToken},
		{[]string{"Bear " + tok}, "", bearer.ErrNoToken},
		{[]string{"Bearer2 " + tok}, "", bearer.ErrNoToken},
		{[]string{"Bearer"}, "", bearer.ErrInvalidRequest},
		{[]string{"Bearer "}, "", bearer.ErrInvalidRequest},
		{[]string{"Bearer\t" + tok}, "", bearer.ErrInvalidRequest},
		{[]string{"Bearer," + tok}, "", bearer.ErrInvalidRequest},
		{[]string{"Bearer " + tok + " "}, "", bearer.ErrInvalidRequest},
		{[]string{"Bearer " + tok + "\t"}, "", bearer.ErrInvalidRequest},
		{[]string{"Bearer " + tok, "Bearer " + tok}, "", bearer.ErrInvalidRequest},
		{[]string{"Bearer " + tok, ""}, "", bearer.ErrInvalidRequest},
		{[]string{"Bearer =abc"}, "", bearer.ErrInvalidRequest},
		{[]string{"Bearer ab=c"}, "", bearer.ErrInvalidRequest},
		{[]string{"Bearer a\"b"}, "", bearer.ErrInvalidRequest},
		{[]string{"Bearer a\x00b"}, "", bearer.ErrInvalidRequest},
		{[]string{"Bearer a\xffb"}, "", bearer.ErrInvalidRequest},
		{[]string{"Bearer " + strings.Repeat("a", bearer.DefaultMaxSize)}, strings.Repeat("a", bearer.DefaultMaxSize), nil},
		{[]string{"Bearer " + strings.Repeat("a", bearer.DefaultMaxSize+1)}, "", signet.ErrTooLarge},
		// Too large is decided before the characters are read.
		{[]string{"Bearer " + strings.Repeat("\"", bearer.DefaultMaxSize+1)}, "", signet.ErrTooLarge},
		{[]string{"Bearer " + strings.Repeat(" ", bearer.DefaultMaxSize+1)}, "", signet.ErrTooLarge},
	} {
		r := &http.Request{Header: http.Header{}}
		if c.auth != nil {
			r.Header["Authorization"] = c.auth
		}
		got, err := bearer.Token(r)
		if got != c.want || !errors.Is(err, c.err) || (err == nil) != (c.err == nil) {
			t.Errorf("Token(%.40q) = %.20q, %v; want %.20q, %v", c.auth, got, err, c.want, c.err)
		}
		if err != nil && strings.Contains(err.Error(), "eyJ") {
			t.Errorf("error quotes the token: %v", err)
		}
	}
}

// TestOversizedBeforeParsing proves that a token over the limit is
// refused before anything is done with it: the key source is never asked.
func TestOversizedBeforeParsing(t *testing.T) {
	f := newFixture(t, signet.HS256)
	keys := &countKeys{keys: f.pub}
	m, err := bearer.New[Claims](keys, bearer.Options{Policy: policy()})
	if err != nil {
		t.Fatal(err)
	}
	good := f.sign(t, claims(), "")
	// A token just over the limit, with a well-formed header and kid:
	// only the size can refuse it.
	big := good + strings.Repeat("A", bearer.DefaultMaxSize+1-len(good))
	for _, auth := range []string{"Bearer " + big, "Bearer " + strings.Repeat("\"", 1<<20)} {
		res := serve(t, m, request(auth))
		if res.rec.Code != 401 || !strings.Contains(res.rec.Header().Get("WWW-Authenticate"), `"token too large"`) {
			t.Fatalf("oversized: %d %s", res.rec.Code, res.rec.Header().Get("WWW-Authenticate"))
		}
	}
	if n := keys.n.Load(); n != 0 {
		t.Fatalf("Select called %d times for oversized tokens", n)
	}
	if res := serve(t, m, request("Bearer "+good)); res.rec.Code != 204 || keys.n.Load() != 1 {
		t.Fatalf("good token: %d, %d Select calls", res.rec.Code, keys.n.Load())
	}
}
