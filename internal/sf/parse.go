package sf

import (
	"encoding/base64"
	"unicode/utf8"
)

// ParseList parses a List field value (RFC 9651 §4.2.1). Multiple field
// lines must be joined with ", " first. The empty string is an empty List.
func ParseList(s string) (List, error) {
	p, err := newParser(s)
	if err != nil {
		return nil, err
	}
	var l List
	for !p.empty() {
		m, err := p.itemOrInnerList()
		if err != nil {
			return nil, err
		}
		l = append(l, m)
		if err := p.next(); err != nil {
			return nil, err
		}
		if p.empty() {
			break
		}
	}
	return l, p.end()
}

// ParseDictionary parses a Dictionary field value (RFC 9651 §4.2.2).
// Multiple field lines must be joined with ", " first. The empty string
// is an empty Dictionary. A repeated key overwrites the earlier value,
// which keeps its position.
func ParseDictionary(s string) (Dictionary, error) {
	p, err := newParser(s)
	if err != nil {
		return nil, err
	}
	var d Dictionary
	var index map[string]int
	for !p.empty() {
		key, err := p.key()
		if err != nil {
			return nil, err
		}
		var m Member
		if p.peek() == '=' {
			p.pos++
			if m, err = p.itemOrInnerList(); err != nil {
				return nil, err
			}
		} else {
			params, err := p.params()
			if err != nil {
				return nil, err
			}
			m = Item{Value: true, Params: params}
		}
		setDict(&d, &index, key, m)
		if err := p.next(); err != nil {
			return nil, err
		}
		if p.empty() {
			break
		}
	}
	return d, p.end()
}

// ParseItem parses an Item field value (RFC 9651 §4.2.3).
func ParseItem(s string) (Item, error) {
	p, err := newParser(s)
	if err != nil {
		return Item{}, err
	}
	it, err := p.item()
	if err != nil {
		return Item{}, err
	}
	return it, p.end()
}

type parser struct {
	s   string
	pos int
}

// newParser checks the size limit and discards leading SP (§4.2 step 3).
func newParser(s string) (*parser, error) {
	if len(s) > MaxLen {
		return nil, ErrTooLong
	}
	p := &parser{s: s}
	p.sp()
	return p, nil
}

// end discards trailing SP and fails unless the input is consumed
// (§4.2 steps 6-7).
func (p *parser) end() error {
	p.sp()
	if !p.empty() {
		return syntaxError(p.pos, "unexpected %q", p.s[p.pos])
	}
	return nil
}

func (p *parser) empty() bool { return p.pos >= len(p.s) }

func (p *parser) peek() byte {
	if p.empty() {
		return 0
	}
	return p.s[p.pos]
}

func (p *parser) sp() {
	for !p.empty() && p.s[p.pos] == ' ' {
		p.pos++
	}
}

func (p *parser) ows() {
	for !p.empty() && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t') {
		p.pos++
	}
}

// next handles what follows a List or Dictionary member: OWS, then either
// the end of input or a comma, OWS and another member.
func (p *parser) next() error {
	p.ows()
	if p.empty() {
		return nil
	}
	if p.s[p.pos] != ',' {
		return syntaxError(p.pos, "expected ',' after member, got %q", p.s[p.pos])
	}
	p.pos++
	p.ows()
	if p.empty() {
		return syntaxError(p.pos, "trailing comma")
	}
	return nil
}

func (p *parser) itemOrInnerList() (Member, error) {
	if p.peek() == '(' {
		return p.innerList()
	}
	return p.item()
}

// innerList implements §4.2.1.2.
func (p *parser) innerList() (InnerList, error) {
	p.pos++ // '('
	var items []Item
	for !p.empty() {
		p.sp()
		if p.peek() == ')' {
			p.pos++
			params, err := p.params()
			if err != nil {
				return InnerList{}, err
			}
			return InnerList{Items: items, Params: params}, nil
		}
		it, err := p.item()
		if err != nil {
			return InnerList{}, err
		}
		items = append(items, it)
		if c := p.peek(); c != ' ' && c != ')' {
			if p.empty() {
				break
			}
			return InnerList{}, syntaxError(p.pos, "expected SP or ')' in inner list, got %q", c)
		}
	}
	return InnerList{}, syntaxError(p.pos, "unterminated inner list")
}

// item implements §4.2.3.
func (p *parser) item() (Item, error) {
	v, err := p.bareItem()
	if err != nil {
		return Item{}, err
	}
	params, err := p.params()
	if err != nil {
		return Item{}, err
	}
	return Item{Value: v, Params: params}, nil
}

