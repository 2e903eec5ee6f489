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
