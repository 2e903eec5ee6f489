package joseheader

import (
	"errors"
	"strings"
	"testing"

	"github.com/signet-go/signet"
)

func TestSameType(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"JWT", "JWT", true},
		{"jwt", "JWT", true},
		{"application/jwt", "JWT", true},
		{"APPLICATION/at+jwt", "at+JWT", true},
		{"JWT", "application/JWT", true},
		{"application/", "application/", true},
		{"application/", "", false},
		{"at+jwt", "JWT", false},
		{"", "JWT", false},
	} {
		if got := SameType(tt.a, tt.b); got != tt.want {
			t.Errorf("SameType(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestCritError(t *testing.T) {
	for _, tt := range []struct {
		v    string
		want error
		text string
	}{
		{`[]`, signet.ErrMalformed, "non-empty array"},
		{`"exp"`, signet.ErrMalformed, "non-empty array"},
		{`{}`, signet.ErrMalformed, "non-empty array"},
		{`["exp"]`, signet.ErrUnsupported, `["exp"]`},
		{`["b64",1]`, signet.ErrUnsupported, `["b64" ""]`},
		{`["\u0065xp"]`, signet.ErrUnsupported, `["exp"]`},
	} {
		err := CritError(tt.v)
		if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.text) {
			t.Errorf("CritError(%s) = %v, want %v with %q", tt.v, err, tt.want, tt.text)
		}
	}
}

func TestCheckType(t *testing.T) {
	for _, tt := range []struct {
		want, typ string
		ok        bool
	}{
		{"", "", true},
		{"", "JWT", true},
		{"", "application/jwt", true},
		{"", "at+jwt", false},
		{"at+jwt", "application/AT+JWT", true},
		{"at+jwt", "JWT", false},
		{"at+jwt", "", false},
	} {
		err := CheckType(tt.want, tt.typ)
		if tt.ok != (err == nil) || err != nil && !errors.Is(err, signet.ErrType) {
			t.Errorf("CheckType(%q, %q) = %v, want ok %v", tt.want, tt.typ, err, tt.ok)
		}
	}
}
