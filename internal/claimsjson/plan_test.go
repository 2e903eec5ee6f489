package claimsjson

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/jsonx"
)

// testReg stands for a format's registered claims (jwt.Claims,
// paseto.Claims): every field omitted when zero, one with a codec.
type testReg struct {
	Issuer   string  `json:"iss,omitempty"`
	Subject  string  `json:"sub,omitempty"`
	Audience testAud `json:"aud,omitempty"`
	Expires  int64   `json:"exp,omitempty"`
	ID       string  `json:"jti,omitempty"`
}

// testAud has a codec of its own, as jwt.Audience does.
type testAud []string

func (a *testAud) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*a = testAud{s}
		return nil
	}
	return json.Unmarshal(b, (*[]string)(a))
}

var testFilter = NewFilter(reflect.TypeFor[testReg](), "iss", "sub", "aud", "exp", "jti")

type role string

// kitchen holds every kind a Plan codes, with the tag forms it reads.
type kitchen struct {
	S     string            `json:"s"`
	SE    string            `json:"se,omitempty"`
	B     bool              `json:"b"`
	BE    bool              `json:"be,omitempty"`
	I     int               `json:"i"`
	I8    int8              `json:"i8"`
	I16   int16             `json:"i16"`
	I32   int32             `json:"i32"`
	I64   int64             `json:"i64,omitempty"`
	U     uint              `json:"u"`
	U8    uint8             `json:"u8"`
	U16   uint16            `json:"u16"`
	U32   uint32            `json:"u32"`
	U64   uint64            `json:"u64,omitempty"`
	UP    uintptr           `json:"up"`
	F32   float32           `json:"f32"`
	F64   float64           `json:"f64,omitempty"`
	SS    []string          `json:"ss"`
	SI    []int             `json:"si,omitempty"`
	SF    []float64         `json:"sf"`
	SB    []bool            `json:"sb"`
	SU16  []uint16          `json:"su16"`
	SR    []role            `json:"sr"`
	M     map[string]string `json:"m"`
	ME    map[string]string `json:"me,omitempty"`
	Role  role              `json:"role"`
	NoTag string
	HTML  string `json:"a<b&c>"`
	Case  string `json:"Case"`
	Case2 string `json:"case"`
	//lint:ignore SA5008 encoding/json names this field "-": the plan must too
	Dash string `json:"-,"`
	Skip string `json:"-"`
	//lint:ignore SA5008 not a valid tag name: the field's name, for encoding/json and the plan
	Bad  string `json:"x'y"`
	Uni  string `json:"ſtraße"`
	Kel  int    `json:"Kelvin"`
	Opts string `json:",omitempty,unknown"`
	priv string
	testReg
}

// study is the lab's study type.
type study struct {
	UserID   uint     `json:"user_id"`
	Username string   `json:"username"`
	Perms    []string `json:"perms,omitempty"`
	testReg
}

type withTime struct {
	testReg
	At time.Time `json:"at"`
}

type withNumber struct {
	testReg
	N json.Number `json:"n"`
}

type withBytes struct {
	testReg
	B []byte `json:"b"`
}

type withPtr struct {
	testReg
	P *string `json:"p"`
}

type withStruct struct {
	testReg
	In struct{ A int } `json:"in"`
}

type withAny struct {
	testReg
	A any `json:"a"`
}

type withString struct {
	testReg
	N int `json:"n,string"`
}

type withOmitZero struct {
	testReg
	N int `json:"n,omitzero"`
}

type textRole string

func (r textRole) MarshalText() ([]byte, error) { return []byte("r:" + r), nil }

type withText struct {
	testReg
	R textRole `json:"r"`
}

type withTextKey struct {
	testReg
	M map[textRole]string `json:"m"`
}

type withTextElem struct {
	testReg
	R []textRole `json:"r"`
}

type withMapRole struct {
	testReg
	M map[role]string `json:"m"`
}

