package sf

import (
	"encoding/base64"
	"math"
	"strconv"
	"unicode/utf8"
)

// SerializeList returns the canonical serialization of l (RFC 9651
// §4.1.1). An empty List serializes to "", meaning the field is omitted.
func SerializeList(l List) (string, error) {
	var b []byte
	for i, m := range l {
		if i > 0 {
			b = append(b, ", "...)
		}
		var err error
		if b, err = appendMember(b, m); err != nil {
			return "", err
		}
	}
	return string(b), nil
}

// SerializeDictionary returns the canonical serialization of d (RFC 9651
// §4.1.2). An empty Dictionary serializes to "", meaning the field is
// omitted. Duplicate keys are refused.
func SerializeDictionary(d Dictionary) (string, error) {
	var b []byte
	seen := make(map[string]bool, len(d))
	for i, kv := range d {
		if seen[kv.Key] {
			return "", invalid("duplicate dictionary key %q", kv.Key)
		}
		seen[kv.Key] = true
		if i > 0 {
			b = append(b, ", "...)
		}
		var err error
		if b, err = appendKey(b, kv.Key); err != nil {
			return "", err
		}
		if it, ok := kv.Value.(Item); ok && it.Value == true {
			b, err = appendParams(b, it.Params)
		} else {
			b = append(b, '=')
			b, err = appendMember(b, kv.Value)
		}
		if err != nil {
			return "", err
		}
	}
	return string(b), nil
}

// SerializeItem returns the canonical serialization of it (RFC 9651
// §4.1.3).
func SerializeItem(it Item) (string, error) {
	b, err := appendItem(nil, it)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

func appendMember(b []byte, m Member) ([]byte, error) {
	switch m := m.(type) {
	case Item:
		return appendItem(b, m)
	case InnerList:
		return appendInnerList(b, m)
	}
	return nil, invalid("member of type %T", m)
}

// appendInnerList implements §4.1.1.1.
func appendInnerList(b []byte, l InnerList) ([]byte, error) {
	b = append(b, '(')
	for i, it := range l.Items {
		if i > 0 {
			b = append(b, ' ')
		}
		var err error
		if b, err = appendItem(b, it); err != nil {
			return nil, err
		}
	}
	b = append(b, ')')
	return appendParams(b, l.Params)
}

func appendItem(b []byte, it Item) ([]byte, error) {
	b, err := appendBareItem(b, it.Value)
	if err != nil {
		return nil, err
	}
	return appendParams(b, it.Params)
}

// appendParams implements §4.1.1.2. Duplicate keys are refused.
func appendParams(b []byte, params Params) ([]byte, error) {
	var seen map[string]bool
	if len(params) > 1 {
		seen = make(map[string]bool, len(params))
	}
	for _, kv := range params {
		if seen != nil {
			if seen[kv.Key] {
				return nil, invalid("duplicate parameter key %q", kv.Key)
			}
			seen[kv.Key] = true
		}
		b = append(b, ';')
		var err error
		if b, err = appendKey(b, kv.Key); err != nil {
			return nil, err
		}
		if kv.Value != true {
			b = append(b, '=')
			if b, err = appendBareItem(b, kv.Value); err != nil {
				return nil, err
			}
		}
	}
	return b, nil
}

// appendKey implements §4.1.1.3.
func appendKey(b []byte, key string) ([]byte, error) {
	if key == "" || !isLCAlpha(key[0]) && key[0] != '*' {
		return nil, invalid("key %q must start with a-z or '*'", key)
	}
	for i := 1; i < len(key); i++ {
		if !isKeyChar(key[i]) {
			return nil, invalid("key %q has invalid byte %q", key, key[i])
		}
	}
	return append(b, key...), nil
}

// appendBareItem implements §4.1.3.1.
func appendBareItem(b []byte, v BareItem) ([]byte, error) {
	switch v := v.(type) {
	case int64:
		if v < -maxInteger || v > maxInteger {
			return nil, invalid("integer %d out of range", v)
		}
		return strconv.AppendInt(b, v, 10), nil
	case Decimal:
		if v < -maxDecimal || v > maxDecimal {
			return nil, invalid("decimal %d/1000 out of range", int64(v))
		}
		return appendDecimal(b, v), nil
	case string:
		return appendString(b, v)
	case Token:
		return appendToken(b, v)
	case []byte:
		b = append(b, ':')
		b = base64.StdEncoding.AppendEncode(b, v)
		return append(b, ':'), nil
	case bool:
		if v {
			return append(b, "?1"...), nil
		}
		return append(b, "?0"...), nil
	case Date:
		if v < -maxInteger || v > maxInteger {
			return nil, invalid("date %d out of range", int64(v))
		}
		b = append(b, '@')
		return strconv.AppendInt(b, int64(v), 10), nil
	case DisplayString:
		return appendDisplayString(b, v)
	}
	return nil, invalid("bare item of type %T", v)
}

// appendDecimal implements §4.1.5 for a value already at thousandths
// precision: at least one and at most three fraction digits, trailing
// zeros dropped.
func appendDecimal(b []byte, d Decimal) []byte {
	u := uint64(d)
	if d < 0 {
		b = append(b, '-')
		u = -u
	}
	b = strconv.AppendUint(b, u/1000, 10)
	b = append(b, '.')
	frac := u % 1000
	digits := 3
	for digits > 1 && frac%10 == 0 {
		frac /= 10
		digits--
	}
	s := strconv.FormatUint(frac, 10)
	for len(s) < digits {
		s = "0" + s
	}
	return append(b, s...)
}

// DecimalOf converts f to a Decimal, rounding to the nearest thousandth
// with ties to even as RFC 9651 §4.1.5 requires. It fails with
// [ErrInvalid] if f is not finite or has more than 12 integer digits
// after rounding.
func DecimalOf(f float64) (Decimal, error) {
	r := math.RoundToEven(f * 1000)
	if math.IsNaN(r) || r < -maxDecimal || r > maxDecimal {
		return 0, invalid("decimal %v out of range", f)
	}
	return Decimal(r), nil
}

// appendString implements §4.1.6.
func appendString(b []byte, s string) ([]byte, error) {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e {
			return nil, invalid("string has byte %#02x outside printable ASCII", c)
		}
		if c == '"' || c == '\\' {
			b = append(b, '\\')
		}
		b = append(b, c)
	}
	return append(b, '"'), nil
}

// appendToken implements §4.1.7.
func appendToken(b []byte, t Token) ([]byte, error) {
	if t == "" || !isAlpha(t[0]) && t[0] != '*' {
		return nil, invalid("token %q must start with a letter or '*'", string(t))
	}
	for i := 1; i < len(t); i++ {
		if !isTokenChar(t[i]) {
			return nil, invalid("token %q has invalid byte %q", string(t), t[i])
		}
	}
	return append(b, t...), nil
}

// appendDisplayString implements §4.1.11.
func appendDisplayString(b []byte, s DisplayString) ([]byte, error) {
	if !utf8.ValidString(string(s)) {
		return nil, invalid("display string is not valid UTF-8")
	}
	const hex = "0123456789abcdef"
	b = append(b, '%', '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' || c == '"' || c < 0x20 || c > 0x7e {
			b = append(b, '%', hex[c>>4], hex[c&0xf])
		} else {
			b = append(b, c)
		}
	}
	return append(b, '"'), nil
}
