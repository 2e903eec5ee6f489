package claimsjson

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// A Plan codes the members of a caller's claims type T that are not the
// format's registered claims, the way encoding/json would, without
// reflection on the hot path: it is worked out once per type (Filter.Plan)
// as a tree of codecs, a struct's being a list of fields (a JSON name, an
// offset and the field's codec), and then run with unsafe offsets.
//
// The plan codes strings, booleans, numbers, slices, pointers, nested and
// embedded structs (encoding/json's rules for promoted fields and names
// that collide), interface values (any: objects, arrays, strings, float64,
// booleans, null) and maps of strings to strings or to interface values
// itself; tags may name a field, leave it out ("-") and say omitempty. A
// value of any other type, or of a type with methods of its own
// (json.Marshaler, json.Unmarshaler, encoding.TextMarshaler or
// encoding.TextUnmarshaler, on its value or its pointer: time.Time,
// json.RawMessage, json.Number), goes to encoding/json, that value alone
// (a kJSON codec). T has no Plan, and goes through encoding/json as a
// whole, when T itself has such methods, when a field of T has the
// "string" or "omitzero" option (a nested struct with them is coded by
// encoding/json as one value), when T embeds a struct through a pointer,
// and when a tag names the embedded registered claims (encoding/json then
// writes them as a member of that name).
//
// Decoding has one reader (plan_read.go), which decodes a value and
// validates it with jsonx's rules in the same pass, and two ways in: a
// Taker, which a format's claims reader hands each member the plan takes
// as it walks the payload, and Finish, for the members a reader of the
// plain shape passed over (Rest), read at their positions in the payload.
// A pointer to a struct is allocated together with the structs its
// pointer fields point to (ptrBlock).
//
// Encoding refuses a value nested deeper than jsonx.MaxDepth (a pointer
// cycle, or a token no verifier here would read back). Decoded strings
// without escapes are views of the verified payload, not copies: a string
// a caller keeps keeps that payload (at most the policy's MaxSize) alive.
type Plan struct {
	fields []planField
	// off is the offset in T of the embedded registered claims.
	off uintptr
	// reg are the registered claims' names, regFold their foldName.
	reg, regFold []string
	claims       reflect.Type // the registered claims' type
	// ptr says T is a pointer to the struct the fields are in.
	ptr  bool
	elem reflect.Type // the struct, when ptr
}

// kind is what a codec codes.
type kind uint8

const (
	kString kind = iota
	kBool
	kInt
	kInt8
	kInt16
	kInt32
	kInt64
	kUint
	kUint8
	kUint16
	kUint32
	kUint64
	kUintptr
	kFloat32
	kFloat64
	kSlice  // of elem
	kMap    // map[string]string
	kMapAny // map[string]any
	kPtr    // to elem
	kStruct // fields
	kAny    // an empty interface
	kJSON   // encoding/json's
)

// planField is one field that a Plan (or a struct codec) codes.
type planField struct {
	name      string // JSON name
	fp        uint32 // nameFingerprint(name)
	fold      string // foldName(name): encoding/json's case-insensitive key
	key       string // `"name":` as encoding/json writes it (HTML-escaped)
	off       uintptr
	omitEmpty bool
	c         *codec
}

// sliceHeader is the memory layout of every slice.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// newElems returns the data of a new []E of length n (non-nil for n = 0).
func newElems[E any](n int) unsafe.Pointer {
	return unsafe.Pointer(unsafe.SliceData(make([]E, n)))
}

