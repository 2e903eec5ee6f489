package claimsjson

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unsafe"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/claimcheck"
	"github.com/signet-go/signet/internal/jsonx"
)

// The plan's validating reader: it decodes a value into its field and
// validates it in the same pass, with jsonx's rules (RFC 8259 grammar,
// UTF-8, no lone surrogates, jsonx.MaxDepth, no repeated member names,
// case-folded with the fold rule), so that a claims reader that hands a
// member to the plan (Taker) need not scan it first. What it stores is
// what encoding/json stores from the same text. It is the plan's only
// decoder: the members a reader of the plain shape passed over (Rest) are
// read with it too, at their positions in the payload (decodeRest).

// reader is the state of one validating read: the payload, the fold rule,
// and the first error of the text (nil when a read failed on a value of
// the wrong type for its field).
type reader struct {
	s    string
	fold bool
	err  error
}

// bad records err, an error of the text, and returns -1.
func (r *reader) bad(err error) int {
	if r.err == nil {
		r.err = err
	}
	return -1
}

// invalid is bad for the value at s[i:] that the reader cannot read:
// jsonx says what is wrong with it (ErrSyntax if it finds nothing).
func (r *reader) invalid(i, depth int) int {
	_, err := jsonx.ScanValue(r.s, i, depth, r.fold)
	if err == nil {
		err = jsonx.ErrSyntax
	}
	return r.bad(err)
}

// lit reads the literal word at s[i:].
func (r *reader) lit(i int, word string) int {
	if !strings.HasPrefix(r.s[i:], word) {
		return r.bad(jsonx.ErrSyntax)
	}
	return i + len(word)
}

// str reads the string at s[i] == '"': a view of s unless it has escapes.
func (r *reader) str(i int) (string, int) {
	s := r.s
	if j := jsonx.PlainRun(s, i+1); j < len(s) && s[j] == '"' {
		return s[i+1 : j], j + 1
	}
	end, esc, err := jsonx.ScanString(s, i)
	if err != nil {
		return "", r.bad(err)
	}
	if !esc {
		return s[i+1 : end-1], end
	}
	u, err := jsonx.Unquote(s[i:end])
	if err != nil {
		return "", r.bad(err)
	}
	return u, end
}

// name reads an object's member name at s[i], records it in names (which
// refuses one seen before) and the colon after it; it returns the name,
// unescaped, and where its value starts.
func (r *reader) name(names *jsonx.Names, i int) (string, int) {
	a, b, esc, v := r.rawName(i)
	if v < 0 {
		return "", -1
	}
	name, err := names.Add(r.s, a, b, esc, r.fold)
	if err != nil {
		return "", r.bad(err)
	}
	return name, v
}

// rawName reads an object's member name at s[i] and the colon after it:
// the name is s[a:b], escapes included (esc), and its value starts at v.
func (r *reader) rawName(i int) (a, b int, esc bool, v int) {
	s := r.s
	if i >= len(s) || s[i] != '"' {
		return 0, 0, false, r.bad(jsonx.ErrSyntax)
	}
	j := jsonx.PlainRun(s, i+1)
	if j >= len(s) || s[j] != '"' {
		end, e, err := jsonx.ScanString(s, i)
		if err != nil {
			return 0, 0, false, r.bad(err)
		}
		j, esc = end-1, e
	}
	k := skipWS(s, j+1)
	if k >= len(s) || s[k] != ':' {
		return 0, 0, false, r.bad(jsonx.ErrSyntax)
	}
	return i + 1, j, esc, skipWS(s, k+1)
}

// more reads what follows a member or an element ending at i: a comma
// (more is true, next is where the next one starts) or the closing
// bracket (more is false, next is past it).
func (r *reader) more(i int, closing byte) (next int, more bool) {
	s := r.s
	i = skipWS(s, i)
	switch {
	case i < len(s) && s[i] == ',':
		return skipWS(s, i+1), true
	case i < len(s) && s[i] == closing:
		return i + 1, false
	}
	return r.bad(jsonx.ErrSyntax), false
}

