package jwt

import (
	"errors"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/claimcheck"
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

// TestPlanSameAsSplit: Sign and Verify of a type with a Plan give what the
// encoding/json split (signEmbedded, decodeInto) gives: the same token,
// byte for byte, and the same claims, or an error from both.
func TestPlanSameAsSplit(t *testing.T) {
	plan := claimsjson.PlanFor[planClaims](split)
	if plan == nil || claimsjson.PlanFor[withRole](split) == nil || claimsjson.PlanFor[Claims](split) != nil {
		t.Fatal("PlanFor")
	}
	k, _ := signet.GenerateKey(signet.HS256)
	now := time.Unix(1_800_000_000, 0)
	o := claimcheck.Issue{Now: fixed(now)}
	p := Policy{Now: fixed(now), Audience: []string{"a"}}
	anyAud := Policy{Now: fixed(now), IgnoreAudience: true}
	reg := Claims{Issuer: "iss", Subject: "u1", Audience: Audience{"a", "b"}, ExpiresAt: At(now.Add(time.Hour)), ID: "j"}
	for _, v := range []planClaims{
		{},
		{Claims: reg},
		{UserID: 42, Name: "alice", Perms: []string{"read", "write"}, Claims: reg},
		{Name: "<b>&\u2028\xff", Perms: []string{}, Score: 1e-7, Level: -128, Admin: true, Tags: map[string]string{"z": "1", "a": "<"}, Claims: Claims{Audience: Audience{"a"}}},
		{Score: 1e21, Tags: map[string]string{}, Claims: Claims{Audience: Audience{"a"}}},
	} {
		got, err := signPlan(k, plan, v, &o)
		if err != nil {
			t.Fatal(err)
		}
		want, err := signEmbedded(k, v, &o)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("%+v:\nplan  %s\nsplit %s", v, got, want)
		}
		pv := p
		if v.Audience == nil {
			pv = anyAud
		}
		out, err := Verify[planClaims](k, got, pv)
		if err != nil {
			t.Fatal(err)
		}
		checkSplitDecode[planClaims](t, k, got, pv, out)
		pout, err := Verify[*planClaims](k, got, pv)
		if err != nil || !reflect.DeepEqual(*pout, out) {
			t.Fatalf("pointer: %+v %v", pout, err)
		}
	}
	if _, err := Sign(k, planClaims{Score: math.NaN()}); !errors.Is(err, signet.ErrMalformed) {
		t.Fatalf("NaN: %v", err)
	}
	// Payloads Sign does not write: read as the split reads them.
	for _, payload := range []string{
		`{"exp":1800003600,"user_id":7,"username":"b\u00e9","perms":null,"level":null,"extra":{"x":[1]}}`,
		`{"exp":1800003600,"USER_ID":7,"Username":"bob","TAGS":{"k":"v"}}`,
		`{"exp":1800003600, "user_id":7 }`,
		`{"exp":1800003600,"score":1e400}`,
		`{"exp":1800003600,"level":128}`,
		`{"exp":1800003600,"user_id":-1}`,
		`{"exp":1800003600,"user_id":1.5}`,
		`{"exp":1800003600,"perms":"read"}`,
		`{"exp":1800003600,"perms":["a",2]}`,
		`{"exp":1800003600,"admin":"yes"}`,
		`{"exp":1800003600,"username":"a","USERNAME":"b"}`,
		`{"exp":1800003600,"other":"a","OTHER":"b"}`,
		`{"exp":1800003600,"x":{"a":1,"A":2}}`,
		`{"exp":1800003600,"EXP":1}`,
		`{"exp":1800003600,"ſub":"x"}`,
	} {
		tok, err := SignBytes(k, []byte(payload), "JWT")
		if err != nil {
			t.Fatal(err)
		}
		out, err := Verify[planClaims](k, tok, anyAud)
		if err != nil {
			if !errors.Is(err, signet.ErrMalformed) {
				t.Fatalf("%s: %v", payload, err)
			}
			if _, werr := verifySplit[planClaims](k, tok, anyAud); werr == nil {
				t.Fatalf("%s: plan error %v, the split none", payload, err)
			}
			continue
		}
		checkSplitDecode[planClaims](t, k, tok, anyAud, out)
	}
}

// verifySplit is Verify on the encoding/json split, as it was before
// plans: readClaims with the fold rule, then decodeInto.
func verifySplit[T any](k *signet.Key, tok string, p Policy) (T, error) {
	var zero T
	_, payload, err := verify(k, tok, &p)
	if err != nil {
		return zero, err
	}
	var c Claims
	var at instants
	has, folded, err := readClaims(payload, &c, &at, true, nil, nil)
	if err != nil {
		return zero, err
	}
	if err := p.validate(&c, has, &at); err != nil {
		return zero, err
	}
	return decodeInto[T](payload, &c, folded)
}

func checkSplitDecode[T any](t *testing.T, k *signet.Key, tok string, p Policy, got T) {
	t.Helper()
	want, err := verifySplit[T](k, tok, p)
	if err != nil {
		t.Fatalf("split: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("plan  %+v\nsplit %+v", got, want)
	}
}

// taggedClaims embeds Claims under a tag name: encoding/json codes the
// field as a member "reg", not as embedded, so the type has no Plan and
// keeps the split's bytes ("reg":{}) and errors (a "reg" member is decoded
// into Claims' own codecs).
type taggedClaims struct {
	Claims `json:"reg"`
	Role   string `json:"role"`
}

func TestPlanTaggedEmbed(t *testing.T) {
	if claimsjson.PlanFor[taggedClaims](split) != nil || claimsjson.PlanFor[*taggedClaims](split) != nil {
		t.Fatal("a Plan for Claims embedded under a tag name")
	}
	k, _ := signet.GenerateKey(signet.HS256)
	now := time.Unix(1_800_000_000, 0)
	o := claimcheck.Issue{Now: fixed(now)}
	v := taggedClaims{Claims: Claims{Subject: "s"}, Role: "r"}
	got, err := Sign(k, v, Options{Now: fixed(now)})
	if err != nil {
		t.Fatal(err)
	}
	if want, err := signEmbedded(k, v, &o); err != nil || got != want {
		t.Fatalf("Sign %s, split %s (%v)", got, want, err)
	}
	p := Policy{Now: fixed(now), IgnoreAudience: true}
	tok, err := SignBytes(k, []byte(`{"exp":1800003600,"reg":{"aud":5},"role":"x"}`), "JWT")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Verify[taggedClaims](k, tok, p); !errors.Is(err, signet.ErrMalformed) {
		t.Fatalf("a \"reg\" member the split refuses: %v", err)
	}
	if _, err := verifySplit[taggedClaims](k, tok, p); !errors.Is(err, signet.ErrMalformed) {
		t.Fatalf("split: %v", err)
	}
}
