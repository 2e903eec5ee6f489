package claimsjson

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/jsonx"
)

// A Filter splits the work on a caller's claims type T that embeds a
// format's registered-claims struct (jwt.Claims, paseto.Claims): the
// format's own codec reads and writes the registered members (and has
// validated them), encoding/json only the others. That skips
// encoding/json's slowest part on a typical token, the custom codecs of
// the audience and the dates. Whether T may be split is worked out once
// per type, by reflection, and remembered; the hot path only looks it up.
//
// Types that also have a Plan (see Plan) skip encoding/json altogether.
// A Plan decodes payloads of any size (it makes no copy), so MaxSplit does
// not apply to it.
type Filter struct {
	claims reflect.Type
	names  []string
	folds  []string // foldName of each name
	types  sync.Map // reflect.Type → *typeInfo
	// last is the last one looked up: most programs use one type.
	last atomic.Pointer[typeInfo]
}

// typeInfo is what a Filter worked out about a type.
type typeInfo struct {
	t    reflect.Type
	can  bool
	plan *Plan // nil: no plan
}

// MaxSplit is the largest payload decoded in two parts. Past it,
// encoding/json's own pass over the application data dominates, and
// copying the payload without its registered members would cost another
// pass for nothing.
const MaxSplit = 8 << 10

// NewFilter returns the Filter of a registered-claims type and the JSON
// names of its fields.
func NewFilter(claims reflect.Type, names ...string) *Filter {
	f := &Filter{claims: claims, names: names}
	for _, n := range names {
		f.folds = append(f.folds, string(foldName(n)))
	}
	return f
}

// Can reports whether t (or what it points to) is a struct that embeds the
// registered-claims type by value and has no other field that could take a
// registered member: encoding/json matches names case-insensitively, and a
// shallower field would win over the embedded one.
func (f *Filter) Can(t reflect.Type) bool { return f.info(t).can }

// Plan returns the Plan of t, nil when t has none (Can refuses it, or a
// field needs encoding/json).
func (f *Filter) Plan(t reflect.Type) *Plan { return f.info(t).plan }

// Lookup is Plan and Can in one look-up.
func (f *Filter) Lookup(t reflect.Type) (plan *Plan, can bool) {
	in := f.info(t)
	return in.plan, in.can
}

func (f *Filter) info(t reflect.Type) *typeInfo {
	if in := f.last.Load(); in != nil && in.t == t {
		return in
	}
	if v, ok := f.types.Load(t); ok {
		in := v.(*typeInfo)
		f.last.Store(in)
		return in
	}
	in := &typeInfo{t: t, can: f.can(t)}
	if in.can {
		if in.plan = newPlan(t, f.claims); in.plan != nil {
			in.plan.reg, in.plan.regFold, in.plan.claims = f.names, f.folds, f.claims
		}
	}
	v, _ := f.types.LoadOrStore(t, in)
	return v.(*typeInfo)
}

func (f *Filter) can(t reflect.Type) bool {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return false
	}
	// The fields encoding/json codes besides the registered claims,
	// promoted ones included: none may take a registered member.
	// (Registered claims embedded under a tag name are the split's: it
	// writes them as a format's, and the member of that name empty.)
	fields, skipped, _, ok := structFields(t, f.claims)
	if !ok || len(skipped) != 1 {
		return false
	}
	for _, fl := range fields {
		for _, r := range f.folds {
			if foldEqual(fl.name, r) {
				return false
			}
		}
	}
	return true
}

func (f *Filter) registered(name string) bool {
	for _, r := range f.names {
		if name == r {
			return true
		}
	}
	return false
}

// Without returns the object payload (valid JSON) without its top-level
// registered members, "{}" when nothing else is left: a new slice, the
// caller's to hand to encoding/json.
func (f *Filter) Without(payload string) []byte {
	m := jsonx.NewMembers(payload)
	var b []byte
	n := 0
	for m.Next(payload) {
		if f.registered(m.Name(payload)) {
			continue
		}
		if b == nil {
			b = make([]byte, 0, len(payload))
			b = append(b, '{')
		}
		if n > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, m.RawName(payload)...)
		b = append(b, '"', ':')
		b = append(b, m.Value(payload)...)
		n++
	}
	if b == nil {
		return []byte("{}")
	}
	return append(b, '}')
}

// Folds reports whether a payload decoded into T goes through encoding/json's
// case-insensitive field matching (anything but the format's claims map M
// and json.RawMessage): the claims scan may then apply the fold rule
// (jsonx.NewMembersFold) and spare Into its pass.
func Folds[T, M any]() bool {
	var out T
	_, asMap := any(&out).(*M)
	_, raw := any(&out).(*json.RawMessage)
	return !asMap && !raw
}

// Join appends to reg, a JSON object, the members of rest, another one.
func Join(reg, rest []byte) []byte {
	if len(rest) <= 2 {
		return reg
	}
	if len(reg) > 2 {
		reg[len(reg)-1] = ','
	} else {
		reg = reg[:1]
	}
	return append(reg, rest[1:]...)
}

// OpenMember readies obj, a JSON object, for one more member: it drops the
// closing brace and writes a comma (unless obj is {}) and "name":, name
// being one that needs no escape. The caller appends the value and '}'.
func OpenMember(obj []byte, name string) []byte {
	obj = obj[:len(obj)-1]
	if len(obj) > 1 {
		obj = append(obj, ',')
	}
	obj = append(obj, '"')
	obj = append(obj, name...)
	return append(obj, '"', ':')
}

// PlanFor returns the Plan of T (see Plan), nil when T has none.
func PlanFor[T any](f *Filter) *Plan {
	t := reflect.TypeFor[T]()
	if k := t.Kind(); k != reflect.Struct && k != reflect.Pointer {
		return nil
	}
	return f.Plan(t)
}

// Into decodes a verified payload into a new T for a format whose claims
// map type is M (numbers come back as json.Number) and whose registered
// claims f describes. When T embeds the registered claims, their members
// are skipped (up to MaxSplit): the caller sets them to the validated
// ones, as it must for every T that embeds them.
//
// folded says the payload was already scanned with jsonx's fold rule
// (NewMembersFold), so CheckFold's pass is not made again.
func Into[T, M any](payload string, f *Filter, folded bool) (T, error) {
	var out T
	byFields := Folds[T, M]()
	if byFields && len(payload) <= MaxSplit && f.Can(reflect.TypeFor[T]()) {
		if !folded {
			if err := CheckFold(payload); err != nil {
				var zero T
				return zero, err
			}
		}
		// Without's slice is a fresh copy: it goes to encoding/json as it is.
		if err := json.Unmarshal(f.Without(payload), &out); err != nil {
			var zero T
			return zero, fmt.Errorf("%w: claims: %v", signet.ErrMalformed, err)
		}
		return out, nil
	}
	_, asMap := any(&out).(*M)
	if err := Decode(payload, &out, asMap, !byFields || folded); err != nil {
		var zero T
		return zero, err
	}
	return out, nil
}
