package paseto_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/tokentest"
	"github.com/signet-go/signet/paseto"
)

// registeredVariants: tokentest.Variants with PASETO's claim values; date
// is an RFC 3339 time for exp and nbf.
func registeredVariants(date string) []tokentest.Variant {
	return tokentest.Variants(map[string]string{
		"iss": `"evil"`, "sub": `"admin"`, "aud": `"evil"`, "exp": `"` + date + `"`,
		"nbf": `"` + date + `"`, "iat": `"2000-01-01T00:00:00Z"`, "jti": `"x"`,
	})
}

// ownFields is a caller's type with its own fields for the registered
// claims (no paseto.Claims): encoding/json fills them, case-insensitively.
type ownFields struct {
	Iss string `json:"iss"`
	Sub string `json:"sub"`
	Aud string `json:"aud"`
	Exp string `json:"exp"`
	Nbf string `json:"nbf"`
	Iat string `json:"iat"`
	Jti string `json:"jti"`
}

// untagged names its fields like the claims, without tags.
type untagged struct {
	Aud string
	Exp string
}

// embeddedShadow embeds Claims and has an Aud of its own, which
// encoding/json prefers (it is shallower).
type embeddedShadow struct {
	paseto.Claims
	Aud string `json:"aud"`
}

// TestRegisteredNameVariants: a member whose name differs from a
// registered claim's only in case is refused (ErrMalformed, no value
// returned) by Decrypt and Verify into every kind of type, and by Encrypt.
// Before, a token with {"AUD":"evil"} and no aud passed the zero Policy,
// and a caller's own aud field came back "evil".
func TestRegisteredNameVariants(t *testing.T) {
	k := key(t, signet.V4Local)
	sk := key(t, signet.V4Public)
	pk := public(t, sk)
	far := now.Add(time.Hour).Format(time.RFC3339)
	p := paseto.Policy{Now: fixed(now), NoExpiry: true}
	forms := []struct {
		name string
		open func(k *signet.Key, tok string) (any, error)
	}{
		{"Claims", func(k *signet.Key, tok string) (any, error) { return check[paseto.Claims](k, tok, p) }},
		{"*Claims", func(k *signet.Key, tok string) (any, error) { return check[*paseto.Claims](k, tok, p) }},
		{"Map", func(k *signet.Key, tok string) (any, error) { return check[paseto.Map](k, tok, p) }},
		{"RawMessage", func(k *signet.Key, tok string) (any, error) { return check[json.RawMessage](k, tok, p) }},
		{"embedded Claims", func(k *signet.Key, tok string) (any, error) { return check[appClaims](k, tok, p) }},
		{"*embedded Claims", func(k *signet.Key, tok string) (any, error) { return check[*appClaims](k, tok, p) }},
		{"embedded Claims, own aud", func(k *signet.Key, tok string) (any, error) { return check[embeddedShadow](k, tok, p) }},
		{"own fields", func(k *signet.Key, tok string) (any, error) { return check[ownFields](k, tok, p) }},
		{"own fields, untagged", func(k *signet.Key, tok string) (any, error) { return check[untagged](k, tok, p) }},
		{"map[string]any", func(k *signet.Key, tok string) (any, error) { return check[map[string]any](k, tok, p) }},
	}
	for _, v := range registeredVariants(far) {
		for _, payload := range []string{
			`{"exp":"` + far + `","` + v.Name + `":` + v.Value + `}`, // the plain shape: the fast path
			`{"` + v.Name + `":` + v.Value + `,"x":{"exp":1}}`,       // nested: the general path
			`{ "` + v.Name + `" : ` + v.Value + ` }`,                 // white space: the general path
			`{"role":"r","` + v.Name + `":` + v.Value + `,"z":[1]}`,  // after other members
		} {
			local, public := craftLocal(t, k, payload), craftPublic(t, sk, payload)
			for _, f := range forms {
				for kind, out := range map[string]func() (any, error){
					"local":  func() (any, error) { return f.open(k, local) },
					"public": func() (any, error) { return f.open(pk, public) },
				} {
					got, err := out()
					if !errors.Is(err, signet.ErrMalformed) {
						t.Errorf("%s (%s) into %s: %v, want ErrMalformed (%+v)", payload, kind, f.name, err, got)
						continue
					}
					if !reflect.ValueOf(got).IsZero() {
						t.Errorf("%s (%s) into %s: a value came with the error: %+v", payload, kind, f.name, got)
					}
				}
			}
		}
		// Never issued: Encrypt and Sign read back what they write.
		var m paseto.Map
		if err := json.Unmarshal([]byte(`{"`+v.Name+`":`+v.Value+`}`), &m); err != nil {
			t.Fatal(err)
		}
		if _, err := paseto.Encrypt(k, m, paseto.Options{}); !errors.Is(err, signet.ErrMalformed) {
			t.Errorf("Encrypt %v: %v", m, err)
		}
		if _, err := paseto.Sign(sk, m, paseto.Options{}); !errors.Is(err, signet.ErrMalformed) {
			t.Errorf("Sign %v: %v", m, err)
		}
	}
	// The names themselves, other names in other case, nested variants and
	// longer names are read as before, in every form.
	p.IgnoreAudience = true
	for _, payload := range []string{
		`{"exp":"` + far + `","aud":"api","iss":"i","sub":"s","nbf":"2000-01-01T00:00:00Z","iat":"2000-01-01T00:00:00Z","jti":"j"}`,
		`{"exp":"` + far + `","SID":"x","Role":"r","AUDIENCE":"a","x":{"AUD":"nested","Exp":1}}`,
		`{"exp":"` + far + `","\u0061ud":"api"}`,
	} {
		tok := craftLocal(t, k, payload)
		for _, f := range forms {
			if _, err := f.open(k, tok); err != nil {
				t.Errorf("%s into %s: %v", payload, f.name, err)
			}
		}
	}
}

// TestRegisteredNameVariantReproducer is the reported case: {"AUD":"evil"}
// and no aud, issued through a Map, decrypted with the zero Policy into a
// caller's struct with its own aud field.
func TestRegisteredNameVariantReproducer(t *testing.T) {
	k := key(t, signet.V4Local)
	tok := craftLocal(t, k, `{"AUD":"evil","exp":"`+now.Add(time.Hour).Format(time.RFC3339)+`"}`)
	type pc struct {
		Aud string `json:"aud"`
	}
	c, err := paseto.Decrypt[pc](k, tok, paseto.Policy{Now: fixed(now)})
	if !errors.Is(err, signet.ErrMalformed) || c.Aud != "" {
		t.Fatalf("got %+v, %v; want ErrMalformed", c, err)
	}
}
