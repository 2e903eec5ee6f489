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
// as a list of fields, each a JSON name, an offset into T and a kind, and
// then run with unsafe offsets.
//
// A type has a Plan when Filter.Can takes it and every other field it
// codes is one of: string, bool, an int or uint kind, float32, float64, a
// slice of those (not of a uint8 kind, which encoding/json writes as
// base64), or map[string]string; tags may name the field, leave it out
// ("-") and say omitempty. Anything else makes the whole type go through
// encoding/json as before: the "string" and "omitzero" options, names
// repeated, interfaces, pointers, structs, arrays, json.Number, and any
// type (T itself, a field's, an element's or a key's) with a method of
// json.Marshaler, json.Unmarshaler, encoding.TextMarshaler or
// encoding.TextUnmarshaler on its value or its pointer, and a tag that
// names the embedded registered claims (encoding/json then writes them as
// a member of that name).
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

// kind is what a field or a slice's element holds, by memory layout.
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
	kSlice // of elem
	kMap   // map[string]string
)

// planField is one field that a Plan codes.
type planField struct {
	name      string // JSON name
	fold      string // foldName(name): encoding/json's case-insensitive key
	key       string // `"name":` as encoding/json writes it (HTML-escaped)
	off       uintptr
	kind      kind
	elem      kind                       // element kind of a slice
	elemSize  uintptr                    // element size of a slice
	makeElems func(n int) unsafe.Pointer // a new backing array of n zero elements
	omitEmpty bool
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

// fieldName is the JSON name encoding/json gives a field, and its tag's
// options; skip says the field is not coded (tag "-").
func fieldName(f reflect.StructField) (name, opts string, skip bool) {
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", "", true
	}
	name, opts, _ = strings.Cut(tag, ",")
	if !validTag(name) {
		name = f.Name
	}
	return name, opts, false
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
	embeds := false
	seen := map[string]bool{}
	for i := range t.NumField() {
		sf := t.Field(i)
		if sf.Anonymous && sf.Type == claims {
			if tag := sf.Tag.Get("json"); tag != "-" {
				if name, _, _ := strings.Cut(tag, ","); validTag(name) {
					// encoding/json codes it as a member of that name,
					// not as embedded: the split (Into, and the formats'
					// encoders of embedded claims) has its bytes and
					// errors.
					return nil
				}
			}
			p.off, embeds = sf.Offset, true
			continue
		}
		if !sf.IsExported() && !sf.Anonymous {
			continue
		}
		name, opts, skip := fieldName(sf)
		if skip {
			continue
		}
		if sf.Anonymous || hasOption(opts, "string") || hasOption(opts, "omitzero") || seen[name] {
			return nil
		}
		seen[name] = true
		f := planField{name: name, fold: string(foldName(name)), off: sf.Offset, omitEmpty: hasOption(opts, "omitempty")}
		f.key = string(appendString(nil, name)) + ":"
		if k, ok := scalarKind(sf.Type); ok {
			f.kind = k
		} else {
			switch ft := sf.Type; {
			case hasCodec(ft):
				return nil
			case ft.Kind() == reflect.Slice:
				ek, ok := scalarKind(ft.Elem())
				if !ok || ft.Elem().Kind() == reflect.Uint8 {
					return nil
				}
				f.kind, f.elem, f.elemSize, f.makeElems = kSlice, ek, ft.Elem().Size(), elemMaker(ek)
			case ft.Kind() == reflect.Map:
				// Keys and values of type string itself: the plan makes a
				// map[string]string, which a named map type of those
				// converts from.
				if ft.Key() != stringType || ft.Elem() != stringType {
					return nil
				}
				f.kind = kMap
			default:
				return nil
			}
		}
		p.fields = append(p.fields, f)
	}
	if !embeds {
		return nil
	}
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
