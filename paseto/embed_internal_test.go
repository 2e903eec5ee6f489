package paseto

import (
	"reflect"
	"testing"
	"time"
)

// TestEmbedsByValue: encodeAny normalizes the times of Claims that are
// part of its own copy of the value, decided by the type alone (no pointer
// arithmetic); Claims reached through a pointer are the caller's.
func TestEmbedsByValue(t *testing.T) {
	type value struct {
		Claims
		Role string
	}
	type pointer struct {
		*Claims
		Role string
	}
	type deep struct {
		value
		N int
	}
	type throughPointer struct {
		*value
		N int
	}
	type named struct {
		C Claims // a field, not embedded
	}
	type shadowed struct {
		Claims string
		value
	}
	for typ, want := range map[reflect.Type]bool{
		reflect.TypeFor[Claims]():         false, // Claims itself takes the fast path
		reflect.TypeFor[value]():          true,
		reflect.TypeFor[*value]():         false,
		reflect.TypeFor[pointer]():        false,
		reflect.TypeFor[deep]():           true,
		reflect.TypeFor[throughPointer](): false,
		reflect.TypeFor[named]():          false,
		reflect.TypeFor[shadowed]():       false, // not known to be: left as written
		reflect.TypeFor[map[string]any](): false,
	} {
		if got := embedsByValue(typ); got != want {
			t.Errorf("%v: %v, want %v", typ, got, want)
		}
	}

	// Through encodeAny: a type the splitter does not take (another
	// embedded struct) still gets UTC whole seconds; a pointer's Claims
	// are left as the caller has them.
	type extra struct {
		Role string `json:"role,omitempty"`
	}
	type odd struct {
		Claims
		extra
	}
	exp := time.Date(2030, 1, 1, 12, 0, 0, 500, time.FixedZone("", 3600))
	o := Options{Now: func() time.Time { return exp }}
	io := o.issue()
	b, err := encodeAny(odd{Claims: Claims{ExpiresAt: exp}}, &io)
	if err != nil || !reflect.DeepEqual(string(b)[:len(`{"exp":"2030-01-01T11:00:00Z"`)], `{"exp":"2030-01-01T11:00:00Z"`) {
		t.Fatalf("%s %v", b, err)
	}
	shared := &odd{Claims: Claims{ExpiresAt: exp}}
	if _, err := encodeAny(shared, &io); err != nil || shared.ExpiresAt != exp {
		t.Fatalf("the caller's value changed: %v %v", shared.ExpiresAt, err)
	}
}
