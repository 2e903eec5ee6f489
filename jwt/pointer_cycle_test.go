package jwt_test

import (
	"errors"
	"runtime/debug"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwt"
	"github.com/signet-go/signet/paseto"
)

// loopPtr points to itself: no JSON value ends the chain.
type loopPtr *loopPtr

type loopClaims struct {
	jwt.Claims
	Name string  `json:"name"`
	Loop loopPtr `json:"loop"`
}

type loopPasetoClaims struct {
	paseto.Claims
	Name string  `json:"name"`
	Loop loopPtr `json:"loop"`
}

// TestVerifyPointerCycleType: a validly signed token whose member is
// meant for a claims field of a pointer type that points to itself is
// refused (signet.ErrMalformed, no claims), not read until the stack
// overflows (a fatal error that takes the process down), in jwt and
// paseto, in the plain shape and the general one. null is taken.
func TestVerifyPointerCycleType(t *testing.T) {
	defer debug.SetMaxStack(debug.SetMaxStack(64 << 20)) // a regression fails fast
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	hs, err := signet.GenerateKey(signet.HS256)
	if err != nil {
		t.Fatal(err)
	}
	v4, err := signet.GenerateKey(signet.V4Local)
	if err != nil {
		t.Fatal(err)
	}
	for _, payload := range []string{`{"exp":1767330000,"loop":1}`, `{"exp":1767330000, "loop":{"a":[1]}}`, `{"exp":1767330000,"name":"n","loop":"x"}`} {
		tok, err := jwt.SignBytes(hs, []byte(payload), "JWT")
		if err != nil {
			t.Fatal(err)
		}
		c, err := jwt.Verify[loopClaims](hs, tok, jwt.Policy{Now: func() time.Time { return now }})
		if !errors.Is(err, signet.ErrMalformed) || c.Name != "" || c.Loop != nil {
			t.Errorf("jwt %s: %+v %v", payload, c, err)
		}
		ptok, err := paseto.EncryptBytes(v4, []byte(`{"exp":"2026-01-02T04:00:00Z",`+payload[len(`{"exp":1767330000,`):]), paseto.Options{})
		if err != nil {
			t.Fatal(err)
		}
		pc, err := paseto.Decrypt[loopPasetoClaims](v4, ptok, paseto.Policy{Now: func() time.Time { return now }})
		if !errors.Is(err, signet.ErrMalformed) || pc.Name != "" || pc.Loop != nil {
			t.Errorf("paseto %s: %+v %v", payload, pc, err)
		}
	}
	tok, err := jwt.SignBytes(hs, []byte(`{"exp":1767330000,"name":"n","loop":null}`), "JWT")
	if err != nil {
		t.Fatal(err)
	}
	if c, err := jwt.Verify[loopClaims](hs, tok, jwt.Policy{Now: func() time.Time { return now }}); err != nil || c.Name != "n" || c.Loop != nil {
		t.Errorf("null: %+v %v", c, err)
	}
}
