package claimsjson

import (
	"errors"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"unsafe"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/jsonx"
)

// Types whose pointer fields reach other structs: the reader allocates
// each *blkProfile together with its *blkAddr and *blkMeta (ptrBlock).
type blkAddr struct {
	City string `json:"city"`
	Zip  *int   `json:"zip"`
}

type blkMeta struct {
	Tags []string          `json:"tags"`
	N    int8              `json:"n"`
	Sub  *blkAddr          `json:"sub"`
	Any  any               `json:"any"`
	M    map[string]string `json:"m"`
}

type blkProfile struct {
	Name  string      `json:"name"`
	Addr  *blkAddr    `json:"addr"`
	Meta  *blkMeta    `json:"meta"`
	Self  *blkProfile `json:"self"`
	Empty *struct{}   `json:"empty"`
	Alt   *blkAddr    `json:"alt"`
}

type withBlock struct {
	testReg
	P  *blkProfile   `json:"p"`
	PS []*blkProfile `json:"ps"`
	PP **blkProfile  `json:"pp"`
}

var blockCases = []string{
	`{}`,
	`{"p":null}`,
	`{"p":{}}`,
	`{"p":{"name":"a","addr":{"city":"c","zip":7},"meta":{"tags":["x"],"n":-128,"sub":{"city":"s"}},"empty":{},"alt":{"city":"alt"}}}`,
	`{"p":{"addr":null,"meta":null,"empty":null,"alt":null,"self":null}}`,
	`{"p":{"self":{"addr":{"city":"inner"},"self":{"meta":{"n":1}}}}}`,
	`{"ps":[{"addr":{"city":"0"}},null,{"meta":{"any":[1,{"a":null}]}},{}]}`,
	`{"pp":{"addr":{"city":"pp"}}}`, `{"pp":null}`,
	// Errors and refusals in a block's parts.
	`{"p":{"addr":{"city":"a"},"addr":{"city":"b"}}}`,
	`{"p":{"addr":{"city":"a"},"ADDR":{"city":"b"}}}`,
	`{"p":{"Addr":{"city":"a"}}}`,
	`{"p":{"addr":{"city":"a","CITY":"b"}}}`,
	`{"p":{"addr":"x"}}`, `{"p":{"addr":[]}}`, `{"p":{"addr":1}}`, `{"p":{"addr":true}}`,
	`{"p":{"meta":{"n":128}}}`, `{"p":{"meta":{"n":-129}}}`, `{"p":{"meta":{"n":1e2}}}`,
	`{"p":{"meta":{"sub":{"zip":1.5}}}}`,
	`{"p":{"addr":{"zip":"1"}},"name":"later"}`,
	`{"p":{"addr":nul}}`, `{"p":{"addr":nulls}}`,
	`{"p":{"addr":{"city":"\ud800"}}}`,
	`{"p":{"addr":{"city":"` + "\xff" + `"}}}`,
	`{"p":{"meta":{"m":{"a":"b","A":"c"}}}}`,
	`{"p":{"meta":{"any":{"a":1,"A":2}}}}`,
	`{"p":{"name":"n","unknown":{"x":[1,2,{"y":{}}]},"addr":{"city":"after"}}}`,
	`{"p":{"unknown":1,"UNKNOWN":2}}`,
	`{"p":{"\u0061ddr":{"city":"esc"}}}`,
	`{"p":{"addr":{"city":"c"},"a\u0064dr":{"city":"esc dup"}}}`,
	`{"p":` + strings.Repeat(`{"self":`, 40) + `{}` + strings.Repeat(`}`, 40) + `}`,
	`{"p":` + strings.Repeat(`{"self":`, 200) + `{}` + strings.Repeat(`}`, 200) + `}`,
	`{"p":{"meta":{"any":` + strings.Repeat(`[`, 200) + strings.Repeat(`]`, 200) + `}}}`,
}

