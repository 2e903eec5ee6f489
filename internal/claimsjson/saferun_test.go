package claimsjson

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// plainPrefix is what safeRun and safeCopy compute, a byte at a time.
func plainPrefix(s string) int {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf && htmlSafe[s[i]] {
		i++
	}
	return i
}

// TestSafeRunCopy: the word-at-a-time scans stop at the first byte
// appendString must look at, wherever it falls in a word, and safeCopy
// copies exactly the bytes before it.
func TestSafeRunCopy(t *testing.T) {
	stops := []string{"\"", "\\", "<", ">", "&", "\x00", "\x1f", "\x7f", "é", "\u2028", "\xff"}
	for n := 0; n <= 40; n++ {
		for _, stop := range append(stops, "") {
			for at := 0; at <= n; at++ {
				s := strings.Repeat("a", at) + stop + strings.Repeat("z", n-at)
				want := plainPrefix(s)
				if got := safeRun(s, 0); got > want || got < want-want%8 {
					t.Fatalf("safeRun(%q) = %d, want %d or the word before it", s, got, want)
				}
				dst := make([]byte, len(s)+16)
				got := safeCopy(dst, s)
				if got != want || string(dst[:got]) != s[:want] {
					t.Fatalf("safeCopy(%q) = %d %q, want %d", s, got, dst[:got], want)
				}
			}
		}
	}
}

func BenchmarkSafeCopy(b *testing.B) {
	s := strings.Repeat("m", 1700)
	dst := make([]byte, len(s))
	for b.Loop() {
		safeCopy(dst, s)
	}
}