// open starts the object or array at s[i] (whose bracket the caller has
// checked) nested in depth containers; it returns where its first member
// or element starts, and empty when it has none (next is then past it).
func (r *reader) open(i, depth int, closing byte) (next int, empty bool) {
	if depth+1 > jsonx.MaxDepth {
		return r.bad(jsonx.ErrDepth), false
	}
	i = skipWS(r.s, i+1)
	if i < len(r.s) && r.s[i] == closing {
		return i + 1, true
	}
	return i, false
}

// read decodes the value at s[i:], nested in depth containers, into the
// value at p (a zero one) as encoding/json would (null leaves it as it
// is, a zero slice, map, pointer or interface value being nil, except
// that a kJSON value gets it too), validating it as it goes, and
// returns its end: -1 with r.err set on text jsonx refuses, -1 with r.err
// nil on a value encoding/json would not store in p's type, or, for a
// pointer type that points to itself (c.cycle), on any value but null
// (encoding/json never returns from one).
func (c *codec) read(r *reader, i, depth int, p unsafe.Pointer) int {
	s := r.s
	if i >= len(s) {
		return r.bad(jsonx.ErrSyntax)
	}
	ch := s[i]
	if c.kind == kJSON {
		end, err := jsonx.ScanValue(s, i, depth, r.fold)
		if err != nil {
			return r.bad(err)
		}
		if !c.decodeJSON(s[i:end], p) {
			return -1
		}
		return end
	}
	if ch == 'n' {
		return r.lit(i, "null") // leaves p as it is
	}
	switch c.kind {
	case kString:
		if ch != '"' {
			return -1
		}
		v, end := r.str(i)
		if end >= 0 {
			*(*string)(p) = v
		}
		return end
	case kBool:
		switch ch {
		case 't':
			*(*bool)(p) = true
			return r.lit(i, "true")
		case 'f':
			return r.lit(i, "false")
		}
		return -1
	case kSlice:
		return c.readSlice(r, i, depth, p)
	case kStruct:
		return c.readStructIn(r, i, depth, p, nil)
	case kMap:
		return readMap(r, i, depth, p)
	case kMapAny:
		if ch != '{' {
			return -1
		}
		m, end := readObjectAny(r, i, depth)
		if end >= 0 {
			*(*map[string]any)(p) = m
		}
		return end
	case kPtr:
		if c.cycle {
			return -1 // no value ends a chain of pointers to pointers that loops
		}
		if c.block != nil {
			if ch != '{' {
				return -1
			}
			v := reflect.New(c.block.typ).UnsafePointer() // the struct first
			end := c.elem.readStructIn(r, i, depth, v, c.block.kid)
			if end >= 0 {
				*(*unsafe.Pointer)(p) = v
			}
			return end
		}
		v := reflect.New(c.typ.Elem()).UnsafePointer()
		end := c.elem.read(r, i, depth, v)
		if end >= 0 {
			*(*unsafe.Pointer)(p) = v
		}
		return end
	case kAny:
		v, end := readAny(r, i, depth)
		if end >= 0 {
			*(*any)(p) = v
		}
		return end
	}
	// A number kind.
	if ch != '-' && (ch < '0' || ch > '9') {
		return -1
	}
	end, err := jsonx.ScanNumber(s, i)
	if err != nil {
		return r.bad(err)
	}
	if !decodeNumber(c.kind, s[i:end], p) {
		return -1
	}
	return end
}

// readSlice reads the array at s[i] into a new slice at p: its elements
// are counted first, so that the slice is made once, of their number.
func (c *codec) readSlice(r *reader, i, depth int, p unsafe.Pointer) int {
	s := r.s
	if s[i] != '[' {
		return -1
	}
	if c.elem.kind == kString {
		return readStrings(r, i, depth, p)
	}
	n, ok := countElems(s[i:])
	if !ok {
		return r.invalid(i, depth)
	}
	j, empty := r.open(i, depth, ']')
	if j < 0 || empty {
		if j >= 0 {
			*(*sliceHeader)(p) = sliceHeader{data: c.makeElems(0)}
		}
		return j
	}
	data := c.makeElems(n)
	for k := range n {
		if j = c.elem.read(r, j, depth+1, unsafe.Add(data, uintptr(k)*c.elemSize)); j < 0 {
			return -1
		}
		next, more := r.more(j, ']')
		if next < 0 || more != (k < n-1) {
			return r.bad(jsonx.ErrSyntax) // countElems miscounted text it does not check
		}
		j = next
	}
	*(*sliceHeader)(p) = sliceHeader{data: data, len: n, cap: n}
	return j
}

