package jwt

import "github.com/signet-go/signet/internal/jsonx"

// decodeClaimsFast reads the common shape of a claims set in one pass: a
// JSON object with no white space, plain ASCII member names and string
// values (no escapes), integers, true, false, null, and arrays of plain
// strings, at most 16 members. It accepts only text the general scanner
// accepts, with the same result; on anything else (or any error) it
// returns ok = false and decodeClaims takes the general path, which also
// words the errors.
func decodeClaimsFast(s string, c *Claims) (has uint8, ok bool) {
	if len(s) < 2 || s[0] != '{' || s[len(s)-1] != '}' {
		return 0, false
	}
	if len(s) == 2 {
		return 0, true
	}
	var names [16]string // never empty: an empty name takes the general path
	n := 0
	i := 1
	for {
		// "name":
		if i >= len(s) || s[i] != '"' {
			return 0, false
		}
		j := jsonx.PlainRun(s, i+1)
		if j+1 >= len(s) || s[j] != '"' || s[j+1] != ':' || j == i+1 {
			return 0, false
		}
		name := s[i+1 : j]
		if n == len(names) {
			return 0, false
		}
		for _, prev := range names[:n] {
			if len(prev) == len(name) && prev[0] == name[0] && prev == name {
				return 0, false
			}
		}
		names[n] = name
		n++
		i = j + 2
		if i >= len(s) {
			return 0, false
		}
		// value
		start := i
		numOK := false
		var num int64
		switch ch := s[i]; {
		case ch == '"':
			j := jsonx.PlainRun(s, i+1)
			if j >= len(s) || s[j] != '"' {
				return 0, false
			}
			i = j + 1
		case ch == '-' || (ch >= '0' && ch <= '9'):
			if i, num, numOK = jsonx.ScanInt(s, i); i < 0 {
				return 0, false
			}
		case ch == '[':
			i++
			if i < len(s) && s[i] == ']' {
				i++
				break
			}
			for {
				if i >= len(s) || s[i] != '"' {
					return 0, false
				}
				j := jsonx.PlainRun(s, i+1)
				if j+1 >= len(s) || s[j] != '"' {
					return 0, false
				}
				i = j + 1
				if s[i] == ']' {
					i++
					break
				}
				if s[i] != ',' {
					return 0, false
				}
				i++
			}
		case ch == 't' && len(s)-i >= 4 && s[i:i+4] == "true":
			i += 4
		case ch == 'f' && len(s)-i >= 5 && s[i:i+5] == "false":
			i += 5
		case ch == 'n' && len(s)-i >= 4 && s[i:i+4] == "null":
			i += 4
		default:
			return 0, false
		}
		v := s[start:i]
		if len(name) == 3 && !setClaim(c, &has, name, v, num, numOK) {
			return 0, false
		}
		if i >= len(s) {
			return 0, false
		}
		if s[i] == '}' {
			return has, i == len(s)-1
		}
		if s[i] != ',' {
			return 0, false
		}
		i++
	}
}

// setClaim stores a registered claim from its raw value, which the caller
// scanned as a plain string, an integer, a literal or an array of plain
// strings; false when the type is wrong (decodeClaims then explains).
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
		if !numOK {
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
	}
	return true
}
