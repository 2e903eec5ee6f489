package jwt

import (
	"github.com/signet-go/signet/internal/claimcheck"
	"github.com/signet-go/signet/internal/claimsjson"
	"github.com/signet-go/signet/internal/jsonx"
)

// decodeClaimsFast reads a claims set of the plain shape (jsonx.Flat) in one
// pass; ok = false sends decodeClaims down the general path, which also
// words the errors. A non-nil rest gets the other members, and is done
// when ok.
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
		num, numOK := f.Int()
		if !setClaim(c, &has, name, f.Value(s), num, numOK) {
			return 0, false
		}
		if rest != nil && !claimcheck.Registered(name) {
			rest.Add(s, name, f.Value(s))
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

// setClaim stores a registered claim from its raw value, which Flat
// scanned as a plain string, an integer, a literal or an array of plain
// strings; false when the type is wrong or the name is a registered
// claim's in other case (decodeClaims then explains).
func setClaim(c *Claims, has *uint8, name, v string, num int64, numOK bool) bool {
	switch name {
	case "iss", "sub", "jti":
		if v[0] != '"' {
			return false
		}
		str := v[1 : len(v)-1]
		switch name {
		case "iss":
			c.Issuer = str
		case "sub":
			c.Subject = str
		default:
			c.ID = str
		}
	case "aud":
		*has |= hasAud
		switch v[0] {
		case '"':
			c.Audience = Audience{v[1 : len(v)-1]}
		case '[':
			aud, err := decodeAudience(v)
			if err != nil {
				return false
			}
			c.Audience = aud
		default:
			return false
		}
	case "exp", "nbf", "iat":
		if !numOK || !claimcheck.ValidNumericDate(num) {
			return false
		}
		d := NumericDate(num)
		switch name {
		case "exp":
			*has |= hasExp
			c.ExpiresAt = d
		case "nbf":
			*has |= hasNbf
			c.NotBefore = d
		default:
			*has |= hasIat
			c.IssuedAt = d
		}
	default:
		// A registered claim's name in other case: decodeClaims refuses it.
		if _, v := claimcheck.Variant(name); v {
			return false
		}
	}
	return true
}
