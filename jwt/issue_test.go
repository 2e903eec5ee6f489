package jwt_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwt"
)

// noClock fails the test when the issuing clock is read.
func noClock(t *testing.T) func() time.Time {
	return func() time.Time {
		t.Helper()
		t.Fatal("the clock was read")
		return time.Time{}
	}
}

// TestSignDefaults: jwt.Sign issues as paseto does, iat = now and exp =
// now + DefaultLifetime where the claims lack them, so that a token Sign
// makes passes Verify's default policy; the opt-outs are paseto.Options'.
func TestSignDefaults(t *testing.T) {
	k := mustKey(t, signet.HS256)
	iat, exp := jwt.At(now.Add(-time.Minute)), jwt.At(now.Add(time.Minute))
	at, hour := jwt.At(now), jwt.At(now.Add(jwt.DefaultLifetime))
	for _, c := range []struct {
		name     string
		in       jwt.Claims
		o        []jwt.Options
		iat, exp jwt.NumericDate
	}{
		{"nothing set", jwt.Claims{}, []jwt.Options{{Now: fixed(now)}}, at, hour},
		{"iat set", jwt.Claims{IssuedAt: iat}, []jwt.Options{{Now: fixed(now)}}, iat, hour},
		{"exp set", jwt.Claims{ExpiresAt: exp}, []jwt.Options{{Now: fixed(now)}}, at, exp},
		{"both set: the clock is not read", jwt.Claims{IssuedAt: iat, ExpiresAt: exp}, []jwt.Options{{Now: noClock(t)}}, iat, exp},
		{"iat set and NoExpiry: the clock is not read", jwt.Claims{IssuedAt: iat}, []jwt.Options{{Now: noClock(t), NoExpiry: true}}, iat, 0},
		{"NoExpiry", jwt.Claims{}, []jwt.Options{{Now: fixed(now), NoExpiry: true}}, at, 0},
		{"Lifetime", jwt.Claims{}, []jwt.Options{{Now: fixed(now), Lifetime: time.Minute}}, at, exp},
	} {
		t.Run(c.name, func(t *testing.T) {
			check := func(tok string, err error) {
				t.Helper()
				if err != nil {
					t.Fatal(err)
				}
				got, err := jwt.Verify[jwt.Claims](k, tok, jwt.Policy{Now: fixed(now), NoExpiry: true})
				if err != nil || got.IssuedAt != c.iat || got.ExpiresAt != c.exp {
					t.Fatalf("iat %d exp %d (%v), want iat %d exp %d", got.IssuedAt, got.ExpiresAt, err, c.iat, c.exp)
				}
			}
			in := c.in
			check(jwt.Sign(k, in, c.o...))
			if !reflect.DeepEqual(in, c.in) {
				t.Fatal("Sign changed the caller's claims")
			}
			// The same through the other paths: embedded, by pointer,
			// Map (the defaults go into the text, not the caller's value).
			check(jwt.Sign(k, withData{Claims: in, Data: "d"}, c.o...))
			check(jwt.Sign(k, &withData{Claims: in, Data: "d"}, c.o...))
			m := jwt.Map{"sub": "m"}
			if in.IssuedAt != 0 {
				m["iat"] = int64(in.IssuedAt)
			}
			if in.ExpiresAt != 0 {
				m["exp"] = int64(in.ExpiresAt)
			}
			n := len(m)
			check(jwt.Sign(k, m, c.o...))
			if len(m) != n {
				t.Fatal("Sign changed the caller's map")
			}
		})
	}

	// Without options: the wall clock, and a token the default policy takes.
	tok, err := jwt.Sign(k, jwt.Claims{Subject: "u1"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := jwt.Verify[jwt.Claims](k, tok, jwt.Policy{})
	if err != nil || got.ExpiresAt-got.IssuedAt != jwt.NumericDate(jwt.DefaultLifetime/time.Second) {
		t.Fatalf("default token: %+v %v", got, err)
	}
	// NoExpiry: the default policy refuses the token, as paseto's does.
	tok, _ = jwt.Sign(k, jwt.Claims{Subject: "u1"}, jwt.Options{NoExpiry: true})
	if _, err := jwt.Verify[jwt.Claims](k, tok, jwt.Policy{}); !errors.Is(err, signet.ErrMissingClaim) {
		t.Fatalf("NoExpiry token under the default policy: %v", err)
	}
}

type withData struct {
	jwt.Claims
	Data string `json:"data"`
}

// TestSignRefuses: what Verify would not read back, Sign does not issue;
// options out of range are refused. Each with its sentinel.
func TestSignRefuses(t *testing.T) {
	k := mustKey(t, signet.HS256)
	o := jwt.Options{Now: fixed(now)}
	for _, c := range []struct {
		name string
		sign func() (string, error)
		want error
	}{
		{"negative exp", func() (string, error) { return jwt.Sign(k, jwt.Claims{ExpiresAt: -1}, o) }, signet.ErrMalformed},
		{"nbf past 2^53", func() (string, error) { return jwt.Sign(k, jwt.Claims{NotBefore: 1<<53 + 1}, o) }, signet.ErrMalformed},
		{"negative iat, embedded", func() (string, error) {
			return jwt.Sign(k, withData{Claims: jwt.Claims{IssuedAt: -5}}, o)
		}, signet.ErrMalformed},
		{"negative iat, by pointer", func() (string, error) {
			return jwt.Sign(k, &withData{Claims: jwt.Claims{IssuedAt: -5}}, o)
		}, signet.ErrMalformed},
		{"Map exp as a date string", func() (string, error) { return jwt.Sign(k, jwt.Map{"exp": "2026-1-1"}, o) }, signet.ErrMalformed},
		{"Map negative exp", func() (string, error) { return jwt.Sign(k, jwt.Map{"exp": -5}, o) }, signet.ErrMalformed},
		{"Map exp 1e300", func() (string, error) { return jwt.Sign(k, jwt.Map{"exp": 1e300}, o) }, signet.ErrMalformed},
		{"Map aud a number", func() (string, error) { return jwt.Sign(k, jwt.Map{"aud": 5}, o) }, signet.ErrMalformed},
		{"clock before 1970", func() (string, error) {
			return jwt.Sign(k, jwt.Claims{}, jwt.Options{Now: fixed(time.Unix(-100, 0))})
		}, signet.ErrMalformed},
		{"clock before 1970, Map", func() (string, error) {
			return jwt.Sign(k, jwt.Map{}, jwt.Options{Now: fixed(time.Unix(-100, 0))})
		}, signet.ErrMalformed},
		{"exp past 2^53 by the lifetime", func() (string, error) {
			return jwt.Sign(k, jwt.Map{}, jwt.Options{Now: fixed(time.Unix(1<<53-10, 0))})
		}, signet.ErrMalformed},
		{"two Options", func() (string, error) { return jwt.Sign(k, jwt.Claims{}, o, o) }, signet.ErrUnsupported},
		{"negative Lifetime", func() (string, error) { return jwt.Sign(k, jwt.Claims{}, jwt.Options{Lifetime: -time.Second}) }, signet.ErrUnsupported},
		{"Lifetime and NoExpiry", func() (string, error) {
			return jwt.Sign(k, jwt.Claims{}, jwt.Options{Lifetime: time.Minute, NoExpiry: true})
		}, signet.ErrUnsupported},
	} {
		if tok, err := c.sign(); !errors.Is(err, c.want) || tok != "" {
			t.Errorf("%s: %q, %v; want %v", c.name, tok, err, c.want)
		}
	}
}

// issuedVerdict is what Verify at now must say of a claims set Sign took:
// only the time windows may refuse it (RFC 7519 order), never the reading.
func issuedVerdict(c jwt.Claims, now int64) error {
	switch {
	case c.ExpiresAt != 0 && int64(c.ExpiresAt) <= now:
		return signet.ErrExpired
	case c.NotBefore != 0 && int64(c.NotBefore) > now:
		return signet.ErrNotYetValid
	case c.IssuedAt != 0 && int64(c.IssuedAt) > now:
		return signet.ErrIssuedInFuture
	}
	return nil
}

// roundTrip signs c at now and verifies it at now: whatever Sign accepts,
// Verify reads back, with the same claims.
func roundTrip(t *testing.T, k *signet.Key, c jwt.Claims) {
	t.Helper()
	tok, err := jwt.Sign(k, c, jwt.Options{Now: fixed(now)})
	if err != nil {
		if !errors.Is(err, signet.ErrMalformed) {
			t.Fatalf("%+v: Sign: %v, not ErrMalformed", c, err)
		}
		return
	}
	if c.IssuedAt == 0 {
		c.IssuedAt = jwt.At(now)
	}
	if c.ExpiresAt == 0 {
		c.ExpiresAt = jwt.At(now.Add(jwt.DefaultLifetime))
	}
	// The verifier names the audience as written (invalid UTF-8 goes out
	// as U+FFFD).
	p := jwt.Policy{Now: fixed(now), IgnoreAudience: true}
	if len(c.Audience) > 0 && c.Audience[0] != "" {
		p = jwt.Policy{Now: fixed(now), Audience: []string{asWritten(c.Audience[0])}}
	}
	got, err := jwt.Verify[jwt.Claims](k, tok, p)
	if want := issuedVerdict(c, now.Unix()); !errors.Is(err, want) || (want == nil) != (err == nil) {
		t.Fatalf("%+v: Verify: %v, want %v", c, err, want)
	}
	if err == nil && (got.Subject != asWritten(c.Subject) || got.ExpiresAt != c.ExpiresAt || got.IssuedAt != c.IssuedAt || got.NotBefore != c.NotBefore) {
		t.Fatalf("read back %+v, issued %+v", got, c)
	}
	// The untyped form reads the same token the same way.
	if _, errMap := jwt.Verify[jwt.Map](k, tok, p); (err == nil) != (errMap == nil) {
		t.Fatalf("Claims: %v, Map: %v", err, errMap)
	}
}

// TestIssueVerifyRoundTrip: every claim set Sign accepts, Verify accepts
// (at a time inside its windows), and what Sign refuses it refuses with
// ErrMalformed.
func TestIssueVerifyRoundTrip(t *testing.T) {
	k := mustKey(t, signet.HS256)
	n := jwt.At(now)
	for _, c := range []jwt.Claims{
		{},
		{Subject: "u1", Audience: jwt.Audience{"api"}},
		{Audience: jwt.Audience{"a", "b"}, Issuer: "i", ID: "j"},
		{ExpiresAt: n + 1},
		{ExpiresAt: n},
		{ExpiresAt: n - 1},
		{NotBefore: n},
		{NotBefore: n + 1},
		{IssuedAt: n + 1},
		{IssuedAt: 1, ExpiresAt: claimMax},
		{ExpiresAt: claimMax + 1},
		{ExpiresAt: -1},
		{NotBefore: -1},
		{Subject: "\xff"},
	} {
		roundTrip(t, k, c)
	}
}

const claimMax = 1 << 53

// FuzzIssueVerify: the round-trip property over arbitrary claims, and
// over arbitrary Maps: whatever Sign takes, Verify reads (only the time
// windows may refuse it).
func FuzzIssueVerify(f *testing.F) {
	f.Add("u1", "api", int64(0), int64(0), int64(0), `{"n":1}`)
	f.Add("", "", int64(1_800_000_001), int64(1), int64(1_800_000_000), `{"exp":"2026-1-1"}`)
	f.Add("s", "", int64(-1), int64(claimMax), int64(claimMax+1), `{"aud":["a",""],"iat":1.5,"exp":2e9}`)
	k, _ := signet.NewKey(signet.HS256, []byte("0123456789abcdef0123456789abcdef"))
	f.Fuzz(func(t *testing.T, sub, aud string, exp, nbf, iat int64, payload string) {
		c := jwt.Claims{Subject: sub, ExpiresAt: jwt.NumericDate(exp), NotBefore: jwt.NumericDate(nbf), IssuedAt: jwt.NumericDate(iat)}
		if aud != "" {
			c.Audience = jwt.Audience{aud}
		}
		roundTrip(t, k, c)

		var m jwt.Map
		d := json.NewDecoder(strings.NewReader(payload))
		d.UseNumber()
		if d.Decode(&m) != nil || m == nil {
			return
		}
		tok, err := jwt.Sign(k, m, jwt.Options{Now: fixed(now)})
		if err != nil {
			if !errors.Is(err, signet.ErrMalformed) {
				t.Fatalf("Sign(%s): %v, not ErrMalformed", payload, err)
			}
			return
		}
		_, err = jwt.Verify[jwt.Map](k, tok, jwt.Policy{Now: fixed(now), IgnoreAudience: true})
		if err != nil && !errors.Is(err, signet.ErrExpired) && !errors.Is(err, signet.ErrNotYetValid) && !errors.Is(err, signet.ErrIssuedInFuture) {
			t.Fatalf("Sign took %s, Verify refuses it: %v", payload, err)
		}
	})
}

// asWritten is s as a JSON writer puts it in a token: each byte of invalid
// UTF-8 as U+FFFD.
func asWritten(s string) string {
	b, _ := json.Marshal(s)
	var out string
	_ = json.Unmarshal(b, &out)
	return out
}
