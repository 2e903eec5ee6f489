package claimsjson

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"github.com/signet-go/signet/internal/unsafex"
	"math"
	"math/bits"
	"reflect"
	"slices"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/jsonx"
)

// Append appends the members the Plan codes of the T at v (a struct value,
// also for a Plan of a pointer type) to obj, a JSON object, and returns
// it: the bytes encoding/json writes for them, in its order, as Join
// would add them. A NaN or an infinity is refused (ErrMalformed), as
// encoding/json refuses it, and so is a value nested deeper than
// jsonx.MaxDepth.
func (p *Plan) Append(obj []byte, v unsafe.Pointer) ([]byte, error) {
	obj = obj[:len(obj)-1] // the closing brace
	// v, and obj's array, are often the caller's stack memory, which no
	// codec keeps: hidden from escape analysis where they go to the
	// codecs (see noescape), they stay there. (Append itself writes to
	// obj in plain sight: the compiler must know that it does.)
	sv := noescape(v)
	// The fields of a T reached through a pointer are addressable, as
	// encoding/json sees them, and of a T value they are not.
	e := encoder{addr: p.ptr}
	for k := range p.fields {
		f := &p.fields[k]
		fp := unsafe.Add(sv, f.off)
		if f.omitEmpty && f.c.isEmpty(fp) {
			continue
		}
		if obj[len(obj)-1] != '{' {
			obj = append(obj, ',')
		}
		obj = append(obj, f.key...)
		var err error
		if obj, err = e.value(noescapeBytes(obj), f.c, fp, 1); err != nil {
			return nil, err
		}
	}
	return append(obj, '}'), nil
}

// errDeep refuses a value nested deeper than a token may be.
var errDeep = fmt.Errorf("%w: encode claims: nested deeper than %d levels (a cycle?)", signet.ErrMalformed, jsonx.MaxDepth)

// encoder writes values as encoding/json does; addr says the value is
// addressable for encoding/json (reached through a pointer or a slice),
// where it calls a json.Marshaler of the pointer type.
type encoder struct{ addr bool }

// isEmpty is encoding/json's omitempty test.
func (c *codec) isEmpty(p unsafe.Pointer) bool {
	switch c.kind {
	case kString:
		return len(*(*string)(p)) == 0
	case kSlice:
		return (*sliceHeader)(p).len == 0
	case kMap:
		return len(*(*map[string]string)(p)) == 0
	case kMapAny:
		return len(*(*map[string]any)(p)) == 0
	case kPtr:
		return *(*unsafe.Pointer)(p) == nil
	case kAny:
		return *(*any)(p) == nil
	case kStruct:
		return false
	case kJSON:
		return c.empty(p)
	case kFloat32:
		return *(*float32)(p) == 0
	case kFloat64:
		return *(*float64)(p) == 0
	}
	// bool and the int kinds: every byte zero.
	switch size(c.kind) {
	case 1:
		return *(*uint8)(p) == 0
	case 2:
		return *(*uint16)(p) == 0
	case 4:
		return *(*uint32)(p) == 0
	}
	return *(*uint64)(p) == 0
}

// size is the size of a scalar kind.
func size(k kind) uintptr {
	switch k {
	case kBool, kInt8, kUint8:
		return 1
	case kInt16, kUint16:
		return 2
	case kInt32, kUint32, kFloat32:
		return 4
	case kInt, kUint:
		return unsafe.Sizeof(int(0))
	case kUintptr:
		return unsafe.Sizeof(uintptr(0))
	}
	return 8
}

