package claimsjson

import (
	"encoding/json"
	"fmt"
	"math/bits"
	"reflect"
	"strconv"
	"unsafe"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/clip"
	"github.com/signet-go/signet/internal/jsonx"
)

// errScan is what the plan's scanner returns on text that jsonx would not
// have let through (it is only run on validated payloads).
var errScan = fmt.Errorf("%w: claims: invalid JSON", signet.ErrMalformed)

// maxNames is how many top-level names decode compares for the fold rule
// itself; past it (or with escaped, non-ASCII or nested names) it runs
// CheckFold.
const maxNames = 16

// decode fills the zero struct at v from payload, a JSON object that
// jsonx has validated, as encoding/json would; the registered members are
// left to the caller. fallback says encoding/json must decode this
// payload: a member folds onto a registered claim's name without being
// it. Unless folded, payload is held to the fold rule (CheckFold) too. On
// error, v is partly written: the caller drops it.
func (p *Plan) decode(s string, v unsafe.Pointer, folded bool) (fallback bool, err error) {
	var names [maxNames]string
	n := 0
	checkAll := false // CheckFold must run on the whole payload
	o := newObject(s)
	for {
		name, raw, esc, obj, ok := o.next()
		if !ok {
			break
		}
		if !folded {
			if obj || esc || n == maxNames || !isASCII(name) {
				checkAll = true
			} else {
				names[n] = name
				n++
			}
		}
		f, fb := p.lookup(name)
		if f != nil {
			if !f.decode(raw, unsafe.Add(v, f.off)) {
				return false, typeError(name, raw)
			}
		} else if fb {
			return true, nil
		}
	}
	if o.bad {
		return false, errScan
	}
	if folded {
		return false, nil
	}
	if checkAll {
		return false, CheckFold(s)
	}
	for a := 1; a < n; a++ {
		for b := range a {
			if len(names[a]) == len(names[b]) && equalFoldASCII(names[a], names[b]) {
				return false, errFoldDuplicate
			}
		}
	}
	return false, nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// equalFoldASCII compares two ASCII strings of the same length without
// regard to the case of letters.
func equalFoldASCII(a, b string) bool {
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if x == y {
			continue
		}
		if x|0x20 != y|0x20 || x|0x20 < 'a' || x|0x20 > 'z' {
			return false
		}
	}
	return true
}

// lookup finds encoding/json's field for a member: the one of that exact
// name, else the first whose name folds to the same. fallback says the
// name, not a registered claim's, folds onto one: encoding/json would hand
// it to the embedded registered claims' fields, with their codecs.
func (p *Plan) lookup(name string) (f *planField, fallback bool) {
	for k := range p.fields {
		if p.fields[k].name == name {
			return &p.fields[k], false
		}
	}
	for _, r := range p.reg {
		if r == name {
			return nil, false // the commonest unknown member
		}
	}
	for k := range p.fields {
		if foldEqual(name, p.fields[k].fold) {
			return &p.fields[k], false
		}
	}
	for _, r := range p.regFold {
		if foldEqual(name, r) {
			return nil, true
		}
	}
	return nil, false
}

func typeError(name, raw string) error {
	what := "an object"
	switch raw[0] {
	case '"':
		what = "a string"
	case '[':
		what = "an array"
	case 't', 'f':
		what = "a boolean"
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		what = "a number (or one out of range)"
	}
	return fmt.Errorf("%w: claims: member %q: cannot decode %s into its field", signet.ErrMalformed, clip.String(name), what)
}

// decode stores raw, a JSON value, into the field at fp as encoding/json
// would; false on a type encoding/json refuses.
func (f *planField) decode(raw string, fp unsafe.Pointer) bool { return f.c.decode(raw, fp) }

// decode stores raw, a JSON value that jsonx has validated, into the
// value at p (a zero one) as encoding/json would: null leaves it as it is
// (a zero slice, map, pointer or interface value is nil), except that a
// kJSON value gets it too (a json.Unmarshaler reads null itself); false
// on a type encoding/json refuses.
func (c *codec) decode(raw string, p unsafe.Pointer) bool {
	if raw == "" {
		return false
	}
	if c.kind == kJSON {
		// Into a new value, then copied: p, maybe on the stack, goes
		// nowhere (the value at p is a zero one, as the new one is).
		x := reflect.New(c.typ)
		if json.Unmarshal([]byte(raw), x.Interface()) != nil {
			return false
		}
		reflect.NewAt(c.typ, p).Elem().Set(x.Elem())
		return true
	}
	if raw == "null" {
		return true
	}
	switch c.kind {
	case kSlice:
		if raw[0] != '[' {
			return false
		}
		n, ok := countElems(raw)
		if !ok {
			return false
		}
		data := c.makeElems(n)
		i := skipWS(raw, 1)
		for k := range n {
			e, _ := skipValue(raw, i)
			if e < 0 || !c.elem.decode(raw[i:e], unsafe.Add(data, uintptr(k)*c.elemSize)) {
				return false
			}
			i = skipWS(raw, e)
			if i < len(raw) && raw[i] == ',' {
				i = skipWS(raw, i+1)
			}
		}
		*(*sliceHeader)(p) = sliceHeader{data: data, len: n, cap: n}
		return true
	case kMap:
		return decodeMap(raw, p)
	case kMapAny:
		if raw[0] != '{' {
			return false
		}
		m, ok := decodeObjectAny(raw)
		if ok {
			*(*map[string]any)(p) = m
		}
		return ok
	case kPtr:
		v := reflect.New(c.typ.Elem()).UnsafePointer()
		if !c.elem.decode(raw, v) {
			return false
		}
		*(*unsafe.Pointer)(p) = v
		return true
	case kStruct:
		return c.decodeStruct(raw, p)
	case kAny:
		v, ok := decodeAny(raw)
		if ok {
			*(*any)(p) = v
		}
		return ok
	}
	return decodeScalar(c.kind, raw, p)
}

