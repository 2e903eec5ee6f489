package jsonx

// Flat reads, in one pass, the shape most token payloads have: an object
// with no white space, plain ASCII member names (no escapes), and values
// that are plain strings, integers, true, false, null or arrays of plain
// strings, at most 16 members, no name repeated. Whatever it accepts,
// Members accepts with the same result; when the text leaves that shape,
// Next returns false with Plain false, and the caller starts again with
// Members (which also words the errors).
//
//	f := jsonx.NewFlat(s)
//	for f.Next(s) {
//		use(f.Name(s), f.Value(s))
//	}
//	if !f.Plain() { /* use Members */ }
type Flat struct {
	i           int
	names       [16]span
	fp          [16]uint64
	n           int
	name, value span
	num         int64
	numOK       bool
	plain, done bool
}

// NewFlat starts reading the object s.
func NewFlat(s string) Flat {
	f := Flat{i: 1, plain: true}
	switch {
	case len(s) < 2 || s[0] != '{' || s[len(s)-1] != '}':
		f.plain, f.done = false, true
	case len(s) == 2:
		f.done = true
	}
	return f
}

// Plain reports whether the object kept the plain shape so far (after the
// last Next: whether it was read whole).
func (f *Flat) Plain() bool { return f.plain }

func (f *Flat) leave() bool {
	f.plain, f.done = false, true
	return false
}

// Next reads the next member.
func (f *Flat) Next(s string) bool {
	if f.done {
		return false
	}
	i := f.i
	if i >= len(s) || s[i] != '"' {
		return f.leave()
	}
	j := PlainRun(s, i+1)
	if j+1 >= len(s) || s[j] != '"' || s[j+1] != ':' || j == i+1 || f.n == len(f.names) {
		return f.leave()
	}
	name := s[i+1 : j]
	fp := fingerprint(name)
	for k, prev := range f.names[:f.n] {
		if f.fp[k] == fp && s[prev.a:prev.b] == name {
			return f.leave() // Members will word the duplicate
		}
	}
	f.names[f.n], f.fp[f.n] = span{i + 1, j}, fp
	f.n++
	f.name = span{i + 1, j}
	i = j + 2
	if i >= len(s) {
		return f.leave()
	}
	start := i
	f.numOK = false
	switch ch := s[i]; {
	case ch == '"':
		j := PlainRun(s, i+1)
		if j >= len(s) || s[j] != '"' {
			return f.leave()
		}
		i = j + 1
	case ch == '-' || (ch >= '0' && ch <= '9'):
		if i, f.num, f.numOK = ScanInt(s, i); i < 0 {
			return f.leave()
		}
	case ch == '[':
		i++
		if i < len(s) && s[i] == ']' {
			i++
			break
		}
		for {
			if i >= len(s) || s[i] != '"' {
				return f.leave()
			}
			j := PlainRun(s, i+1)
			if j+1 >= len(s) || s[j] != '"' {
				return f.leave()
			}
			i = j + 1
			if s[i] == ']' {
				i++
				break
			}
			if s[i] != ',' {
				return f.leave()
			}
			i++
		}
	case ch == 't' && len(s)-i >= 4 && s[i:i+4] == "true":
		i += 4
	case ch == 'f' && len(s)-i >= 5 && s[i:i+5] == "false":
		i += 5
	case ch == 'n' && len(s)-i >= 4 && s[i:i+4] == "null":
		i += 4
	default:
		return f.leave()
	}
	f.value = span{start, i}
	switch {
	case i >= len(s):
		return f.leave()
	case s[i] == '}':
		if i != len(s)-1 {
			return f.leave()
		}
		f.done = true
	case s[i] == ',':
		f.i = i + 1
	default:
		return f.leave()
	}
	return true
}

// Name is the current member's name.
func (f *Flat) Name(s string) string { return s[f.name.a:f.name.b] }

// Value is the raw text of the current member's value.
func (f *Flat) Value(s string) string { return s[f.value.a:f.value.b] }

// String returns the current value when it is a (plain) string.
func (f *Flat) String(s string) (string, bool) {
	if s[f.value.a] != '"' {
		return "", false
	}
	return s[f.value.a+1 : f.value.b-1], true
}

// Int returns the current value when it is an integer within ±2^53.
func (f *Flat) Int() (int64, bool) { return f.num, f.numOK }
