package claimcheck

import (
	"math/big"
	"strings"
	"testing"
)

func TestParseNumericDate(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want Time
		ok   bool
	}{
		{"0", Time{}, true},
		{"-0", Time{}, true},
		{"-0.0e5", Time{}, true},
		{"100", Time{Sec: 100}, true},
		{"100.9", Time{Sec: 100, Nsec: 900_000_000}, true},
		{"100.5", Time{Sec: 100, Nsec: 500_000_000}, true},
		{"1.009e2", Time{Sec: 100, Nsec: 900_000_000}, true},
		{"1009E-1", Time{Sec: 100, Nsec: 900_000_000}, true},
		{"1.0000000009e9", Time{Sec: 1_000_000_000, Nsec: 900_000_000}, true},
		{"1800000000.123456789", Time{Sec: 1_800_000_000, Nsec: 123_456_789}, true},
		{"1800000000.1234567899", Time{Sec: 1_800_000_000, Nsec: 123_456_789}, true}, // past the ninth digit: dropped
		{"0.000000001", Time{Nsec: 1}, true},
		{"0.0000000009", Time{}, true},
		{"1e-400000000", Time{}, true},
		{"0e999999999999", Time{}, true},
		{"1e2", Time{Sec: 100}, true},
		{"1E+2", Time{Sec: 100}, true},
		{"9007199254740992", Time{Sec: 1 << 53}, true},
		{"9007199254740992.0", Time{Sec: 1 << 53}, true},
		{"9007199254740992.0000000001", Time{}, false},
		{"9007199254740992.5", Time{}, false},
		{"9007199254740993", Time{}, false},
		{"1e16", Time{}, false},
		{"1e300", Time{}, false},
		{"1e999999999999", Time{}, false},
		{"-1", Time{}, false},
		{"-0.5", Time{}, false},
		{"-1e-9", Time{}, false},
		{"", Time{}, false},
		{"-", Time{}, false},
		{"01", Time{}, false},
		{"1.", Time{}, false},
		{".5", Time{}, false},
		{"1e", Time{}, false},
		{"1e+", Time{}, false},
		{"1.5x", Time{}, false},
		{"+1", Time{}, false},
		{`"1"`, Time{}, false},
		{"true", Time{}, false},
		// Exponents longer than the point's reach, with a mantissa of more
		// than 2^20 digits (a token over a megabyte): the value is 1.9e-
		// 10485758414, zero, and 1.9e+10485758414, too large; it is never
		// read as 1.9e9, as an exponent cut short at 2^20 would have it.
		{"19" + strings.Repeat("0", 1<<20+8) + "e-10485760000", Time{}, true},
		{"0." + strings.Repeat("0", 1<<20-10) + "19e10485760000", Time{}, false},
	} {
		got, ok := ParseNumericDate(c.raw)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("ParseNumericDate(%.40q) = %+v, %v; want %+v, %v", c.raw, got, ok, c.want, c.ok)
		}
	}
}

// FuzzParseNumericDate holds ParseNumericDate to exact rational
// arithmetic: the seconds and nanoseconds are floor(v) and floor of the
// fraction times 1e9, for every number in range.
func FuzzParseNumericDate(f *testing.F) {
	for _, s := range []string{"0", "100.9", "1.009e2", "9007199254740992", "1e-9", "123.456e-2", "-0", "1e16"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got, ok := ParseNumericDate(raw)
		if len(raw) > 64 {
			return
		}
		if !jsonNumber(raw) {
			if ok {
				t.Fatalf("%q: accepted, not a JSON number", raw)
			}
			return
		}
		if e := strings.IndexAny(raw, "eE"); e >= 0 && len(strings.TrimLeft(strings.TrimLeft(raw[e+1:], "+-"), "0")) > 3 {
			return // exponents past 999: the table covers them; big.Rat would take long
		}
		r, isRat := new(big.Rat).SetString(raw)
		if !isRat {
			t.Fatalf("%q: big.Rat refuses a JSON number", raw)
		}
		inRange := r.Sign() >= 0 && r.Cmp(new(big.Rat).SetInt64(MaxNumericDate)) <= 0
		if ok != inRange {
			t.Fatalf("%q: ok %v, in range %v", raw, ok, inRange)
		}
		if !ok {
			return
		}
		ns := new(big.Int).Quo(new(big.Int).Mul(r.Num(), big.NewInt(1e9)), r.Denom()) // floor for v >= 0
		want := Time{Sec: new(big.Int).Quo(ns, big.NewInt(1e9)).Int64(), Nsec: int32(new(big.Int).Rem(ns, big.NewInt(1e9)).Int64())}
		if got != want {
			t.Fatalf("%q: %+v, want %+v", raw, got, want)
		}
	})
}

// jsonNumber: RFC 8259's number grammar, which strconv and big.Rat
// exceed (hex, underscores, Inf, a leading plus or point).
func jsonNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i, n = i+1, n+1
		}
		return n
	}
	start := i
	if n := digits(); n == 0 || n > 1 && s[start] == '0' {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}