// decodeStruct decodes the object raw into the struct at p: each member
// into the field of its name (or, failing that, the first whose name
// folds to the same), the others passed over.
func (c *codec) decodeStruct(raw string, p unsafe.Pointer) bool {
	if raw[0] != '{' {
		return false
	}
	o := newObject(raw)
	for {
		name, value, _, _, ok := o.next()
		if !ok {
			return !o.bad
		}
		if f := lookupField(c.fields, name); f != nil && !f.c.decode(value, unsafe.Add(p, f.off)) {
			return false
		}
	}
}

// lookupField is encoding/json's field for a member name: the one of that
// name, else the first whose name folds to the same; nil for none.
func lookupField(fields []planField, name string) *planField {
	if k := fieldIndex(fields, name); k >= 0 {
		return &fields[k]
	}
	return nil
}

// fieldIndex is lookupField's index, -1 for none.
func fieldIndex(fields []planField, name string) int {
	fp := nameFingerprint(name)
	for k := range fields {
		if fields[k].fp == fp && fields[k].name == name {
			return k
		}
	}
	return foldIndex(fields, name)
}

// fieldIndex is fieldIndex for the fields of a struct codec, which finds
// the field of an exact name through its slots.
func (c *codec) fieldIndex(name string) int {
	if c.slots == nil {
		return fieldIndex(c.fields, name)
	}
	switch e := c.slots[nameSlot(name)]; e {
	case slotNone:
	case slotShare:
		fp := nameFingerprint(name)
		for k := range c.fields {
			if c.fields[k].fp == fp && c.fields[k].name == name {
				return k
			}
		}
	default:
		if c.fields[e-1].name == name {
			return int(e - 1)
		}
	}
	// No field has this exact name (each is in its slot).
	return foldIndex(c.fields, name)
}

// foldIndex is the index of the first field whose name folds to name's,
// -1 for none.
func foldIndex(fields []planField, name string) int {
	for k := range fields {
		if foldEqual(name, fields[k].fold) {
			return k
		}
	}
	return -1
}

// nameFingerprint packs a name's length and its first and last bytes, so
// that most comparisons of different names stop at one integer compare.
func nameFingerprint(name string) uint32 {
	if name == "" {
		return 0
	}
	return uint32(len(name))<<16 | uint32(name[0])<<8 | uint32(name[len(name)-1])
}

// eachMember calls fn with the name (unescaped) and the value of each
// member of the object raw, in order, until fn returns false; false when
// fn does or raw is not an object.
func eachMember(raw string, fn func(name, value string) bool) bool {
	o := newObject(raw)
	for {
		name, value, _, _, ok := o.next()
		if !ok {
			return !o.bad
		}
		if !fn(name, value) {
			return false
		}
	}
}

// decodeAny decodes raw as encoding/json decodes into an empty interface:
// map[string]any, []any, string, float64, bool or nil.
func decodeAny(raw string) (any, bool) {
	switch raw[0] {
	case '"':
		s, err := jsonx.Unquote(raw)
		return s, err == nil
	case '{':
		return decodeObjectAny(raw)
	case '[':
		n, ok := countElems(raw)
		if !ok {
			return nil, false
		}
		a := make([]any, n)
		i := skipWS(raw, 1)
		for k := range n {
			e, _ := skipValue(raw, i)
			if e < 0 {
				return nil, false
			}
			if a[k], ok = decodeAny(raw[i:e]); !ok {
				return nil, false
			}
			i = skipWS(raw, e)
			if i < len(raw) && raw[i] == ',' {
				i = skipWS(raw, i+1)
			}
		}
		return a, true
	case 't':
		return true, raw == "true"
	case 'f':
		return false, raw == "false"
	case 'n':
		return nil, raw == "null"
	}
	f, err := strconv.ParseFloat(raw, 64)
	return f, err == nil
}