type tags map[string]string

type withNamedMap struct {
	testReg
	M tags `json:"m"`
}

type withMapInt struct {
	testReg
	M map[string]int `json:"m"`
}

type withArray struct {
	testReg
	A [2]string `json:"a"`
}

type withDup struct {
	testReg
	A string
	B string `json:"A"` // the same name as the field above
}

type marshals struct {
	testReg
	A string `json:"a"`
}

func (marshals) MarshalJSON() ([]byte, error) { return []byte(`{}`), nil }

type embedsOther struct {
	testReg
	kitchenPart
}

type kitchenPart struct{ A string }

type noReg struct {
	A string `json:"a"`
}

type shadow struct {
	testReg
	Iss string `json:"ISS"`
}

// namedReg embeds the registered claims under a tag name: encoding/json
// codes them as a member "reg", so the split's bytes have "reg":{}.
type namedReg struct {
	testReg `json:"reg,omitempty"`
	A       string `json:"a"`
}

// ignoredReg and badTagReg embed them as encoding/json does without a tag.
type ignoredReg struct {
	testReg `json:"-"`
	A       string `json:"a"`
}

type badTagReg struct {
	//lint:ignore SA5008 not a valid tag name: encoding/json embeds the struct all the same
	testReg `json:"x'y"`
	A       string `json:"a"`
}

type badTagShadow struct {
	testReg
	//lint:ignore SA5008 an invalid tag: the JSON name is "Iss", which folds onto iss
	Iss string `json:"x'y"`
}

func TestPlanSupport(t *testing.T) {
	for _, c := range []struct {
		t    reflect.Type
		plan bool
	}{
		{reflect.TypeFor[kitchen](), true},
		{reflect.TypeFor[*kitchen](), true},
		{reflect.TypeFor[study](), true},
		{reflect.TypeFor[withTime](), true},
		{reflect.TypeFor[withNumber](), true},
		{reflect.TypeFor[withBytes](), true},
		{reflect.TypeFor[withPtr](), true},
		{reflect.TypeFor[withStruct](), true},
		{reflect.TypeFor[withAny](), true},
		{reflect.TypeFor[withString](), false},
		{reflect.TypeFor[withOmitZero](), false},
		{reflect.TypeFor[withText](), true},
		{reflect.TypeFor[withTextKey](), true},
		{reflect.TypeFor[withTextElem](), true},
		{reflect.TypeFor[withMapInt](), true},
		{reflect.TypeFor[withMapRole](), true},
		{reflect.TypeFor[withNamedMap](), true},
		{reflect.TypeFor[withArray](), true},
		{reflect.TypeFor[withDup](), true},
		{reflect.TypeFor[marshals](), false},
		{reflect.TypeFor[embedsOther](), true},
		{reflect.TypeFor[noReg](), false},
		{reflect.TypeFor[shadow](), false},
		{reflect.TypeFor[badTagShadow](), false},
		{reflect.TypeFor[namedReg](), false},
		{reflect.TypeFor[*namedReg](), false},
		{reflect.TypeFor[ignoredReg](), true},
		{reflect.TypeFor[badTagReg](), true},
		{reflect.TypeFor[testReg](), false},
		{reflect.TypeFor[map[string]any](), false},
		{reflect.TypeFor[embedsPtr](), false},
		{reflect.TypeFor[embedsShadow](), false},
		{reflect.TypeFor[nested](), true},
		{reflect.TypeFor[*nested](), true},
		{reflect.TypeFor[nestedString](), true},
	} {
		if got := testFilter.Plan(c.t) != nil; got != c.plan {
			t.Errorf("%v: plan %v, want %v", c.t, got, c.plan)
		}
	}
	if testFilter.Can(reflect.TypeFor[badTagShadow]()) {
		t.Error("Can takes a field whose name (the field's, the tag being invalid) folds onto a registered claim")
	}
}

