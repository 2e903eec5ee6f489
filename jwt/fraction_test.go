package jwt_test

import (
	"errors"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwt"
	"github.com/signet-go/signet/paseto"
)

// TestFractionalDates: JWT dates with a fraction (RFC 7519 §2) are
// checked with it, to the nanosecond, and so agree with PASETO's RFC 3339
// fractions: expired at exp, not valid before nbf, not issued after now.
// Before, {"nbf":100.9} was read as 100 and accepted at 100.5.
func TestFractionalDates(t *testing.T) {
	const base = 1_800_000_000
	at := func(s float64) time.Time { // base + s seconds, s with at most 9 decimals
		ns := int64(s*1e9 + 0.5)
		if s < 0 {
			ns = int64(s*1e9 - 0.5)
		}
		return time.Unix(base, ns)
	}
	jwtDate := func(tm time.Time) string {
		s := strconv.FormatInt(tm.Unix(), 10)
		if ns := tm.Nanosecond(); ns != 0 {
			s += "." + strconv.FormatInt(int64(1e9+ns), 10)[1:]
		}
		return s
	}
	far := at(3600)
	for _, c := range []struct {
		name          string
		claim         string // exp, nbf or iat
		date, now     float64
		leeway        time.Duration
		want          error
		jwtDateString string // the JWT date as written, when not from date
	}{
		{name: "nbf .9 at .5", claim: "nbf", date: 0.9, now: 0.5, want: signet.ErrNotYetValid},
		{name: "nbf .9 at .899999999", claim: "nbf", date: 0.9, now: 0.899999999, want: signet.ErrNotYetValid},
		{name: "nbf .9 at .9", claim: "nbf", date: 0.9, now: 0.9},
		{name: "nbf .9 at 1", claim: "nbf", date: 0.9, now: 1},
		{name: "nbf .9, leeway 1 s, at -.100000001", claim: "nbf", date: 0.9, now: -0.100000001, leeway: time.Second, want: signet.ErrNotYetValid},
		{name: "nbf .9, leeway 1 s, at -.1", claim: "nbf", date: 0.9, now: -0.1, leeway: time.Second},
		{name: "nbf .9 as an exponent, at .5", claim: "nbf", date: 0.9, now: 0.5, want: signet.ErrNotYetValid, jwtDateString: "18000000009e-1"},
		{name: "iat .9 at .5", claim: "iat", date: 0.9, now: 0.5, want: signet.ErrIssuedInFuture},
		{name: "iat .9 at .9", claim: "iat", date: 0.9, now: 0.9},
		{name: "exp .5 at .4", claim: "exp", date: 0.5, now: 0.4},
		{name: "exp .5 at .499999999", claim: "exp", date: 0.5, now: 0.499999999},
		{name: "exp .5 at .5", claim: "exp", date: 0.5, now: 0.5, want: signet.ErrExpired},
		{name: "exp .5 at .6", claim: "exp", date: 0.5, now: 0.6, want: signet.ErrExpired},
		{name: "exp .5, leeway 1 s, at 1.4", claim: "exp", date: 0.5, now: 1.4, leeway: time.Second},
		{name: "exp .5, leeway 1 s, at 1.5", claim: "exp", date: 0.5, now: 1.5, leeway: time.Second, want: signet.ErrExpired},
		{name: "exp .000000001 at 0", claim: "exp", date: 0.000000001, now: 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			date, now := at(c.date), at(c.now)
			js := jwtDate(date)
			if c.jwtDateString != "" {
				js = c.jwtDateString
			}
			ps := `"` + date.UTC().Format(time.RFC3339Nano) + `"`
			jp, pp := `{"exp":`+jwtDate(far)+`,"`+c.claim+`":`+js+`}`, `{"exp":"`+far.UTC().Format(time.RFC3339)+`","`+c.claim+`":`+ps+`}`
			if c.claim == "exp" {
				jp, pp = `{"exp":`+js+`}`, `{"exp":`+ps+`}`
			}
			hk := mustKey(t, signet.HS256)
			_, jerr := jwt.Verify[jwt.Claims](hk, craft(t, hk, `{"alg":"HS256"}`, jp), jwt.Policy{Now: fixed(now), Leeway: c.leeway})
			pk := mustKey(t, signet.V4Local)
			ptok, err := paseto.EncryptBytes(pk, []byte(pp), paseto.Options{})
			if err != nil {
				t.Fatal(err)
			}
			_, perr := paseto.Decrypt[paseto.Claims](pk, ptok, paseto.Policy{Now: fixed(now), Leeway: c.leeway})
			for name, err := range map[string]error{"jwt " + jp: jerr, "paseto " + pp: perr} {
				if c.want == nil && err != nil || c.want != nil && !errors.Is(err, c.want) {
					t.Errorf("%s: got %v, want %v", name, err, c.want)
				}
			}
		})
	}
}

// TestFractionalDatesInClaims: the Claims Verify returns hold whole
// seconds rounded toward the stricter side (exp down, nbf and iat up), so
// a caller who checks them again is never more lenient than Verify was.
func TestFractionalDatesInClaims(t *testing.T) {
	k := mustKey(t, signet.HS256)
	tok := craft(t, k, `{"alg":"HS256"}`, `{"exp":1800003600.5,"nbf":1799999999.2,"iat":1799999998.000000001}`)
	c, err := jwt.Verify[jwt.Claims](k, tok, jwt.Policy{Now: fixed(now)})
	if err != nil {
		t.Fatal(err)
	}
	if c.ExpiresAt != 1800003600 || c.NotBefore != 1800000000 || c.IssuedAt != 1799999999 {
		t.Fatalf("exp %d nbf %d iat %d", c.ExpiresAt, c.NotBefore, c.IssuedAt)
	}
	e, err := jwt.Verify[embedded](k, tok, jwt.Policy{Now: fixed(now)})
	if err != nil || !reflect.DeepEqual(e.Claims, c) {
		t.Fatalf("embedded: %+v %v", e, err)
	}
	// A caller's own NumericDate field (not a registered claim): rounded
	// down, the range checked.
	var d struct {
		T jwt.NumericDate `json:"t"`
	}
	for raw, want := range map[string]jwt.NumericDate{`100.9`: 100, `1.009e2`: 100, `-0`: 0, `7`: 7} {
		if err := d.T.UnmarshalJSON([]byte(raw)); err != nil || d.T != want {
			t.Errorf("NumericDate %s: %d %v", raw, d.T, err)
		}
	}
	for _, raw := range []string{`-0.5`, `9007199254740992.5`, `1e16`, `"1"`, `1.`} {
		if err := d.T.UnmarshalJSON([]byte(raw)); !errors.Is(err, signet.ErrMalformed) {
			t.Errorf("NumericDate %s: %v", raw, err)
		}
	}
}
