package claimsjson

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// The types of the plan's nested codecs: structs in structs, pointers,
// slices of structs, interface values, embedded structs and the types
// that go to encoding/json one value at a time.

// inner is the lab's application data, and recursive.
type inner struct {
	Name  string            `json:"name,omitempty"`
	Email string            `json:"email,omitempty"`
	Roles []string          `json:"roles,omitempty"`
	Attrs map[string]string `json:"attrs,omitempty"`
	Blob  string            `json:"blob,omitempty"`
	N     *int              `json:"n,omitempty"`
	Kids  []inner           `json:"kids,omitempty"`
	Next  *inner            `json:"next,omitempty"`
}

// base and base2 are embedded: their fields are promoted, and "Dup",
// in both at the same depth, is coded by neither.
type base struct {
	Tenant string `json:"tenant"`
	Level  int
	Dup    string
}

type base2 struct {
	Dup   string
	Other string
	Level int `json:"Level"` // tagged: wins over base's Level at the same depth
}

// unm reads JSON itself (pointer receiver).
type unm struct{ v string }

func (u *unm) UnmarshalJSON(b []byte) error { u.v = "u:" + string(b); return nil }

// valM writes JSON itself (value receiver).
type valM struct{ X int }

func (v valM) MarshalJSON() ([]byte, error) { return []byte(`{"x":` + strconv.Itoa(v.X*2) + `}`), nil }

// ptrM writes JSON itself only where encoding/json can take its address.
type ptrM struct{ X int }

func (v *ptrM) MarshalJSON() ([]byte, error) { return []byte(`"ptr"`), nil }

// withStringOpt has a ",string" field: nested, encoding/json codes it.
type withStringOpt struct {
	N int    `json:"n,string"`
	S string `json:"s"`
}

type nested struct {
	testReg
	base
	base2
	Data  *inner          `json:"data,omitempty"`
	In    inner           `json:"in"`
	Items []inner         `json:"items"`
	Ptrs  []*inner        `json:"ptrs"`
	Any   any             `json:"any"`
	MA    map[string]any  `json:"ma,omitempty"`
	At    time.Time       `json:"at"`
	Raw   json.RawMessage `json:"raw,omitempty"`
	Num   json.Number     `json:"num,omitempty"`
	U     unm             `json:"u"`
	UP    *unm            `json:"up"`
	VM    valM            `json:"vm"`
	PM    ptrM            `json:"pm"`
	PMs   []ptrM          `json:"pms"`
	Arr   [2]int          `json:"arr"`
	MI    map[string]int  `json:"mi,omitempty"`
	PP    **string        `json:"pp"`
	Opt   withStringOpt   `json:"opt"`
	F     float64         `json:"f"`
	Iface fmt.Stringer    `json:"iface"`
	Bytes []byte          `json:"bytes,omitempty"`
}

type nestedString struct {
	testReg
	Opt withStringOpt `json:"opt"`
}

// embedsPtr embeds a struct through a pointer: encoding/json's.
type embedsPtr struct {
	testReg
	*base
}

// embedsShadow promotes a field that folds onto a registered claim.
type embedsShadow struct {
	testReg
	shadowPart
}

type shadowPart struct{ Iss string }