// value appends the value at p, depth levels down.
func (e encoder) value(b []byte, c *codec, p unsafe.Pointer, depth int) ([]byte, error) {
	if c.kind == kString { // the commonest, first
		return appendString(b, *(*string)(p)), nil
	}
	if depth > jsonx.MaxDepth {
		return nil, errDeep
	}
	switch c.kind {
	case kSlice:
		h := (*sliceHeader)(p)
		if h.data == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		in := encoder{addr: true}
		for k := range h.len {
			if k > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = in.value(b, c.elem, unsafe.Add(h.data, uintptr(k)*c.elemSize), depth+1); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case kMap:
		return appendMap(b, *(*map[string]string)(p)), nil
	case kMapAny:
		return appendMapAny(b, *(*map[string]any)(p), depth)
	case kPtr:
		v := *(*unsafe.Pointer)(p)
		if v == nil {
			return append(b, "null"...), nil
		}
		return encoder{addr: true}.value(b, c.elem, v, depth+1)
	case kStruct:
		b = append(b, '{')
		first := true
		for k := range c.fields {
			f := &c.fields[k]
			fp := unsafe.Add(p, f.off)
			if f.omitEmpty && f.c.isEmpty(fp) {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = append(b, f.key...)
			var err error
			if b, err = e.value(b, f.c, fp, depth+1); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	case kAny:
		return appendAny(b, *(*any)(p), depth)
	case kJSON:
		// A copy on the heap, by its address where encoding/json would
		// have it (and the caller's value, maybe on the stack, goes
		// nowhere).
		v := reflect.New(c.typ)
		v.Elem().Set(reflect.NewAt(c.typ, p).Elem())
		if !e.addr {
			v = v.Elem()
		}
		out, err := json.Marshal(v.Interface())
		if err != nil {
			return nil, fmt.Errorf("%w: encode claims: %v", signet.ErrMalformed, err)
		}
		return append(b, out...), nil
	}
	return appendScalar(b, c.kind, p)
}

// appendAny writes v, an interface value, as encoding/json does: the
// common dynamic types here, the others by encoding/json.
func appendAny(b []byte, v any, depth int) ([]byte, error) {
	if depth > jsonx.MaxDepth {
		return nil, errDeep
	}
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return appendString(b, v), nil
	case bool:
		if v {
			return append(b, "true"...), nil
		}
		return append(b, "false"...), nil
	case float64:
		return appendFloat(b, v, 64)
	case int:
		return strconv.AppendInt(b, int64(v), 10), nil
	case int64:
		return strconv.AppendInt(b, v, 10), nil
	case map[string]any:
		return appendMapAny(b, v, depth)
	case []any:
		if v == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		for k, x := range v {
			if k > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendAny(b, x, depth+1); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case []string:
		if v == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		for k, x := range v {
			if k > 0 {
				b = append(b, ',')
			}
			b = appendString(b, x)
		}
		return append(b, ']'), nil
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("%w: encode claims: %v", signet.ErrMalformed, err)
	}
	return append(b, out...), nil
}

// appendMapAny writes m as encoding/json does: null when nil, keys sorted.
func appendMapAny(b []byte, m map[string]any, depth int) ([]byte, error) {
	if m == nil {
		return append(b, "null"...), nil
	}
	var stack [8]string
	b = append(b, '{')
	for i, k := range sortedKeys(m, stack[:0]) {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, k)
		b = append(b, ':')
		var err error
		if b, err = appendAny(b, m[k], depth+1); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendMap writes m as encoding/json does: null when nil, keys sorted.
func appendMap(b []byte, m map[string]string) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	var stack [8]string
	b = append(b, '{')
	for i, k := range sortedKeys(m, stack[:0]) {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, k)
		b = append(b, ':')
		b = appendString(b, m[k])
	}
	return append(b, '}')
}

// sortedKeys returns m's keys in order, in keys (a small map's fit a
// caller's stack array).
func sortedKeys[V any](m map[string]V, keys []string) []string {
	for k := range m {
		keys = append(keys, k)
	}
	if len(keys) > 8 {
		slices.Sort(keys)
		return keys
	}
	for i := 1; i < len(keys); i++ { // by insertion: a few keys
		for j := i; j > 0 && keys[j-1] > keys[j]; j-- {
			keys[j-1], keys[j] = keys[j], keys[j-1]
		}
	}
	return keys
}

func appendScalar(b []byte, k kind, p unsafe.Pointer) ([]byte, error) {
	switch k {
	case kString:
		return appendString(b, *(*string)(p)), nil
	case kBool:
		if *(*bool)(p) {
			return append(b, "true"...), nil
		}
		return append(b, "false"...), nil
	case kInt:
		return strconv.AppendInt(b, int64(*(*int)(p)), 10), nil
	case kInt8:
		return strconv.AppendInt(b, int64(*(*int8)(p)), 10), nil
	case kInt16:
		return strconv.AppendInt(b, int64(*(*int16)(p)), 10), nil
	case kInt32:
		return strconv.AppendInt(b, int64(*(*int32)(p)), 10), nil
	case kInt64:
		return strconv.AppendInt(b, *(*int64)(p), 10), nil
	case kUint:
		return strconv.AppendUint(b, uint64(*(*uint)(p)), 10), nil
	case kUint8:
		return strconv.AppendUint(b, uint64(*(*uint8)(p)), 10), nil
	case kUint16:
		return strconv.AppendUint(b, uint64(*(*uint16)(p)), 10), nil
	case kUint32:
		return strconv.AppendUint(b, uint64(*(*uint32)(p)), 10), nil
	case kUint64:
		return strconv.AppendUint(b, *(*uint64)(p), 10), nil
	case kUintptr:
		return strconv.AppendUint(b, uint64(*(*uintptr)(p)), 10), nil
	case kFloat32:
		return appendFloat(b, float64(*(*float32)(p)), 32)
	case kFloat64:
		return appendFloat(b, *(*float64)(p), 64)
	}
	return nil, fmt.Errorf("%w: encode claims: no codec for kind %d", signet.ErrMalformed, k)
}

// appendFloat writes f as encoding/json does (ES6 number formatting):
// 'f' format, 'e' below 1e-6 or from 1e21 on, a one-digit negative
// exponent without its leading zero.
func appendFloat(b []byte, f float64, bits int) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, fmt.Errorf("%w: encode claims: json: unsupported value: %s", signet.ErrMalformed, strconv.FormatFloat(f, 'g', -1, bits))
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	b = strconv.AppendFloat(b, f, format, -1, bits)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}

// htmlSafe marks the ASCII bytes encoding/json (escaping HTML, as Marshal
// does) writes as they are.
var htmlSafe = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// safeRun returns the index of the first byte at or after i that
// appendString cannot copy as it is (see htmlSafe), eight bytes at a time.
func safeRun(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		if m := unsafeBytes(load8(s, i)); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	return i
}

// safeCopy is safeRun from the start of s that also copies the bytes it
// passes into dst (which has room for s), sixteen bytes at a time: bytes
// of dst past the run may be written too.
func safeCopy(dst []byte, s string) int {
	dst = dst[:len(s)]
	i := 0
	for ; i+16 <= len(s); i += 16 {
		x, y := load8(s, i), load8(s, i+8)
		binary.LittleEndian.PutUint64(dst[i:], x)
		binary.LittleEndian.PutUint64(dst[i+8:], y)
		if mx, my := unsafeBytes(x), unsafeBytes(y); mx|my != 0 {
			if mx != 0 {
				return i + bits.TrailingZeros64(mx)/8
			}
			return i + 8 + bits.TrailingZeros64(my)/8
		}
	}
	for ; i+8 <= len(s); i += 8 {
		x := load8(s, i)
		binary.LittleEndian.PutUint64(dst[i:], x)
		if m := unsafeBytes(x); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(s) && s[i] < utf8.RuneSelf && htmlSafe[s[i]]; i++ {
		dst[i] = s[i]
	}
	return i
}

// load8 reads the eight bytes of s at i, little-endian (one load).
func load8(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// unsafeBytes marks (bit 7) the bytes of x that appendString cannot copy
// as they are: a control character or a byte from 0x80 up, and '"' and
// '&' (0x22, 0x26: equal to 0x26 with bit 2 set), '<' and '>' (0x3c,
// 0x3e: 0x3e with bit 1 set) and '\\'. A mark may be false above a true
// one (a borrow), never below: the lowest is a byte to look at.
func unsafeBytes(x uint64) uint64 {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	a := (x | 0x04*lo) ^ 0x26*lo
	b := (x | 0x02*lo) ^ 0x3e*lo
	c := x ^ 0x5c*lo
	m := (x - 0x20*lo) | (a - lo) | (b - lo) | (c - lo)
	return (m | x) & hi
}

// appendString writes s as a JSON string as encoding/json.Marshal does:
// quotes, backslashes and control characters escaped (\b \f \n \r \t, the
// rest \u00XX), <, > and & as \u003c \u003e \u0026, U+2028 and U+2029
// escaped, and each byte of invalid UTF-8 as \ufffd.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	if len(s) >= 1<<10 && cap(b)-len(b) < len(s)+2 {
		// One growth for a long string, with room for some escapes and
		// the members after it, rather than doubling (and copying) the
		// buffer as it fills.
		b = append(unsafex.MakeNoZero(len(b)+len(s)+len(s)/8+256), b...)
	}
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if i == start && cap(b)-len(b) >= len(s)-i {
			// Nothing pending: copy as it scans, in one pass.
			n := safeCopy(b[len(b):cap(b)], s[i:])
			b, i = b[:len(b)+n], i+n
			start = i
		} else {
			i = safeRun(s, i)
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if htmlSafe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += n
			continue
		}
		i += n
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