// readStrings is readSlice for a slice of a string kind: up to eight
// elements are read onto the stack and copied to a slice of their number,
// without counting them first.
func readStrings(r *reader, i, depth int, p unsafe.Pointer) int {
	j, empty := r.open(i, depth, ']')
	if j < 0 || empty {
		if j >= 0 {
			*(*[]string)(p) = []string{}
		}
		return j
	}
	var few [8]string
	var many []string // past eight
	n := 0
	for {
		if j >= len(r.s) {
			return r.bad(jsonx.ErrSyntax)
		}
		var v string
		switch r.s[j] {
		case '"':
			v, j = r.str(j)
		case 'n':
			j = r.lit(j, "null") // an empty string, as encoding/json leaves it
		default:
			return -1
		}
		if j < 0 {
			return -1
		}
		if n < len(few) {
			few[n] = v
		} else {
			if many == nil {
				many = append(make([]string, 0, 2*len(few)), few[:]...)
			}
			many = append(many, v)
		}
		n++
		next, more := r.more(j, ']')
		if next < 0 {
			return -1
		}
		j = next
		if !more {
			break
		}
	}
	if many == nil {
		many = make([]string, n)
		copy(many, few[:n])
	}
	*(*[]string)(p) = many
	return j
}

// readStructIn reads the object at s[i] into the struct at p: each member
// into the field of its name (or, failing that, the first whose name
// folds to the same), the others validated and passed over.
//
// With kid (a ptrBlock's, p being the block), a pointer field k with
// kid[k] set points, unless null, to the struct at p + kid[k].
func (c *codec) readStructIn(r *reader, i, depth int, p unsafe.Pointer, kid []uintptr) int {
	if r.s[i] != '{' {
		return -1
	}
	j, empty := r.open(i, depth, '}')
	if j < 0 || empty {
		return j
	}
	return c.readMembers(r, j, depth, p, kid, 0, nil)
}

// readMembers reads the members of readStructIn's object from s[j] on.
//
// With distinct fields, a member that reaches a field is told from the
// others by the field alone (seen): a name that reaches none folds to no
// field's, so only those are compared with each other, in names. Without
// names, readMembers leaves the first such member, and the rest, to
// readMembersNamed, which has one.
func (c *codec) readMembers(r *reader, j, depth int, p unsafe.Pointer, kid []uintptr, seen uint64, names *jsonx.Names) int {
	for {
		a, b, esc, v := r.rawName(j)
		if v < 0 {
			return -1
		}
		name := r.s[a:b]
		if esc {
			var err error
			if name, err = jsonx.Unquote(r.s[a-1 : b+1]); err != nil {
				return r.bad(err)
			}
		}
		k := c.fieldIndex(name)
		switch {
		case k >= 0 && c.distinct && r.fold:
			if seen&(1<<k) != 0 {
				return r.bad(jsonx.ErrDuplicate)
			}
			seen |= 1 << k
		case names == nil:
			return c.readMembersNamed(r, j, depth, p, kid, seen)
		default:
			if _, err := names.Add(r.s, a, b, esc, r.fold); err != nil {
				return r.bad(err)
			}
		}
		if k >= 0 {
			f := &c.fields[k]
			if kid != nil && kid[k] != 0 && v < len(r.s) && r.s[v] != 'n' {
				// Into the block, which the field then points to.
				at := unsafe.Add(p, kid[k])
				if v = f.c.elem.read(r, v, depth+1, at); v >= 0 {
					*(*unsafe.Pointer)(unsafe.Add(p, f.off)) = at
				}
			} else {
				v = f.c.read(r, v, depth+1, unsafe.Add(p, f.off))
			}
		} else {
			v = r.skip(v, depth+1)
		}
		if v < 0 {
			return -1
		}
		next, more := r.more(v, '}')
		if !more {
			return next
		}
		j = next
	}
}

