package jsonx

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestValid(t *testing.T) {
	good := []string{
		`{}`, `[]`, `0`, `-0.5e+10`, `"a\u00e9\ud83d\ude00\n"`, ` { "a" : [ 1 , true , false , null , {"b":"c"} ] } `,
		`{"a":1,"A":2}`, `{"a":{"a":{"a":1}}}`, `{"x":{"k":1},"y":{"k":2}}`, `"é"`,
	}
	bad := map[string]error{
		``:                    ErrSyntax,
		`{`:                   ErrSyntax,
		`{"a":1,}`:            ErrSyntax,
		`[1,]`:                ErrSyntax,
		`{"a" 1}`:             ErrSyntax,
		`01`:                  ErrSyntax,
		`1.`:                  ErrSyntax,
		`.5`:                  ErrSyntax,
		`+1`:                  ErrSyntax,
		`1e`:                  ErrSyntax,
		`"\x01"`:              ErrSyntax,
		`"\q"`:                ErrSyntax,
		`"\u12"`:              ErrSyntax,
		`"\ud800"`:            ErrSyntax,
		`"\udc00"`:            ErrSyntax,
		`"\ud800\u0041"`:      ErrSyntax,
		"\"\xff\"":            ErrSyntax,
		`tru`:                 ErrSyntax,
		`{} {}`:               ErrSyntax,
		`{"a":1,"a":2}`:       ErrDuplicate,
		`{"a":1,"\u0061":2}`:  ErrDuplicate,
		`[{"b":1,"b":1}]`:     ErrDuplicate,
		`{"x":{"y":1,"y":2}}`: ErrDuplicate,
		strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1): ErrDepth,
	}
	for _, s := range good {
		if err := Valid(s); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
	for s, want := range bad {
		if err := Valid(s); !errors.Is(err, want) {
			t.Errorf("%q: got %v want %v", s, err, want)
		}
	}
}

func TestManyNames(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < 100; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"k` + string(rune('a'+i%26)) + string(rune('a'+i/26)) + `":1`)
	}
	ok := b.String() + "}"
	if err := Valid(ok); err != nil {
		t.Fatal(err)
	}
	dup := b.String() + `,"kaa":2}`
	if err := Valid(dup); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("duplicate after the small set: %v", err)
	}
	dupEsc := b.String() + `,"k\u0061a":2}`
	if err := Valid(dupEsc); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("escaped duplicate after the small set: %v", err)
	}
}

func TestMembers(t *testing.T) {
	s := ` {"a":"x\"y","b\n":[1,{"c":2}],"d":-1.5e2,"e":"plain"} `
	m := NewMembers(s)
	var names []string
	for m.Next(s) {
		names = append(names, m.Name(s))
		switch m.Name(s) {
		case "a":
			if v, ok := m.String(s); !ok || v != `x"y` {
				t.Fatalf("a = %q", v)
			}
		case "d":
			if v, ok := m.Int(s); !ok || v != -150 {
				t.Fatalf("d = %d", v)
			}
			if _, ok := m.String(s); ok {
				t.Fatal("number read as string")
			}
		case "e":
			if v, ok := m.String(s); !ok || v != "plain" {
				t.Fatalf("e = %q", v)
			}
		}
	}
	if m.Err() != nil || strings.Join(names, ",") != "a,b\n,d,e" {
		t.Fatalf("%q %v", names, m.Err())
	}
	for _, bad := range []string{`[]`, `{"a":1} x`, `{"a":1,"a":1}`, `{"a":}`} {
		m := NewMembers(bad)
		for m.Next(bad) {
		}
		if m.Err() == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestInt(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "-0": 0, "12": 12, "-7": -7, "1.9": 1, "-1.9": -1, "1e3": 1000, "9007199254740992": 1 << 53} {
		if got, err := Int(in); err != nil || got != want {
			t.Errorf("%s: %d %v", in, got, err)
		}
	}
	for _, in := range []string{"", "x", "1e300", "9007199254740993", "-9007199254740993", "1.", "\"1\""} {
		if _, err := Int(in); err == nil {
			t.Errorf("%s accepted", in)
		}
	}
}