var nestedCases = []string{
	`{}`,
	`{"data":{"name":"Ada","email":"a@x","roles":["a","b"],"attrs":{"t":"x"},"blob":"mmm","n":3}}`,
	`{"data":null,"in":null,"items":null,"ptrs":null,"any":null,"ma":null,"at":null,"raw":null,"num":null,"u":null,"up":null,"vm":null,"pm":null,"pms":null,"arr":null,"mi":null,"pp":null,"opt":null,"iface":null,"bytes":null}`,
	`{"in":{"kids":[{"name":"k1","kids":[{"name":"k2"}]},{}],"next":{"next":{"name":"deep"}}}}`,
	`{"items":[{"name":"i"},null,{"roles":[]}],"ptrs":[{"name":"p"},null]}`,
	`{"any":{"a":[1,"x",true,null,{"b":-2.5e3}],"c":{}}}`,
	`{"any":[]}`, `{"any":"s"}`, `{"any":1e400}`, `{"any":-0}`, `{"any":true}`,
	`{"ma":{"k":[1,2],"l":{"m":"n"},"z":null}}`,
	`{"ma":[]}`,
	`{"at":"2026-11-25T10:00:00.123Z"}`,
	`{"at":"not a time"}`,
	`{"at":5}`,
	`{"raw":{"any":["thing",1]}}`,
	`{"num":12.5e3}`, `{"num":"12"}`, `{"num":"x"}`, `{"num":true}`,
	`{"u":{"a":1},"up":"x"}`,
	`{"vm":{"X":4},"pm":{"X":5},"pms":[{"X":1}]}`,
	`{"arr":[1,2,3]}`, `{"arr":[1]}`, `{"arr":"x"}`,
	`{"mi":{"a":1,"b":-2}}`, `{"mi":{"a":"1"}}`,
	`{"pp":"s"}`, `{"pp":null}`, `{"pp":5}`,
	`{"opt":{"n":"12","s":"x"}}`, `{"opt":{"n":12}}`,
	`{"f":1.5,"F":2}`,
	`{"iface":{}}`,
	`{"bytes":"aGVsbG8="}`, `{"bytes":"!!"}`, `{"bytes":[1,2]}`,
	`{"tenant":"t","level":7,"Level":8,"Dup":"d","Other":"o"}`,
	`{"TENANT":"fold","other":"fold"}`,
	`{"Dup":"x"}`,
	`{"data":{"NAME":"fold","Roles":["r"]},"IN":{"Name":"n"}}`,
	`{"data":"x"}`, `{"data":[1]}`, `{"data":{"name":5}}`, `{"data":{"roles":"r"}}`, `{"data":{"attrs":{"a":1}}}`,
	`{"data":{"kids":{"name":"x"}}}`, `{"in":[]}`, `{"items":{}}`, `{"ptrs":[1]}`,
	`{"data":{"n":1.5}}`, `{"data":{"n":null}}`,
	`{"data":{"unknown":{"deep":[{"x":1}]},"name":"after"}}`,
	`{"data":{"name":"a","NAME":"b"}}`,
	`{"data":{"attrs":{"k":"v","K":"w"}}}`,
	`{"any":{"k":1,"K":2}}`,
	`{"data":{"\u006eame":"escaped"}}`,
	`{"data":{"blob":"\u00e9\ud83d\ude00 \\ \" \/ \b\f\n\r\t"}}`,
}

func TestPlanNestedDecode(t *testing.T) {
	for _, p := range nestedCases {
		if checkDecode[nested](t, p)+checkDecode[*nested](t, p) == 0 {
			t.Errorf("%s: not compared", p)
		}
		checkDecode[embedsOther](t, p)
		checkDecode[withDup](t, p)
		checkDecode[nestedString](t, p)
	}
	for _, p := range []string{`{"A":"a","B":"b"}`, `{"a":"x"}`, `{"A":1}`} {
		checkDecode[withDup](t, p)
		checkDecode[embedsOther](t, p)
	}
}

func TestPlanNestedEncode(t *testing.T) {
	n := 7
	s := "pp"
	ps := &s
	full := nested{
		base:  base{Tenant: "t<", Level: 1, Dup: "a"},
		base2: base2{Dup: "b", Other: "o", Level: 2},
		Data: &inner{Name: "Ada", Email: "ada@example.com", Roles: []string{"admin", "dev"}, Attrs: map[string]string{"z": "1", "a": "2"},
			Blob: strings.Repeat("m", 100), N: &n, Kids: []inner{{Name: "k"}, {}}, Next: &inner{Name: "next"}},
		In:    inner{Roles: []string{}},
		Items: []inner{{Name: "i"}},
		Ptrs:  []*inner{{Name: "p"}, nil},
		Any:   map[string]any{"b": []any{1.5, "x", nil, true, map[string]any{}}, "a": int64(3), "c": []string{"s"}, "d": time.Unix(0, 0).UTC(), "e": 7},
		MA:    map[string]any{"k": "v", "n": nil},
		At:    time.Date(2026, 11, 25, 10, 0, 0, 123, time.UTC),
		Raw:   json.RawMessage(` { "a" : [1, 2] } `),
		Num:   "12.5",
		U:     unm{v: "x"},
		UP:    &unm{},
		VM:    valM{X: 3},
		PM:    ptrM{X: 4},
		PMs:   []ptrM{{X: 1}},
		Arr:   [2]int{1, 2},
		MI:    map[string]int{"b": 2, "a": 1},
		PP:    &ps,
		Opt:   withStringOpt{N: 5, S: "<"},
		F:     0.1,
		Bytes: []byte("hello"),
	}
	checkEncode(t, nested{})
	checkEncode(t, full)
	checkEncodePtr(t, &full)
	checkEncodePtr(t, &nested{})
	checkEncode(t, nestedString{Opt: withStringOpt{N: 1}})
	checkEncode(t, embedsOther{kitchenPart: kitchenPart{A: "a"}})
	checkEncode(t, withDup{A: "a", B: "b"})
	for _, bad := range []any{math.NaN(), []any{math.Inf(1)}, map[string]any{"x": math.NaN()}, make(chan int)} {
		checkEncode(t, nested{Any: bad})
	}
	checkEncode(t, nested{Num: "not a number"})
	checkEncode(t, nested{Raw: json.RawMessage(`{bad`)})
}