// TestBlockDecode holds the one-block allocation of a pointer to a
// struct and its pointer fields' structs (ptrBlock) to encoding/json's
// results, errors and refusals (the differential checkDecode), and
// checks that the values survive collections: the block's type tells the
// collector where its pointers are.
func TestBlockDecode(t *testing.T) {
	if pl := PlanFor[withBlock](testFilter); pl == nil {
		t.Fatal("withBlock has no plan")
	}
	for _, p := range blockCases {
		if jsonx.Valid(p) == nil {
			if checkDecode[withBlock](t, p)+checkDecode[*withBlock](t, p) == 0 {
				t.Errorf("%s: not compared", p)
			}
			continue
		}
		// Text jsonx refuses (a repeated name, bad UTF-8 or literal, too
		// deep): an error of the text, and no value.
		for _, pl := range []*Plan{PlanFor[withBlock](testFilter), PlanFor[*withBlock](testFilter)} {
			var out withBlock
			take := NewTaker(pl, &out)
			if pl.ptr {
				var po *withBlock
				take = NewTaker(pl, &po)
			}
			var m jsonx.Members
			m.Reset(p, true)
			var err error
			for err == nil && m.NextName(p) {
				if taken, e := take.Take(&m, p, m.Name(p)); e != nil || !taken {
					err = e
					if !taken {
						m.ScanValue(p)
					}
				}
			}
			if err == nil {
				err = m.Err()
			}
			if err == nil {
				t.Errorf("%s: no error", p)
			}
		}
	}
	pl := PlanFor[withBlock](testFilter)
	var keep []withBlock
	for i := 0; i < 200; i++ {
		p := `{"p":{"name":"n","addr":{"city":"c` + strings.Repeat("x", i%7) + `","zip":5},"meta":{"tags":["t"],"any":{"k":["v"]}},"alt":{"city":"alt"}}}`
		out, ok, err := takeInto[withBlock](pl, p, &testReg{})
		if !ok || err != nil {
			t.Fatal(ok, err)
		}
		keep = append(keep, out)
		runtime.GC()
	}
	for i, v := range keep {
		if v.P.Addr.City != "c"+strings.Repeat("x", i%7) || *v.P.Addr.Zip != 5 || v.P.Meta.Tags[0] != "t" || v.P.Alt.City != "alt" ||
			v.P.Meta.Any.(map[string]any)["k"].([]any)[0] != "v" {
			t.Fatalf("%d: %+v", i, v.P)
		}
	}
}

// FuzzBlockDecode is FuzzPlanDecode for the types with ptrBlocks.
func FuzzBlockDecode(f *testing.F) {
	for _, p := range blockCases {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, payload string) {
		if len(payload) > MaxSplit {
			return
		}
		checkDecode[withBlock](t, payload)
		checkDecode[*withBlock](t, payload)
		_, _, _ = takeInto[withBlock](PlanFor[withBlock](testFilter), payload, &testReg{})
	})
}

// TestDepthBoundary: at and around jsonx.MaxDepth, the plan's reader
// refuses exactly what jsonx refuses (ErrDepth, not a stack overflow, nor
// a value jsonx would not have let through), in every recursive codec:
// interface values, nested slices, structs in slices, pointers with and
// without a block.
func TestDepthBoundary(t *testing.T) {
	wrap := func(open, close string, d int, inner string) string {
		return strings.Repeat(open, d) + inner + strings.Repeat(close, d)
	}
	seen := map[[2]int]bool{} // case, valid: each case is tried on both sides of the limit
	for d := jsonx.MaxDepth - 3; d <= jsonx.MaxDepth+2; d++ {
		cases := []string{
			`{"any":` + wrap("[", "]", d-1, "1") + `}`,
			`{"any":` + wrap(`{"a":`, "}", d-1, "1") + `}`,
			`{"ma":` + wrap(`{"a":`, "}", d-1, "1") + `}`,
			`{"in":` + wrap(`{"next":`, "}", d-2, "{}") + `}`,
			`{"in":` + wrap(`{"kids":[`, "]}", (d-2)/2, "{}") + `}`,
			`{"data":` + wrap(`{"next":`, "}", d-2, `{"roles":["x"]}`) + `}`,
		}
		for n, p := range cases {
			valid := jsonx.Valid(p) == nil
			if valid {
				seen[[2]int{n, 1}] = true
			} else {
				seen[[2]int{n, 0}] = true
			}
			for _, run := range []func() error{
				func() error { _, _, err := takeInto[nested](PlanFor[nested](testFilter), p, &testReg{}); return err },
				func() error { _, _, err := takeInto[*nested](PlanFor[*nested](testFilter), p, &testReg{}); return err },
			} {
				if err := run(); (err == nil) != valid {
					t.Errorf("depth %d %.40s…: jsonx valid %v, plan error %v", d, p, valid, err)
				}
			}
			if valid {
				checkDecode[nested](t, p)
			}
		}
		bp := `{"p":` + wrap(`{"self":`, "}", d-2, `{"addr":{"city":"c"}}`) + `}`
		if _, _, err := takeInto[withBlock](PlanFor[withBlock](testFilter), bp, &testReg{}); (err == nil) != (jsonx.Valid(bp) == nil) {
			t.Errorf("depth %d block: jsonx valid %v, plan error %v", d, jsonx.Valid(bp) == nil, err)
		}
	}
	if len(seen) != 2*6 {
		t.Errorf("not every case crossed the limit: %v", seen)
	}
}