func TestAppendString(t *testing.T) {
	for _, s := range []string{"", "plain", "q\"b\\", "\n\r\t\x00\x1f", "é日本😀", "bad\xffutf8", "<&>\u2028",
		"https://issuer.example.com", "exactly8", "sixteen bytes ok", "plain until the end\"", "\"then plain text"} {
		checkAppendString(t, s)
	}
}

// checkAppendString checks AppendString(dst, s) with and without room in
// dst: encoding/json reads back s, and dst's bytes are kept.
func checkAppendString(t *testing.T, s string) {
	t.Helper()
	ref := string(AppendString(nil, s))
	for _, room := range []int{0, len(s) + 1, len(s) + 2, len(s) + 64} {
		dst := append(make([]byte, 0, 3+room), "pre"...)
		if got := string(AppendString(dst, s)); got != "pre"+ref {
			t.Fatalf("AppendString(%q) with room %d = %q, want %q", s, room, got, "pre"+ref)
		}
	}
	var back string
	if err := json.Unmarshal([]byte(ref), &back); err != nil {
		t.Fatalf("%q → %s: %v", s, ref, err)
	}
	if want := eachInvalidByte(s); back != want {
		t.Fatalf("%q → %s → %q, want %q", s, ref, back, want)
	}
	if err := Valid(ref); err != nil {
		t.Fatalf("%s: %v", ref, err)
	}
}

// eachInvalidByte is s with each byte that is not part of valid UTF-8
// replaced by U+FFFD, as encoding/json writes it.
func eachInvalidByte(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteString("\ufffd")
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"https://issuer.example.com", "plain until the end\"", "\x00abcdefghij", "é日本😀 and more"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkAppendString(t, s) })
}

// FuzzValid checks the scanner against encoding/json, the stricter rules
// aside: every text Valid accepts is valid JSON and UTF-8 for encoding/json;
// what Valid refuses, it refuses for a stated reason.
func FuzzValid(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,2,{"b":null}]}`, `"\ud83d\ude00"`, `{"a":1,"a":2}`, `[1e5,-0.1,true]`, "\"\xff\"", `{"\u0061":1,"a":2}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		err := Valid(s)
		if err == nil {
			if !json.Valid([]byte(s)) {
				t.Fatalf("accepted invalid JSON %q", s)
			}
			if !utf8.ValidString(s) {
				t.Fatalf("accepted invalid UTF-8 %q", s)
			}
			return
		}
		if !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrDuplicate) && !errors.Is(err, ErrDepth) {
			t.Fatalf("unexpected error %v", err)
		}
		if errors.Is(err, ErrSyntax) && json.Valid([]byte(s)) && utf8.ValidString(s) && !strings.Contains(s, `\u`) {
			t.Fatalf("refused valid JSON %q", s)
		}
	})
}

func TestPlainRun(t *testing.T) {
	for s, want := range map[string]int{
		"": 0, "abc": 3, `abc"`: 3, "abcdefghij\"": 10, "abcdefgh\\": 8, "ab\x01": 2, "abcdefg\x80h": 7,
		"\"abcdefgh": 0, "abcdefghijklmnop": 16, "abcdefghijklmno\x1f": 15, "aé": 1, "abcd!~ \x7f": 8,
	} {
		if got := PlainRun(s, 0); got != want {
			t.Errorf("PlainRun(%q) = %d, want %d", s, got, want)
		}
	}
	for c := 0; c < 256; c++ {
		s := "abcdefgh" + string([]byte{byte(c)}) + "abcdefgh"
		want := 17
		if !plain[c] {
			want = 8
		}
		if got := PlainRun(s, 0); got != want {
			t.Errorf("byte %#x: %d want %d", c, got, want)
		}
		s2 := string([]byte{'a', 'b', byte(c), 'd', 'e', 'f', 'g', 'h', 'i'})
		want = 9
		if !plain[c] {
			want = 2
		}
		if got := PlainRun(s2, 0); got != want {
			t.Errorf("byte %#x at 2: %d want %d", c, got, want)
		}
	}
}

// plainRunRef is PlainRun a byte at a time.
func plainRunRef(s string, i int) int {
	for i < len(s) && plain[s[i]] {
		i++
	}
	return i
}

