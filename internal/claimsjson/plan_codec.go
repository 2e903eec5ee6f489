package claimsjson

import (
	"reflect"
	"strconv"
	"unsafe"
)

// A codec codes one Go type that a Plan reaches: a scalar kind, or a
// slice, pointer, map, nested struct or interface value made of codecs,
// or (kJSON) a type that encoding/json codes by its own rules: one with
// methods of its own (time.Time, json.RawMessage, json.Number, a
// json.Unmarshaler), an array, a map other than of strings to strings or
// to interface values, a struct with options the plan does not take. A
// kJSON value costs encoding/json's work on that value only.
type codec struct {
	kind kind
	typ  reflect.Type
	// elem is what a slice, pointer or map holds.
	elem *codec
	// elemSize and makeElems make a slice's backing array.
	elemSize  uintptr
	makeElems func(n int) unsafe.Pointer
	// fields are a struct's, in encoding/json's order.
	fields []planField
	// empty is omitempty's test for a kJSON value.
	empty func(p unsafe.Pointer) bool
	// distinct says a struct's fields are at most 64 and no two of their
	// names fold to the same: two members that reach one field are then
	// two members of one name under the fold rule (see readStruct).
	distinct bool
	// slots find a struct's field by its exact name (see fieldIndex).
	slots *[256]uint8
	// block, for a pointer to a struct, is what the reader allocates for
	// it: the struct and the structs its pointer fields point to, in one
	// allocation (see blockOf).
	block *ptrBlock
	// cycle, for a pointer, says that its elements are pointers that
	// lead back to it (type P *P): no value ends the chain, so the
	// reader takes none but null (see markCycles).
	cycle bool
}

// ptrBlock is a struct allocated with the structs that its pointer
// fields point to: typ is struct{M S; K0 A; K1 B; ...}, and kid[k] the
// offset in it of field k's struct, 0 for a field without one.
type ptrBlock struct {
	typ reflect.Type
	kid []uintptr
}

// maxBlock bounds a ptrBlock: the structs of fields a payload leaves out
// are allocated all the same, and live as long as the rest.
const maxBlock = 512

// setBlocks gives every pointer-to-struct codec b made its block.
func (b *builder) setBlocks() {
	for _, c := range b.codecs {
		if c.kind == kPtr && c.elem.kind == kStruct {
			c.block = blockOf(c)
		}
	}
}

// markCycles marks every pointer codec b made whose chain of pointers
// leads back to itself (type P *P, or type A *B with type B *A).
// encoding/json, given a value for one, allocates pointers for ever; the
// reader, which does not count pointers as depth, would recurse until the
// stack overflowed, a fatal error.
func (b *builder) markCycles() {
	for _, c := range b.codecs {
		if c.kind != kPtr {
			continue
		}
		for e, n := c.elem, 0; e.kind == kPtr && n <= len(b.codecs); e, n = e.elem, n+1 {
			if e == c {
				c.cycle = true
				break
			}
		}
	}
}

// blockOf works out the block of c, a pointer to a struct S: S and, for
// each pointer field of S to another struct (not S), that struct; nil
// when S has none, or the block would be larger than maxBlock.
func blockOf(c *codec) (blk *ptrBlock) {
	st := c.typ.Elem()
	fields := []reflect.StructField{{Name: "M", Type: st}}
	var which []int
	size := st.Size()
	for k, f := range c.elem.fields {
		if f.c.kind != kPtr || f.c.elem.kind != kStruct {
			continue
		}
		kt := f.c.typ.Elem()
		if kt == st || size+kt.Size() > maxBlock {
			continue
		}
		size += kt.Size()
		fields = append(fields, reflect.StructField{Name: "K" + strconv.Itoa(k), Type: kt})
		which = append(which, k)
	}
	if len(which) == 0 {
		return nil
	}
	defer func() {
		if recover() != nil {
			blk = nil // a struct reflect.StructOf cannot make: no block
		}
	}()
	bt := reflect.StructOf(fields)
	blk = &ptrBlock{typ: bt, kid: make([]uintptr, len(c.elem.fields))}
	for n, k := range which {
		blk.kid[k] = bt.Field(n + 1).Offset
	}
	return blk
}

// Slot values other than a field's index plus one.
const (
	slotNone  = 0   // no field's name hashes here
	slotShare = 255 // two or more do: look at each
)

// nameSlots indexes fields by the hash of their names (nameSlot); nil
// when there are 255 fields or more.
func nameSlots(fields []planField) *[256]uint8 {
	if len(fields) >= slotShare {
		return nil
	}
	t := new([256]uint8)
	for k := range fields {
		h := nameSlot(fields[k].name)
		if t[h] == slotNone {
			t[h] = uint8(k + 1)
		} else {
			t[h] = slotShare
		}
	}
	return t
}

// nameSlot hashes a name by its length and its first and last bytes.
func nameSlot(name string) uint8 {
	if name == "" {
		return 0
	}
	return uint8(len(name)*31 + int(name[0])*7 + int(name[len(name)-1]))
}

// foldDistinct reports whether fields are at most 64 and their names
// fold (foldName) to different keys.
func foldDistinct(fields []planField) bool {
	if len(fields) > 64 {
		return false
	}
	for a := range fields {
		for b := range a {
			if fields[a].fold == fields[b].fold {
				return false
			}
		}
	}
	return true
}

// scalarCodecs are the codecs of the scalar kinds (read only).
var scalarCodecs = func() (c [kFloat64 + 1]codec) {
	for k := range c {
		c[k].kind = kind(k)
	}
	return c
}()

var anyType = reflect.TypeFor[any]()

// builder works out the codecs of a type and of the types it reaches,
// each once (a recursive type reaches itself).
type builder struct {
	codecs map[reflect.Type]*codec
}