var (
	marshalerType       = reflect.TypeFor[json.Marshaler]()
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textMarshalerType   = reflect.TypeFor[encoding.TextMarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	numberType          = reflect.TypeFor[json.Number]()
	stringType          = reflect.TypeFor[string]()
)

// hasCodec reports whether encoding/json would code t (or *t) by its own
// methods rather than by its kind.
func hasCodec(t reflect.Type) bool {
	for _, x := range []reflect.Type{t, reflect.PointerTo(t)} {
		if x.Implements(marshalerType) || x.Implements(unmarshalerType) ||
			x.Implements(textMarshalerType) || x.Implements(textUnmarshalerType) {
			return true
		}
	}
	return t == numberType
}

// scalarKind is the kind of a scalar type the plan codes.
func scalarKind(t reflect.Type) (kind, bool) {
	if hasCodec(t) {
		return 0, false
	}
	switch t.Kind() {
	case reflect.String:
		return kString, true
	case reflect.Bool:
		return kBool, true
	case reflect.Int:
		return kInt, true
	case reflect.Int8:
		return kInt8, true
	case reflect.Int16:
		return kInt16, true
	case reflect.Int32:
		return kInt32, true
	case reflect.Int64:
		return kInt64, true
	case reflect.Uint:
		return kUint, true
	case reflect.Uint8:
		return kUint8, true
	case reflect.Uint16:
		return kUint16, true
	case reflect.Uint32:
		return kUint32, true
	case reflect.Uint64:
		return kUint64, true
	case reflect.Uintptr:
		return kUintptr, true
	case reflect.Float32:
		return kFloat32, true
	case reflect.Float64:
		return kFloat64, true
	}
	return 0, false
}

// elemMaker returns the allocator of a slice's backing array for an
// element kind: an array of the kind's own type, which a named element
// type of that kind (a []Role of type Role string) shares its layout, and
// its pointers, with; the elements are zero.
func elemMaker(k kind) func(int) unsafe.Pointer {
	switch k {
	case kString:
		return newElems[string]
	case kBool:
		return newElems[bool]
	case kInt:
		return newElems[int]
	case kInt8:
		return newElems[int8]
	case kInt16:
		return newElems[int16]
	case kInt32:
		return newElems[int32]
	case kInt64:
		return newElems[int64]
	case kUint:
		return newElems[uint]
	case kUint8:
		return newElems[uint8]
	case kUint16:
		return newElems[uint16]
	case kUint32:
		return newElems[uint32]
	case kUint64:
		return newElems[uint64]
	case kUintptr:
		return newElems[uintptr]
	case kFloat32:
		return newElems[float32]
	case kFloat64:
		return newElems[float64]
	}
	return nil
}

// validTag is encoding/json's rule for a name a tag may give.
func validTag(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

// hasOption reports whether the comma-separated opts hold o.
func hasOption(opts, o string) bool {
	for opts != "" {
		var s string
		s, opts, _ = strings.Cut(opts, ",")
		if s == o {
			return true
		}
	}
	return false
}

// newPlan works out the Plan of t (a struct or a pointer to one that
// Filter.Can took), or nil when encoding/json must code it.
func newPlan(t reflect.Type, claims reflect.Type) *Plan {
	p := &Plan{}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
		p.ptr, p.elem = true, t
	}
	if t.Kind() != reflect.Struct || hasCodec(t) {
		return nil
	}
	_, skipped, named, ok := structFields(t, claims)
	if !ok || named || len(skipped) != 1 {
		return nil
	}
	b := builder{codecs: map[reflect.Type]*codec{}}
	fields, ok := b.structCodec(t, claims)
	if !ok {
		return nil
	}
	b.setBlocks()
	b.markCycles()
	p.fields, p.off = fields, skipped[0]
	return p
}

// Registered returns the address of the registered claims embedded in the
// T at p (which must be a value of the Plan's type, not a pointer to it,
// when the Plan is for a pointer type: see Decode).
func (p *Plan) Registered(v unsafe.Pointer) unsafe.Pointer { return unsafe.Add(v, p.off) }

// foldName is encoding/json's key for case-insensitive matching: ASCII
// letters upper-cased, every other rune the least of its simple folding
// orbit.
func foldName(s string) []byte {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if r < 0x80 {
			c := byte(r)
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			b = append(b, c)
			continue
		}
		b = utf8.AppendRune(b, foldRune(r))
	}
	return b
}

// foldRune is the least rune of r's simple case-folding orbit.
func foldRune(r rune) rune {
	least := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		least = min(least, f)
	}
	return least
}

// foldEqual reports whether foldName(name) == folded, without making it.
func foldEqual(name, folded string) bool {
	j := 0
	for i := 0; i < len(name); {
		c := name[i]
		if c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			if j >= len(folded) || folded[j] != c {
				return false
			}
			i++
			j++
			continue
		}
		r, n := utf8.DecodeRuneInString(name[i:])
		i += n
		f, m := utf8.DecodeRuneInString(folded[j:])
		if j >= len(folded) || f != foldRune(r) {
			return false
		}
		j += m
	}
	return j == len(folded)
}
