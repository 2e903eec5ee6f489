package claimcheck

// ParseNumericDate reads a JWT NumericDate (RFC 7519 §2: seconds since
// the epoch, where a fraction is allowed) from raw, the text of a JSON
// number, exactly: the fraction is kept to the nanosecond, as PASETO's
// reader keeps an RFC 3339 fraction, and digits past the ninth are
// dropped, as there. Exponents are read in decimal, never through a
// float, so 1.0000000009e9 is 1000000000.9 seconds exactly. ok is false
// when raw is not a JSON number, or its value lies outside [0,
// MaxNumericDate] (-0 is 0).
//
// The work is linear in len(raw), whatever the exponent says.
func ParseNumericDate(raw string) (t Time, ok bool) {
	i := 0
	neg := i < len(raw) && raw[i] == '-'
	if neg {
		i++
	}
	// The digits of the mantissa, without the point: ds = int part + fraction part.
	intStart := i
	for i < len(raw) && raw[i] >= '0' && raw[i] <= '9' {
		i++
	}
	intDigits := raw[intStart:i]
	if intDigits == "" || len(intDigits) > 1 && intDigits[0] == '0' {
		return Time{}, false
	}
	var fracDigits string
	if i < len(raw) && raw[i] == '.' {
		i++
		s := i
		for i < len(raw) && raw[i] >= '0' && raw[i] <= '9' {
			i++
		}
		if i == s {
			return Time{}, false
		}
		fracDigits = raw[s:i]
	}
	exp := 0
	if i < len(raw) && (raw[i] == 'e' || raw[i] == 'E') {
		i++
		eneg := false
		if i < len(raw) && (raw[i] == '+' || raw[i] == '-') {
			eneg = raw[i] == '-'
			i++
		}
		// Saturate past len(raw) + 20: the point (digits before it,
		// counted from the first significant one, at most len(raw) apart
		// from exp) is then past 16 or below -20, and the value too large
		// or under a nanosecond, as it is for the exponent written. A
		// fixed bound would not do: a mantissa longer than it moves the
		// point back into range.
		s := i
		for ; i < len(raw) && raw[i] >= '0' && raw[i] <= '9'; i++ {
			if exp <= len(raw)+20 {
				exp = exp*10 + int(raw[i]-'0')
			}
		}
		if i == s {
			return Time{}, false
		}
		if eneg {
			exp = -exp
		}
	}
	if i != len(raw) {
		return Time{}, false
	}
	// The value is 0.d1d2d3… × 10^point over the significant digits.
	digit := func(k int) byte { // k-th digit of int part + fraction part
		if k < len(intDigits) {
			return intDigits[k]
		}
		return fracDigits[k-len(intDigits)]
	}
	n := len(intDigits) + len(fracDigits)
	first := 0
	for first < n && digit(first) == '0' {
		first++
	}
	if first == n {
		return Time{}, true // zero, signed or not
	}
	if neg {
		return Time{}, false
	}
	point := len(intDigits) + exp - first // digits before the point, from first
	if point > 16 {
		return Time{}, false // at least 10^16 > 2^53
	}
	var sec int64
	var nsec int32
	for k := 0; k < point; k++ {
		d := int64(0)
		if first+k < n {
			d = int64(digit(first+k) - '0')
		}
		sec = sec*10 + d
	}
	for k := 0; k < 9; k++ {
		d := int32(0)
		if j := first + point + k; j >= first && j < n {
			d = int32(digit(j) - '0')
		}
		nsec = nsec*10 + d
	}
	if sec > MaxNumericDate || sec == MaxNumericDate && (nsec != 0 || hasDigitFrom(first+point+9, n, digit)) {
		return Time{}, false
	}
	return Time{Sec: sec, Nsec: nsec}, true
}

// hasDigitFrom reports whether a non-zero digit lies at or after k.
func hasDigitFrom(k, n int, digit func(int) byte) bool {
	for k = max(k, 0); k < n; k++ {
		if digit(k) != '0' {
			return true
		}
	}
	return false
}
