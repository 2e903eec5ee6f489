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
)

// errScan is what the plan returns when what it is given does not fit
// together: a Rest of another payload, a Taker that met the members of a
// payload read in the plain shape too.
var errScan = fmt.Errorf("%w: claims: invalid JSON", signet.ErrMalformed)

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

// fieldIndex is the index of encoding/json's field for a member name: the
// one of that name, else the first whose name folds to the same; -1 for
// none.
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

// intBits is the width of each int kind.
var intBits = [...]int{kInt: bits.UintSize, kInt8: 8, kInt16: 16, kInt32: 32, kInt64: 64,
	kUint: bits.UintSize, kUint8: 8, kUint16: 16, kUint32: 32, kUint64: 64, kUintptr: int(8 * unsafe.Sizeof(uintptr(0)))}

// decodeJSON stores raw, a JSON value that jsonx has validated, into the
// value at p (a zero one) of a kJSON codec with encoding/json, null
// included (a json.Unmarshaler reads null itself); false on a value
// encoding/json refuses.
func (c *codec) decodeJSON(raw string, p unsafe.Pointer) bool {
	// Into a new value, then copied: p, maybe on the stack, goes nowhere
	// (the value at p is a zero one, as the new one is).
	x := reflect.New(c.typ)
	if json.Unmarshal([]byte(raw), x.Interface()) != nil {
		return false
	}
	reflect.NewAt(c.typ, p).Elem().Set(x.Elem())
	return true
}

// decodeNumber stores raw, a JSON number, into the value of k, a number
// kind, at p as encoding/json would: to an int kind only when
// strconv.ParseInt (ParseUint) takes it whole and it fits, to a float kind
// when strconv.ParseFloat does; false otherwise.
func decodeNumber(k kind, raw string, p unsafe.Pointer) bool {
	if raw == "" {
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