// restOf fills a Rest as the formats' readers do, when payload has the
// plain shape.
func restOf(payload string) *Rest {
	var r Rest
	f := jsonx.NewFlat(payload)
	for f.Next(payload) {
		switch n := f.Name(payload); n {
		case "iss", "sub", "aud", "exp", "jti":
		default:
			r.Add(payload, n, f.Value(payload))
		}
	}
	if !f.Plain() {
		return nil
	}
	r.Done()
	return &r
}

// takeInto decodes payload into a new T with pl as the formats' claims
// readers and verifiers do (jwt's readClaims and verifyPlan) in the
// general path: the top-level members walked with the fold rule
// (jsonx.Members), each one that is not a registered claim handed to
// Take, then Finish. ok is false when the payload goes to Into; on error
// the T is zero, as the formats return it.
func takeInto[T any](pl *Plan, payload string, reg *testReg) (out T, ok bool, err error) {
	take := NewTaker(pl, &out)
	var m jsonx.Members
	m.Reset(payload, true)
	for m.NextName(payload) {
		if name := m.Name(payload); !slices.Contains(pl.reg, name) {
			taken, err := take.Take(&m, payload, name)
			if err != nil {
				var zero T
				return zero, true, err
			}
			if taken {
				continue
			}
		}
		m.ScanValue(payload)
	}
	if err := m.Err(); err != nil {
		var zero T
		return zero, true, fmt.Errorf("%w: claims: %v", signet.ErrMalformed, err)
	}
	return finish(&take, payload, nil, true, reg, &out)
}

// restInto is takeInto for a payload the formats' readers read in the
// plain shape (jsonx.Flat): Finish decodes the members rest holds (see
// restOf); folded says the reader applied the fold rule.
func restInto[T any](pl *Plan, payload string, rest *Rest, folded bool, reg *testReg) (out T, ok bool, err error) {
	take := NewTaker(pl, &out)
	return finish(&take, payload, rest, folded, reg, &out)
}

// finish is Finish, with the zero T on error or fallback.
func finish[T any](take *Taker, payload string, rest *Rest, folded bool, reg *testReg, out *T) (T, bool, error) {
	ok, err := Finish(take, payload, rest, folded, reg, out)
	if !ok || err != nil {
		var zero T
		return zero, ok, err
	}
	return *out, true, nil
}

// checkDecode decodes payload into a T with the Plan (through Take and,
// for a payload of the plain shape, from a Rest, folded or not) and with
// encoding/json (Into's path, with CheckFold), and requires the same
// value or an error from both. It returns how many comparisons it made
// (none when the payload is not a valid object, or folds onto a
// registered claim).
func checkDecode[T any](t *testing.T, payload string) (n int) {
	t.Helper()
	if len(payload) > MaxSplit || jsonx.Valid(payload) != nil || !strings.HasPrefix(strings.TrimLeft(payload, " \t\r\n"), "{") {
		return 0
	}
	pl := PlanFor[T](testFilter)
	if pl == nil {
		t.Fatalf("%v has no plan", reflect.TypeFor[T]())
	}
	want, werr := Into[T, map[string]any](payload, testFilter, false)
	compare := func(how string, got T, ok bool, err error) {
		t.Helper()
		if !ok {
			// A member folds onto a registered claim: Into decides.
			if err != nil {
				t.Fatalf("%s (%s): fallback with an error: %v", payload, how, err)
			}
			return
		}
		n++
		if (err == nil) != (werr == nil) {
			t.Fatalf("%s (%s): plan error %v, encoding/json error %v", payload, how, err, werr)
		}
		if err != nil {
			if !errors.Is(err, signet.ErrMalformed) {
				t.Fatalf("%s (%s): error %v is not ErrMalformed", payload, how, err)
			}
			return
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s (%s):\nplan          %+v\nencoding/json %+v", payload, how, got, want)
		}
	}
	got, ok, err := takeInto[T](pl, payload, &testReg{})
	compare("Take", got, ok, err)
	if rest := restOf(payload); rest != nil {
		for _, folded := range []bool{false, true} {
			if folded && jsonx.ValidFold(payload) != nil {
				continue // the caller's scan would have refused it
			}
			got, ok, err := restInto[T](pl, payload, rest, folded, &testReg{})
			compare(fmt.Sprintf("Rest, folded %v", folded), got, ok, err)
		}
	}
	return n
}

