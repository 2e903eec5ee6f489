package paseto_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/paseto"
)

// TestIssueRefuses: what the reader would not read back, Encrypt and Sign
// do not issue (no lenient RFC 3339 at issue, no year past 9999); options
// out of range are refused. Each with its sentinel.
func TestIssueRefuses(t *testing.T) {
	k := key(t, signet.V4Local)
	sk := key(t, signet.V4Public)
	o := paseto.Options{Now: fixed(now)}
	y10k := time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name   string
		claims any
		o      paseto.Options
		want   error
	}{
		{"exp in year 10000", paseto.Claims{ExpiresAt: y10k}, o, signet.ErrMalformed},
		{"nbf in year -1", paseto.Claims{NotBefore: time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)}, o, signet.ErrMalformed},
		{"iat in year 10000, embedded", appClaims{Claims: paseto.Claims{IssuedAt: y10k}}, o, signet.ErrMalformed},
		{"exp in year 10000, by pointer", &appClaims{Claims: paseto.Claims{ExpiresAt: y10k}}, o, signet.ErrMalformed},
		{"Map exp not RFC 3339", paseto.Map{"exp": "2026-1-1"}, o, signet.ErrMalformed},
		{"Map exp with a lowercase t", paseto.Map{"exp": "2026-01-01t00:00:00Z"}, o, signet.ErrMalformed},
		{"Map exp with a five-digit year", paseto.Map{"exp": "10000-01-01T00:00:00Z"}, o, signet.ErrMalformed},
		{"Map exp as a number", paseto.Map{"exp": 1800000000}, o, signet.ErrMalformed},
		{"Map aud as an array", paseto.Map{"aud": []string{"a"}}, o, signet.ErrMalformed},
		{"default exp past 9999", paseto.Claims{}, paseto.Options{Now: fixed(time.Date(9999, 12, 31, 23, 30, 0, 0, time.UTC))}, signet.ErrMalformed},
		{"default exp past 9999, Map", paseto.Map{}, paseto.Options{Now: fixed(time.Date(9999, 12, 31, 23, 30, 0, 0, time.UTC))}, signet.ErrMalformed},
		{"negative Lifetime", paseto.Claims{}, paseto.Options{Lifetime: -time.Second}, signet.ErrUnsupported},
		{"Lifetime and NoExpiry", paseto.Claims{}, paseto.Options{Lifetime: time.Minute, NoExpiry: true}, signet.ErrUnsupported},
	} {
		for _, k := range []*signet.Key{k, sk} {
			var tok string
			var err error
			switch v := c.claims.(type) {
			case paseto.Claims:
				tok, err = issueAs(k, v, c.o)
			case appClaims:
				tok, err = issueAs(k, v, c.o)
			case *appClaims:
				tok, err = issueAs(k, v, c.o)
			case paseto.Map:
				tok, err = issueAs(k, v, c.o)
			}
			if !errors.Is(err, c.want) || tok != "" {
				t.Errorf("%s (%s): %q, %v; want %v", c.name, k.Algorithm(), tok, err, c.want)
			}
		}
	}
}

// issueAs encrypts with a local key and signs with a secret one.
func issueAs[T any](k *signet.Key, c T, o paseto.Options) (string, error) {
	if k.Symmetric() {
		return paseto.Encrypt(k, c, o)
	}
	return paseto.Sign(k, c, o)
}

// openAs decrypts or verifies, as the key says.
func openAs[T any](k *signet.Key, tok string, p paseto.Policy) (T, error) {
	if k.Symmetric() {
		return paseto.Decrypt[T](k, tok, p)
	}
	pub, err := k.Public()
	if err != nil {
		var zero T
		return zero, err
	}
	return paseto.Verify[T](pub, tok, p)
}

// issuedVerdict is what the reader at now must say of claims the issuer
// took: only the time windows may refuse them, never the reading.
func issuedVerdict(c paseto.Claims, now time.Time) error {
	switch {
	case !c.ExpiresAt.IsZero() && !now.Before(c.ExpiresAt):
		return signet.ErrExpired
	case !c.NotBefore.IsZero() && now.Before(c.NotBefore):
		return signet.ErrNotYetValid
	case !c.IssuedAt.IsZero() && now.Before(c.IssuedAt):
		return signet.ErrIssuedInFuture
	}
	return nil
}

