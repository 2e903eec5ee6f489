package bearer_test

import (
	"errors"
	"net/http"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/bearer"
	"github.com/signet-go/signet/jwt"
)

// TestVerify: Middleware.Verify makes the handler's checks, and its
// error maps with ErrorOf to the handler's answer, for every option.
func TestVerify(t *testing.T) {
	f := newFixture(t, signet.ES256)
	for _, tc := range []struct {
		name   string
		opts   bearer.Options
		claims map[string]any
		typ    string
		status int // the status of ErrorOf(err); 0 when Verify succeeds
		cause  error
	}{
		{name: "valid", opts: bearer.Options{Policy: policy()}, claims: claims()},
		{name: "expired", opts: bearer.Options{Policy: policy()}, claims: with(map[string]any{"exp": now.Unix()}),
			status: http.StatusUnauthorized, cause: signet.ErrExpired},
		{name: "scope held", opts: bearer.Options{Policy: policy(), Scopes: []string{"orders:write"}}, claims: claims()},
		{name: "scope missing", opts: bearer.Options{Policy: policy(), Scopes: []string{"admin"}}, claims: claims(),
			status: http.StatusForbidden, cause: bearer.ErrInsufficientScope},
		{name: "scope after a tab", opts: bearer.Options{Policy: policy(), Scopes: []string{"admin"}},
			claims: with(map[string]any{"scope": "read\tadmin"}), status: http.StatusForbidden, cause: bearer.ErrInsufficientScope},
		{name: "access token", opts: bearer.Options{Policy: policy(), AccessToken: true}, claims: claims(), typ: "at+jwt"},
		{name: "access token without client_id", opts: bearer.Options{Policy: policy(), AccessToken: true},
			claims: with(map[string]any{"client_id": nil}), typ: "at+jwt", status: http.StatusUnauthorized, cause: signet.ErrMissingClaim},
		{name: "access token typ JWT", opts: bearer.Options{Policy: policy(), AccessToken: true}, claims: claims(),
			status: http.StatusUnauthorized, cause: signet.ErrType},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := bearer.New[jwt.Claims](f.pub, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			c, err := m.Verify(f.sign(t, tc.claims, tc.typ))
			if tc.status == 0 {
				if err != nil {
					t.Fatal(err)
				}
				if c.Subject != "alice" {
					t.Errorf("sub %q", c.Subject)
				}
				return
			}
			if !errors.Is(err, tc.cause) {
				t.Fatalf("Verify: %v, want %v", err, tc.cause)
			}
			if c.Subject != "" || c.Issuer != "" || c.Audience != nil {
				t.Errorf("claims %+v with an error", c)
			}
			if s := bearer.ErrorOf(err).Status; s != tc.status {
				t.Errorf("ErrorOf status %d, want %d", s, tc.status)
			}
		})
	}
	var nilM *bearer.Middleware[jwt.Claims]
	if _, err := nilM.Verify("a.b.c"); !errors.Is(err, signet.ErrUnsupported) {
		t.Errorf("nil Middleware: %v, want ErrUnsupported", err)
	}
}