// decodeCases are payloads for the decode differential tests (and the
// fuzz seeds).
var decodeCases = []string{
	`{}`,
	`{"s":"a","b":true,"i":-5,"u":7,"f32":1.5,"ss":["x","y"],"m":{"k":"v"}}`,
	`{"iss":"me","sub":"you","aud":["a","b"],"exp":12,"jti":"j","s":"x"}`,
	`{"s":null,"b":null,"i":null,"ss":null,"m":null,"sf":null}`,
	`{"ss":[],"si":[],"m":{}}`,
	`{"ss":["a",null,"b"],"m":{"a":null,"b":"c"},"sf":[1,null,2.5e3]}`,
	`{"s":"\u00e9\ud83d\ude00 \\ \" \/ \b\f\n\r\t \u0000 \u2028"}`,
	`{"s":"é😀"}`,
	`{"S":"upper","B":true,"I":1}`,
	`{"CASE":"c","Case":"exact"}`,
	`{"CASE":"fold"}`,
	`{"case":"lower"}`,
	`{"STRASSE":"x","ſtraße":"y"}`,
	`{"STRAßE":"fold"}`,
	`{"kelvin":1}`,
	`{"Kelvin":2}`,
	"{\"\u212aelvin\":3}",
	`{"a<b&c>":"h","-":"dash","x'y":"no","Bad":"yes","NoTag":"n","Skip":"s","-,":"d","priv":"p"}`,
	`{"s":1}`,
	`{"s":true}`,
	`{"s":["a"]}`,
	`{"s":{}}`,
	`{"b":"true"}`,
	`{"b":0}`,
	`{"i":1.0}`,
	`{"i":1e2}`,
	`{"i":-0}`,
	`{"u":-0}`,
	`{"u":-1}`,
	`{"i8":127,"i16":-32768,"i32":2147483647,"i64":-9223372036854775808}`,
	`{"i8":128}`,
	`{"i8":-129}`,
	`{"i16":32768}`,
	`{"i32":-2147483649}`,
	`{"i64":9223372036854775808}`,
	`{"u8":255,"u16":65535,"u32":4294967295,"u64":18446744073709551615,"up":1}`,
	`{"u8":256}`,
	`{"u64":18446744073709551616}`,
	`{"i":123456789012345678901234567890}`,
	`{"f32":3.4028235e38}`,
	`{"f32":3.5e38}`,
	`{"f32":1e-50}`,
	`{"f64":1.7976931348623157e308}`,
	`{"f64":1e309}`,
	`{"f64":-0.0,"f32":-0}`,
	`{"f64":0.1,"sf":[1e-7,123456789e20]}`,
	`{"f64":1e-400}`,
	`{"i":"1"}`,
	`{"ss":"a"}`,
	`{"ss":[1]}`,
	`{"ss":[["a"]]}`,
	`{"si":[1,2,3000000000000000000000]}`,
	`{"su16":[65535,65536]}`,
	`{"sb":[true,false,null]}`,
	`{"sr":["admin","user"]}`,
	`{"m":[]}`,
	`{"m":{"a":1}}`,
	`{"m":{"":"empty","\u00e9":"e"}}`,
	`{"unknown":{"deep":[1,{"x":null}]},"s":"after"}`,
	`{"x":{"a":1,"A":2}}`,
	`{"foo":1,"FOO":2}`,
	`{"s":"a","S":"b"}`,
	`{"ISS":"x"}`,
	`{"Iss":1}`,
	`{"ſub":"x"}`,
	`{"AUD":5}`,
	` { "s" : "spaced" , "i" : 3 } `,
	`{"s":"a\u0041"}`,
	`{"\u0073":"escaped name"}`,
	`{"m":{"k":"v","K":"w"}}`,
}