// readMembersNamed is readMembers with a set of names of its own: made
// only for an object with a member that reaches no field (on the heap:
// the reader is recursive), so that the common object, whose members all
// reach fields, costs no set of names at all.
func (c *codec) readMembersNamed(r *reader, j, depth int, p unsafe.Pointer, kid []uintptr, seen uint64) int {
	var names jsonx.Names
	return c.readMembers(r, j, depth, p, kid, seen, &names)
}

// skip validates the value at s[i:] and returns its end.
func (r *reader) skip(i, depth int) int {
	end, err := jsonx.ScanValue(r.s, i, depth, r.fold)
	if err != nil {
		return r.bad(err)
	}
	return end
}

// readMap reads the object at s[i] into a new map[string]string at p.
func readMap(r *reader, i, depth int, p unsafe.Pointer) int {
	if r.s[i] != '{' {
		return -1
	}
	j, empty := r.open(i, depth, '}')
	m := map[string]string{}
	if j < 0 || empty {
		if j >= 0 {
			*(*map[string]string)(p) = m
		}
		return j
	}
	var names jsonx.Names
	for {
		key, v := r.name(&names, j)
		if v < 0 {
			return -1
		}
		var val string // null leaves it empty, as encoding/json does
		switch {
		case v < len(r.s) && r.s[v] == '"':
			val, v = r.str(v)
		case v < len(r.s) && r.s[v] == 'n':
			v = r.lit(v, "null")
		default:
			return -1
		}
		if v < 0 {
			return -1
		}
		m[key] = val
		next, more := r.more(v, '}')
		if !more {
			if next >= 0 {
				*(*map[string]string)(p) = m
			}
			return next
		}
		j = next
	}
}

// readObjectAny reads the object at s[i] as encoding/json decodes one into
// an empty interface.
func readObjectAny(r *reader, i, depth int) (map[string]any, int) {
	j, empty := r.open(i, depth, '}')
	m := map[string]any{}
	if j < 0 || empty {
		return m, j
	}
	var names jsonx.Names
	for {
		key, v := r.name(&names, j)
		if v < 0 {
			return nil, -1
		}
		var val any
		if val, v = readAny(r, v, depth+1); v < 0 {
			return nil, -1
		}
		m[key] = val
		next, more := r.more(v, '}')
		if !more {
			return m, next
		}
		j = next
	}
}

// readAny reads the value at s[i:] as encoding/json decodes one into an
// empty interface: map[string]any, []any, string, float64, bool or nil.
func readAny(r *reader, i, depth int) (any, int) {
	s := r.s
	if i >= len(s) {
		return nil, r.bad(jsonx.ErrSyntax)
	}
	switch s[i] {
	case '"':
		v, end := r.str(i)
		return v, end
	case '{':
		return readObjectAny(r, i, depth)
	case '[':
		n, ok := countElems(s[i:])
		if !ok {
			return nil, r.invalid(i, depth)
		}
		j, empty := r.open(i, depth, ']')
		a := make([]any, n)
		if j < 0 || empty {
			return a, j
		}
		for k := range n {
			if a[k], j = readAny(r, j, depth+1); j < 0 {
				return nil, -1
			}
			next, more := r.more(j, ']')
			if next < 0 || more != (k < n-1) {
				return nil, r.bad(jsonx.ErrSyntax)
			}
			j = next
		}
		return a, j
	case 't':
		return true, r.lit(i, "true")
	case 'f':
		return false, r.lit(i, "false")
	case 'n':
		return nil, r.lit(i, "null")
	}
	end, err := jsonx.ScanNumber(s, i)
	if err != nil {
		return nil, r.bad(err)
	}
	f, err := strconv.ParseFloat(s[i:end], 64)
	if err != nil {
		return nil, -1 // out of float64's range: encoding/json refuses it too
	}
	return f, end
}

// Taker decodes, for a format's claims reader, the members of a claims
// set that the Plan's fields take, as the reader meets them: the reader
// walks the top-level object with jsonx.Members (NextName) and hands each
// member that is not a registered claim to Unregistered, which refuses a
// variant spelling of a registered claim and passes the rest to Take:
// Take decodes and validates the value in one pass when the Plan has a
// field for it, and Unregistered otherwise skips it. Finish then returns
// the T.
//
// The T is the caller's own variable (NewTaker), kept where the caller
// keeps it, or, for a Plan of a pointer type, a new struct.
type Taker struct {
	pl *Plan
	v  unsafe.Pointer // the struct being filled
	// pending is the first member of a type its field does not take; it
	// is reported by Finish, after the format's own checks (errors of the
	// text come before them, from Take).
	pending  error
	fallback bool
	took     bool
}

