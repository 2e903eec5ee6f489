package paseto

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/signet-go/signet"
)

type withRole struct {
	Claims
	Role string `json:"role"`
}

// TestEmbeddedClaimsPaths: a type embedding Claims round-trips through the
// split paths, with the issuing defaults, without touching the caller's
// value, and folded names never beat the validated claims.
func TestEmbeddedClaimsPaths(t *testing.T) {
	k, _ := signet.GenerateKey(signet.V4Local)
	now := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	o := Options{Now: fixed(now)}
	in := withRole{Claims: Claims{Subject: "u1", Audience: "api"}, Role: "admin"}
	tok, err := Encrypt(k, in, o)
	if err != nil {
		t.Fatal(err)
	}
	if !in.ExpiresAt.IsZero() {
		t.Fatal("issuing defaults written into the caller's value")
	}
	p := Policy{Audience: []string{"api"}, Now: fixed(now)}
	out, err := Decrypt[withRole](k, tok, p)
	if err != nil {
		t.Fatal(err)
	}
	want := in
	want.IssuedAt, want.ExpiresAt = now, now.Add(time.Hour)
	if !reflect.DeepEqual(out, want) {
		t.Fatalf("got %+v\nwant %+v", out, want)
	}
	if _, err := Encrypt(k, &in, o); err != nil || !in.ExpiresAt.IsZero() {
		t.Fatal("through a pointer", err)
	}
	for payload, want := range map[string]error{
		`{"exp":"2099-01-01T00:00:00Z","sub":"u1","SUB":"admin"}`: signet.ErrMalformed,
		`{"exp":"2099-01-01T00:00:00Z","role":"a","ROLE":"b"}`:    signet.ErrMalformed,
	} {
		tok, err := EncryptBytes(k, []byte(payload), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Decrypt[withRole](k, tok, Policy{Now: fixed(now)}); !errors.Is(err, want) {
			t.Errorf("%s: %v", payload, err)
		}
	}
	// A registered claim's name in other case, alone, is refused too: it
	// would never set the validated claim, but a field of the caller's.
	tok, _ = EncryptBytes(k, []byte(`{"exp":"2099-01-01T00:00:00Z","Sub":"admin","role":"r"}`), Options{})
	if out, err := Decrypt[withRole](k, tok, Policy{Now: p.Now}); !errors.Is(err, signet.ErrMalformed) || out.Subject != "" || out.Role != "" {
		t.Fatalf("%+v %v", out, err)
	}
}
