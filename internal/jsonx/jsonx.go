// Package jsonx is a strict, allocation-light JSON scanner for the small
// objects of token formats (JOSE headers, JWT and PASETO claims, JWKs).
//
// It validates the whole text (RFC 8259 grammar, valid UTF-8, no lone
// surrogates in escapes, nesting depth bounded) and rejects an object that
// repeats a member name, at any depth, comparing names after unescaping. The
// scanner works on strings and returns values as substrings of its input, so
// a caller that owns an immutable buffer decodes without copying.
package jsonx

import (
	"errors"
	"math/bits"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Errors returned by the scanner; callers wrap them in their own sentinels.
var (
	ErrSyntax    = errors.New("invalid JSON")
	ErrDuplicate = errors.New("duplicate member name")
	ErrDepth     = errors.New("JSON nested too deeply")
)

// MaxDepth bounds the nesting of arrays and objects.
const MaxDepth = 64

// smallNames is how many member names an object is checked against by
// linear scan before the scanner switches to a map.
const smallNames = 16

// scanner is the position in a text; the text itself is passed to each
// method rather than kept here, so that state written through a pointer
// never holds it (Go's escape analysis would otherwise move a caller's
// stack buffer to the heap).
type scanner struct {
	fold     bool // names are compared case-folded (ValidFold)
	i        int
	depth    int
	esc      bool  // the last string scanned had an escape
	num      int64 // the last number scanned, when numExact
	numExact bool  // the last number scanned was an integer within ±2^53
}

// Members iterates over the members of a JSON object without callbacks,
// so that the caller's text never escapes through a function value:
//
//	m := jsonx.NewMembers(s)
//	for m.Next(s) {
//		use(m.Name(s), m.Value(s))
//	}
//	if err := m.Err(); err != nil { ... }
//
// The whole object is validated as it goes (RFC 8259, UTF-8, depth, no
// duplicate names at any depth); Err reports the first problem, and text
// after the object other than white space is an error.
//
// The iterator keeps positions, not the text, in its state, and every call
// takes the text again: Go's escape analysis would otherwise move a
// caller's stack buffer to the heap.
type Members struct {
	p       scanner
	o       objectState
	name    span
	escName string // the unescaped name, a copy, when the name had escapes
	value   span
	valEsc  bool // the value is a string with escapes
	num     int64
	numOK   bool // the value is an integer within ±2^53, num
	err     error
	done    bool
}

// span is the text s[a:b] of a scanner.
type span struct{ a, b int }

// NewMembers starts iterating over the object s.
func NewMembers(s string) Members {
	var m Members
	m.Reset(s, false)
	return m
}

// Reset starts m over on the object s, as NewMembers does, or with fold
// as NewMembersFold does, in place (a Members is some 600 bytes).
func (m *Members) Reset(s string, fold bool) {
	*m = Members{p: scanner{fold: fold}}
	m.p.ws(s)
	if m.p.i >= len(s) || s[m.p.i] != '{' {
		m.err, m.done = ErrSyntax, true
	}
}

// NewMembersFold is NewMembers that also refuses, at any depth, member
// names that differ only in case (ValidFold's rule), so that a payload
// bound for encoding/json's case-insensitive field matching needs no
// second pass.
func NewMembersFold(s string) Members {
	var m Members
	m.Reset(s, true)
	return m
}

// Next advances to the next member; it returns false at the end of the
// object or on error.
func (m *Members) Next(s string) bool {
	return m.NextName(s) && m.ScanValue(s)
}

// NextName is Next up to the member's value, for a caller that may read
// the value itself: it then either calls ScanValue, which completes Next,
// or reads the value from ValueStart on, validating it with the rules of
// Members (ScanValue, ScanString, ScanNumber, Names), and calls SkipValue
// with its end. Name is set; Value, String and Int are not, until then.
func (m *Members) NextName(s string) bool {
	if m.done {
		return false
	}
	name, ok, err := m.o.nextName(&m.p, s)
	if err == nil && !ok {
		m.p.ws(s)
		if m.p.i != len(s) {
			err = ErrSyntax
		}
	}
	if err != nil || !ok {
		m.err, m.done = err, true
		return false
	}
	m.name = name
	if m.o.nameEsc {
		m.escName = m.o.last
	} else if m.escName != "" {
		m.escName = ""
	}
	return true
}

// ScanValue scans and validates the value of the member NextName stopped
// at; false on error (Err).
func (m *Members) ScanValue(s string) bool {
	if m.done {
		return false
	}
	value, err := m.o.value(&m.p, s)
	if err != nil {
		m.err, m.done = err, true
		return false
	}
	m.value = value
	m.valEsc = m.o.valEsc
	m.num, m.numOK = m.p.num, m.p.numExact && (s[value.a] == '-' || (s[value.a] >= '0' && s[value.a] <= '9'))
	return true
}

// ValueStart is where the value of the member NextName stopped at starts.
func (m *Members) ValueStart() int { return m.p.i }

// SkipValue moves past the value of the member NextName stopped at, which
// the caller has read and validated itself and which ends at end.
func (m *Members) SkipValue(s string, end int) {
	if m.done {
		return
	}
	if end <= m.p.i || end > len(s) {
		m.err, m.done = ErrSyntax, true
		return
	}
	m.value = span{m.p.i, end}
	m.valEsc, m.numOK = false, false
	m.p.i = end
}

// String returns the current value as a string, when it is one: without
// escapes, a substring of s.
func (m *Members) String(s string) (string, bool) {
	return stringValue(s, m.value, m.valEsc)
}

// Int returns the current value as Int does, when it is a number.
func (m *Members) Int(s string) (int64, bool) {
	if m.numOK {
		return m.num, true
	}
	return intValue(s[m.value.a:m.value.b])
}

// Integer returns the current value when it is an integer within
// ±2^53 written without a fraction or an exponent, as the scan read it.
func (m *Members) Integer() (int64, bool) { return m.num, m.numOK }

func stringValue(s string, v span, esc bool) (string, bool) {
	if v.b-v.a < 2 || s[v.a] != '"' {
		return "", false
	}
	if !esc {
		return s[v.a+1 : v.b-1], true
	}
	u, err := unquoteCopy(s[v.a:v.b])
	return u, err == nil
}

// Name is the current member's name, unescaped.
func (m *Members) Name(s string) string {
	if m.escName != "" {
		return m.escName
	}
	return s[m.name.a:m.name.b]
}

// RawName is the current member's name as written, escapes included,
// without its quotes.
func (m *Members) RawName(s string) string { return s[m.name.a:m.name.b] }

// Value is the raw JSON text of the current member's value.
func (m *Members) Value(s string) string { return s[m.value.a:m.value.b] }

// Err is the first error met, or nil.
func (m *Members) Err() error { return m.err }

// objectState walks one object and refuses duplicate names: names without
// escapes are remembered as positions (up to smallNames, then in a map of
// copies), names with escapes as unescaped copies.
type objectState struct {
	started bool
	small   [smallNames]span
	fp      [smallNames]uint64 // fingerprints of the small names
	n       int
	escaped []string
	many    map[string]struct{}
	last    string // the unescaped copy of the last escaped name
	nameEsc bool   // the last name had escapes
	valEsc  bool   // the last value was a string with escapes
}

// next scans the next member of the object at p (p at '{' on the first
// call). ok is false at the closing brace. name is the raw name without its
// quotes; p.esc tells whether it had escapes.
func (o *objectState) next(p *scanner, s string) (name, value span, ok bool, err error) {
	if name, ok, err = o.nextName(p, s); !ok || err != nil {
		return span{}, span{}, ok, err
	}
	value, err = o.value(p, s)
	return name, value, err == nil, err
}

// nextName is next up to the member's value: p stops at its first byte.
func (o *objectState) nextName(p *scanner, s string) (name span, ok bool, err error) {
	i := p.i
	if !o.started {
		o.started = true
		p.depth++
		if p.depth > MaxDepth {
			return span{}, false, ErrDepth
		}
		i = skipWS(s, i+1) // past '{'
		if i < len(s) && s[i] == '}' {
			p.i = i + 1
			p.depth--
			return span{}, false, nil
		}
	} else {
		i = skipWS(s, i)
		if i >= len(s) {
			return span{}, false, ErrSyntax
		}
		switch s[i] {
		case ',':
			i = skipWS(s, i+1)
		case '}':
			p.i = i + 1
			p.depth--
			return span{}, false, nil
		default:
			return span{}, false, ErrSyntax
		}
	}
	if i >= len(s) || s[i] != '"' {
		return span{}, false, ErrSyntax
	}
	// The name: plain ASCII in one loop, anything else by str.
	j := PlainRun(s, i+1)
	if j < len(s) && s[j] == '"' {
		name, p.esc, p.i = span{i + 1, j}, false, j+1
	} else {
		p.i = i
		if err := p.str(s); err != nil {
			return span{}, false, err
		}
		name = span{i + 1, p.i - 1}
	}
	o.nameEsc = p.esc
	if err := o.add(s, name, p.esc, p.fold); err != nil {
		return span{}, false, err
	}
	i = skipWS(s, p.i)
	if i >= len(s) || s[i] != ':' {
		return span{}, false, ErrSyntax
	}
	p.i = skipWS(s, i+1)
	return name, true, nil
}

// value scans the member's value at p (after nextName).
func (o *objectState) value(p *scanner, s string) (span, error) {
	i := p.i
	// Plain strings in one loop, anything else by value.
	if i < len(s) && s[i] == '"' {
		if j := PlainRun(s, i+1); j < len(s) && s[j] == '"' {
			p.i, o.valEsc = j+1, false
			return span{i, j + 1}, nil
		}
	}
	if err := p.value(s); err != nil {
		return span{}, err
	}
	o.valEsc = p.esc && s[i] == '"'
	return span{i, p.i}, nil
}

// skipWS returns the index of the first byte at or after i that is not
// JSON white space.
func skipWS(s string, i int) int {
	for i < len(s) && s[i] <= ' ' && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// PlainRun returns the index of the first byte at or after i that is not
// plain: printable ASCII other than the quote and the backslash.
func PlainRun(s string, i int) int {
	for i+8 <= len(s) {
		if m := stops(load64(s[i : i+8])); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
		i += 8
	}
	if i < len(s) && len(s) >= 8 {
		// The last eight bytes in one load, those before i (which need
		// not be plain) replaced by plain ones: a stop among them would
		// borrow from the next byte, and only the lowest mark is exact.
		e := len(s) - 8
		before := uint64(1)<<(8*(i-e)) - 1
		m := stops(load64(s[e:])&^before | 'a'*0x0101010101010101&before)
		if m == 0 {
			return len(s)
		}
		return e + bits.TrailingZeros64(m)/8
	}
	for i < len(s) && plain[s[i]] {
		i++
	}
	return i
}

// add records a member name, refusing one seen before. Up to smallNames
// names (plain ones as positions, escaped ones as unescaped copies) are
// compared one by one; past that every name goes into a map, so that no
// object costs more than linear time, however its names are spelled. In
// fold mode (ValidFold) names are compared by their case-folded form.
func (o *objectState) add(s string, name span, esc bool, fold bool) error {
	n := s[name.a:name.b]
	if fold && !esc && isASCII(n) && o.many == nil {
		// The common case, without allocating: a plain ASCII name is kept
		// as its position and compared case-insensitively.
		f := upperFingerprint(n)
		if o.seenFold(s, n, f) {
			return ErrDuplicate
		}
		if o.n+len(o.escaped) < smallNames {
			o.small[o.n] = name
			o.fp[o.n] = f
			o.n++
			return nil
		}
	}
	if esc {
		u, err := unquoteCopy(s[name.a-1 : name.b+1])
		if err != nil {
			return err
		}
		o.last, n = u, u
	}
	if fold {
		n = foldKey(n)
	}
	f := fingerprint(n)
	if o.seenIn(s, n, f, fold) {
		return ErrDuplicate
	}
	switch {
	case o.many != nil:
		o.many[strings.Clone(n)] = struct{}{}
	case o.n+len(o.escaped) < smallNames && (esc || fold):
		o.escaped = append(o.escaped, strings.Clone(n))
	case o.n+len(o.escaped) < smallNames:
		o.small[o.n] = name
		o.fp[o.n] = f
		o.n++
	default:
		o.many = make(map[string]struct{}, 4*smallNames)
		for _, sp := range o.small[:o.n] {
			k := s[sp.a:sp.b]
			if fold {
				k = foldKey(k)
			}
			o.many[strings.Clone(k)] = struct{}{}
		}
		for _, e := range o.escaped {
			o.many[e] = struct{}{}
		}
		o.escaped = nil
		o.many[strings.Clone(n)] = struct{}{}
	}
	return nil
}

func isASCII(n string) bool {
	for i := 0; i < len(n); i++ {
		if n[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// upperFingerprint is fingerprint(foldKey(n)) for an ASCII n.
func upperFingerprint(n string) uint64 {
	if n == "" {
		return 0
	}
	return uint64(len(n))<<32 | uint64(upper(n[0])) | uint64(upper(n[len(n)/2]))<<8 | uint64(upper(n[len(n)-1]))<<16
}

// equalUpper reports whether key, a fold key, is foldKey(n) for an ASCII n.
func equalUpper(key, n string) bool {
	if len(key) != len(n) {
		return false
	}
	for i := 0; i < len(n); i++ {
		if key[i] != upper(n[i]) {
			return false
		}
	}
	return true
}

// seenFold is seenIn for a plain ASCII name in fold mode, whose fold key
// is its upper case: the small names (ASCII, kept as written) and the
// escaped ones (kept as fold keys) are compared without making it.
func (o *objectState) seenFold(s, n string, f uint64) bool {
	for i, sp := range o.small[:o.n] {
		if o.fp[i] == f && strings.EqualFold(s[sp.a:sp.b], n) {
			return true
		}
	}
	for _, e := range o.escaped {
		if equalUpper(e, n) {
			return true
		}
	}
	return false
}

// foldKey maps a name to a form shared by exactly the names that
// strings.EqualFold (and encoding/json's field matching) holds equal: each
// rune becomes the least rune of its simple case-folding orbit.
func foldKey(n string) string {
	ascii := true
	for i := 0; i < len(n); i++ {
		if n[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	b := make([]byte, 0, len(n))
	if ascii {
		for i := 0; i < len(n); i++ {
			c := n[i]
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			b = append(b, c)
		}
		return string(b)
	}
	for _, r := range n {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f < least {
				least = f
			}
		}
		b = utf8.AppendRune(b, least)
	}
	return string(b)
}

// seenIn reports whether name n (a fold key in fold mode, where the small
// names are ASCII kept as written) was recorded before.
func (o *objectState) seenIn(s, n string, f uint64, fold bool) bool {
	for i, sp := range o.small[:o.n] {
		if o.fp[i] != f {
			continue
		}
		if fold && equalUpper(n, s[sp.a:sp.b]) || !fold && s[sp.a:sp.b] == n {
			return true
		}
	}
	for _, e := range o.escaped {
		if e == n {
			return true
		}
	}
	if o.many == nil {
		return false
	}
	_, ok := o.many[n]
	return ok
}

// fingerprint packs a name's length and three of its bytes, so that most
// comparisons of different names stop at one integer compare.
func fingerprint(n string) uint64 {
	if n == "" {
		return 0
	}
	return uint64(len(n))<<32 | uint64(n[0]) | uint64(n[len(n)/2])<<8 | uint64(n[len(n)-1])<<16
}

// ValidFold is Valid, and also refuses an object with two member names
// that differ only in case (Unicode simple folding): encoding/json, which
// matches struct fields case-insensitively, would read one as the other.
func ValidFold(s string) error {
	p := scanner{fold: true}
	p.ws(s)
	if err := p.value(s); err != nil {
		return err
	}
	p.ws(s)
	if p.i != len(s) {
		return ErrSyntax
	}
	return nil
}

// Valid validates s as one JSON value with the rules of Members.
func Valid(s string) error {
	p := scanner{}
	p.ws(s)
	if err := p.value(s); err != nil {
		return err
	}
	p.ws(s)
	if p.i != len(s) {
		return ErrSyntax
	}
	return nil
}

func (p *scanner) ws(s string) {
	for p.i < len(s) {
		switch s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// object validates the object starting at '{'.
func (p *scanner) object(s string) error {
	var o objectState
	for {
		_, _, ok, err := o.next(p, s)
		if err != nil || !ok {
			return err
		}
	}
}

func (p *scanner) array(s string) error {
	p.depth++
	if p.depth > MaxDepth {
		return ErrDepth
	}
	p.i++ // '['
	p.ws(s)
	if p.i < len(s) && s[p.i] == ']' {
		p.i++
		p.depth--
		return nil
	}
	for {
		p.ws(s)
		if err := p.value(s); err != nil {
			return err
		}
		p.ws(s)
		if p.i >= len(s) {
			return ErrSyntax
		}
		switch s[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			p.depth--
			return nil
		default:
			return ErrSyntax
		}
	}
}

func (p *scanner) value(s string) error {
	if p.i >= len(s) {
		return ErrSyntax
	}
	switch c := s[p.i]; {
	case c == '{':
		return p.object(s)
	case c == '[':
		return p.array(s)
	case c == '"':
		return p.str(s)
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number(s)
	case c == 't':
		return p.lit(s, "true")
	case c == 'f':
		return p.lit(s, "false")
	case c == 'n':
		return p.lit(s, "null")
	}
	return ErrSyntax
}

func (p *scanner) lit(s, word string) error {
	if len(s)-p.i < len(word) || s[p.i:p.i+len(word)] != word {
		return ErrSyntax
	}
	p.i += len(word)
	return nil
}

// number scans a number and, when it is an integer within ±2^53, its
// value (num, numExact), so that callers need not parse it again.
func (p *scanner) number(s string) error {
	end, v, exact := ScanInt(s, p.i)
	if end < 0 {
		// Not an integer: a fraction or an exponent, or not a number.
		n := numberLen(s[p.i:])
		if n == 0 {
			return ErrSyntax
		}
		end, exact = p.i+n, false
	}
	p.num, p.numExact, p.i = v, exact, end
	return nil
}

// ScanInt scans the JSON integer at s[i:] (an optional minus, then 0 or
// digits without a leading zero, and no fraction or exponent after) and
// returns its end, or -1 when s[i:] is not such an integer. exact reports
// that v is its value, within ±2^53. Eight digits are read at a time.
func ScanInt(s string, i int) (end int, v int64, exact bool) {
	neg := i < len(s) && s[i] == '-'
	if neg {
		i++
	}
	if i >= len(s) || s[i] < '0' || s[i] > '9' {
		return -1, 0, false
	}
	start := i
	if s[i] == '0' {
		i++
	} else {
		var u uint64
		for i+8 <= len(s) {
			d, ok := eightDigits(load64(s[i : i+8]))
			if !ok {
				break
			}
			u = u*100000000 + d
			i += 8
			if i-start > 16 {
				break
			}
		}
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			if i-start < 17 {
				u = u*10 + uint64(s[i]-'0')
			}
		}
		exact = i-start <= 16 && u <= 1<<53
		v = int64(u)
	}
	if s[start] == '0' {
		exact = true
	}
	if i < len(s) && (s[i] == '.' || s[i] == 'e' || s[i] == 'E') {
		return -1, 0, false
	}
	if neg {
		v = -v
	}
	return i, v, exact
}

// eightDigits returns the value of eight ASCII digits loaded little-endian
// into x, and whether all eight are digits.
func eightDigits(x uint64) (uint64, bool) {
	const lo = 0x0101010101010101
	// Every byte in '0'..'9': its high nibble is 3 and adding 6 keeps it 3.
	if x&(0xF0*lo) != 0x30*lo || (x+0x06*lo)&(0xF0*lo) != 0x30*lo {
		return 0, false
	}
	x &= 0x0F * lo
	x = (x * 2561) >> 8 & 0x00FF00FF00FF00FF
	x = (x * 6553601) >> 16 & 0x0000FFFF0000FFFF
	return (x * 42949672960001) >> 32, true
}

// numberLen returns the length of the JSON number at the start of s, or 0.
func numberLen(s string) int {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		return 0
	}
	if i < len(s) && s[i] == '.' {
		i++
		d := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == d {
			return 0
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		d := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == d {
			return 0
		}
	}
	return i
}

// plain marks the bytes a string may hold as they are: printable ASCII
// other than the quote and the backslash.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// load64 reads eight bytes little-endian (the compiler makes it one load).
func load64(b string) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// stops marks, with the high bit of each byte, the bytes of x that are not
// plain: a quote, a backslash, a control character, or anything at or
// above 0x80. The lowest marked byte is exact (borrows only travel up), so
// TrailingZeros64(stops(x))/8 is the index of the first stop.
func stops(x uint64) uint64 {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	ctl := (x - 0x20*lo) & ^x
	q := x ^ '"'*lo
	quote := (q - lo) & ^q
	b := x ^ '\\'*lo
	bs := (b - lo) & ^b
	return (ctl | quote | bs | x) & hi
}

// str scans a string starting at '"', validating escapes and UTF-8.
func (p *scanner) str(s string) error {
	i := p.i + 1
	ascii := true
	p.esc = false
	for i < len(s) {
		i = PlainRun(s, i)
		if i >= len(s) {
			break
		}
		c := s[i]
		switch {
		case c == '"':
			if !ascii && !utf8.ValidString(s[p.i+1:i]) {
				return ErrSyntax
			}
			p.i = i + 1
			return nil
		case c == '\\':
			n, ok := escapeLen(s[i:])
			if !ok {
				return ErrSyntax
			}
			p.esc = true
			i += n
		case c < 0x20:
			return ErrSyntax
		default:
			if c >= utf8.RuneSelf {
				ascii = false
			}
			i++
		}
	}
	return ErrSyntax
}

// escapeLen validates the escape at the start of s (s[0] == '\\') and
// returns its length. A \u escape of a high surrogate must be followed by a
// \u escape of a low surrogate; lone surrogates are refused (RFC 7493).
func escapeLen(s string) (int, bool) {
	if len(s) < 2 {
		return 0, false
	}
	switch s[1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2, true
	case 'u':
		r, ok := hex4(s[2:])
		if !ok {
			return 0, false
		}
		switch {
		case r >= 0xD800 && r < 0xDC00:
			if len(s) < 12 || s[6] != '\\' || s[7] != 'u' {
				return 0, false
			}
			r2, ok := hex4(s[8:])
			if !ok || r2 < 0xDC00 || r2 >= 0xE000 {
				return 0, false
			}
			return 12, true
		case r >= 0xDC00 && r < 0xE000:
			return 0, false
		}
		return 6, true
	}
	return 0, false
}

func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for i := 0; i < 4; i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// Unquote returns the value of the JSON string literal raw (with its
// quotes). Without escapes it returns a substring of raw, without copying.
func Unquote(raw string) (string, error) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", ErrSyntax
	}
	body := raw[1 : len(raw)-1]
	esc := strings.IndexByte(body, '\\')
	if esc < 0 {
		return body, nil
	}
	return unquoteCopy(raw)
}

// unquoteCopy is Unquote that always returns a new string.
func unquoteCopy(raw string) (string, error) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", ErrSyntax
	}
	body := raw[1 : len(raw)-1]
	esc := strings.IndexByte(body, '\\')
	if esc < 0 {
		esc = len(body)
	}
	b := make([]byte, 0, len(body))
	b = append(b, body[:esc]...)
	for i := esc; i < len(body); {
		c := body[i]
		if c != '\\' {
			b = append(b, c)
			i++
			continue
		}
		n, ok := escapeLen(body[i:])
		if !ok {
			return "", ErrSyntax
		}
		switch body[i+1] {
		case '"', '\\', '/':
			b = append(b, body[i+1])
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, _ := hex4(body[i+2:])
			if n == 12 {
				r2, _ := hex4(body[i+8:])
				r = utf16.DecodeRune(r, r2)
			}
			b = utf8.AppendRune(b, r)
		}
		i += n
	}
	return string(b), nil
}

// Elements iterates over the elements of a JSON array, as Members does
// over an object's members. The array is validated as it goes.
type Elements struct {
	p       scanner
	started bool
	value   span
	valEsc  bool
	err     error
	done    bool
}

// NewElements starts iterating over the array raw.
func NewElements(s string) Elements {
	e := Elements{p: scanner{}}
	e.p.ws(s)
	if e.p.i >= len(s) || s[e.p.i] != '[' {
		e.err, e.done = ErrSyntax, true
	}
	return e
}

// Next advances to the next element; false at the end or on error.
func (e *Elements) Next(s string) bool {
	if e.done {
		return false
	}
	p := &e.p
	if !e.started {
		e.started = true
		p.i++ // '['
		p.depth++
		p.ws(s)
		if p.i < len(s) && s[p.i] == ']' {
			p.i++
			return e.end(s)
		}
	} else {
		p.ws(s)
		switch {
		case p.i >= len(s):
			e.err, e.done = ErrSyntax, true
			return false
		case s[p.i] == ',':
			p.i++
		case s[p.i] == ']':
			p.i++
			return e.end(s)
		default:
			e.err, e.done = ErrSyntax, true
			return false
		}
	}
	p.ws(s)
	start := p.i
	if err := p.value(s); err != nil {
		e.err, e.done = err, true
		return false
	}
	e.value = span{start, p.i}
	e.valEsc = p.esc && s[start] == '"'
	return true
}

// String returns the current element as a string, when it is one.
func (e *Elements) String(s string) (string, bool) {
	return stringValue(s, e.value, e.valEsc)
}

// end finishes the iteration at the closing bracket: only white space may
// follow the array.
func (e *Elements) end(s string) bool {
	e.p.ws(s)
	if e.p.i != len(s) {
		e.err = ErrSyntax
	}
	e.done = true
	return false
}

// Value is the raw JSON text of the current element.
func (e *Elements) Value(s string) string { return s[e.value.a:e.value.b] }

// Err is the first error met, or nil.
func (e *Elements) Err() error { return e.err }

// Int parses the JSON number raw as seconds: integers exactly, numbers with
// a fraction or exponent truncated toward zero. Values beyond ±2^53 (where
// JSON numbers stop being exact in most implementations) are refused.
func Int(raw string) (int64, error) {
	if numberLen(raw) != len(raw) || raw == "" {
		return 0, ErrSyntax
	}
	v, ok := intValue(raw)
	if !ok {
		return 0, ErrSyntax
	}
	return v, nil
}

// intValue is Int on text already known to be a JSON value: anything that
// is not a number comes back false.
func intValue(raw string) (int64, bool) {
	if raw == "" || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) {
		return 0, false
	}
	const limit = 1 << 53
	neg := raw[0] == '-'
	digits := raw
	if neg {
		digits = raw[1:]
	}
	var v int64
	plain := true
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		if c < '0' || c > '9' {
			plain = false
			break
		}
		v = v*10 + int64(c-'0')
		if v > limit {
			return 0, false
		}
	}
	if plain {
		if neg {
			v = -v
		}
		return v, true
	}
	f, err := strconv.ParseFloat(raw, 64)
	if err != nil || f > limit || f < -limit {
		return 0, false
	}
	return int64(f), true
}

// AppendString appends s as a JSON string literal. Quotes, backslashes and
// control characters are escaped; invalid UTF-8 becomes U+FFFD, as
// encoding/json does.
func AppendString(dst []byte, s string) []byte {
	const hexd = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if j := PlainRun(s, i); j > i {
			if i = j; i >= len(s) {
				break
			}
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexd[c>>4], hexd[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\ufffd"...)
			i++
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// Intern returns s, a value read out of JSON text, as a constant when it
// is a common header value ("" or "JWT"), else as a copy: either way it
// keeps no view of the text.
func Intern(s string) string {
	switch s {
	case "":
		return ""
	case "JWT":
		return "JWT"
	}
	return strings.Clone(s)
}
