package jwt_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/tokentest"
	"github.com/signet-go/signet/jwt"
)

// registeredVariants: tokentest.Variants with jwt's claim values.
func registeredVariants() []tokentest.Variant {
	return tokentest.Variants(map[string]string{
		"iss": `"evil"`, "sub": `"admin"`, "aud": `"evil"`, "exp": `4102444800`,
		"nbf": `1`, "iat": `1`, "jti": `"x"`,
	})
}

// ownFields is a caller's type with its own fields for the registered
// claims (no jwt.Claims): encoding/json fills them, case-insensitively.
type ownFields struct {
	Iss string          `json:"iss"`
	Sub string          `json:"sub"`
	Aud json.RawMessage `json:"aud"`
	Exp json.RawMessage `json:"exp"`
	Nbf json.RawMessage `json:"nbf"`
	Iat json.RawMessage `json:"iat"`
	Jti string          `json:"jti"`
}

// untagged names its fields like the claims, without tags.
type untagged struct {
	Aud string
	Exp int64
}

type embedded struct {
	jwt.Claims
	Role string `json:"role"`
}

// embeddedShadow embeds Claims and has an Aud of its own, which
// encoding/json prefers (it is shallower).
type embeddedShadow struct {
	jwt.Claims
	Aud string `json:"aud"`
}

// TestRegisteredNameVariants: a member whose name differs from a
// registered claim's only in case is refused (ErrMalformed, no value
// returned) by Verify into every kind of type, and by Sign. Before, a
// token with {"AUD":"evil"} and no aud passed the zero Policy, and a
// caller's own aud field came back "evil".
func TestRegisteredNameVariants(t *testing.T) {
	k := mustKey(t, signet.HS256)
	hdr := `{"alg":"HS256","typ":"JWT"}`
	p := jwt.Policy{Now: fixed(now), NoExpiry: true}
	forms := []struct {
		name   string
		verify func(tok string) (any, error)
	}{
		{"Claims", func(tok string) (any, error) { return jwt.Verify[jwt.Claims](k, tok, p) }},
		{"*Claims", func(tok string) (any, error) { return jwt.Verify[*jwt.Claims](k, tok, p) }},
		{"Map", func(tok string) (any, error) { return jwt.Verify[jwt.Map](k, tok, p) }},
		{"RawMessage", func(tok string) (any, error) { return jwt.Verify[json.RawMessage](k, tok, p) }},
		{"embedded Claims", func(tok string) (any, error) { return jwt.Verify[embedded](k, tok, p) }},
		{"*embedded Claims", func(tok string) (any, error) { return jwt.Verify[*embedded](k, tok, p) }},
		{"embedded Claims, own aud", func(tok string) (any, error) { return jwt.Verify[embeddedShadow](k, tok, p) }},
		{"own fields", func(tok string) (any, error) { return jwt.Verify[ownFields](k, tok, p) }},
		{"own fields, untagged", func(tok string) (any, error) { return jwt.Verify[untagged](k, tok, p) }},
		{"map[string]any", func(tok string) (any, error) { return jwt.Verify[map[string]any](k, tok, p) }},
	}
	for _, v := range registeredVariants() {
		for _, payload := range []string{
			`{"exp":4102444800,"` + v.Name + `":` + v.Value + `}`,   // the plain shape: the fast path
			`{"` + v.Name + `":` + v.Value + `,"x":{"exp":1}}`,      // nested: the general path
			`{ "` + v.Name + `" : ` + v.Value + ` }`,                // white space: the general path
			`{"role":"r","` + v.Name + `":` + v.Value + `,"z":[1]}`, // after other members
		} {
			tok := craft(t, k, hdr, payload)
			for _, f := range forms {
				out, err := f.verify(tok)
				if !errors.Is(err, signet.ErrMalformed) {
					t.Errorf("%s into %s: %v, want ErrMalformed (%+v)", payload, f.name, err, out)
					continue
				}
				if !reflect.ValueOf(out).IsZero() {
					t.Errorf("%s into %s: a value came with the error: %+v", payload, f.name, out)
				}
			}
		}
		// Never issued: Sign reads back what it writes.
		var m jwt.Map
		if err := json.Unmarshal([]byte(`{"`+v.Name+`":`+v.Value+`}`), &m); err != nil {
			t.Fatal(err)
		}
		if _, err := jwt.Sign(k, m); !errors.Is(err, signet.ErrMalformed) {
			t.Errorf("Sign %v: %v", m, err)
		}
	}
	// The names themselves, other names in other case, nested variants and
	// longer names are read as before, in every form.
	p.IgnoreAudience = true
	for _, payload := range []string{
		`{"exp":4102444800,"aud":"api","iss":"i","sub":"s","nbf":1,"iat":1,"jti":"j"}`,
		`{"exp":4102444800,"SID":"x","Role":"r","AUDIENCE":"a","x":{"AUD":"nested","Exp":1}}`,
		`{"exp":4102444800,"\u0061ud":"api"}`,
	} {
		tok := craft(t, k, hdr, payload)
		for _, f := range forms {
			if _, err := f.verify(tok); err != nil {
				t.Errorf("%s into %s: %v", payload, f.name, err)
			}
		}
	}
}

// TestRegisteredNameVariantReproducer is the reported case: {"AUD":"evil"}
// with a valid exp and no aud, verified with the zero Policy into a
// caller's struct with its own aud field.
func TestRegisteredNameVariantReproducer(t *testing.T) {
	k := mustKey(t, signet.HS256)
	tok := craft(t, k, `{"alg":"HS256"}`, `{"AUD":"evil","exp":`+exp(time.Hour)+`}`)
	type myClaims struct {
		Aud string `json:"aud"`
		Exp int64  `json:"exp"`
	}
	c, err := jwt.Verify[myClaims](k, tok, jwt.Policy{Now: fixed(now)})
	if !errors.Is(err, signet.ErrMalformed) || c.Aud != "" {
		t.Fatalf("got %+v, %v; want ErrMalformed", c, err)
	}
}
