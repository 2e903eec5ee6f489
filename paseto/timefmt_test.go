package paseto

import (
	"testing"
	"time"
)

func TestParseTime(t *testing.T) {
	good := map[string]time.Time{
		"2022-01-01T00:00:00+00:00":      time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC),
		"2022-01-01T00:00:00Z":           time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC),
		"2039-01-01T00:00:00+02:30":      time.Date(2038, 12, 31, 21, 30, 0, 0, time.UTC),
		"2000-02-29T23:59:59.5-01:00":    time.Date(2000, 3, 1, 0, 59, 59, 500_000_000, time.UTC),
		"1969-12-31T23:59:59.123456789Z": time.Date(1969, 12, 31, 23, 59, 59, 123456789, time.UTC),
		"2016-12-31T23:59:60Z":           time.Date(2016, 12, 31, 23, 59, 59, 0, time.UTC),
	}
	for s, want := range good {
		got, ok := parseTime(s)
		if !ok || !got.Equal(want) {
			t.Errorf("%s: %v %v, want %v", s, got, ok, want)
		}
		if std, err := time.Parse(time.RFC3339Nano, s); err == nil && !std.Equal(got) {
			t.Errorf("%s: differs from time.Parse: %v", s, std)
		}
	}
	for _, s := range []string{
		"", "2022-01-01", "2022-01-01t00:00:00Z", "2022-01-01T00:00:00z", "2022-01-01 00:00:00Z",
		"2022-13-01T00:00:00Z", "2022-02-29T00:00:00Z", "2022-01-01T24:00:00Z", "2022-01-01T00:60:00Z",
		"2022-01-01T00:00:00", "2022-01-01T00:00:00+0000", "2022-01-01T00:00:00.Z",
		"2022-01-01T00:00:00+24:00", "+022-01-01T00:00:00Z", "2022-01-01T00:00:00ZZ",
	} {
		if _, ok := parseTime(s); ok {
			t.Errorf("%q accepted", s)
		}
	}
	b := appendTime(nil, time.Date(2026, 11, 22, 1, 2, 3, 999, time.FixedZone("x", 3600)))
	if string(b) != "2026-11-22T00:02:03Z" {
		t.Errorf("appendTime: %s", b)
	}
}

// appendTime against time.Time's own RFC 3339 formatting, on every day of
// years 0000 to 9999 (each at a different second of the day), around the
// epoch, and outside the four-digit years (the fallback).
func TestAppendTimeEveryDay(t *testing.T) {
	first := time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	last := time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC).Unix()
	var got, want []byte
	check := func(secs int64) {
		tm := time.Unix(secs, 123456789)
		got = appendTime(got[:0], tm)
		want = tm.UTC().Truncate(time.Second).AppendFormat(want[:0], time.RFC3339)
		if string(got) != string(want) {
			t.Fatalf("appendTime(%d) = %s, want %s", secs, got, want)
		}
	}
	for day := int64(0); first+day*86400 <= last; day++ {
		check(first + day*86400 + day*7919%86400) // each day once, at a second that moves
	}
	for _, secs := range []int64{first, first - 1, last, last + 1, -1, 0, 1, 86399, 86400, -86400, -86401, 951782400, 4107542400} {
		check(secs)
	}
}
