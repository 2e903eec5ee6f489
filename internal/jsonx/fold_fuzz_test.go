package jsonx

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// foldDuplicate is the reference: encoding/json's tokens, each object's
// member names compared pairwise with strings.EqualFold.
func foldDuplicate(s string) bool {
	d := json.NewDecoder(strings.NewReader(s))
	type frame struct {
		object bool
		names  []string
		key    bool // the next token of an object is a name
	}
	var stack []*frame
	for {
		tok, err := d.Token()
		if err != nil {
			return false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.key {
			if name, ok := tok.(string); ok {
				for _, n := range top.names {
					if strings.EqualFold(n, name) {
						return true
					}
				}
				top.names = append(top.names, name)
				top.key = false
				continue
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, key: true})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 && stack[len(stack)-1].object {
			stack[len(stack)-1].key = true
		}
	}
}

func TestFoldMany(t *testing.T) {
	var names []string
	for i := range 3 * smallNames {
		names = append(names, fmt.Sprintf(`"name%d":%d`, i, i))
	}
	base := "{" + strings.Join(names, ",") + "}"
	if err := ValidFold(base); err != nil {
		t.Fatal(err)
	}
	for _, extra := range []string{`"NAME3":0`, `"Name40":1`, `"name\u0033":2`, `"K":1,"\u212a":2`, `"\u212a":2,"k":1`} {
		s := strings.TrimSuffix(base, "}") + "," + extra + "}"
		if err := ValidFold(s); !errors.Is(err, ErrDuplicate) {
			t.Errorf("%s: %v", extra, err)
		}
		short := "{" + extra + `,"x":1}`
		if foldDuplicate(short) != errors.Is(ValidFold(short), ErrDuplicate) {
			t.Errorf("%s: ValidFold disagrees with the reference", short)
		}
	}
}

func FuzzValidFold(f *testing.F) {
	for _, s := range []string{`{"sub":1,"SUB":2}`, `{"k":1,"\u212a":2}`, `{"a":{"B":1,"b":2}}`, `{"é":1,"É":2}`, `{"ab":1,"aB\u0063":2}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if Valid(s) != nil {
			return
		}
		got := errors.Is(ValidFold(s), ErrDuplicate)
		if want := foldDuplicate(s); got != want {
			t.Fatalf("%q: ValidFold duplicate %v, reference %v", s, got, want)
		}
		// NewMembersFold walking an object gives ValidFold's verdict.
		if strings.HasPrefix(strings.TrimLeft(s, " \t\r\n"), "{") {
			m := NewMembersFold(s)
			for m.Next(s) {
			}
			if walked := errors.Is(m.Err(), ErrDuplicate); walked != got {
				t.Fatalf("%q: NewMembersFold duplicate %v, ValidFold %v", s, walked, got)
			}
		}
	})
}
