package jwt

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/signet-go/signet"
)

type withRole struct {
	Claims
	Role  string            `json:"role"`
	Perms map[string]string `json:"perms,omitempty"`
}

type shadowsSub struct {
	Claims
	Sub string `json:"SUB"` // takes "sub" case-insensitively: not filterable
}

type embedsOther struct {
	Claims
	withRole2
}

type withRole2 struct {
	Level int `json:"level"`
}

// TestEmbeddedClaimsPaths: a type embedding Claims is signed and verified
// through the split paths (registered claims by signet's own codec, the
// rest by encoding/json) with the same results as the general path.
func TestEmbeddedClaimsPaths(t *testing.T) {
	if !canFilter[withRole]() || !canFilter[*withRole]() || canFilter[shadowsSub]() || !canFilter[embedsOther]() || canFilter[Claims]() || canFilter[map[string]any]() {
		t.Fatal("canFilter")
	}
	k, _ := signet.GenerateKey(signet.HS256)
	now := time.Now()
	in := withRole{Claims: Claims{Issuer: "iss", Subject: "u1", Audience: Audience{"a", "b"}, ExpiresAt: At(now.Add(time.Hour)), IssuedAt: At(now), ID: "j"},
		Role: "admin", Perms: map[string]string{"x": "rw"}}
	tok, err := Sign(k, in)
	if err != nil {
		t.Fatal(err)
	}
	if in.Subject != "u1" {
		t.Fatal("Sign changed the caller's value")
	}
	out, err := Verify[withRole](k, tok, Policy{Audience: []string{"b"}})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(out, in) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", out, in)
	}
	ptok, err := Sign(k, &in)
	if err != nil || in.Subject != "u1" {
		t.Fatal("signing through a pointer", err)
	}
	if _, err := Verify[withRole](k, ptok, Policy{Audience: []string{"a"}}); err != nil {
		t.Fatal(err)
	}
	p, err := Verify[*withRole](k, tok, Policy{Audience: []string{"a"}})
	if err != nil || !reflect.DeepEqual(*p, in) {
		t.Fatalf("pointer: %+v %v", p, err)
	}
	// Only registered claims: the rest is empty.
	tok, err = Sign(k, withRole{Claims: in.Claims})
	if err != nil {
		t.Fatal(err)
	}
	if out, err := Verify[withRole](k, tok, Policy{Audience: []string{"a"}}); err != nil || out.Role != "" || out.Subject != "u1" {
		t.Fatalf("%+v %v", out, err)
	}
	// Only custom fields: Sign adds iat and exp, unless told not to; exp
	// is still required.
	tok, err = Sign(k, withRole{Role: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if out, err := Verify[withRole](k, tok, Policy{}); err != nil || out.ExpiresAt-out.IssuedAt != At(now.Add(DefaultLifetime))-At(now) {
		t.Fatalf("%+v %v", out, err)
	}
	tok, err = Sign(k, withRole{Role: "x"}, Options{NoExpiry: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Verify[withRole](k, tok, Policy{}); !errors.Is(err, signet.ErrMissingClaim) {
		t.Fatal(err)
	}
	// A member that encoding/json would fold onto a registered field never
	// beats the validated claim, and case variants are refused outright.
	for payload, want := range map[string]error{
		`{"exp":4102444800,"Exp":1,"role":"r"}`:       signet.ErrMalformed,
		`{"exp":4102444800,"sub":"u1","SUB":"admin"}`: signet.ErrMalformed,
		`{"exp":4102444800,"rolE":"r","role":"s"}`:    signet.ErrMalformed,
	} {
		tok, err := SignBytes(k, []byte(payload), "JWT")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Verify[withRole](k, tok, Policy{}); !errors.Is(err, want) {
			t.Errorf("%s: %v", payload, err)
		}
	}
	// A registered claim's name in other case, alone, is refused too: it
	// would never set the validated claim, but a field of the caller's.
	tok, _ = SignBytes(k, []byte(`{"exp":4102444800,"Sub":"admin","role":"r"}`), "JWT")
	if out, err := Verify[withRole](k, tok, Policy{}); !errors.Is(err, signet.ErrMalformed) || out.Subject != "" || out.Role != "" {
		t.Fatalf("a folded registered name: %+v %v", out, err)
	}
	// Not filterable: the general path, same answers.
	tok, _ = SignBytes(k, []byte(`{"exp":4102444800,"sub":"u1"}`), "JWT")
	if out, err := Verify[shadowsSub](k, tok, Policy{}); err != nil || out.Subject != "u1" {
		t.Fatalf("%+v %v", out, err)
	}
}
