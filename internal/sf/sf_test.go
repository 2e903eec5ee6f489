package sf

import (
	"errors"
	"strings"
	"testing"
)

func TestParseItem(t *testing.T) {
	ok := []struct {
		in   string
		want Item
		out  string // canonical form; "" means in
	}{
		{"42", Item{Value: int64(42)}, ""},
		{"-999999999999999", Item{Value: int64(-999999999999999)}, ""},
		{"1.5", Item{Value: Decimal(1500)}, ""},
		{"-0.025", Item{Value: Decimal(-25)}, ""},
		{"999999999999.999", Item{Value: Decimal(999999999999999)}, ""},
		{"1.500", Item{Value: Decimal(1500)}, "1.5"},
		{"0.0", Item{Value: Decimal(0)}, ""},
		{`"a \"q\" \\"`, Item{Value: `a "q" \`}, ""},
		{"*foo/bar:baz", Item{Value: Token("*foo/bar:baz")}, ""},
		{":AQID:", Item{Value: []byte{1, 2, 3}}, ""},
		{"?0", Item{Value: false}, ""},
		{"@1659578233", Item{Value: Date(1659578233)}, ""},
		{"@-1", Item{Value: Date(-1)}, ""},
		{`%"f%c3%bc %25"`, Item{Value: DisplayString("fü %")}, ""},
		{"  tok;a=1;b;c=?0 ", Item{Token("tok"), Params{{"a", int64(1)}, {"b", true}, {"c", false}}}, "tok;a=1;b;c=?0"},
		{"1;a=1;b=2;a=3", Item{int64(1), Params{{"a", int64(3)}, {"b", int64(2)}}}, "1;a=3;b=2"},
		{"1; *k_-.9=x", Item{int64(1), Params{{"*k_-.9", Token("x")}}}, "1;*k_-.9=x"},
	}
	for _, c := range ok {
		got, err := ParseItem(c.in)
		if err != nil {
			t.Errorf("ParseItem(%q): %v", c.in, err)
			continue
		}
		if !equalValue(got, c.want) {
			t.Errorf("ParseItem(%q) = %#v, want %#v", c.in, got, c.want)
		}
		want := c.out
		if want == "" {
			want = c.in
		}
		if s := got.String(); s != want {
			t.Errorf("ParseItem(%q).String() = %q, want %q", c.in, s, want)
		}
	}
	bad := []string{
		"", " ", "\t1", "1\t", "1 2", "-", "--1", "a b", "1234567890123456",
		"1234567890123.1", "1.", "1.1234", ".5", "1.2.3",
		`"unterminated`, `"bad\n"`, `"\x"`, "\"tab\t\"", "\"ü\"",
		":aGVsbG8:", ":iZ==:", ":a=GV:", ":_-Ah:", ":abc", "?2", "?", "@1.5", "@", "@x",
		`%"F%C3%BC"`, `%"%c3%28"`, `%"x`, `%x`, `%"%2"`, "%\"\x7f\"",
		"1;A=1", "1;1a=1", "1; =1", "1;a =1", "1;a= 1", "1 ;a=1", "(1)", "1,2",
		"ü", "\x00", "tok\x80",
	}
	for _, in := range bad {
		if got, err := ParseItem(in); err == nil {
			t.Errorf("ParseItem(%q) = %#v, want error", in, got)
		} else if !errors.Is(err, ErrSyntax) {
			t.Errorf("ParseItem(%q) error %v does not wrap ErrSyntax", in, err)
		}
	}
}

func TestParseList(t *testing.T) {
	ok := []struct {
		in, out string
		n       int
	}{
		{"", "", 0},
		{"   ", "", 0},
		{"a\t", "a", 1}, // OWS after the last member is discarded (§4.2.1)
		{"a, b", "a, b", 2},
		{"a,b\t,  c", "a, b, c", 3},
		{"(), (a  b );x=1, c", "(), (a b);x=1, c", 3},
		{`("@method" "@path");created=1618884473;keyid="k"`, `("@method" "@path");created=1618884473;keyid="k"`, 1},
	}
	for _, c := range ok {
		l, err := ParseList(c.in)
		if err != nil {
			t.Errorf("ParseList(%q): %v", c.in, err)
			continue
		}
		if len(l) != c.n || l.String() != c.out {
			t.Errorf("ParseList(%q) = %d members %q, want %d %q", c.in, len(l), l.String(), c.n, c.out)
		}
	}
	for _, in := range []string{",", "a,", ",a", "a,,b", "a b", "(a", "(a,b)", "(a\tb)", "(a)b", "a;", "\ta"} {
		if l, err := ParseList(in); !errors.Is(err, ErrSyntax) {
			t.Errorf("ParseList(%q) = %#v, %v; want ErrSyntax", in, l, err)
		}
	}
}

func TestParseDictionary(t *testing.T) {
	d, err := ParseDictionary(`b=1, a, c=(x y);p, b=2;q, *d=?1`)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(d.Keys(), " "); got != "b a c *d" {
		t.Errorf("keys %q", got)
	}
	if got := d.String(); got != "b=2;q, a, c=(x y);p, *d" {
		t.Errorf("String() = %q", got)
	}
	if m, ok := d.Get("c"); !ok || len(m.(InnerList).Items) != 2 {
		t.Errorf("Get(c) = %#v, %v", m, ok)
	}
	if _, ok := d.Get("zz"); ok {
		t.Error("Get(zz) found")
	}
	for _, in := range []string{"a=", "A=1", "a =1", "a= 1", "a=1,", "a=1 b=2", "1=a", "a=(1", "a;b=", "a=1,,b=2"} {
		if d, err := ParseDictionary(in); !errors.Is(err, ErrSyntax) {
			t.Errorf("ParseDictionary(%q) = %#v, %v; want ErrSyntax", in, d, err)
		}
	}
}

func TestMaxLen(t *testing.T) {
	long := strings.Repeat("a", MaxLen+1)
	if _, err := ParseItem(long); !errors.Is(err, ErrTooLong) {
		t.Errorf("ParseItem: %v", err)
	}
	if _, err := ParseList(long); !errors.Is(err, ErrTooLong) {
		t.Errorf("ParseList: %v", err)
	}
	if _, err := ParseDictionary(long); !errors.Is(err, ErrTooLong) {
		t.Errorf("ParseDictionary: %v", err)
	}
	if _, err := ParseItem(long[1:]); err != nil {
		t.Errorf("MaxLen-long token: %v", err)
	}
}

func TestSerialize(t *testing.T) {
	ok := []struct {
		it   Item
		want string
	}{
		{Item{Value: int64(-5)}, "-5"},
		{Item{Value: Decimal(1)}, "0.001"},
		{Item{Value: Decimal(-1230)}, "-1.23"},
		{Item{Value: Decimal(7000)}, "7.0"},
		{Item{Value: ""}, `""`},
		{Item{Value: []byte{}}, "::"},
		{Item{Value: []byte(nil)}, "::"},
		{Item{Value: []byte("hello")}, ":aGVsbG8=:"},
		{Item{Value: true, Params: Params{{"a", true}, {"b", false}}}, "?1;a;b=?0"},
		{Item{Value: Date(0)}, "@0"},
		{Item{Value: DisplayString("\"ü\"\n%")}, `%"%22%c3%bc%22%0a%25"`},
	}
	for _, c := range ok {
		got, err := SerializeItem(c.it)
		if err != nil || got != c.want {
			t.Errorf("SerializeItem(%#v) = %q, %v; want %q", c.it, got, err, c.want)
		}
	}
	bad := []Item{
		{Value: int64(1e15)},
		{Value: int64(-1e15)},
		{Value: Decimal(1e15)},
		{Value: Date(1e15)},
		{Value: "a\nb"},
		{Value: "ü"},
		{Value: Token("")},
		{Value: Token("1a")},
		{Value: Token("a b")},
		{Value: DisplayString("\xff")},
		{Value: 1}, // int, not int64
		{Value: nil},
		{Value: 1.5},
		{Value: true, Params: Params{{"A", true}}},
		{Value: true, Params: Params{{"", true}}},
		{Value: true, Params: Params{{"a", true}, {"a", false}}},
		{Value: true, Params: Params{{"a", int64(1e16)}}},
	}
	for _, it := range bad {
		if s, err := SerializeItem(it); !errors.Is(err, ErrInvalid) {
			t.Errorf("SerializeItem(%#v) = %q, %v; want ErrInvalid", it, s, err)
		}
		if s := it.String(); s != "" {
			t.Errorf("String() = %q for invalid item", s)
		}
	}
	if _, err := SerializeDictionary(Dictionary{{"a", Item{Value: int64(1)}}, {"a", Item{Value: int64(2)}}}); !errors.Is(err, ErrInvalid) {
		t.Errorf("duplicate dictionary key: %v", err)
	}
	if _, err := SerializeDictionary(Dictionary{{"a", nil}}); !errors.Is(err, ErrInvalid) {
		t.Errorf("nil member: %v", err)
	}
	if _, err := SerializeList(List{InnerList{Items: []Item{{Value: "\x00"}}}}); !errors.Is(err, ErrInvalid) {
		t.Errorf("bad inner item: %v", err)
	}
}

func TestDecimalOf(t *testing.T) {
	cases := []struct {
		f    float64
		want Decimal
	}{
		{1.5, 1500}, {0.0005, 0}, {0.0015, 2}, {-0.0025, -2}, {2.0004, 2000}, {999999999999.999, 999999999999999},
	}
	for _, c := range cases {
		if got, err := DecimalOf(c.f); err != nil || got != c.want {
			t.Errorf("DecimalOf(%v) = %v, %v; want %v", c.f, got, err, c.want)
		}
	}
	for _, f := range []float64{1e12, -1e13} {
		if _, err := DecimalOf(f); !errors.Is(err, ErrInvalid) {
			t.Errorf("DecimalOf(%v): %v", f, err)
		}
	}
}

func TestParamsSet(t *testing.T) {
	var p Params
	p.Set("a", int64(1))
	p.Set("b", int64(2))
	p.Set("a", int64(3))
	if v, ok := p.Get("a"); !ok || v != int64(3) || len(p) != 2 {
		t.Errorf("Params = %#v", p)
	}
	if _, ok := p.Get("c"); ok {
		t.Error("Get(c) found")
	}
	var d Dictionary
	d.Set("x", Item{Value: true})
	d.Set("x", Item{Value: int64(1)})
	if d.String() != "x=1" {
		t.Errorf("Dictionary = %q", d.String())
	}
}

// roundTrip checks parse → serialize → parse yields an equal value and
// that the serialization is stable.
func roundTrip(t testing.TB, in string) {
	if it, err := ParseItem(in); err == nil {
		s, err := SerializeItem(it)
		if err != nil {
			t.Fatalf("item %q parsed but does not serialize: %v", in, err)
		}
		it2, err := ParseItem(s)
		if err != nil || !equalValue(it, it2) || it2.String() != s {
			t.Fatalf("item %q -> %q -> %#v, %v", in, s, it2, err)
		}
	}
	if l, err := ParseList(in); err == nil {
		s, err := SerializeList(l)
		if err != nil {
			t.Fatalf("list %q parsed but does not serialize: %v", in, err)
		}
		l2, err := ParseList(s)
		if err != nil || !equalValue(l, l2) || l2.String() != s {
			t.Fatalf("list %q -> %q -> %#v, %v", in, s, l2, err)
		}
	}
	if d, err := ParseDictionary(in); err == nil {
		s, err := SerializeDictionary(d)
		if err != nil {
			t.Fatalf("dictionary %q parsed but does not serialize: %v", in, err)
		}
		d2, err := ParseDictionary(s)
		if err != nil || !equalValue(d, d2) || d2.String() != s {
			t.Fatalf("dictionary %q -> %q -> %#v, %v", in, s, d2, err)
		}
	}
}

var seeds = []string{
	"", "42", "-1.5", `"str \" \\"`, "tok/x:y", ":aGVsbG8=:", "?1", "@1659578233", `%"f%c3%bc"`,
	"a=1, b, c=(x y);p=?0;q", `sig1=("@method" "@authority" "content-digest");created=1618884473;keyid="test-key-rsa-pss"`,
	`sig1=:dGVzdA==:`, `sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:`,
	"(1 2), (), (a;b=c d);e", "1;a;b=?0", "a=1,b=2,a=3", "  x  ", "1.100", "(\"a\" \"b\");x=%\"%22\"",
}

func TestRoundTrip(t *testing.T) {
	for _, s := range seeds {
		roundTrip(t, s)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		roundTrip(t, in)
	})
}
