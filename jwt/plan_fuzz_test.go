package jwt

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/signet-go/signet"
)

// FuzzPlanVerify verifies tokens of arbitrary payloads as a type with a
// Plan (planClaims, and a pointer to it) and as the encoding/json split
// did (verifySplit), and requires the same claims, or an ErrMalformed (or
// other) error from both: the claims reader's Rest, the plan's reader
// (Take, and Finish on a Rest) and the fold rule, with the real registered
// claims.
func FuzzPlanVerify(f *testing.F) {
	for _, p := range []string{
		`{"exp":1800003600,"user_id":7,"username":"alice","perms":["a","b"],"score":0.5,"level":-3,"admin":true,"tags":{"k":"v"}}`,
		`{"exp":1800003600,"aud":["a","b"],"iss":"i","sub":"s","jti":"j","nbf":1,"iat":2,"user_id":1}`,
		`{"exp":1800003600,"USER_ID":7,"Username":"bob","TAGS":{"k":"v"}}`,
		`{"exp":1800003600,"username":"a","USERNAME":"b"}`,
		`{"exp":1800003600,"Exp":1}`,
		`{"exp":1800003600,"ſub":"x","\u212aey":1}`,
		`{"exp":1800003600.5, "perms" : null, "level":128, "extra":{"x":[1,{"a":null}]}}`,
		`{"exp":1800003600,"username":"\u00e9\ud83d\ude00\n","tags":{"a":null,"":"e"}}`,
		`{"exp":1800003600,"user_id":-0,"score":1e400}`,
	} {
		f.Add(p)
	}
	k, err := signet.GenerateKey(signet.HS256)
	if err != nil {
		f.Fatal(err)
	}
	now := time.Unix(1_800_000_000, 0)
	p := Policy{Now: fixed(now), IgnoreAudience: true}
	f.Fuzz(func(t *testing.T, payload string) {
		tok, err := SignBytes(k, []byte(payload), "JWT")
		if err != nil {
			return
		}
		got, gerr := Verify[planClaims](k, tok, p)
		want, werr := verifySplit[planClaims](k, tok, p)
		if (gerr == nil) != (werr == nil) {
			t.Fatalf("%s: plan error %v, split error %v", payload, gerr, werr)
		}
		if gerr != nil {
			if errors.Is(werr, signet.ErrMalformed) != errors.Is(gerr, signet.ErrMalformed) {
				t.Fatalf("%s: plan error %v, split error %v", payload, gerr, werr)
			}
			return
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s:\nplan  %+v\nsplit %+v", payload, got, want)
		}
		pgot, err := Verify[*planClaims](k, tok, p)
		if err != nil || !reflect.DeepEqual(*pgot, want) {
			t.Fatalf("%s: pointer %+v %v", payload, pgot, err)
		}
	})
}