// params implements §4.2.3.2.
func (p *parser) params() (Params, error) {
	var params Params
	var index map[string]int
	for p.peek() == ';' {
		p.pos++
		p.sp()
		key, err := p.key()
		if err != nil {
			return nil, err
		}
		var v BareItem = true
		if p.peek() == '=' {
			p.pos++
			if v, err = p.bareItem(); err != nil {
				return nil, err
			}
		}
		setParam(&params, &index, key, v)
	}
	return params, nil
}

// smallKeys is how many keys are searched one by one before a map indexes
// them, so that parsing stays linear however many keys an input repeats.
const smallKeys = 16

// setDict sets key in d, in place if present (RFC 9651: a later value
// overwrites an earlier one, keeping its position), else at the end.
func setDict(d *Dictionary, index *map[string]int, key string, m Member) {
	if i, ok := find(len(*d), func(i int) string { return (*d)[i].Key }, *index, key); ok {
		(*d)[i].Value = m
		return
	}
	*d = append(*d, DictMember{key, m})
	indexLast(len(*d), func(i int) string { return (*d)[i].Key }, index)
}

// setParam is setDict for parameters.
func setParam(p *Params, index *map[string]int, key string, v BareItem) {
	if i, ok := find(len(*p), func(i int) string { return (*p)[i].Key }, *index, key); ok {
		(*p)[i].Value = v
		return
	}
	*p = append(*p, Param{key, v})
	indexLast(len(*p), func(i int) string { return (*p)[i].Key }, index)
}

func find(n int, keyAt func(int) string, index map[string]int, key string) (int, bool) {
	if index != nil {
		i, ok := index[key]
		return i, ok
	}
	for i := 0; i < n; i++ {
		if keyAt(i) == key {
			return i, true
		}
	}
	return 0, false
}

// indexLast records the last of n keys, building the map once n passes
// smallKeys.
func indexLast(n int, keyAt func(int) string, index *map[string]int) {
	switch {
	case *index != nil:
		(*index)[keyAt(n-1)] = n - 1
	case n > smallKeys:
		*index = make(map[string]int, 2*n)
		for i := 0; i < n; i++ {
			(*index)[keyAt(i)] = i
		}
	}
}

// key implements §4.2.3.3.
func (p *parser) key() (string, error) {
	start := p.pos
	if c := p.peek(); !isLCAlpha(c) && c != '*' {
		if p.empty() {
			return "", syntaxError(p.pos, "expected key, got end of input")
		}
		return "", syntaxError(p.pos, "key must start with a-z or '*', got %q", c)
	}
	p.pos++
	for !p.empty() && isKeyChar(p.s[p.pos]) {
		p.pos++
	}
	return p.s[start:p.pos], nil
}

// bareItem implements §4.2.3.1.
func (p *parser) bareItem() (BareItem, error) {
	c := p.peek()
	switch {
	case p.empty():
		return nil, syntaxError(p.pos, "expected item, got end of input")
	case c == '-' || isDigit(c):
		return p.number()
	case c == '"':
		return p.str()
	case isAlpha(c) || c == '*':
		return p.token(), nil
	case c == ':':
		return p.byteSequence()
	case c == '?':
		return p.boolean()
	case c == '@':
		return p.date()
	case c == '%':
		return p.displayString()
	}
	return nil, syntaxError(p.pos, "unexpected %q at start of item", c)
}

// number implements §4.2.4: it returns an int64 or a Decimal.
func (p *parser) number() (BareItem, error) {
	start := p.pos
	neg := false
	if p.peek() == '-' {
		neg = true
		p.pos++
	}
	if !isDigit(p.peek()) {
		return nil, syntaxError(p.pos, "expected digit")
	}
	numStart := p.pos
	dot := -1
	for !p.empty() {
		c := p.s[p.pos]
		if isDigit(c) {
			// keep going
		} else if dot < 0 && c == '.' {
			if p.pos-numStart > 12 {
				return nil, syntaxError(start, "decimal has more than 12 integer digits")
			}
			dot = p.pos
		} else {
			break
		}
		p.pos++
		n := p.pos - numStart
		if dot < 0 && n > 15 {
			return nil, syntaxError(start, "integer has more than 15 digits")
		}
		if dot >= 0 && n > 16 {
			return nil, syntaxError(start, "decimal too long")
		}
	}
	if dot < 0 {
		var v int64
		for i := numStart; i < p.pos; i++ {
			v = v*10 + int64(p.s[i]-'0')
		}
		if neg {
			v = -v
		}
		return v, nil
	}
	frac := p.pos - dot - 1
	if frac == 0 {
		return nil, syntaxError(p.pos, "decimal ends with '.'")
	}
	if frac > 3 {
		return nil, syntaxError(start, "decimal has more than 3 fraction digits")
	}
	var v int64
	for i := numStart; i < p.pos; i++ {
		if i != dot {
			v = v*10 + int64(p.s[i]-'0')
		}
	}
	for ; frac < 3; frac++ {
		v *= 10
	}
	if neg {
		v = -v
	}
	return Decimal(v), nil
}

