package jwt

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/claimcheck"
	"github.com/signet-go/signet/internal/claimsjson"
	"github.com/signet-go/signet/internal/itoa"
	"github.com/signet-go/signet/internal/jsonx"
)

// Claims are the registered JWT claims (RFC 7519 §4.1). Use Claims as is,
// or embed it in a struct of your own to add private claims:
//
//	type MyClaims struct {
//		jwt.Claims
//		Role string `json:"role"`
//	}
//
// Zero values are omitted when signing.
type Claims struct {
	Issuer    string      `json:"iss,omitempty"`
	Subject   string      `json:"sub,omitempty"`
	Audience  Audience    `json:"aud,omitempty"`
	ExpiresAt NumericDate `json:"exp,omitempty"`
	NotBefore NumericDate `json:"nbf,omitempty"`
	IssuedAt  NumericDate `json:"iat,omitempty"`
	ID        string      `json:"jti,omitempty"`
}

// registered lets Verify reach the Claims embedded in a caller's struct; the
// method is promoted through embedding.
func (c *Claims) registered() *Claims { return c } // nil when an embedded *Claims is nil

type registeredClaims interface{ registered() *Claims }

// NumericDate is a JWT time: seconds since the Unix epoch (RFC 7519 §2).
// Zero means absent.
//
// It holds whole seconds. RFC 7519 allows a fraction, and Verify checks
// exp, nbf and iat with theirs, to the nanosecond, as paseto does; the
// Claims it returns hold them rounded toward the stricter side: exp down,
// nbf and iat up. A token is thus never valid earlier, or longer, than
// either its claims or the returned Claims say.
type NumericDate int64

// At returns the NumericDate of t, truncated to the second.
func At(t time.Time) NumericDate { return NumericDate(t.Unix()) }

// Time returns d as a time.Time (the zero Time for an absent date).
func (d NumericDate) Time() time.Time {
	if d == 0 {
		return time.Time{}
	}
	return time.Unix(int64(d), 0)
}

// UnmarshalJSON accepts a JSON number from 0 to 2^53, as RFC 7519
// allows, a fraction rounded down to whole seconds; null leaves d
// unchanged. (Verify reads the registered dates itself, rounding nbf and
// iat up; UnmarshalJSON serves the caller's own date fields.)
func (d *NumericDate) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	t, ok := claimcheck.ParseNumericDate(string(b))
	if !ok {
		return fmt.Errorf("%w: NumericDate %.32q: want a number of seconds from 0 to 2^53", signet.ErrMalformed, b)
	}
	*d = NumericDate(t.Sec)
	return nil
}

// Audience is the aud claim: one or more recipients. It is read from a JSON
// string or array of strings, and written as a string when it holds one
// value, as an array otherwise.
type Audience []string

// Contains reports whether a is one of the audience values.
func (a Audience) Contains(s string) bool {
	for _, v := range a {
		if v == s {
			return true
		}
	}
	return false
}

// MarshalJSON writes a single audience as a string.
func (a Audience) MarshalJSON() ([]byte, error) { return a.appendJSON(nil), nil }

// UnmarshalJSON reads a string or an array of strings.
func (a *Audience) UnmarshalJSON(b []byte) error {
	s := string(b)
	if err := jsonx.Valid(s); err != nil {
		return fmt.Errorf("%w: aud: %v", signet.ErrMalformed, err)
	}
	v, err := decodeAudience(s)
	if err != nil {
		return err
	}
	*a = v
	return nil
}

func (a Audience) appendJSON(b []byte) []byte {
	if len(a) == 1 {
		return jsonx.AppendString(b, a[0])
	}
	b = append(b, '[')
	for i, v := range a {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonx.AppendString(b, v)
	}
	return append(b, ']')
}