func TestPlanDecode(t *testing.T) {
	for _, p := range decodeCases {
		n := checkDecode[kitchen](t, p) + checkDecode[*kitchen](t, p) + checkDecode[study](t, p)
		fallback := strings.Contains(p, "ISS") || strings.Contains(p, "Iss") || strings.Contains(p, "ſub") || strings.Contains(p, "AUD")
		if n == 0 && !fallback || n > 0 && fallback {
			t.Errorf("%s: %d comparisons", p, n)
		}
	}
	checkDecode[study](t, `{"user_id":42,"username":"alice","perms":["read","write"],"iss":"x","exp":1}`)
	checkDecode[study](t, `{"user_id":-1}`)
	checkDecode[study](t, `{"USER_ID":1,"UserName":"bob"}`)
	// Registered claims embedded under "-" or an invalid tag name: embedded
	// (or ignored) for encoding/json too, so the plan applies.
	for _, p := range []string{`{"a":"x","iss":"y","reg":{"aud":5}}`, `{"a":1}`} {
		if checkDecode[ignoredReg](t, p)+checkDecode[badTagReg](t, p) == 0 {
			t.Errorf("%s: not compared", p)
		}
	}
	for _, p := range []string{`{"m":{"a":"b","c":null}}`, `{"m":{}}`, `{"m":null}`, `{"m":{"a":1}}`} {
		if checkDecode[withNamedMap](t, p) == 0 {
			t.Errorf("%s: not compared", p)
		}
	}
}

// TestPlanDecodeErrors: a type error anywhere is an error, in the Take
// path and from a Rest, and no part of the value comes back (the formats
// return the zero T).
func TestPlanDecodeErrors(t *testing.T) {
	pl := PlanFor[study](testFilter)
	const payload = `{"username":"alice","user_id":-1}`
	out, ok, err := takeInto[study](pl, payload, &testReg{Issuer: "x"})
	if !ok || !errors.Is(err, signet.ErrMalformed) || !reflect.DeepEqual(out, study{}) {
		t.Fatalf("%+v %v %v", out, ok, err)
	}
	out, ok, err = restInto[study](pl, payload, restOf(payload), false, &testReg{Issuer: "x"})
	if !ok || !errors.Is(err, signet.ErrMalformed) || !reflect.DeepEqual(out, study{}) {
		t.Fatalf("rest: %+v %v %v", out, ok, err)
	}
	p, ok, err := takeInto[*study](PlanFor[*study](testFilter), `{"perms":["a",1]}`, &testReg{})
	if !ok || !errors.Is(err, signet.ErrMalformed) || p != nil {
		t.Fatalf("%+v %v %v", p, ok, err)
	}
	// Not JSON at all: an error, never a panic (the reader validates
	// what Take hands it).
	for _, s := range []string{``, `{`, `{"a"`, `{"a":`, `{"a":1`, `{"a":1,`, `{"s":"x`, `{"ss":[1,`, `{"ss":["a"`, `[`, `{"m":{"a"`, `{"m":{"a":"b",`, `{"m":{"a":}}`, `{"s":}`, `{1:2}`} {
		if _, ok, err := takeInto[kitchen](PlanFor[kitchen](testFilter), s, &testReg{}); ok && err == nil {
			t.Errorf("%q: no error", s)
		}
	}
}

