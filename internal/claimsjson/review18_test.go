package claimsjson

import (
	"testing"
	"unsafe"

	"github.com/signet-go/signet/internal/jsonx"
)

// strPtr has ",string" on pointers to scalars: encoding/json follows an
// unnamed pointer before it looks at the kind, and quotes *int, *bool.
type strPtr struct {
	testReg
	P *int  `json:"p,string"`
	Q *bool `json:"q,string,omitempty"`
}

func TestReviewStringOptionOnPointer(t *testing.T) {
	if PlanFor[strPtr](testFilter) != nil {
		t.Fatal("a plan for a type with a \",string\" pointer to a scalar: encoding/json quotes it, the plan would not")
	}
	n, b := 5, true
	// Nested, the struct goes to encoding/json as one value.
	checkEncode(t, strPtrOuter{In: strPtrInner{P: &n, Q: &b}})
	checkEncodePtr(t, &strPtrOuter{In: strPtrInner{P: &n}})
	for _, p := range []string{`{"in":{"p":"5"}}`, `{"in":{"p":5}}`, `{"in":{"q":"true"}}`, `{"in":{"q":true}}`} {
		checkDecode[strPtrOuter](t, p)
	}
}

type strPtrInner struct {
	P *int  `json:"p,string"`
	Q *bool `json:"q,string,omitempty"`
}

type strPtrOuter struct {
	testReg
	In strPtrInner `json:"in"`
}

// hidden is embedded unexported under a tag name: encoding/json codes it
// as a member.
type hidden struct{ A string }

type tagEmb struct {
	testReg
	hidden `json:"h"`
}

func TestReviewTaggedUnexportedEmbedded(t *testing.T) {
	checkEncode(t, tagEmb{hidden: hidden{A: "x"}})
	for _, p := range []string{`{"h":{"A":"x"}}`, `{"h":{"a":"y"}}`, `{"h":null}`, `{"h":1}`} {
		checkDecode[tagEmb](t, p)
	}
}

// TestReviewEncodeDepth: what the plan writes, jsonx (every verifier
// here) must read back: Append's depth limit and jsonx.MaxDepth must
// agree.
func TestReviewEncodeDepth(t *testing.T) {
	pl := PlanFor[nested](testFilter)
	for d := 60; d <= 66; d++ {
		var v any = "leaf"
		for range d {
			v = []any{v}
		}
		out, err := pl.Append([]byte(`{}`), unsafe.Pointer(&nested{Any: v}))
		if err != nil {
			continue
		}
		if verr := jsonx.Valid(string(out)); verr != nil {
			t.Errorf("%d nested arrays under a member: the plan writes it, jsonx refuses it: %v", d, verr)
		}
	}
	for d := 60; d <= 66; d++ {
		in := &inner{}
		for range d {
			in = &inner{Next: in}
		}
		out, err := pl.Append([]byte(`{}`), unsafe.Pointer(&nested{Data: in}))
		if err != nil {
			continue
		}
		if verr := jsonx.Valid(string(out)); verr != nil {
			t.Errorf("%d nested structs under a member: the plan writes it, jsonx refuses it: %v", d, verr)
		}
	}
}

type deepPart struct {
	Z  string `json:"z"`
	ZZ int
}

type midPart struct {
	deepPart
	Z string `json:"z2"`
}

type wild struct {
	testReg
	midPart
	E    struct{}            `json:"e"`
	LM   []map[string]any    `json:"lm"`
	MS   map[string][]string `json:"ms"`
	PA   *any                `json:"pa"`
	SPA  []*any              `json:"spa"`
	SS   [][]string          `json:"ss"`
	PS   *[]int              `json:"ps"`
	PPS  **[]uint8           `json:"pps"`
	F32s []float32           `json:"f32s"`
	Name string              `json:"名前"`
	Amp  string              `json:"a&b"`
}

var wildCases = []string{
	`{"z":"a","ZZ":1,"z2":"b","e":{},"lm":[{"a":1},null,{}],"ms":{"k":["v"]},"pa":{"x":[1]},"spa":[1,null,"s"],"ss":[["a"],null,[]],"ps":[1,2],"pps":"AQI=","f32s":[1.5,-0],"名前":"n","a&b":"x"}`,
	`{"e":1}`, `{"e":[]}`, `{"e":{"x":1}}`, `{"ps":null}`, `{"pa":null}`, `{"spa":[[]]}`, `{"f32s":[1e39]}`,
	`{"Z":"fold","zz":2,"Z2":"f2"}`, `{"名前":1}`, `{"A&B":"fold"}`,
}

func TestReviewWild(t *testing.T) {
	for _, p := range wildCases {
		checkDecode[wild](t, p)
		checkDecode[*wild](t, p)
	}
	var a any = map[string]any{"k": []any{1.5, "x"}}
	ps := &[]int{1}
	b := []uint8{1, 2}
	pb := &b
	checkEncode(t, wild{})
	v := wild{midPart: midPart{deepPart: deepPart{Z: "z", ZZ: 2}, Z: "z2"}, LM: []map[string]any{nil, {}},
		MS: map[string][]string{"b": nil, "a": {"x"}}, PA: &a, SPA: []*any{nil, &a}, SS: [][]string{nil, {}},
		PS: ps, PPS: &pb, F32s: []float32{1e-7, 3.4e38}, Name: "<>", Amp: "&"}
	checkEncode(t, v)
	checkEncodePtr(t, &v)
}

func FuzzReviewWild(f *testing.F) {
	for _, p := range wildCases {
		f.Add(p)
	}
	for _, p := range nestedCases {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, payload string) {
		if len(payload) > MaxSplit {
			return
		}
		checkDecode[wild](t, payload)
		checkDecode[*wild](t, payload)
		_, _, _ = takeInto[wild](PlanFor[wild](testFilter), payload, &testReg{})
		_, _, _ = takeInto[nested](PlanFor[nested](testFilter), payload, &testReg{})
	})
}