// NewTaker returns a Taker that fills *out, a zero T, by pl (T's Plan).
func NewTaker[T any](pl *Plan, out *T) Taker {
	if pl.ptr {
		v := reflect.New(pl.elem).UnsafePointer()
		*(*unsafe.Pointer)(unsafe.Pointer(out)) = v
		return Taker{pl: pl, v: v}
	}
	// out itself, left where the caller keeps it (see noescape).
	return Taker{pl: pl, v: noescape(unsafe.Pointer(out))}
}

// Unregistered reads, for a format's claims reader, a member that is not
// a registered claim, whose name m (over payload) has stopped at with
// NextName: a variant spelling of a registered claim is refused
// (claimcheck.VariantError), a member t's Plan has a field for is taken
// (Take), and any other is skipped, its value validated (ScanValue). t may
// be nil (a claims type without a Plan). An error of the JSON text stays
// in m (m.Err).
func (t *Taker) Unregistered(m *jsonx.Members, payload, name string) error {
	if claim, ok := claimcheck.Variant(name); ok {
		return claimcheck.VariantError(name, claim)
	}
	if t != nil {
		if taken, err := t.Take(m, payload, name); err != nil || taken {
			return err
		}
	}
	m.ScanValue(payload)
	return nil
}

// Take decodes the member name, which m (over payload) has stopped at
// with NextName, when the Plan has a field for it, and moves m past its
// value (SkipValue); taken is false when it has none, and the reader then
// reads the value itself (ScanValue). Call Take only for members that are
// not registered claims (and that claimcheck.Variant has passed); with
// the fold rule (m from jsonx.NewMembersFold) for the names inside the
// values too. An error is one of the text, wrapping signet.ErrMalformed.
func (t *Taker) Take(m *jsonx.Members, payload, name string) (taken bool, err error) {
	f, fallback := t.pl.lookup(name)
	if f == nil {
		t.fallback = t.fallback || fallback
		return false, nil
	}
	t.took = true
	r := reader{s: payload, fold: true}
	start := m.ValueStart()
	end := f.c.read(&r, start, 1, unsafe.Add(t.v, f.off))
	if end >= 0 {
		m.SkipValue(payload, end)
		return true, nil
	}
	if r.err != nil {
		return true, fmt.Errorf("%w: claims: %v", signet.ErrMalformed, r.err)
	}
	// A value of the wrong type: the reader validates it (the text's
	// errors come first), and Finish reports it.
	if !m.ScanValue(payload) {
		return true, nil // m.Err has the text's error
	}
	if t.pending == nil {
		t.pending = typeError(name, m.Value(payload))
	}
	return true, nil
}

// Finish completes the T that t fills, out being NewTaker's. When the
// reader read the payload in the plain shape instead (rest done), the
// plan reads the members rest holds, at their positions in payload (the
// T is then zero: Take met none of them); otherwise the members Take met
// are in place already. The registered claims are set to *reg: the
// validated ones. folded says the reader applied the fold rule
// (jsonx.NewMembersFold); otherwise Finish compares the names rest holds
// itself. ok is false when this payload must go through encoding/json
// (Into): a member whose name folds onto a registered claim's without
// being it, or registered claims of a type other than the Plan's. Errors
// wrap signet.ErrMalformed: the first member of a type its field does
// not take; on error the T is partly written, and the caller drops it.
func Finish[T, C any](t *Taker, payload string, rest *Rest, folded bool, reg *C, out *T) (ok bool, err error) {
	if reflect.TypeFor[C]() != t.pl.claims {
		return false, nil
	}
	if t.fallback {
		return false, nil
	}
	if rest != nil && rest.ok {
		if t.took {
			return false, errScan // not this Taker's payload
		}
		if fallback, err := t.pl.decodeRest(payload, rest, t.v, folded); err != nil || fallback {
			return !fallback, err
		}
	} else if t.pending != nil {
		return true, t.pending
	}
	*(*C)(t.pl.Registered(t.v)) = *reg
	return true, nil
}