// TestPlanRegistered: Finish sets the embedded registered claims to the
// validated ones, whatever the payload says.
func TestPlanRegistered(t *testing.T) {
	reg := testReg{Issuer: "checked", Audience: testAud{"a"}}
	out, ok, err := takeInto[*study](PlanFor[*study](testFilter), `{"iss":"other","user_id":3}`, &reg)
	if !ok || err != nil || out.Issuer != "checked" || out.UserID != 3 || !reflect.DeepEqual(out.Audience, testAud{"a"}) {
		t.Fatalf("%+v %v %v", out, ok, err)
	}
	// A member that folds onto a registered claim's name goes to Into.
	if _, ok, err := takeInto[study](PlanFor[study](testFilter), `{"ISS":"x"}`, &reg); ok || err != nil {
		t.Fatalf("fold onto iss: %v %v", ok, err)
	}
}

// checkEncode requires the Plan to write v's members as encoding/json
// does (after the registered claims, as Join adds them), or to refuse
// what encoding/json refuses.
func checkEncode[T any](t *testing.T, v T) {
	t.Helper()
	pl := PlanFor[T](testFilter)
	if pl == nil {
		t.Fatalf("%v has no plan", reflect.TypeFor[T]())
	}
	zeroed := v // the callers write the registered claims themselves
	*(*testReg)(pl.Registered(unsafe.Pointer(&zeroed))) = testReg{}
	rest, werr := Object(zeroed)
	for _, reg := range []string{`{}`, `{"iss":"me"}`} {
		got, err := pl.Append([]byte(reg), unsafe.Pointer(&v))
		if (err == nil) != (werr == nil) {
			t.Fatalf("%+v: plan error %v, encoding/json error %v", v, err, werr)
		}
		if err != nil {
			if !errors.Is(err, signet.ErrMalformed) {
				t.Fatalf("error %v is not ErrMalformed", err)
			}
			continue
		}
		if want := Join([]byte(reg), rest); string(got) != string(want) {
			t.Fatalf("plan:\n%s\nencoding/json:\n%s", got, want)
		}
	}
}

func TestPlanEncode(t *testing.T) {
	checkEncode(t, kitchen{})
	checkEncode(t, study{})
	checkEncode(t, study{UserID: 42, Username: "alice", Perms: []string{"read", "write"}})
	checkEncode(t, study{Perms: []string{}})
	checkEncode(t, ignoredReg{A: "<a>", testReg: testReg{Issuer: "ignored"}})
	checkEncode(t, badTagReg{A: "a"})
	checkEncode(t, withNamedMap{})
	checkEncode(t, withNamedMap{M: tags{"b": "<", "a": ""}})
	checkEncode(t, kitchen{
		S: "<a href=\"x\">&amp;</a>\u2028\u2029\x00\x1f\b\f\n\r\t\\ \xff\xfe é 😀 \x7f", SE: "x", B: true, BE: true,
		I: -1, I8: math.MinInt8, I16: math.MaxInt16, I32: math.MinInt32, I64: math.MaxInt64,
		U: 1, U8: 255, U16: 65535, U32: math.MaxUint32, U64: math.MaxUint64, UP: 9,
		F32: 1e-7, F64: 1e21, SS: []string{"a", "<"}, SI: []int{-1, 0}, SF: []float64{0.1, 1e-6, 123456789, math.Copysign(0, -1), 5e-324},
		SB: []bool{true, false}, SU16: []uint16{}, SR: []role{"r"}, M: map[string]string{"b": "1", "a": "2", "<": ">", "\xff": "x"},
		ME: map[string]string{}, Role: "admin", NoTag: "n", HTML: "h", Case: "C", Case2: "c", Dash: "d", Skip: "s", Bad: "b", Uni: "u", Kel: 3, Opts: "o", priv: "p",
		testReg: testReg{Issuer: "ignored"},
	})
	for _, f := range []float64{0, 1, -1, 0.1, 1e-6, 9.99e-7, 1e20, 1e21, 123456789012345678, 1.5e-9, 3.4028235e38, math.SmallestNonzeroFloat64, math.MaxFloat64, -1e-10} {
		checkEncode(t, kitchen{F64: f, F32: float32(f), SF: []float64{f}})
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		checkEncode(t, kitchen{F64: f})
		checkEncode(t, kitchen{SF: []float64{f}})
	}
	checkEncode(t, kitchen{F32: float32(math.Inf(1))})
}

