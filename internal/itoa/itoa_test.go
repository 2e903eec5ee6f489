package itoa

import (
	"math"
	"strconv"
	"testing"
)

func check(t *testing.T, v int64) {
	t.Helper()
	got, want := Append([]byte("x"), v), strconv.AppendInt([]byte("x"), v, 10)
	if string(got) != string(want) {
		t.Fatalf("Append(%d) = %q, want %q", v, got, want)
	}
}

func TestAppend(t *testing.T) {
	for _, v := range []int64{0, 1, -1, 9, 10, 99, 100, 999999999, 1e9, 1e9 + 1, 1234567890, 1795000000,
		9999999999, 1e10, 1e10 + 1, -1e9, -1234567890, math.MaxInt64, math.MinInt64} {
		check(t, v)
	}
	for lo := int64(0); lo < 1e8; lo += 9973 {
		check(t, 1e9+lo)
	}
	for hi := int64(10); hi < 100; hi++ {
		check(t, hi*1e8+99999999)
		check(t, hi*1e8)
	}
}

// digits8 against an odometer, for every one of its 10⁸ inputs.
func TestDigits8All(t *testing.T) {
	d := [8]byte{'0', '0', '0', '0', '0', '0', '0', '0'}
	for v := uint64(0); v < 1e8; v++ {
		want := uint64(d[0]) | uint64(d[1])<<8 | uint64(d[2])<<16 | uint64(d[3])<<24 |
			uint64(d[4])<<32 | uint64(d[5])<<40 | uint64(d[6])<<48 | uint64(d[7])<<56
		if got := digits8(v); got != want {
			t.Fatalf("digits8(%d) = %#x, want %#x", v, got, want)
		}
		for i := 7; i >= 0; i-- { // count up
			if d[i]++; d[i] <= '9' {
				break
			}
			d[i] = '0'
		}
	}
}

func FuzzAppend(f *testing.F) {
	for _, v := range []int64{0, -1, 1e9, 1795000000, 9999999999, math.MinInt64} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v int64) { check(t, v) })
}

func BenchmarkAppend(b *testing.B) {
	var buf [32]byte
	b.Run("itoa", func(b *testing.B) {
		for b.Loop() {
			_ = Append(buf[:0], 1795000000)
		}
	})
	b.Run("strconv", func(b *testing.B) {
		for b.Loop() {
			_ = strconv.AppendInt(buf[:0], 1795000000, 10)
		}
	})
}
