package clip

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	if got := String("kid-1"); got != "kid-1" {
		t.Fatal(got)
	}
	long := strings.Repeat("é", 40) // 80 bytes
	got := String(long)
	if !utf8.ValidString(got) || len(got) > Max+len("…") || !strings.HasSuffix(got, "…") {
		t.Fatalf("%q", got)
	}
}

func ExampleString() {
	fmt.Println(String(strings.Repeat("a", 70)))
	// Output: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…
}