func TestFoldName(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{"abc", "ABC"}, {"ſtraße", "STRAßE"}, {"kelvin", "\u212aELVIN"}, {"Σ", "ς"}, {"é", "É"},
	} {
		if string(foldName(c.a)) != string(foldName(c.b)) || !foldEqual(c.a, string(foldName(c.b))) {
			t.Errorf("%q and %q do not fold together", c.a, c.b)
		}
	}
	for _, c := range []struct{ a, b string }{{"ab", "abc"}, {"abc", "abd"}, {"ss", "ß"}, {"", "a"}} {
		if foldEqual(c.a, string(foldName(c.b))) {
			t.Errorf("%q and %q fold together", c.a, c.b)
		}
	}
}

// TestRestNotViews: a Rest given strings that are not views of the payload
// (or more members than it holds) is not used.
func TestRestNotViews(t *testing.T) {
	payload := `{"user_id":1}`
	var r Rest
	r.Add(payload, strings.Clone("user_id"), "1")
	r.Done()
	if r.ok {
		t.Fatal("a Rest of copies is used")
	}
	var many Rest
	for range 17 {
		many.Add(payload, payload[2:9], payload[11:12])
	}
	many.Done()
	if many.ok {
		t.Fatal("a Rest of 17 members is used")
	}
	var one Rest
	one.Add(payload, payload[2:9], payload[11:12])
	one.Done()
	out, ok, err := restInto[study](PlanFor[study](testFilter), payload, &one, false, &testReg{})
	if !one.ok || !ok || err != nil || out.UserID != 1 {
		t.Fatalf("%+v %v %v", out, ok, err)
	}
}

// TestFilterConcurrent: goroutines looking up different types in one
// Filter (whose last-type cache they keep replacing) and running their
// Plans get each type's own answer; run with -race.
func TestFilterConcurrent(t *testing.T) {
	f := NewFilter(reflect.TypeFor[testReg](), "iss", "sub", "aud", "exp", "jti")
	types := []struct {
		t    reflect.Type
		plan bool
	}{
		{reflect.TypeFor[study](), true},
		{reflect.TypeFor[*study](), true},
		{reflect.TypeFor[withNamedMap](), true},
		{reflect.TypeFor[withString](), false},
		{reflect.TypeFor[namedReg](), false},
		{reflect.TypeFor[map[string]any](), false},
	}
	const payload = `{"iss":"x","user_id":7,"username":"u","perms":["a"],"m":{"k":"v"}}`
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 300 {
				c := types[(g+i)%len(types)]
				if plan, _ := f.Lookup(c.t); (plan != nil) != c.plan {
					errs <- fmt.Sprintf("%v: plan %v", c.t, plan != nil)
					return
				}
				switch c.t {
				case reflect.TypeFor[study]():
					out, ok, err := takeInto[study](PlanFor[study](f), payload, &testReg{Issuer: "v"})
					if !ok || err != nil || out.UserID != 7 || out.Username != "u" || out.Issuer != "v" || len(out.Perms) != 1 {
						errs <- fmt.Sprintf("study: %+v %v %v", out, ok, err)
						return
					}
					b, err := PlanFor[study](f).Append([]byte(`{}`), unsafe.Pointer(&out))
					if err != nil || string(b) != `{"user_id":7,"username":"u","perms":["a"]}` {
						errs <- fmt.Sprintf("study: %s %v", b, err)
						return
					}
				case reflect.TypeFor[withNamedMap]():
					out, ok, err := takeInto[withNamedMap](PlanFor[withNamedMap](f), payload, &testReg{})
					if !ok || err != nil || out.M["k"] != "v" {
						errs <- fmt.Sprintf("withNamedMap: %+v %v %v", out, ok, err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
