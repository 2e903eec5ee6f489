package jwt

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/signet-go/signet"
)

// nestedOrg and nestedClaims reach every kind of codec the plan's
// validating reader has: nested structs by value and through pointers,
// slices of structs, maps, interface values and encoding/json's own
// types.
type nestedOrg struct {
	Name string  `json:"name"`
	ID   int64   `json:"id"`
	Tags []int16 `json:"tags,omitempty"`
}

type nestedData struct {
	Name  string            `json:"name,omitempty"`
	Roles []string          `json:"roles,omitempty"`
	Attrs map[string]string `json:"attrs,omitempty"`
	Score float32           `json:"score,omitempty"`
	Org   *nestedOrg        `json:"org,omitempty"`
	Orgs  []nestedOrg       `json:"orgs,omitempty"`
	Extra map[string]any    `json:"extra,omitempty"`
	Any   any               `json:"any,omitempty"`
	Raw   json.RawMessage   `json:"raw,omitempty"`
	When  *time.Time        `json:"when,omitempty"`
	On    *bool             `json:"on,omitempty"`
}

type nestedClaims struct {
	Claims
	Data  *nestedData `json:"data,omitempty"`
	Value nestedOrg   `json:"value"`
	List  []any       `json:"list,omitempty"`
}

// nestedSeeds are payloads at the edges of what jsonx lets through, in
// the members the plan reads itself.
var nestedSeeds = []string{
	`{"exp":1800003600,"data":{"name":"Ada","roles":["a","b"],"attrs":{"k":"v"},"score":0.75,"org":{"name":"AE","id":1843,"tags":[1,2]}}}`,
	`{"exp":1800003600,"data":{"orgs":[{"name":"x","id":1},{"name":"y","id":-2}],"extra":{"a":[1,"2",{"b":null}],"c":true},"any":[null]}}`,
	`{"exp":1800003600,"data":{"raw":{"x":[1,2]},"when":"2026-11-26T00:00:00Z","on":false},"value":{"name":"v","id":3},"list":[1.5,"s",{}]}`,
	`{"exp":1800003600,"data":{"name":"a","NAME":"b"}}`,
	`{"exp":1800003600,"data":{"name":"a","name":"b"}}`,
	`{"exp":1800003600,"data":{"unknown":1,"UNKNOWN":2}}`,
	`{"exp":1800003600,"data":{"unknown":{"a":1,"A":2}}}`,
	`{"exp":1800003600,"data":{"attrs":{"k":"v","K":"w"}}}`,
	`{"exp":1800003600,"data":{"attrs":{"k":"v","k":"w"}}}`,
	`{"exp":1800003600,"data":{"extra":{"k":1,"\u004b":2}}}`,
	`{"exp":1800003600,"data":{"name":"\ud800"}}`,
	`{"exp":1800003600,"data":{"name":"\xff"}}`,
	`{"exp":1800003600,"data":{"name":"a` + "\x01" + `"}}`,
	`{"exp":1800003600,"data":{"score":01}}`,
	`{"exp":1800003600,"data":{"score":1.}}`,
	`{"exp":1800003600,"data":{"score":-}}`,
	`{"exp":1800003600,"data":{"roles":["a",]}}`,
	`{"exp":1800003600,"data":{"roles":["a" "b"]}}`,
	`{"exp":1800003600,"data":{"org":{"name":"x",}}}`,
	`{"exp":1800003600,"data":{"org":nul}}`,
	`{"exp":1800003600,"data":{"org":{"name":1}}}`,
	`{"exp":1800003600,"data":{"org":{"name":1},"score":01}}`,
	`{"exp":1800003600,"data":{"org":{"id":1e3}}}`,
	`{"exp":1800003600,"data":{"on":"true"}}`,
	`{"exp":1800003600,"data" : { "name" : "a" , "roles" : [ "x" , "y" ] } , "value" : null }`,
	`{"exp":1800003600,"data":{"any":` + deepArray(70) + `}}`,
	`{"exp":1800003600,"list":` + deepArray(62) + `}`,
	`{"exp":1800003600,"list":` + deepArray(63) + `}`,
	`{"exp":1800003600,"data":{"n\u0061me":"esc","roles\u0000":1}}`,
	`{"exp":1800003600,"data":{"name":"a"}} `,
	`{"exp":1800003600,"data":{"name":"a"}}x`,
}

func deepArray(n int) string {
	b := make([]byte, 0, 2*n)
	for range n {
		b = append(b, '[')
	}
	for range n {
		b = append(b, ']')
	}
	return string(b)
}

// FuzzPlanReadNested: the plan's validating reader (Taker), which decodes
// a member and validates it in one pass, accepts exactly the payloads
// that jsonx's scan and then the plan or encoding/json accept
// (verifySplit), and gives the same claims.
func FuzzPlanReadNested(f *testing.F) {
	for _, p := range nestedSeeds {
		f.Add(p)
	}
	k, err := signet.GenerateKey(signet.HS256)
	if err != nil {
		f.Fatal(err)
	}
	now := time.Unix(1_800_000_000, 0)
	p := Policy{Now: fixed(now), IgnoreAudience: true}
	f.Fuzz(func(t *testing.T, payload string) {
		checkNested(t, k, p, payload)
	})
}

// TestPlanReadNested runs FuzzPlanReadNested's seeds, with their verdicts
// spelled out for the ones that must fail.
func TestPlanReadNested(t *testing.T) {
	k, err := signet.GenerateKey(signet.HS256)
	if err != nil {
		t.Fatal(err)
	}
	p := Policy{Now: fixed(time.Unix(1_800_000_000, 0)), IgnoreAudience: true}
	accepted := 0
	for _, s := range nestedSeeds {
		if checkNested(t, k, p, s) {
			accepted++
		}
	}
	if accepted != 8 {
		t.Fatalf("%d seeds accepted, want 8 (the first three, the deep lists of 62 and 63, the escaped names, white space around)", accepted)
	}
}

func checkNested(t *testing.T, k *signet.Key, p Policy, payload string) (ok bool) {
	t.Helper()
	tok, err := SignBytes(k, []byte(payload), "JWT")
	if err != nil {
		return false
	}
	got, gerr := Verify[nestedClaims](k, tok, p)
	want, werr := verifySplit[nestedClaims](k, tok, p)
	if (gerr == nil) != (werr == nil) {
		t.Fatalf("%s: plan error %v, split error %v", payload, gerr, werr)
	}
	if gerr != nil {
		if errors.Is(werr, signet.ErrMalformed) != errors.Is(gerr, signet.ErrMalformed) {
			t.Fatalf("%s: plan error %v, split error %v", payload, gerr, werr)
		}
		return false
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\nplan  %+v\nsplit %+v", payload, got, want)
	}
	pgot, err := Verify[*nestedClaims](k, tok, p)
	if err != nil || !reflect.DeepEqual(*pgot, want) {
		t.Fatalf("%s: pointer %+v %v", payload, pgot, err)
	}
	return true
}
