package jwt

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
)

type reviewNested struct {
	Name string         `json:"username"`
	X    map[string]any `json:"x"`
	Kids []reviewKid    `json:"kids"`
	Claims
}

type reviewKid struct {
	N string `json:"n"`
}

// TestReviewGeneralPathFold: a payload that leaves the plain shape (a
// brace past byte 0) goes to the general reader, whose Rest the plan uses:
// names that differ only in case, at any depth, are still refused.
func TestReviewGeneralPathFold(t *testing.T) {
	k, _ := signet.GenerateKey(signet.HS256)
	now := time.Unix(1_800_000_000, 0)
	p := Policy{Now: fixed(now), IgnoreAudience: true}
	many := make([]string, 20)
	for i := range many {
		many[i] = fmt.Sprintf(`"m%d":%d`, i, i)
	}
	for _, payload := range []string{
		`{"exp":1800003600,"s":"{","username":"a","USERNAME":"b"}`,
		`{"exp":1800003600,"s":"{","other":"a","OTHER":"b"}`,
		`{"exp":1800003600,"username":"{","Username":"b"}`,
		`{"exp":1800003600,"s":"{","é":1,"É":2}`,
		`{"exp":1800003600,"s":"{","\u0061":1,"A":2}`,
		`{"exp":1800003600,"x":{"k":{"a":1,"A":2}}}`,
		`{"exp":1800003600,"kids":[{"n":"a","N":"b"}]}`,
		`{"exp":1800003600,"s":"{",` + strings.Join(many, ",") + `,"M0":1}`,
		`{"exp":1800003600,"x":{},"username":"a","USERNAME":"b"}`,
	} {
		tok, err := SignBytes(k, []byte(payload), "JWT")
		if err != nil {
			t.Fatal(err)
		}
		for name, verify := range map[string]func() error{
			"value":   func() error { _, err := Verify[reviewNested](k, tok, p); return err },
			"pointer": func() error { _, err := Verify[*reviewNested](k, tok, p); return err },
			"plan2":   func() error { _, err := Verify[planClaims](k, tok, p); return err },
		} {
			if err := verify(); !errors.Is(err, signet.ErrMalformed) {
				t.Errorf("%s (%s): %v, want ErrMalformed", payload, name, err)
			}
		}
	}
	// And what is fine reads as the split reads it.
	for _, payload := range []string{
		`{"exp":1800003600,"x":{"a":{"b":[1,"{"]}},"username":"u","kids":[{"n":"k"}]}`,
		`{"exp":1800003600,"s":"{","username":"u","USERNAME_":"v"}`,
		`{"exp":1800003600,"s":"{",` + strings.Join(many, ",") + `}`,
	} {
		tok, err := SignBytes(k, []byte(payload), "JWT")
		if err != nil {
			t.Fatal(err)
		}
		out, err := Verify[reviewNested](k, tok, p)
		if err != nil {
			t.Fatalf("%s: %v", payload, err)
		}
		checkSplitDecode[reviewNested](t, k, tok, p, out)
	}
}
