package paseto

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/signet-go/signet"
)

// FuzzPlanClaims reads arbitrary payloads as a type with a Plan
// (planClaims, and a pointer to it) and as the encoding/json split did
// (claimsSplit), and requires the same claims, or an error from both,
// ErrMalformed in both or in neither: the claims reader's Rest, the plan's
// reader (Take, and Finish on a Rest) and the fold rule, with the real
// registered claims.
func FuzzPlanClaims(f *testing.F) {
	for _, p := range []string{
		`{"exp":"2026-11-22T13:00:00Z","user_id":7,"username":"alice","perms":["a","b"],"score":0.5,"level":-3,"admin":true,"tags":{"k":"v"}}`,
		`{"exp":"2026-11-22T13:00:00Z","aud":"a","iss":"i","sub":"s","jti":"j","user_id":1}`,
		`{"exp":"2026-11-22T13:00:00Z","USER_ID":7,"Username":"bob","TAGS":{"k":"v"}}`,
		`{"exp":"2026-11-22T13:00:00Z","username":"a","USERNAME":"b"}`,
		`{"exp":"2026-11-22T13:00:00Z","Exp":1}`,
		`{"exp":"2026-11-22T13:00:00Z","ſub":"x","\u212aey":1}`,
		`{"exp":"2026-11-22T13:00:00+01:00", "perms" : null, "level":128, "extra":{"x":[1,{"a":null}]}}`,
		`{"exp":"2026-11-22T13:00:00Z","username":"\u00e9\ud83d\ude00\n","tags":{"a":null,"":"e"}}`,
		`{"exp":"2026-11-22T13:00:00Z","user_id":-0,"score":1e400}`,
	} {
		f.Add(p)
	}
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	p := Policy{Now: fixed(now), IgnoreAudience: true}
	f.Fuzz(func(t *testing.T, payload string) {
		got, gerr := claimsOf[planClaims](payload, &p)
		want, werr := claimsSplit[planClaims](payload, p)
		if (gerr == nil) != (werr == nil) || errors.Is(gerr, signet.ErrMalformed) != errors.Is(werr, signet.ErrMalformed) {
			t.Fatalf("%s: plan error %v, split error %v", payload, gerr, werr)
		}
		if gerr != nil {
			return
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s:\nplan  %+v\nsplit %+v", payload, got, want)
		}
		pgot, err := claimsOf[*planClaims](payload, &p)
		if err != nil || !reflect.DeepEqual(*pgot, want) {
			t.Fatalf("%s: pointer %+v %v", payload, pgot, err)
		}
	})
}
