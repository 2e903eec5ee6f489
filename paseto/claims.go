package paseto

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"
	"unsafe"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/claimcheck"
	"github.com/signet-go/signet/internal/claimsjson"
	"github.com/signet-go/signet/internal/jsonx"
)

// Claims are PASETO's registered claims (PASETO Claims.md). Use Claims as
// is, or embed it in a struct of your own to add claims:
//
//	type MyClaims struct {
//		paseto.Claims
//		Role string `json:"role"`
//	}
//
// Times are written as RFC 3339 in UTC, whole seconds; zero values are
// left out. Unlike JWT, aud is a single string.
type Claims struct {
	Issuer    string    `json:"iss,omitempty"`
	Subject   string    `json:"sub,omitempty"`
	Audience  string    `json:"aud,omitempty"`
	ExpiresAt time.Time `json:"exp,omitzero"`
	NotBefore time.Time `json:"nbf,omitzero"`
	IssuedAt  time.Time `json:"iat,omitzero"`
	ID        string    `json:"jti,omitempty"`
}

// registered lets the package reach Claims embedded in a caller's struct.
func (c *Claims) registered() *Claims { return c } // nil for a nil embedded *Claims

type registeredClaims interface{ registered() *Claims }

// Map is the untyped form of a claims set; numbers come back as
// json.Number.
type Map map[string]any

// Which registered claims a payload carried (the bits claimcheck reads).
const (
	hasExp = claimcheck.HasExp
	hasNbf = claimcheck.HasNbf
	hasIat = claimcheck.HasIat
	hasAud = claimcheck.HasAud
)

// appendJSON writes c as a JSON object in field order, omitting zero
// values, without reflection.
func (c *Claims) appendJSON(b []byte) []byte {
	b = append(b, '{')
	start := len(b)
	str := func(b []byte, name, v string) []byte {
		if v == "" {
			return b
		}
		if len(b) > start {
			b = append(b, ',')
		}
		b = append(b, name...)
		return jsonx.AppendString(b, v)
	}
	tm := func(b []byte, name string, t time.Time) []byte {
		if t.IsZero() {
			return b
		}
		if len(b) > start {
			b = append(b, ',')
		}
		b = append(b, name...)
		b = append(b, '"')
		b = appendTime(b, t)
		return append(b, '"')
	}
	b = str(b, `"iss":`, c.Issuer)
	b = str(b, `"sub":`, c.Subject)
	b = str(b, `"aud":`, c.Audience)
	b = tm(b, `"exp":`, c.ExpiresAt)
	b = tm(b, `"nbf":`, c.NotBefore)
	b = tm(b, `"iat":`, c.IssuedAt)
	b = str(b, `"jti":`, c.ID)
	return append(b, '}')
}

// normalize makes the times of c what they will be on the wire: UTC,
// whole seconds.
func (c *Claims) normalize() {
	for _, t := range []*time.Time{&c.ExpiresAt, &c.NotBefore, &c.IssuedAt} {
		if !t.IsZero() {
			*t = t.UTC().Truncate(time.Second)
		}
	}
}

// decodeClaims reads the registered claims of a payload, which must be a
// JSON object without repeated member names at any depth (PASETO requires
// unique keys), and without a member that differs from a registered claim
// name only in case. Strings are views of payload.
func decodeClaims(payload string, c *Claims) (has uint8, err error) {
	has, _, err = readClaims(payload, c, false, nil, nil)
	return has, err
}

// readClaims is decodeClaims; with fold, a payload that leaves the plain
// shape is also held to the fold rule (jsonx.NewMembersFold), and folded
// says so.
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
func readClaims(payload string, c *Claims, fold bool, rest *claimsjson.Rest, take *claimsjson.Taker) (has uint8, folded bool, err error) {
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
		case "aud":
			has |= hasAud
			c.Audience, ok = m.String(payload)
		case "jti":
			c.ID, ok = m.String(payload)
		case "exp":
			has |= hasExp
			c.ExpiresAt, ok = claimTime(&m, payload)
		case "nbf":
			has |= hasNbf
			c.NotBefore, ok = claimTime(&m, payload)
		case "iat":
			has |= hasIat
			c.IssuedAt, ok = claimTime(&m, payload)
		}
		if !ok {
			return 0, false, claimTypeError(name)
		}
	}
	if err := m.Err(); err != nil {
		if fold && errors.Is(err, jsonx.ErrDuplicate) {
			return 0, false, fmt.Errorf("%w: payload: member names repeated or differing only in case", signet.ErrMalformed)
		}
		return 0, false, fmt.Errorf("%w: payload: %v", signet.ErrMalformed, err)
	}
	return has, fold, nil
}

