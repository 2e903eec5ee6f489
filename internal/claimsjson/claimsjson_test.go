package claimsjson

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/signet-go/signet"
)

func TestDecode(t *testing.T) {
	var s struct {
		Sub string `json:"sub"`
	}
	if err := Decode(`{"sub":"alice","SUB":"admin"}`, &s, false, false); !errors.Is(err, signet.ErrMalformed) {
		t.Fatalf("case variants into a struct: %v", err)
	}
	var m map[string]any
	if err := Decode(`{"sub":"alice","SUB":"admin","n":12345678901234567890}`, &m, true, true); err != nil || m["SUB"] != "admin" {
		t.Fatalf("map: %v %v", m, err)
	}
	if _, ok := m["n"].(json.Number); !ok {
		t.Fatalf("number as %T", m["n"])
	}
	var raw json.RawMessage
	if err := Decode(`{"a":1,"A":2}`, &raw, false, true); err != nil || string(raw) != `{"a":1,"A":2}` {
		t.Fatalf("raw: %s %v", raw, err)
	}
	if err := Decode(`{"sub":1}`, &s, false, false); !errors.Is(err, signet.ErrMalformed) {
		t.Fatalf("wrong type: %v", err)
	}
}

func ExampleDecode() {
	var c struct {
		Role string `json:"role"`
	}
	fmt.Println(Decode(`{"role":"user","ROLE":"admin"}`, &c, false, false) != nil)
	// Output: true
}

func TestOpenMember(t *testing.T) {
	for _, c := range []struct{ obj, want string }{
		{`{}`, `{"iat":1}`},
		{`{"a":2}`, `{"a":2,"iat":1}`},
	} {
		got := string(append(OpenMember([]byte(c.obj), "iat"), "1}"...))
		if got != c.want {
			t.Errorf("OpenMember(%s): %s, want %s", c.obj, got, c.want)
		}
	}
}
