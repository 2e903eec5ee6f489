package paseto

import (
	"errors"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/claimsjson"
)

// planClaims is a caller's type with a claimsjson.Plan: its own members
// are coded without encoding/json.
type planClaims struct {
	UserID uint              `json:"user_id"`
	Name   string            `json:"username"`
	Perms  []string          `json:"perms,omitempty"`
	Score  float64           `json:"score,omitempty"`
	Level  int8              `json:"level"`
	Admin  bool              `json:"admin,omitempty"`
	Tags   map[string]string `json:"tags,omitempty"`
	Claims
}

// TestPlanSameAsSplit: encoding and decoding a type with a Plan give what
// the encoding/json split (encodeEmbedded, decodeInto) gives: the same
// payload, byte for byte, and the same claims, or an error from both.
func TestPlanSameAsSplit(t *testing.T) {
	plan := claimsjson.PlanFor[planClaims](splitter)
	if plan == nil || claimsjson.PlanFor[Claims](splitter) != nil || claimsjson.PlanFor[Map](splitter) != nil {
		t.Fatal("PlanFor")
	}
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	o := (&Options{Now: fixed(now)}).issue()
	p := Policy{Now: fixed(now), IgnoreAudience: true}
	k, _ := signet.GenerateKey(signet.V4Local)
	reg := Claims{Issuer: "iss", Subject: "u1", Audience: "a", ExpiresAt: now.Add(time.Hour), ID: "j"}
	for _, v := range []planClaims{
		{},
		{Claims: reg},
		{UserID: 42, Name: "alice", Perms: []string{"read", "write"}, Claims: reg},
		{Name: "<b>&\u2028\xff", Perms: []string{}, Score: 1e-7, Level: -128, Admin: true, Tags: map[string]string{"z": "1", "a": "<"}},
		{Score: 1e21, Tags: map[string]string{}},
	} {
		got, err := encodePlan(nil, plan, v, &o)
		if err != nil {
			t.Fatal(err)
		}
		want, err := encodeEmbedded(nil, v, &o)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Fatalf("%+v:\nplan  %s\nsplit %s", v, got, want)
		}
		tok, err := Encrypt(k, v, Options{Now: fixed(now)})
		if err != nil {
			t.Fatal(err)
		}
		out, err := Decrypt[planClaims](k, tok, p)
		if err != nil {
			t.Fatal(err)
		}
		checkSplit(t, string(got), p, out)
		pout, err := Decrypt[*planClaims](k, tok, p)
		if err != nil || !reflect.DeepEqual(*pout, out) {
			t.Fatalf("pointer: %+v %v", pout, err)
		}
	}
	if _, err := Encrypt(k, planClaims{Score: math.Inf(1)}, Options{}); !errors.Is(err, signet.ErrMalformed) {
		t.Fatalf("Inf: %v", err)
	}
	// Payloads Encrypt does not write: read as the split reads them.
	const exp = `{"exp":"2026-11-22T13:00:00Z"`
	for _, payload := range []string{
		exp + `,"user_id":7,"username":"b\u00e9","perms":null,"level":null,"extra":{"x":[1]}}`,
		exp + `,"USER_ID":7,"Username":"bob","TAGS":{"k":"v"}}`,
		exp + `, "user_id":7 }`,
		exp + `,"score":1e400}`,
		exp + `,"level":128}`,
		exp + `,"user_id":-1}`,
		exp + `,"user_id":1.5}`,
		exp + `,"perms":"read"}`,
		exp + `,"perms":["a",2]}`,
		exp + `,"admin":"yes"}`,
		exp + `,"username":"a","USERNAME":"b"}`,
		exp + `,"other":"a","OTHER":"b"}`,
		exp + `,"x":{"a":1,"A":2}}`,
		exp + `,"EXP":1}`,
		exp + `,"ſub":"x"}`,
	} {
		tok, err := EncryptBytes(k, []byte(payload), Options{})
		if err != nil {
			t.Fatal(err)
		}
		out, err := Decrypt[planClaims](k, tok, p)
		if err != nil {
			if !errors.Is(err, signet.ErrMalformed) {
				t.Fatalf("%s: %v", payload, err)
			}
			if _, werr := claimsSplit[planClaims](payload, p); werr == nil {
				t.Fatalf("%s: plan error %v, the split none", payload, err)
			}
			continue
		}
		checkSplit(t, payload, p, out)
	}
}

// claimsSplit is claimsOf on the encoding/json split, as it was before
// plans.
func claimsSplit[T any](payload string, p Policy) (T, error) {
	var zero T
	var c Claims
	has, folded, err := readClaims(payload, &c, true, nil, nil)
	if err != nil {
		return zero, err
	}
	if err := p.validate(&c, has); err != nil {
		return zero, err
	}
	return decodeInto[T](payload, &c, folded)
}

func checkSplit[T any](t *testing.T, payload string, p Policy, got T) {
	t.Helper()
	want, err := claimsSplit[T](payload, p)
	if err != nil {
		t.Fatalf("split: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("plan  %+v\nsplit %+v", got, want)
	}
}