// str implements §4.2.5.
func (p *parser) str() (string, error) {
	start := p.pos
	p.pos++ // '"'
	var b []byte
	for !p.empty() {
		c := p.s[p.pos]
		p.pos++
		switch {
		case c == '\\':
			if p.empty() {
				return "", syntaxError(p.pos, "unterminated escape in string")
			}
			c = p.s[p.pos]
			if c != '"' && c != '\\' {
				return "", syntaxError(p.pos, "invalid escape \\%q in string", c)
			}
			p.pos++
			b = append(b, c)
		case c == '"':
			return string(b), nil
		case c < 0x20 || c > 0x7e:
			return "", syntaxError(p.pos-1, "invalid byte %#02x in string", c)
		default:
			b = append(b, c)
		}
	}
	return "", syntaxError(start, "unterminated string")
}

// token implements §4.2.6; the caller checked the first character.
func (p *parser) token() Token {
	start := p.pos
	p.pos++
	for !p.empty() && isTokenChar(p.s[p.pos]) {
		p.pos++
	}
	return Token(p.s[start:p.pos])
}

// byteSequence implements §4.2.7, accepting canonical base64 only.
func (p *parser) byteSequence() ([]byte, error) {
	start := p.pos
	p.pos++ // ':'
	end := p.pos
	for end < len(p.s) && p.s[end] != ':' {
		c := p.s[end]
		if !isAlpha(c) && !isDigit(c) && c != '+' && c != '/' && c != '=' {
			return nil, syntaxError(end, "invalid byte %q in byte sequence", c)
		}
		end++
	}
	if end == len(p.s) {
		return nil, syntaxError(start, "unterminated byte sequence")
	}
	b, err := base64.StdEncoding.Strict().DecodeString(p.s[p.pos:end])
	if err != nil {
		return nil, syntaxError(start, "byte sequence is not canonical base64")
	}
	p.pos = end + 1
	return b, nil
}

// boolean implements §4.2.8.
func (p *parser) boolean() (bool, error) {
	p.pos++ // '?'
	switch p.peek() {
	case '1':
		p.pos++
		return true, nil
	case '0':
		p.pos++
		return false, nil
	}
	return false, syntaxError(p.pos, "boolean must be ?0 or ?1")
}

// date implements §4.2.9.
func (p *parser) date() (Date, error) {
	p.pos++ // '@'
	start := p.pos
	if c := p.peek(); c != '-' && !isDigit(c) {
		return 0, syntaxError(p.pos, "expected integer after '@'")
	}
	v, err := p.number()
	if err != nil {
		return 0, err
	}
	i, ok := v.(int64)
	if !ok {
		return 0, syntaxError(start, "date must be an integer")
	}
	return Date(i), nil
}

// displayString implements §4.2.10.
func (p *parser) displayString() (DisplayString, error) {
	start := p.pos
	p.pos++ // '%'
	if p.peek() != '"' {
		return "", syntaxError(p.pos, "expected '\"' after '%%'")
	}
	p.pos++
	var b []byte
	for !p.empty() {
		c := p.s[p.pos]
		p.pos++
		switch {
		case c < 0x20 || c > 0x7e:
			return "", syntaxError(p.pos-1, "invalid byte %#02x in display string", c)
		case c == '%':
			if p.pos+2 > len(p.s) {
				return "", syntaxError(p.pos-1, "truncated percent escape")
			}
			hi, ok1 := lowerHex(p.s[p.pos])
			lo, ok2 := lowerHex(p.s[p.pos+1])
			if !ok1 || !ok2 {
				return "", syntaxError(p.pos-1, "percent escape must be two lowercase hex digits")
			}
			p.pos += 2
			b = append(b, hi<<4|lo)
		case c == '"':
			if !utf8.Valid(b) {
				return "", syntaxError(start, "display string is not valid UTF-8")
			}
			return DisplayString(b), nil
		default:
			b = append(b, c)
		}
	}
	return "", syntaxError(start, "unterminated display string")
}

func lowerHex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

func isDigit(c byte) bool   { return '0' <= c && c <= '9' }
func isLCAlpha(c byte) bool { return 'a' <= c && c <= 'z' }
func isAlpha(c byte) bool   { return isLCAlpha(c) || 'A' <= c && c <= 'Z' }

func isKeyChar(c byte) bool {
	return isLCAlpha(c) || isDigit(c) || c == '_' || c == '-' || c == '.' || c == '*'
}

// isTokenChar reports tchar (RFC 9110 §5.6.2), ':' and '/'.
func isTokenChar(c byte) bool {
	if isAlpha(c) || isDigit(c) {
		return true
	}
	switch c {
	case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '.', '^', '_', '`', '|', '~', ':', '/':
		return true
	}
	return false
}
