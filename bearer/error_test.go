package bearer_test

import (
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/bearer"
)

// TestWriteTo checks the challenge's quoting and the other headers.
func TestWriteTo(t *testing.T) {
	for _, c := range []struct {
		name   string
		e      bearer.Error
		realm  string
		status int
		chal   string
	}{
		{"no realm", bearer.Error{Status: 401}, "", 401, "Bearer"},
		{"no realm, error", bearer.Error{Status: 401, Code: bearer.CodeInvalidToken}, "", 401, `Bearer error="invalid_token"`},
		{"realm escaped", bearer.Error{Status: 401}, `a "b" \c`, 401, `Bearer realm="a \"b\" \\c"`},
		{"realm control characters dropped", bearer.Error{Status: 401}, "a\r\nSet-Cookie: x\x00\x7f\tb", 401, "Bearer realm=\"aSet-Cookie: x\tb\""},
		{"realm UTF-8 kept", bearer.Error{Status: 401}, "Bücher", 401, `Bearer realm="Bücher"`},
		{"description restricted", bearer.Error{Status: 401, Code: bearer.CodeInvalidToken, Description: "bad \"tok\\en\"\n é"}, "r", 401,
			`Bearer realm="r", error="invalid_token", error_description="bad token "`},
		{"scope restricted", bearer.Error{Status: 403, Code: bearer.CodeInsufficientScope, Scope: "a \"b\" c"}, "r", 403,
			`Bearer realm="r", error="insufficient_scope", scope="a b c"`},
		{"code restricted", bearer.Error{Status: 400, Code: "in valid\""}, "", 400, `Bearer error="invalid"`},
		{"description without code", bearer.Error{Status: 401, Description: "x"}, "", 401, "Bearer"},
		{"503 has no challenge", bearer.Error{Status: 503}, "r", 503, ""},
		{"500 has no challenge", bearer.Error{Status: 500}, "r", 500, ""},
		{"status 0 is 500", bearer.Error{}, "r", 500, ""},
		{"status 200 is 500", bearer.Error{Status: 200}, "r", 500, ""},
	} {
		w := httptest.NewRecorder()
		c.e.WriteTo(w, c.realm)
		if w.Code != c.status || w.Header().Get("WWW-Authenticate") != c.chal {
			t.Errorf("%s: %d %s\nwant %d %s", c.name, w.Code, w.Header().Get("WWW-Authenticate"), c.status, c.chal)
		}
		if ra := w.Header().Get("Retry-After"); (ra == "30") != (c.status == 503) {
			t.Errorf("%s: Retry-After %q", c.name, ra)
		}
		if !strings.HasPrefix(w.Body.String(), `{"type":"about:blank","title":`) {
			t.Errorf("%s: body %s", c.name, w.Body)
		}
	}
	// A Retry-After set before is kept.
	w := httptest.NewRecorder()
	w.Header().Set("Retry-After", "5")
	(&bearer.Error{Status: 503}).WriteTo(w, "")
	if got := w.Header().Values("Retry-After"); len(got) != 1 || got[0] != "5" {
		t.Errorf("Retry-After %q", got)
	}
	// The description is JSON-escaped in the body.
	w = httptest.NewRecorder()
	(&bearer.Error{Status: 401, Code: bearer.CodeInvalidToken, Description: "a\"<b>\n"}).WriteTo(w, "")
	if want := `{"type":"about:blank","title":"Unauthorized","status":401,"detail":"a\"<b>\n"}` + "\n"; w.Body.String() != want {
		t.Errorf("body %s\nwant %s", w.Body, want)
	}
}

// TestErrorOf checks the mapping of causes to answers, and that the
// description never carries the cause's text.
func TestErrorOf(t *testing.T) {
	secret := "eyJhbGciOiJIUzI1NiJ9.secret"
	for _, c := range []struct {
		err    error
		status int
		code   string
		desc   string
	}{
		{bearer.ErrNoToken, 401, "", ""},
		{fmt.Errorf("%w: %s", bearer.ErrInvalidRequest, secret), 400, bearer.CodeInvalidRequest, "malformed bearer credentials"},
		{fmt.Errorf("x: %w: %s", signet.ErrUnavailable, secret), 503, "", "token verification temporarily unavailable"},
		{fmt.Errorf("%w: %s", bearer.ErrInsufficientScope, secret), 403, bearer.CodeInsufficientScope, "insufficient scope"},
		{fmt.Errorf("%w: %s", signet.ErrExpired, secret), 401, bearer.CodeInvalidToken, "token expired"},
		{fmt.Errorf("%w: %s", signet.ErrTooLarge, secret), 401, bearer.CodeInvalidToken, "token too large"},
		{fmt.Errorf("%w: %s", signet.ErrSignatureInvalid, secret), 401, bearer.CodeInvalidToken, "invalid token"},
		{fmt.Errorf("%w: kid %s", signet.ErrKeyNotFound, secret), 401, bearer.CodeInvalidToken, "invalid token"},
		{fmt.Errorf("%w: %s", signet.ErrIssuer, secret), 401, bearer.CodeInvalidToken, "invalid token"},
		{errors.New(secret), 401, bearer.CodeInvalidToken, "invalid token"},
	} {
		e := bearer.ErrorOf(c.err)
		if e.Status != c.status || e.Code != c.code || e.Description != c.desc || e.Err != c.err {
			t.Errorf("ErrorOf(%v) = %+v", c.err, e)
		}
		w := httptest.NewRecorder()
		e.WriteTo(w, "r")
		if strings.Contains(w.Body.String()+w.Header().Get("WWW-Authenticate"), "secret") {
			t.Errorf("ErrorOf(%v): the answer quotes the cause", c.err)
		}
	}
	e := &bearer.Error{Status: 418}
	if bearer.ErrorOf(fmt.Errorf("wrapped: %w", e)) != e {
		t.Error("an *Error is not kept")
	}
	if got := (&bearer.Error{Status: 401, Code: "invalid_token", Err: signet.ErrExpired}).Error(); got != "bearer: 401 invalid_token: signet: token expired" {
		t.Errorf("Error() = %q", got)
	}
	for _, s := range []error{bearer.ErrNoToken, bearer.ErrInvalidRequest, bearer.ErrInsufficientScope} {
		if !errors.Is(s, signet.ErrMissingClaim) && !errors.Is(s, signet.ErrMalformed) {
			t.Errorf("%v wraps no signet sentinel", s)
		}
	}
}
