package claimcheck

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/signet-go/signet"
)

// TestVariant: every name encoding/json would match to a registered claim
// field without being that claim's name is a variant; the names
// themselves and other names are not.
func TestVariant(t *testing.T) {
	for _, n := range names {
		if _, ok := Variant(n); ok {
			t.Errorf("%s itself is a variant", n)
		}
		up := strings.ToUpper(n)
		for _, v := range []string{up, up[:1] + n[1:], n[:2] + up[2:], n[:1] + up[1:2] + n[2:]} {
			if got, ok := Variant(v); !ok || got != n {
				t.Errorf("Variant(%q) = %q, %v; want %s", v, got, ok, n)
			}
		}
	}
	for _, c := range []struct {
		name, claim string
	}{
		{"\u017fub", "sub"},        // ſub: U+017F folds to s
		{"i\u017f\u017f", "iss"},   // iſſ
		{"I\u017fS", "iss"},        // mixed
		{"sid", ""},                // a three-letter claim of its own
		{"Sid", ""},                // in other case: not registered
		{"au", ""},                 // too short
		{"audience", ""},           // ASCII, longer
		{"a\u0075d", ""},           // the Go escape is just "aud"
		{"\u0130ss", ""},           // İ does not fold to i in simple folding
		{"\u212Aid", ""},           // K (Kelvin sign) folds to k: no registered claim has one
		{"\u017f\u017f\u017f", ""}, // ſſſ
		{"", ""},
	} {
		got, ok := Variant(c.name)
		if ok != (c.claim != "") || got != c.claim {
			t.Errorf("Variant(%q) = %q, %v; want %q", c.name, got, ok, c.claim)
		}
	}
	if err := VariantError("AUD", "aud"); !errors.Is(err, signet.ErrMalformed) {
		t.Fatalf("VariantError: %v", err)
	}
}

// TestVariantAgreesWithEncodingJSON: a member reaches a struct's field for
// a registered claim through encoding/json exactly when its name is the
// claim's or a Variant of it.
func TestVariantAgreesWithEncodingJSON(t *testing.T) {
	cands := []string{"aud", "AUD", "Aud", "aUd", "auD", "EXP", "Nbf", "iAT", "jtI", "ISS", "sUB",
		"\u017fub", "\u017fUB", "i\u017fs", "I\u017f\u017f", "\u0130ss", "\u0131ss", "\u212Aid", "sid", "au", "audi", "a\u00fcd"}
	for _, name := range cands {
		var v struct {
			Iss string `json:"iss"`
			Sub string `json:"sub"`
			Aud string `json:"aud"`
			Exp string `json:"exp"`
			Nbf string `json:"nbf"`
			Iat string `json:"iat"`
			Jti string `json:"jti"`
		}
		b, _ := json.Marshal(map[string]string{name: "x"})
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		reached := map[string]bool{"iss": v.Iss != "", "sub": v.Sub != "", "aud": v.Aud != "", "exp": v.Exp != "",
			"nbf": v.Nbf != "", "iat": v.Iat != "", "jti": v.Jti != ""}
		claim, ok := Variant(name)
		exact := false
		for _, n := range names {
			exact = exact || n == name
		}
		for n, r := range reached {
			want := r && n != name
			if got := ok && claim == n; got != want {
				t.Errorf("%q: encoding/json fills %s: %v; Variant says %q, %v", name, n, r, claim, ok)
			}
		}
		if exact && ok {
			t.Errorf("%q is registered, not a variant", name)
		}
	}
}

func BenchmarkVariant(b *testing.B) {
	for range b.N {
		Variant("sid")
		Variant("role")
		Variant("AUD")
	}
}