// decodeClaimsFast reads a payload of the plain shape (jsonx.Flat) in one
// pass; ok = false sends decodeClaims down the general path (which words
// the errors). A non-nil rest gets the other members, and is done when ok.
func decodeClaimsFast(s string, c *Claims, rest *claimsjson.Rest) (has uint8, ok bool) {
	f := jsonx.NewFlat(s)
	for f.Next(s) {
		name := f.Name(s)
		if len(name) != 3 {
			if rest != nil {
				rest.Add(s, name, f.Value(s))
			}
			continue
		}
		v, isStr := f.String(s)
		switch name {
		case "iss":
			c.Issuer = v
		case "sub":
			c.Subject = v
		case "aud":
			has |= hasAud
			c.Audience = v
		case "jti":
			c.ID = v
		case "exp":
			has |= hasExp
			c.ExpiresAt, isStr = parseTimeOK(v, isStr)
		case "nbf":
			has |= hasNbf
			c.NotBefore, isStr = parseTimeOK(v, isStr)
		case "iat":
			has |= hasIat
			c.IssuedAt, isStr = parseTimeOK(v, isStr)
		default:
			if _, v := claimcheck.Variant(name); v {
				return 0, false // a registered claim's name in other case
			}
			if rest != nil {
				rest.Add(s, name, f.Value(s))
			}
			continue
		}
		if !isStr {
			return 0, false
		}
	}
	if !f.Plain() {
		return 0, false
	}
	if rest != nil {
		rest.Done()
	}
	return has, true
}

func parseTimeOK(v string, ok bool) (time.Time, bool) {
	if !ok {
		return time.Time{}, false
	}
	return parseTime(v)
}

func claimTime(m *jsonx.Members, payload string) (time.Time, bool) {
	s, ok := m.String(payload)
	if !ok {
		return time.Time{}, false
	}
	return parseTime(s)
}

func claimTypeError(name string) error {
	want := "a string"
	switch name {
	case "exp", "nbf", "iat":
		want = "an RFC 3339 date-time string"
	}
	return fmt.Errorf("%w: claim %s must be %s", signet.ErrMalformed, strings.Clone(name), want)
}

// encodeClaims writes claims as the payload of a new token, with the issuing
// defaults of o: iat = now and exp = now + lifetime when absent (unless
// o.NoExpiry). The result is one the reader takes back: a time that
// cannot be written as PASETO reads it (a year past 9999) is refused.
func encodeClaims[T any](scratch []byte, claims T, o *Options) ([]byte, error) {
	io := o.issue()
	if c, ok := any(&claims).(*Claims); ok {
		return c.encode(scratch, &io)
	}
	if t := reflect.TypeFor[T](); t.Kind() == reflect.Struct {
		// Not through a pointer: that is the caller's value.
		if plan, can := splitter.Lookup(t); plan != nil {
			return encodePlan(scratch, plan, claims, &io)
		} else if can {
			return encodeEmbedded(scratch, claims, &io)
		}
	}
	return encodeAny(claims, &io)
}

// splitter decodes and encodes types embedding Claims in two parts (see
// claimsjson.Filter): the registered claims with this package's codec,
// the rest with encoding/json.
var splitter = claimsjson.NewFilter(reflect.TypeFor[Claims](), "iss", "sub", "aud", "exp", "nbf", "iat", "jti")

// encodeEmbedded writes a T that embeds Claims by value: the registered
// claims with the issuing defaults by Claims' encoder, the other fields by
// encoding/json, joined. claims is a copy; the caller's value is not
// touched.
func encodeEmbedded[T any](scratch []byte, claims T, o *claimcheck.Issue) ([]byte, error) {
	rc := any(&claims).(registeredClaims).registered()
	reg := *rc
	*rc = Claims{}
	rest, err := claimsjson.Object(claims)
	if err != nil {
		return nil, err
	}
	b, err := reg.encode(scratch, o)
	if err != nil {
		return nil, err
	}
	return claimsjson.Join(b, rest), nil
}