// PlainRun from every start, with a stop of every kind before the start
// (where the last eight-byte load overlaps it) and after it.
func TestPlainRunFrom(t *testing.T) {
	for _, stop := range []byte{0, 0x1f, '"', '\\', 0x80, 0xff} {
		for n := 0; n <= 20; n++ {
			for at := -1; at < n; at++ {
				b := []byte(strings.Repeat(" ", n)) // the space: one below a borrow's reach
				if at >= 0 {
					b[at] = stop
				}
				s := string(b)
				for i := 0; i <= n; i++ {
					if got, want := PlainRun(s, i), plainRunRef(s, i); got != want {
						t.Fatalf("PlainRun(%q, %d) = %d, want %d", s, i, got, want)
					}
				}
			}
		}
	}
}

func FuzzPlainRun(f *testing.F) {
	f.Add("abcdefghijkl\x01 mnop", 13)
	f.Add("\"\x00 abcdefgh", 2)
	f.Fuzz(func(t *testing.T, s string, i int) {
		if i < 0 || i > len(s) {
			return
		}
		if got, want := PlainRun(s, i), plainRunRef(s, i); got != want {
			t.Fatalf("PlainRun(%q, %d) = %d, want %d", s, i, got, want)
		}
	})
}

func TestScanInt(t *testing.T) {
	cases := []struct {
		in    string
		end   int
		v     int64
		exact bool
	}{
		{"0", 1, 0, true}, {"-0", 2, 0, true}, {"7,", 1, 7, true}, {"1800003600}", 10, 1800003600, true},
		{"12345678", 8, 12345678, true}, {"123456789012345", 15, 123456789012345, true},
		{"9007199254740992", 16, 1 << 53, true}, {"9007199254740993", 16, 0, false},
		{"12345678901234567890", 20, 0, false}, {"-1234567890", 11, -1234567890, true},
		{"1.5", -1, 0, false}, {"1e3", -1, 0, false}, {"01", 1, 0, true}, {"-", -1, 0, false},
		{"x", -1, 0, false}, {"123456780x", 9, 123456780, true}, {"12345678:", 8, 12345678, true},
	}
	for _, c := range cases {
		end, v, exact := ScanInt(c.in, 0)
		if end != c.end || (exact && c.exact && v != c.v) || exact != c.exact {
			t.Errorf("%q: %d %d %v, want %d %d %v", c.in, end, v, exact, c.end, c.v, c.exact)
		}
	}
}

func TestElements(t *testing.T) {
	s := ` ["a", "b\u0021", 3, {"x":[1]}] `
	e := NewElements(s)
	var got []string
	for e.Next(s) {
		if v, ok := e.String(s); ok {
			got = append(got, v)
		} else {
			got = append(got, e.Value(s))
		}
	}
	if e.Err() != nil || strings.Join(got, "|") != `a|b!|3|{"x":[1]}` {
		t.Fatalf("%q %v", got, e.Err())
	}
	for _, bad := range []string{`[1,]`, `[1] x`, `{}`, `[1 2]`, `[`} {
		e := NewElements(bad)
		for e.Next(bad) {
		}
		if e.Err() == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestFold(t *testing.T) {
	for _, s := range []string{`{"sub":1,"SUB":2}`, `{"sub":1,"ſub":2}`, `{"k":1,"\u212a":2}`, `{"x":[{"Role":1,"role":2}]}`, `{"a\u0062":1,"AB":2}`} {
		if err := ValidFold(s); !errors.Is(err, ErrDuplicate) {
			t.Errorf("%s: %v", s, err)
		}
		if err := Valid(s); err != nil {
			t.Errorf("Valid(%s): %v", s, err)
		}
	}
	for _, s := range []string{`{"sub":1,"sud":2}`, `{"a":{"a":1}}`, `{"é":1,"e":2}`} {
		if err := ValidFold(s); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
}

// TestManyEscapedNames: escaped names go into the map like the others, so
// an object of tens of thousands of them is checked in linear time (a
// quadratic check would take minutes here, not milliseconds).
func TestManyEscapedNames(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < 30000; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"\u0061%d":0`, i)
	}
	b.WriteString(`,"\u00610":1}`)
	if err := Valid(b.String()); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("got %v", err)
	}
}
