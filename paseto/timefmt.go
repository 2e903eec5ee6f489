package paseto

import (
	"time"
)

// parseTime reads an RFC 3339 date-time (§5.6) as PASETO requires: an
// uppercase T between date and time, Z or a ±hh:mm offset, an optional
// fraction of up to nine digits. It is strict and does not allocate.
func parseTime(s string) (time.Time, bool) {
	// YYYY-MM-DDTHH:MM:SS
	if len(s) < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
		return time.Time{}, false
	}
	y1, ok1 := dig2(s[0], s[1])
	y2, ok2 := dig2(s[2], s[3])
	month, ok3 := dig2(s[5], s[6])
	day, ok4 := dig2(s[8], s[9])
	hour, ok5 := dig2(s[11], s[12])
	minute, ok6 := dig2(s[14], s[15])
	sec, ok7 := dig2(s[17], s[18])
	year := y1*100 + y2
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7) || month < 1 || month > 12 || day < 1 ||
		day > daysIn(month, year) || hour > 23 || minute > 59 || sec > 60 {
		return time.Time{}, false
	}
	if sec == 60 { // a leap second is the last second of its minute
		sec = 59
	}
	rest := s[19:]
	nsec := 0
	if rest[0] == '.' {
		n := 1
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		if n == 1 {
			return time.Time{}, false
		}
		// Nanoseconds: digits past the ninth are read and dropped.
		frac, _ := digits(rest[1:min(n, 10)])
		for i := min(n, 10) - 1; i < 9; i++ {
			frac *= 10
		}
		nsec, rest = frac, rest[n:]
	}
	offset := 0
	switch {
	case rest == "Z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		oh, ok1 := dig2(rest[1], rest[2])
		om, ok2 := dig2(rest[4], rest[5])
		if !ok1 || !ok2 || oh > 23 || om > 59 {
			return time.Time{}, false
		}
		offset = oh*3600 + om*60
		if rest[0] == '-' {
			offset = -offset
		}
	default:
		return time.Time{}, false
	}
	unix := daysFromCivil(year, month, day)*86400 + int64(hour*3600+minute*60+sec) - int64(offset)
	return time.Unix(unix, int64(nsec)).UTC(), true
}

// dig2 reads two ASCII digits.
func dig2(a, b byte) (int, bool) {
	x, y := a-'0', b-'0'
	return int(x)*10 + int(y), x <= 9 && y <= 9
}

func digits(s string) (int, bool) {
	v := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysFromCivil is the number of days from 1970-01-01 to the given date of
// the proleptic Gregorian calendar (H. Hinnant's algorithm).
func daysFromCivil(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 { // floor division (only year 0000 in Jan–Feb)
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}

// civilFromDays is daysFromCivil's inverse: the date of a day counted
// from 1970-01-01 (H. Hinnant's algorithm, in proleptic Gregorian).
func civilFromDays(days int64) (y, m, d int) {
	z := days + 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := int(z - era*146097)                             // [0, 146096]
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365 // [0, 399]
	doy := doe - (365*yoe + yoe/4 - yoe/100)               // [0, 365]
	mp := (5*doy + 2) / 153                                // [0, 11], from March
	d = doy - (153*mp+2)/5 + 1
	m = mp + 3
	if m > 12 {
		m -= 12
	}
	y = yoe + int(era)*400
	if m <= 2 {
		y++
	}
	return y, m, d
}

// appendTime writes t as RFC 3339 in UTC, whole seconds (PASETO: writers
// SHOULD omit fractional seconds, Z is recommended). The date comes from
// t's Unix seconds by civilFromDays, without time.Time's calendar
// methods.
func appendTime(b []byte, t time.Time) []byte {
	secs := t.Unix()
	days := secs / 86400
	if secs%86400 < 0 {
		days--
	}
	sod := int(secs - days*86400)
	y, mo, d := civilFromDays(days)
	if y < 0 || y > 9999 {
		return t.UTC().Truncate(time.Second).AppendFormat(b, time.RFC3339)
	}
	h, mi, s := sod/3600, sod/60%60, sod%60
	return append(b,
		byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-',
		byte('0'+mo/10), byte('0'+mo%10), '-', byte('0'+d/10), byte('0'+d%10), 'T',
		byte('0'+h/10), byte('0'+h%10), ':', byte('0'+mi/10), byte('0'+mi%10), ':',
		byte('0'+s/10), byte('0'+s%10), 'Z')
}