// roundTrip issues c at now and opens it at now: whatever the issuer
// accepts, the reader reads back.
func roundTrip(t *testing.T, k *signet.Key, c paseto.Claims) {
	t.Helper()
	tok, err := issueAs(k, c, paseto.Options{Now: fixed(now)})
	if err != nil {
		if !errors.Is(err, signet.ErrMalformed) {
			t.Fatalf("%+v: issue: %v, not ErrMalformed", c, err)
		}
		return
	}
	// As written: UTC, whole seconds, the defaults filled in.
	for _, tm := range []*time.Time{&c.ExpiresAt, &c.NotBefore, &c.IssuedAt} {
		if !tm.IsZero() {
			*tm = tm.UTC().Truncate(time.Second)
		}
	}
	if c.IssuedAt.IsZero() {
		c.IssuedAt = now
	}
	if c.ExpiresAt.IsZero() {
		c.ExpiresAt = now.Add(paseto.DefaultLifetime)
	}
	p := paseto.Policy{Now: fixed(now), IgnoreAudience: true}
	if c.Audience != "" {
		p = paseto.Policy{Now: fixed(now), Audience: []string{asWritten(c.Audience)}}
	}
	got, err := openAs[paseto.Claims](k, tok, p)
	if want := issuedVerdict(c, now); !errors.Is(err, want) || (want == nil) != (err == nil) {
		t.Fatalf("%+v: read: %v, want %v", c, err, want)
	}
	if err == nil && (got.Subject != asWritten(c.Subject) || !got.ExpiresAt.Equal(c.ExpiresAt) ||
		!got.IssuedAt.Equal(c.IssuedAt) || !got.NotBefore.Equal(c.NotBefore)) {
		t.Fatalf("read back %+v, issued %+v", got, c)
	}
}

// TestIssueReadRoundTrip: every claim set the issuer accepts, the reader
// accepts (at a time inside its windows); what the issuer refuses it
// refuses with ErrMalformed.
func TestIssueReadRoundTrip(t *testing.T) {
	for _, k := range []*signet.Key{key(t, signet.V4Local), key(t, signet.V3Public)} {
		for _, c := range []paseto.Claims{
			{},
			{Subject: "u1", Audience: "api"},
			{ExpiresAt: now.Add(time.Second)},
			{ExpiresAt: now.Add(999 * time.Millisecond)}, // truncated to now: expired
			{ExpiresAt: now},
			{NotBefore: now},
			{NotBefore: now.Add(time.Second)},
			{IssuedAt: now.Add(time.Second)},
			{IssuedAt: time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC), ExpiresAt: time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)},
			{ExpiresAt: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)},
			{ExpiresAt: now.Add(time.Hour).In(time.FixedZone("", -9*3600))},
			{Subject: "\xff", Audience: "\xfe"},
		} {
			roundTrip(t, k, c)
		}
	}
}

// FuzzIssueRead: the round-trip property over arbitrary claims and Maps.
func FuzzIssueRead(f *testing.F) {
	f.Add("u1", "api", int64(0), int64(0), int64(0), int64(0), `{"n":1}`)
	f.Add("", "", now.Unix()+1, int64(1), now.Unix(), int64(999), `{"exp":"2026-1-1"}`)
	f.Add("s", "", int64(253402300800), int64(-62167219201), int64(-1), int64(0), `{"aud":"a","iat":"2026-01-01T00:00:00.5+01:00","exp":"9999-12-31T23:59:59Z"}`)
	k, _ := signet.NewKey(signet.V4Local, make([]byte, 32))
	f.Fuzz(func(t *testing.T, sub, aud string, exp, nbf, iat, nsec int64, payload string) {
		at := func(s int64) time.Time {
			if s == 0 {
				return time.Time{}
			}
			return time.Unix(s, nsec%1e9)
		}
		roundTrip(t, k, paseto.Claims{Subject: sub, Audience: aud, ExpiresAt: at(exp), NotBefore: at(nbf), IssuedAt: at(iat)})

		var m paseto.Map
		d := json.NewDecoder(strings.NewReader(payload))
		d.UseNumber()
		if d.Decode(&m) != nil || m == nil {
			return
		}
		tok, err := paseto.Encrypt(k, m, paseto.Options{Now: fixed(now)})
		if err != nil {
			if !errors.Is(err, signet.ErrMalformed) {
				t.Fatalf("Encrypt(%s): %v, not ErrMalformed", payload, err)
			}
			return
		}
		_, err = paseto.Decrypt[paseto.Map](k, tok, paseto.Policy{Now: fixed(now), IgnoreAudience: true})
		if err != nil && !errors.Is(err, signet.ErrExpired) && !errors.Is(err, signet.ErrNotYetValid) && !errors.Is(err, signet.ErrIssuedInFuture) {
			t.Fatalf("Encrypt took %s, Decrypt refuses it: %v", payload, err)
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