// codecOf returns t's codec.
func (b *builder) codecOf(t reflect.Type) *codec {
	if c, ok := b.codecs[t]; ok {
		return c
	}
	if k, ok := scalarKind(t); ok {
		return &scalarCodecs[k]
	}
	c := &codec{typ: t}
	b.codecs[t] = c // before the parts: a recursive type finds itself
	switch {
	case hasCodec(t):
		b.jsonCodec(c)
	case t.Kind() == reflect.Slice && t.Elem().Kind() != reflect.Uint8:
		// ([]byte, of any uint8 kind, is base64 for encoding/json.)
		et := t.Elem()
		c.kind, c.elem, c.elemSize = kSlice, b.codecOf(et), et.Size()
		if ek, ok := scalarKind(et); ok {
			c.makeElems = elemMaker(ek)
		} else {
			st := reflect.SliceOf(et)
			c.makeElems = func(n int) unsafe.Pointer { return reflect.MakeSlice(st, n, n).UnsafePointer() }
		}
	case t.Kind() == reflect.Map && t.Key() == stringType && t.Elem() == stringType:
		c.kind = kMap
	case t.Kind() == reflect.Map && t.Key() == stringType && t.Elem() == anyType:
		c.kind = kMapAny
	case t.Kind() == reflect.Pointer:
		c.kind, c.elem = kPtr, b.codecOf(t.Elem())
	case t.Kind() == reflect.Interface && t.NumMethod() == 0:
		c.kind = kAny
	case t.Kind() == reflect.Struct:
		fields, ok := b.structCodec(t, nil)
		if !ok {
			b.jsonCodec(c)
			break
		}
		c.kind, c.fields, c.distinct, c.slots = kStruct, fields, foldDistinct(fields), nameSlots(fields)
	default:
		b.jsonCodec(c)
	}
	return c
}

// structCodec returns the fields of the struct t (without the embedded
// skip, see structFields); ok is false when a field has options the plan
// does not take, or structFields leaves t to encoding/json.
func (b *builder) structCodec(t, skip reflect.Type) (fields []planField, ok bool) {
	fs, _, _, ok := structFields(t, skip)
	if !ok {
		return nil, false
	}
	for _, sf := range fs {
		if hasOption(sf.opts, "omitzero") {
			return nil, false
		}
		if hasOption(sf.opts, "string") {
			// encoding/json quotes the scalars of a ",string" field (behind
			// an unnamed pointer too: *int), and ignores the option on the
			// others.
			ft := sf.typ
			if ft.Name() == "" && ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			switch ft.Kind() {
			case reflect.Bool, reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
				reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
				reflect.Float32, reflect.Float64:
				return nil, false
			}
		}
		fields = append(fields, planField{
			name: sf.name, fp: nameFingerprint(sf.name), fold: string(foldName(sf.name)), key: string(appendString(nil, sf.name)) + ":",
			off: sf.off, omitEmpty: hasOption(sf.opts, "omitempty"), c: b.codecOf(sf.typ),
		})
	}
	return fields, true
}

// jsonCodec makes c encoding/json's.
func (b *builder) jsonCodec(c *codec) {
	t := c.typ
	c.kind = kJSON
	switch t.Kind() {
	case reflect.Array:
		n := t.Len()
		c.empty = func(unsafe.Pointer) bool { return n == 0 }
	case reflect.Map, reflect.Slice:
		c.empty = func(p unsafe.Pointer) bool { return reflect.NewAt(t, p).Elem().Len() == 0 }
	case reflect.Pointer, reflect.Interface:
		c.empty = func(p unsafe.Pointer) bool { return reflect.NewAt(t, p).Elem().IsNil() }
	case reflect.Struct:
		c.empty = func(unsafe.Pointer) bool { return false }
	default:
		// The scalar kinds, with a codec of their own: omitempty looks at
		// the value all the same.
		c.empty = func(p unsafe.Pointer) bool { return isEmptyValue(reflect.NewAt(t, p).Elem()) }
	}
}

// isEmptyValue is encoding/json's omitempty test of a scalar.
func isEmptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	}
	return false
}

// noescape hides p from escape analysis. The codecs reach reflect (a
// kJSON value), which the compiler takes for keeping p, and would move
// every value the plan runs on, the caller's stack copy of its claims
// included, to the heap. No codec keeps p past its call: a kJSON codec
// copies the value at p to or from a heap value of its own with
// reflect.Value.Set, and only that one goes to encoding/json.
//
// Not inlined: inlined, the compiler forwards the uintptr it stores to
// the load, and keeps the result in a uintptr slot across calls (Append's
// loop). Such a slot is neither adjusted when the goroutine's stack moves
// (encoding/json, for a kJSON value, can grow it) nor a GC root: Append
// then read the next field from the old, freed stack. A call returns an
// unsafe.Pointer, which the caller spills as a pointer.
//
// Not instrumented by checkptr (-race, -msan and -asan turn it on): its
// check of the load is a call, which may grow the stack while x, a
// uintptr, holds the old address (TestStackGrowthEverywhere).
//
//go:noinline
//go:nocheckptr
func noescape(p unsafe.Pointer) unsafe.Pointer {
	//lint:ignore SA4016 the arithmetic is the point: escape analysis follows no flow through it
	x := uintptr(p) ^ 0
	return *(*unsafe.Pointer)(unsafe.Pointer(&x))
}

// noescapeBytes is noescape for a slice's array (a caller's stack buffer):
// the encoder appends to it and keeps no reference to it.
func noescapeBytes(b []byte) []byte {
	return unsafe.Slice((*byte)(noescape(unsafe.Pointer(unsafe.SliceData(b)))), cap(b))[:len(b)]
}