func decodeAudience(raw string) (Audience, error) {
	if raw[0] == '"' {
		s, err := jsonx.Unquote(raw)
		if err != nil {
			return nil, fmt.Errorf("%w: aud: %v", signet.ErrMalformed, err)
		}
		return Audience{s}, nil
	}
	if raw[0] != '[' {
		return nil, fmt.Errorf("%w: aud must be a string or an array of strings", signet.ErrMalformed)
	}
	out := Audience{}
	e := jsonx.NewElements(raw)
	for e.Next(raw) {
		s, ok := e.String(raw)
		if !ok {
			return nil, fmt.Errorf("%w: aud must be a string or an array of strings", signet.ErrMalformed)
		}
		out = append(out, s)
	}
	if err := e.Err(); err != nil {
		return nil, fmt.Errorf("%w: aud: %v", signet.ErrMalformed, err)
	}
	return out, nil
}

// appendJSON writes c as a JSON object in field order, omitting zero values:
// the same bytes encoding/json produces for Claims, without reflection.
func (c *Claims) appendJSON(b []byte) []byte {
	b = append(b, '{')
	start := len(b)
	sep := func(b []byte) []byte {
		if len(b) > start {
			b = append(b, ',')
		}
		return b
	}
	if c.Issuer != "" {
		b = append(sep(b), `"iss":`...)
		b = jsonx.AppendString(b, c.Issuer)
	}
	if c.Subject != "" {
		b = append(sep(b), `"sub":`...)
		b = jsonx.AppendString(b, c.Subject)
	}
	if len(c.Audience) > 0 {
		b = append(sep(b), `"aud":`...)
		b = c.Audience.appendJSON(b)
	}
	if c.ExpiresAt != 0 {
		b = append(sep(b), `"exp":`...)
		b = itoa.Append(b, int64(c.ExpiresAt))
	}
	if c.NotBefore != 0 {
		b = append(sep(b), `"nbf":`...)
		b = itoa.Append(b, int64(c.NotBefore))
	}
	if c.IssuedAt != 0 {
		b = append(sep(b), `"iat":`...)
		b = itoa.Append(b, int64(c.IssuedAt))
	}
	if c.ID != "" {
		b = append(sep(b), `"jti":`...)
		b = jsonx.AppendString(b, c.ID)
	}
	return append(b, '}')
}

// Which registered claims a payload carried (the bits claimcheck reads).
const (
	hasExp = claimcheck.HasExp
	hasNbf = claimcheck.HasNbf
	hasIat = claimcheck.HasIat
	hasAud = claimcheck.HasAud
)

// instants are exp, nbf and iat as a payload wrote them, fractions
// included; Claims holds them in whole seconds (NumericDate). exact says
// one of them had a fraction: the checks then read these.
type instants struct {
	exact         bool
	exp, nbf, iat claimcheck.Time
}

// decodeClaims reads the registered claims out of a JSON object payload,
// validating the whole object strictly (no duplicate names at any depth,
// no member that differs from a registered claim name only in case).
// Strings are substrings of payload.
func decodeClaims(payload string, c *Claims) (has uint8, err error) {
	var at instants
	has, _, err = readClaims(payload, c, &at, false, nil, nil)
	return has, err
}

