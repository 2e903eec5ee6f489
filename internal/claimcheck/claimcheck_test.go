package claimcheck

import (
	"errors"
	"testing"
	"time"

	"github.com/signet-go/signet"
)

var now = time.Unix(1_800_000_000, 500)

func at(t time.Time) func() time.Time { return func() time.Time { return t } }

// TestCheck: the windows (expired at exp, RFC 7519; zero leeway means
// zero), the audience rule, and the identity claims, each with its
// sentinel.
func TestCheck(t *testing.T) {
	n := Of(now)
	sec := func(d time.Duration) Time { return Of(now.Add(d)) }
	for _, c := range []struct {
		name string
		r    Rules
		c    Claims
		want error
	}{
		{"no exp", Rules{}, Claims{}, signet.ErrMissingClaim},
		{"no exp, NoExpiry", Rules{NoExpiry: true}, Claims{}, nil},
		{"exp now", Rules{}, Claims{Has: HasExp, Exp: n}, signet.ErrExpired},
		{"exp a nanosecond ahead", Rules{}, Claims{Has: HasExp, Exp: sec(1)}, nil},
		{"exp a nanosecond ago", Rules{}, Claims{Has: HasExp, Exp: sec(-1)}, signet.ErrExpired},
		{"exp a leeway ago", Rules{Leeway: time.Second}, Claims{Has: HasExp, Exp: sec(-time.Second)}, signet.ErrExpired},
		{"exp less than a leeway ago", Rules{Leeway: time.Second}, Claims{Has: HasExp, Exp: sec(-time.Second + 1)}, nil},
		{"exp in whole seconds, now with a fraction", Rules{}, Claims{Has: HasExp, Exp: Seconds(now.Unix())}, signet.ErrExpired},
		{"nbf now", Rules{}, Claims{Has: HasExp | HasNbf, Exp: sec(time.Hour), Nbf: n}, nil},
		{"nbf a nanosecond ahead", Rules{}, Claims{Has: HasExp | HasNbf, Exp: sec(time.Hour), Nbf: sec(1)}, signet.ErrNotYetValid},
		{"nbf within leeway", Rules{Leeway: time.Second}, Claims{Has: HasExp | HasNbf, Exp: sec(time.Hour), Nbf: sec(time.Second)}, nil},
		{"iat now", Rules{}, Claims{Has: HasExp | HasIat, Exp: sec(time.Hour), Iat: n}, nil},
		{"iat a nanosecond ahead", Rules{}, Claims{Has: HasExp | HasIat, Exp: sec(time.Hour), Iat: sec(1)}, signet.ErrIssuedInFuture},
		{"iss", Rules{Issuer: "a", NoExpiry: true}, Claims{Issuer: "b"}, signet.ErrIssuer},
		{"sub", Rules{Subject: "a", NoExpiry: true}, Claims{Subject: "b"}, signet.ErrSubject},
		{"jti", Rules{ID: "a", NoExpiry: true}, Claims{ID: "b"}, signet.ErrTokenID},
		{"aud, verifier names none", Rules{NoExpiry: true}, Claims{Has: HasAud, Audience: []string{"api"}}, signet.ErrAudience},
		{"empty aud, verifier names none", Rules{NoExpiry: true}, Claims{Has: HasAud}, signet.ErrAudience},
		{"aud, IgnoreAudience", Rules{NoExpiry: true, IgnoreAudience: true}, Claims{Has: HasAud, Audience: []string{"api"}}, nil},
		{"no aud, verifier names one", Rules{NoExpiry: true, Audience: []string{"api"}}, Claims{}, signet.ErrAudience},
		{"no aud, verifier names none", Rules{NoExpiry: true}, Claims{}, nil},
		{"aud one of several", Rules{NoExpiry: true, Audience: []string{"a", "b"}}, Claims{Has: HasAud, Audience: []string{"x", "b"}}, nil},
		{"aud none of several", Rules{NoExpiry: true, Audience: []string{"a", "b"}}, Claims{Has: HasAud, Audience: []string{"x", "y"}}, signet.ErrAudience},
	} {
		c.r.Now = at(now)
		if err := c.r.Valid("test"); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		err := c.r.Check(&c.c)
		if !errors.Is(err, c.want) || (err == nil) != (c.want == nil) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
}

func TestValid(t *testing.T) {
	for _, r := range []Rules{
		{Leeway: -1},
		{Leeway: MaxLeeway + 1},
		{Audience: []string{"a"}, IgnoreAudience: true},
		{Audience: []string{"a", ""}},
	} {
		if err := r.Valid("test"); !errors.Is(err, signet.ErrUnsupported) {
			t.Errorf("%+v: %v", r, err)
		}
	}
	for _, o := range []Issue{{Lifetime: -1}, {Lifetime: time.Second, NoExpiry: true}} {
		if err := o.Valid("test"); !errors.Is(err, signet.ErrUnsupported) {
			t.Errorf("%+v: %v", o, err)
		}
	}
	if o := (Issue{}); o.Expiry(now) != now.Add(DefaultLifetime) {
		t.Error("zero Lifetime is not DefaultLifetime")
	}
	// A nil clock is the wall clock.
	r := Rules{}
	if err := r.Check(&Claims{Has: HasExp, Exp: Of(time.Now().Add(time.Hour))}); err != nil {
		t.Error(err)
	}
	if err := r.Check(&Claims{Has: HasExp, Exp: Of(time.Now().Add(-time.Second))}); !errors.Is(err, signet.ErrExpired) {
		t.Error(err)
	}
}

func TestRanges(t *testing.T) {
	if minRFC3339 != time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC).Unix() || maxRFC3339 != time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC).Unix() {
		t.Fatal("RFC 3339 range constants")
	}
	for d, ok := range map[int64]bool{-1: false, 0: true, MaxNumericDate: true, MaxNumericDate + 1: false} {
		if ValidNumericDate(d) != ok {
			t.Errorf("ValidNumericDate(%d) = %v", d, !ok)
		}
	}
	for tm, ok := range map[time.Time]bool{
		time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC):                         true,
		time.Date(-1, 12, 31, 23, 59, 59, 0, time.UTC):                   false,
		time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC):                 true,
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC):                     false,
		time.Date(10000, 1, 1, 0, 30, 0, 0, time.FixedZone("", 3600)):    true, // 9999 in UTC
		time.Date(9999, 12, 31, 23, 30, 0, 0, time.FixedZone("", -3600)): false,
	} {
		if ValidRFC3339(tm) != ok {
			t.Errorf("ValidRFC3339(%v) = %v", tm, !ok)
		}
	}
}
