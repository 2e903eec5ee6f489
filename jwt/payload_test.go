package jwt_test

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwt"
)

// AppendClaims writes the payload Sign signs, for every kind of claims
// value; ParseClaims reads it back with Verify's checks.
func TestAppendParseClaims(t *testing.T) {
	type withRole struct {
		jwt.Claims
		Role string `json:"role"`
	}
	type withTime struct {
		jwt.Claims
		At time.Time `json:"at"` // not plannable: encoding/json
	}
	k := mustKey(t, signet.HS256)
	o := jwt.Options{Now: fixed(now)}
	c := jwt.Claims{Subject: "u1", Audience: jwt.Audience{"api"}}
	for _, v := range []any{c, withRole{Claims: c, Role: "admin"}, withTime{Claims: c, At: now}, jwt.Map{"sub": "u1", "aud": "api"}} {
		var payload []byte
		var tok string
		var err error
		switch v := v.(type) {
		case jwt.Claims:
			payload, err = jwt.AppendClaims([]byte("x"), v, o)
			tok, _ = jwt.Sign(k, v, o)
		case withRole:
			payload, err = jwt.AppendClaims([]byte("x"), v, o)
			tok, _ = jwt.Sign(k, v, o)
		case withTime:
			payload, err = jwt.AppendClaims([]byte("x"), v, o)
			tok, _ = jwt.Sign(k, v, o)
		case jwt.Map:
			payload, err = jwt.AppendClaims([]byte("x"), v, o)
			tok, _ = jwt.Sign(k, v, o)
		}
		if err != nil {
			t.Fatalf("%T: %v", v, err)
		}
		want, _ := base64.RawURLEncoding.DecodeString(strings.Split(tok, ".")[1])
		if string(payload) != "x"+string(want) {
			t.Fatalf("%T: %s, want x%s", v, payload, want)
		}
		got, err := jwt.ParseClaims[withRole](payload[1:], jwt.Policy{Now: fixed(now), Audience: []string{"api"}})
		if err != nil || got.Subject != "u1" {
			t.Fatalf("%T: %+v %v", v, got, err)
		}
		if _, err := jwt.ParseClaims[jwt.Claims](payload[1:], jwt.Policy{Now: fixed(now.Add(2 * time.Hour)), Audience: []string{"api"}}); !errors.Is(err, signet.ErrExpired) {
			t.Fatalf("%T expired: %v", v, err)
		}
	}
	if _, err := jwt.ParseClaims[jwt.Claims]([]byte(`{"exp":1,"exp":2}`), jwt.Policy{}); !errors.Is(err, signet.ErrMalformed) {
		t.Fatalf("duplicate: %v", err)
	}
	if _, err := jwt.ParseClaims[jwt.Claims]([]byte(`{}`), jwt.Policy{Leeway: time.Hour}); !errors.Is(err, signet.ErrUnsupported) {
		t.Fatalf("bad policy: %v", err)
	}
}