// readClaims is decodeClaims, which also fills at; with fold, a payload
// that leaves the plain shape is also held to the fold rule
// (jsonx.NewMembersFold), and folded says so.
//
// A member whose name is a registered claim's in other case ("AUD",
// "Exp": claimcheck.Variant) is refused in every path, not only where the
// caller's type would fold it: encoding/json would hand its value to the
// caller's field for that claim, unchecked, and a Map or a raw payload
// can end up there later.
//
// For a claims type with a Plan, take (non-nil) decodes the plan's members
// as the reader meets them (claimsjson.Taker.Unregistered), and rest
// records those a payload of the plain shape holds, which the plain-shape
// read passes over (decodeClaimsFast); claimsjson.Finish takes the T from
// either. Other types pass neither.
func readClaims(payload string, c *Claims, at *instants, fold bool, rest *claimsjson.Rest, take *claimsjson.Taker) (has uint8, folded bool, err error) {
	// The plain shape has no nested object: a payload with a brace past
	// its first byte (in a string, at worst) goes straight to the general
	// path rather than being read twice.
	if len(payload) > 0 && strings.IndexByte(payload[1:], '{') < 0 {
		if has, ok := decodeClaimsFast(payload, c, rest); ok {
			return has, false, nil
		}
	}
	*c = Claims{}
	if rest != nil {
		// Not the plain shape after all: take decodes the plan's members
		// as they come, and what the plain-shape read recorded is dropped.
		rest.Reset()
	}
	var m jsonx.Members
	m.Reset(payload, fold)
	for m.NextName(payload) {
		name := m.Name(payload)
		if !claimcheck.Registered(name) {
			if err := take.Unregistered(&m, payload, name); err != nil {
				return 0, false, err
			}
			continue
		}
		if !m.ScanValue(payload) {
			break
		}
		ok := true
		switch name {
		case "iss":
			c.Issuer, ok = m.String(payload)
		case "sub":
			c.Subject, ok = m.String(payload)
		case "jti":
			c.ID, ok = m.String(payload)
		case "aud":
			has |= hasAud
			if v, isString := m.String(payload); isString {
				c.Audience = Audience{v} // the common single audience, unquoted as scanned
			} else {
				c.Audience, err = decodeAudience(m.Value(payload))
			}
		case "exp":
			has |= hasExp
			c.ExpiresAt, at.exp, ok = claimDate(&m, payload, false, &at.exact)
		case "nbf":
			has |= hasNbf
			c.NotBefore, at.nbf, ok = claimDate(&m, payload, true, &at.exact)
		case "iat":
			has |= hasIat
			c.IssuedAt, at.iat, ok = claimDate(&m, payload, true, &at.exact)
		}
		if !ok {
			return 0, false, claimTypeError(name)
		}
		if err != nil {
			return 0, false, err
		}
	}
	if err := m.Err(); err != nil {
		if fold && errors.Is(err, jsonx.ErrDuplicate) {
			return 0, false, fmt.Errorf("%w: claims: member names repeated or differing only in case", signet.ErrMalformed)
		}
		return 0, false, fmt.Errorf("%w: claims: %v", signet.ErrMalformed, err)
	}
	return has, fold, nil
}

// claimDate reads a date claim: as a NumericDate, whole seconds rounded
// down, or up when up (nbf, iat), and exactly, fraction included; a
// fraction sets *exact.
func claimDate(m *jsonx.Members, payload string, up bool, exact *bool) (NumericDate, claimcheck.Time, bool) {
	if v, ok := m.Integer(); ok {
		return NumericDate(v), claimcheck.Seconds(v), claimcheck.ValidNumericDate(v)
	}
	raw := m.Value(payload)
	if !strings.ContainsAny(raw, ".eE") { // an integer, or not a number at all
		v, ok := m.Int(payload)
		return NumericDate(v), claimcheck.Seconds(v), ok && claimcheck.ValidNumericDate(v)
	}
	t, ok := claimcheck.ParseNumericDate(raw)
	if !ok {
		return 0, claimcheck.Time{}, false
	}
	d := NumericDate(t.Sec)
	if t.Nsec != 0 {
		*exact = true
		if up {
			d++ // at most 2^53: t is at most that
		}
	}
	return d, t, true
}

// claimTypeError reports a registered claim of the wrong JSON type; name
// is one of the constant claim names.
func claimTypeError(name string) error {
	want := "a string"
	switch name {
	case "exp", "nbf", "iat":
		want = "a number of seconds from 0 to 2^53"
	}
	return fmt.Errorf("%w: claim %s must be %s", signet.ErrMalformed, strings.Clone(name), want)
}

// Map is the untyped form of a claims set: Verify[jwt.Map] returns every
// claim, with numbers as json.Number so that no precision is lost.
type Map map[string]any