// decodeObjectAny decodes the object raw into a new map[string]any.
func decodeObjectAny(raw string) (map[string]any, bool) {
	m := map[string]any{}
	ok := eachMember(raw, func(name, value string) bool {
		v, ok := decodeAny(value)
		m[name] = v
		return ok
	})
	return m, ok
}

// countElems counts the elements of the array raw.
func countElems(raw string) (int, bool) {
	i := skipWS(raw, 1)
	if i < len(raw) && raw[i] == ']' {
		return 0, true
	}
	n := 0
	for {
		e, _ := skipValue(raw, i)
		if e < 0 {
			return 0, false
		}
		n++
		i = skipWS(raw, e)
		if i >= len(raw) {
			return 0, false
		}
		if raw[i] == ']' {
			return n, true
		}
		if raw[i] != ',' {
			return 0, false
		}
		i = skipWS(raw, i+1)
	}
}

// decodeMap decodes the object raw into a new map[string]string at fp.
func decodeMap(raw string, fp unsafe.Pointer) bool {
	if raw[0] != '{' {
		return false
	}
	m := map[string]string{}
	o := newObject(raw)
	for {
		key, value, _, _, ok := o.next()
		if !ok {
			break
		}
		var val string
		if !decodeScalar(kString, value, unsafe.Pointer(&val)) {
			return false
		}
		m[key] = val
	}
	if o.bad {
		return false
	}
	*(*map[string]string)(fp) = m
	return true
}

// intBits is the width of each int kind.
var intBits = [...]int{kInt: bits.UintSize, kInt8: 8, kInt16: 16, kInt32: 32, kInt64: 64,
	kUint: bits.UintSize, kUint8: 8, kUint16: 16, kUint32: 32, kUint64: 64, kUintptr: int(8 * unsafe.Sizeof(uintptr(0)))}

// decodeScalar stores raw into the value of kind k at p as encoding/json
// would: null leaves it as it is; a number goes to an int kind only when
// strconv.ParseInt (ParseUint) takes it whole and it fits, to a float kind
// when strconv.ParseFloat does.
func decodeScalar(k kind, raw string, p unsafe.Pointer) bool {
	if raw == "" {
		return false
	}
	if raw == "null" {
		return true
	}
	switch k {
	case kString:
		if raw[0] != '"' {
			return false
		}
		s, err := jsonx.Unquote(raw)
		if err != nil {
			return false
		}
		*(*string)(p) = s
		return true
	case kBool:
		switch raw {
		case "true":
			*(*bool)(p) = true
			return true
		case "false":
			*(*bool)(p) = false
			return true
		}
		return false
	}
	if c := raw[0]; c != '-' && (c < '0' || c > '9') {
		return false
	}
	switch k {
	case kInt, kInt8, kInt16, kInt32, kInt64:
		n, ok := smallInt(raw)
		if !ok || n < -1<<(intBits[k]-1) || n > 1<<(intBits[k]-1)-1 {
			var err error
			if n, err = strconv.ParseInt(raw, 10, intBits[k]); err != nil {
				return false
			}
		}
		switch k {
		case kInt:
			*(*int)(p) = int(n)
		case kInt8:
			*(*int8)(p) = int8(n)
		case kInt16:
			*(*int16)(p) = int16(n)
		case kInt32:
			*(*int32)(p) = int32(n)
		default:
			*(*int64)(p) = n
		}
		return true
	case kUint, kUint8, kUint16, kUint32, kUint64, kUintptr:
		v, ok := smallInt(raw)
		n := uint64(v)
		if !ok || v < 0 || raw[0] == '-' || n > 1<<intBits[k]-1 {
			var err error
			if n, err = strconv.ParseUint(raw, 10, intBits[k]); err != nil {
				return false
			}
		}
		switch k {
		case kUint:
			*(*uint)(p) = uint(n)
		case kUint8:
			*(*uint8)(p) = uint8(n)
		case kUint16:
			*(*uint16)(p) = uint16(n)
		case kUint32:
			*(*uint32)(p) = uint32(n)
		case kUintptr:
			*(*uintptr)(p) = uintptr(n)
		default:
			*(*uint64)(p) = n
		}
		return true
	case kFloat32:
		f, err := strconv.ParseFloat(raw, 32)
		if err != nil {
			return false
		}
		*(*float32)(p) = float32(f)
		return true
	case kFloat64:
		f, err := strconv.ParseFloat(raw, 64)
		if err != nil {
			return false
		}
		*(*float64)(p) = f
		return true
	}
	return false
}

// smallInt parses raw when it is an optional minus and 1 to 18 digits,
// the common case, without strconv; ok is false otherwise (strconv then
// decides).
func smallInt(raw string) (v int64, ok bool) {
	d := raw
	if len(d) > 0 && d[0] == '-' {
		d = d[1:]
	}
	if len(d) == 0 || len(d) > 18 {
		return 0, false
	}
	for i := 0; i < len(d); i++ {
		c := d[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if len(d) != len(raw) {
		v = -v
	}
	return v, true
}