// TestPlanCycle: a value that points to itself is refused, not followed.
func TestPlanCycle(t *testing.T) {
	v := nested{Data: &inner{}}
	v.Data.Next = v.Data
	pl := PlanFor[nested](testFilter)
	if _, err := pl.Append([]byte(`{}`), unsafe.Pointer(&v)); err == nil {
		t.Fatal("a cycle encoded")
	}
	deep := &inner{}
	for range 100 {
		deep = &inner{Next: deep}
	}
	if _, err := pl.Append([]byte(`{}`), unsafe.Pointer(&nested{Data: deep})); err == nil {
		t.Fatal("nested deeper than jsonx.MaxDepth encoded")
	}
	shallow := &inner{}
	for range 20 {
		shallow = &inner{Next: shallow}
	}
	checkEncode(t, nested{Data: shallow})
}

// TestStructFields: the promoted and dominant fields, as encoding/json
// has them (its output names the fields it codes).
func TestStructFields(t *testing.T) {
	fs, skipped, _, ok := structFields(reflect.TypeFor[nested](), reflect.TypeFor[testReg]())
	if !ok || len(skipped) != 1 || skipped[0] != 0 {
		t.Fatalf("%v %v", skipped, ok)
	}
	var names []string
	for _, f := range fs {
		names = append(names, f.name)
	}
	got := strings.Join(names, ",")
	const want = "tenant,Other,Level,data,in,items,ptrs,any,ma,at,raw,num,u,up,vm,pm,pms,arr,mi,pp,opt,f,iface,bytes"
	if got != want {
		t.Fatalf("fields\n%s\nwant\n%s", got, want)
	}
	if _, _, _, ok := structFields(reflect.TypeFor[embedsPtr](), reflect.TypeFor[testReg]()); ok {
		t.Fatal("a struct embedded through a pointer")
	}
}

// checkEncodePtr is checkEncode for the Plan of *T: encoding/json sees
// the fields through the pointer, addressable.
func checkEncodePtr[T any](t *testing.T, v *T) {
	t.Helper()
	pl := PlanFor[*T](testFilter)
	if pl == nil {
		t.Fatalf("%v has no plan", reflect.TypeFor[*T]())
	}
	zeroed := *v
	*(*testReg)(pl.Registered(unsafe.Pointer(&zeroed))) = testReg{}
	rest, werr := Object(&zeroed)
	got, err := pl.Append([]byte(`{}`), unsafe.Pointer(&zeroed))
	if (err == nil) != (werr == nil) {
		t.Fatalf("plan error %v, encoding/json error %v", err, werr)
	}
	if err == nil && string(got) != string(Join([]byte(`{}`), rest)) {
		t.Fatalf("plan:\n%s\nencoding/json:\n%s", got, rest)
	}
}

// TestAppendStringRuns: appendString, which copies eight plain bytes at a
// time, writes what encoding/json writes whatever byte needs escaping and
// wherever it falls in a run.
func TestAppendStringRuns(t *testing.T) {
	for _, c := range []string{`"`, `\`, "<", ">", "&", "\x00", "\x1f", "\x7f", "é", "\u2028", "\xff", " ", "~"} {
		for pos := range 18 {
			for _, n := range []int{pos + 1, 18, 25} {
				s := strings.Repeat("a", pos) + c + strings.Repeat("b", max(0, n-pos-1))
				want, _ := json.Marshal(s)
				if got := appendString(nil, s); string(got) != string(want) {
					t.Fatalf("%q: %s, encoding/json %s", s, got, want)
				}
				// With room: copied as scanned (safeCopy).
				if got := appendString(make([]byte, 0, 128), s+c+s); func() bool {
					w, _ := json.Marshal(s + c + s)
					return string(got) != string(w)
				}() {
					t.Fatalf("%q with room: %s", s+c+s, got)
				}
			}
		}
		// Long: one growth, then copied as scanned.
		long := strings.Repeat("x", 1500) + c + strings.Repeat("y", 700) + c + "z"
		want, _ := json.Marshal(long)
		if got := appendString([]byte("{"), long); string(got[1:]) != string(want) {
			t.Fatalf("long %q: wrong encoding", c)
		}
	}
}