// selfPtr and the pair ptrA, ptrB are pointer types that point to
// themselves: no value ends the chain (encoding/json, allocating one
// pointer after another, never returns).
type selfPtr *selfPtr

type ptrA *ptrB
type ptrB *ptrA

type withSelfPtr struct {
	testReg
	X  selfPtr   `json:"x"`
	A  ptrA      `json:"a"`
	XS []selfPtr `json:"xs"`
	S  string    `json:"s"`
}

// TestPointerCycleType: a claims type with a pointer type that points to
// itself, directly or through another, is read without recursing for
// ever (a fatal stack overflow: no recover stops it, and a verified token
// of the issuer's was enough). null leaves it nil, as encoding/json
// does; any other value is refused as one of a type its field does not
// take (signet.ErrMalformed), in the Take path and from a Rest.
func TestPointerCycleType(t *testing.T) {
	defer debug.SetMaxStack(debug.SetMaxStack(64 << 20)) // a regression fails fast
	pl := PlanFor[withSelfPtr](testFilter)
	if pl == nil {
		t.Fatal("withSelfPtr has no plan")
	}
	for _, p := range []string{`{"x":1}`, `{"x":"s"}`, `{"x":{}}`, `{"x":[]}`, `{"a":true}`, `{"xs":[null,1]}`, `{"s":"ok","x":{"y":1}}`} {
		out, ok, err := takeInto[withSelfPtr](pl, p, &testReg{})
		if !ok || !errors.Is(err, signet.ErrMalformed) || out.X != nil || out.S != "" {
			t.Errorf("Take %s: %v %v %+v", p, ok, err, out)
		}
		if rest := restOf(p); rest != nil {
			out, ok, err := restInto[withSelfPtr](pl, p, rest, false, &testReg{})
			if !ok || !errors.Is(err, signet.ErrMalformed) || out.X != nil {
				t.Errorf("Rest %s: %v %v %+v", p, ok, err, out)
			}
		}
	}
	out, ok, err := takeInto[withSelfPtr](pl, `{"x":null,"a":null,"xs":[null],"s":"ok"}`, &testReg{})
	if !ok || err != nil || out.X != nil || out.A != nil || len(out.XS) != 1 || out.XS[0] != nil || out.S != "ok" {
		t.Errorf("nulls: %v %v %+v", ok, err, out)
	}
	// Encoding: nil is null; a pointer to itself is a cycle, refused.
	var x selfPtr
	x = &x
	if _, err := pl.Append([]byte(`{}`), unsafe.Pointer(&withSelfPtr{X: x})); !errors.Is(err, signet.ErrMalformed) {
		t.Errorf("encode a pointer to itself: %v", err)
	}
	if b, err := pl.Append([]byte(`{}`), unsafe.Pointer(&withSelfPtr{})); err != nil || string(b) != `{"x":null,"a":null,"xs":null,"s":""}` {
		t.Errorf("encode nil: %s %v", b, err)
	}
}