// encodePlan writes a T that embeds Claims by value and has a
// claimsjson.Plan: the registered claims with the issuing defaults by
// Claims' encoder, the other fields by the plan, without reflection. The
// bytes are encodeEmbedded's.
func encodePlan[T any](scratch []byte, plan *claimsjson.Plan, claims T, o *claimcheck.Issue) ([]byte, error) {
	v := unsafe.Pointer(&claims)
	b, err := (*Claims)(plan.Registered(v)).encode(scratch, o)
	if err != nil {
		return nil, err
	}
	return plan.Append(b, v)
}

// encode writes c with the issuing defaults, without reflection.
func (c *Claims) encode(scratch []byte, o *claimcheck.Issue) ([]byte, error) {
	cc := *c
	defaults(&cc, o)
	cc.normalize()
	if err := cc.checkTimes(); err != nil {
		return nil, err
	}
	return cc.appendJSON(scratch), nil
}

// checkTimes refuses a time the reader would not read back (parseTime
// takes four-digit years).
func (c *Claims) checkTimes() error {
	switch {
	case !validTime(c.ExpiresAt):
		return timeError("exp", c.ExpiresAt)
	case !validTime(c.NotBefore):
		return timeError("nbf", c.NotBefore)
	case !validTime(c.IssuedAt):
		return timeError("iat", c.IssuedAt)
	}
	return nil
}

// validTime: absent, or a time the reader takes.
func validTime(t time.Time) bool { return t.IsZero() || claimcheck.ValidRFC3339(t) }

func timeError(name string, t time.Time) error {
	return fmt.Errorf("%w: claim %s: %v is outside the years 0000 to 9999 of RFC 3339", signet.ErrMalformed, name, t.UTC())
}

// encodeAny writes claims other than Claims with encoding/json, then adds
// iat and exp to the JSON object when it lacks them. The defaults go into
// the text, never into the caller's value (which a pointer, or an embedded
// *Claims, would share with other goroutines).
func encodeAny[T any](claims T, o *claimcheck.Issue) ([]byte, error) {
	// Times go out in UTC, whole seconds, when the Claims are part of our
	// copy (T embeds them by value, which its type says); through a
	// pointer they are the caller's, and left alone.
	if embedsByValue(reflect.TypeFor[T]()) {
		any(&claims).(registeredClaims).registered().normalize()
	}
	payload, err := claimsjson.Object(claims)
	if err != nil {
		return nil, err
	}
	var c Claims
	has, err := decodeClaims(string(payload), &c)
	if err != nil {
		return nil, err
	}
	needExp := has&hasExp == 0 && !o.NoExpiry
	if has&hasIat != 0 && !needExp {
		return payload, nil // nothing to fill in: the clock is not read
	}
	now := o.Clock()
	add := func(name string, t time.Time) error {
		if !claimcheck.ValidRFC3339(t) {
			return timeError(name, t)
		}
		payload = appendTime(append(claimsjson.OpenMember(payload, name), '"'), t)
		payload = append(payload, '"', '}')
		return nil
	}
	if has&hasIat == 0 {
		if err := add("iat", now); err != nil {
			return nil, err
		}
	}
	if needExp {
		if err := add("exp", o.Expiry(now)); err != nil {
			return nil, err
		}
	}
	return payload, nil
}

// embedsByValue reports whether t is a struct whose registered method
// (the one *T has) is Claims' reached through fields alone: Claims is
// embedded, at the shallowest depth, along a path without a pointer. Its
// Claims are then part of every T value. False means "not known to be":
// the times are then written as they are, which the reader also takes.
func embedsByValue(t reflect.Type) bool {
	if t.Kind() != reflect.Struct {
		return false
	}
	f, ok := t.FieldByName("Claims")
	if !ok || !f.Anonymous || f.Type != reflect.TypeFor[Claims]() {
		return false // absent, ambiguous, not embedded, a *Claims or another Claims
	}
	for i := range f.Index[:len(f.Index)-1] {
		if t.FieldByIndex(f.Index[:i+1]).Type.Kind() != reflect.Struct {
			return false // through an embedded pointer: the caller's value
		}
	}
	return true
}

// decodeInto gives the caller the verified claims as a T; when T embeds
// Claims (or points to such a type), those are set to the validated ones.
func decodeInto[T any](payload string, c *Claims, folded bool) (T, error) {
	out, err := claimsjson.Into[T, Map](payload, splitter, folded)
	if err != nil {
		return out, err
	}
	r, ok := any(&out).(registeredClaims)
	if !ok {
		r, ok = any(out).(registeredClaims)
	}
	if ok {
		if rc := r.registered(); rc != nil {
			*rc = *c
		}
	}
	return out, nil
}
