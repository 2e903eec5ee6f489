package jwt_test

import (
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwt"
)

// TestVerifyPayload: VerifyPayload accepts and refuses what Verify does,
// returns the same claims, and with them the payload as signed.
func TestVerifyPayload(t *testing.T) {
	k := mustKey(t, signet.HS256)
	type mine struct {
		jwt.Claims
		Scope string `json:"scope"`
	}
	p := jwt.Policy{Now: fixed(now), Audience: []string{"api"}}
	payload := `{"aud":"api","exp":` + strconv.FormatInt(now.Add(time.Hour).Unix(), 10) + `,"scope":"a b","sub":"u1"}`
	tok, err := jwt.SignBytes(k, []byte(payload), "JWT")
	if err != nil {
		t.Fatal(err)
	}
	c, got, err := jwt.VerifyPayload[mine](k, tok, p)
	want, _ := jwt.Verify[mine](k, tok, p)
	if err != nil || got != payload || c.Subject != "u1" || c.Scope != "a b" || c.Subject != want.Subject || c.ExpiresAt != want.ExpiresAt {
		t.Fatalf("VerifyPayload = %+v, %q, %v", c, got, err)
	}
	rc, got, err := jwt.VerifyPayload[jwt.Claims](k, tok, p)
	if err != nil || got != payload || rc.Subject != "u1" {
		t.Fatalf("VerifyPayload[Claims] = %+v, %q, %v", rc, got, err)
	}
	for _, bad := range []struct {
		tok string
		p   jwt.Policy
		err error
	}{
		{flipSignature(tok), p, signet.ErrSignatureInvalid},
		{tok, jwt.Policy{Now: fixed(now.Add(2 * time.Hour)), Audience: p.Audience}, signet.ErrExpired},
		{tok, jwt.Policy{Now: fixed(now), Audience: []string{"other"}}, signet.ErrAudience},
		{tok, jwt.Policy{Now: fixed(now), Audience: p.Audience, MaxSize: len(tok) - 1}, signet.ErrTooLarge},
	} {
		c, got, err := jwt.VerifyPayload[mine](k, bad.tok, bad.p)
		if !errors.Is(err, bad.err) || got != "" || c.Subject != "" {
			t.Errorf("want %v: %+v, %q, %v", bad.err, c, got, err)
		}
	}
}
