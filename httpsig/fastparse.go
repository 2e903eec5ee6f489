package httpsig

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/signet-go/signet/internal/b64"
	"github.com/signet-go/signet/internal/sf"
)

// The verifier's fast path reads Signature-Input and Signature without
// building Structured Field values, for fields in canonical form: what
// signers, signet's included, send. It accepts a strict subset of the
// RFC 9651 grammar in which the text of a member is its own serialization,
// so that the @signature-params line is a slice of the field. Anything
// outside the subset (escapes, tokens, decimals, spaces after ';', a key
// repeated, more members than fit) sends the message down the strict
// parser, which accepts or refuses it on its own.

// maxFastMembers bounds the members the fast path handles.
const maxFastMembers = 8

// fastInput is one Signature-Input member as the fast scanner read it:
// its label, its inner list's text, and the parameters (in.comps is left
// for the component cache).
type fastInput struct {
	label string
	list  string // the inner list: ("…" …)
	in    sigInput
}

// fastSig is one Signature member: its label and base64 text.
type fastSig struct {
	label, b64 string
}

// scanner walks a field value.
type scanner struct {
	s   string
	pos int
}

func (p *scanner) eof() bool { return p.pos >= len(p.s) }

func (p *scanner) peek() byte {
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

// key reads an sf key: lcalpha or "*", then lcalpha, digits, "_-.*".
func (p *scanner) key() (string, bool) {
	start := p.pos
	if c := p.peek(); !(c >= 'a' && c <= 'z' || c == '*') {
		return "", false
	}
	p.pos++
	for !p.eof() {
		c := p.s[p.pos]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '*') {
			break
		}
		p.pos++
	}
	return p.s[start:p.pos], true
}

// isKey reports whether the whole text is one sf key (a label).
func (p *scanner) isKey() bool {
	_, ok := p.key()
	return ok && p.eof()
}

// str reads an sf String without escapes and returns its content.
func (p *scanner) str() (string, bool) {
	if p.peek() != '"' {
		return "", false
	}
	start := p.pos + 1
	end := strings.IndexByte(p.s[start:], '"')
	if end < 0 {
		return "", false
	}
	v := p.s[start : start+end]
	for i := 0; i < len(v); i++ {
		if c := v[i]; c == '\\' || c < 0x20 || c > 0x7e {
			return "", false
		}
	}
	p.pos = start + end + 1
	return v, true
}

// integer reads a canonical non-negative sf Integer.
func (p *scanner) integer() (int64, bool) {
	start := p.pos
	var v int64
	for !p.eof() && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
		v = v*10 + int64(p.s[p.pos]-'0')
		p.pos++
	}
	n := p.pos - start
	if n == 0 || n > 15 || (n > 1 && p.s[start] == '0') {
		return 0, false
	}
	return v, true
}

// sep skips the separator between members: OWS "," OWS. It reports
// whether a member follows.
func (p *scanner) sep() (more, ok bool) {
	for !p.eof() && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t') {
		p.pos++
	}
	if p.eof() {
		return false, true
	}
	if p.s[p.pos] != ',' {
		return false, false
	}
	p.pos++
	for !p.eof() && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t') {
		p.pos++
	}
	return true, !p.eof()
}

// endMember ends a dictionary member labelled label: a label seen before
// (which the strict parser would merge) is outside the fast subset; then
// the separator, and whether another member follows.
func (p *scanner) endMember(seen []string, label string) (more, ok bool) {
	for _, l := range seen {
		if l == label {
			return false, false
		}
	}
	return p.sep()
}

// scanInputs reads a Signature-Input value into out; ok is false when the
// value is outside the fast subset.
func scanInputs(s string, out *[maxFastMembers]fastInput) (n int, ok bool) {
	p := scanner{s: s}
	var labels [maxFastMembers]string
	for {
		if n == len(out) {
			return 0, false
		}
		in := &out[n]
		*in = fastInput{}
		var k bool
		if in.label, k = p.key(); !k || p.peek() != '=' {
			return 0, false
		}
		p.pos++
		start := p.pos
		if !p.innerList() {
			return 0, false
		}
		in.list = s[start:p.pos]
		if !p.sigParams(&in.in) {
			return 0, false
		}
		in.in.text = s[start:p.pos]
		more, k := p.endMember(labels[:n], in.label)
		if !k {
			return 0, false
		}
		labels[n] = in.label
		n++
		if !more {
			return n, true
		}
	}
}

// innerList reads ( "name";params … ) with single spaces.
func (p *scanner) innerList() bool {
	if p.peek() != '(' {
		return false
	}
	p.pos++
	for i := 0; ; i++ {
		if p.peek() == ')' {
			p.pos++
			return true
		}
		if i > 0 {
			if p.peek() != ' ' {
				return false
			}
			p.pos++
		}
		if _, ok := p.str(); !ok {
			return false
		}
		// Item parameters: bare keys (true) or key="string".
		var seen [4]string
		for np := 0; p.peek() == ';'; np++ {
			if _, ok := p.paramKey(seen[:], np); !ok {
				return false
			}
			if p.peek() == '=' {
				p.pos++
				if _, ok := p.str(); !ok {
					return false
				}
			}
		}
	}
}

// paramKey reads ";key" as the np-th parameter, recording it in seen: a
// key seen before (which the strict parser would merge), or more keys
// than seen holds, is outside the fast subset.
func (p *scanner) paramKey(seen []string, np int) (string, bool) {
	p.pos++ // ';'
	k, ok := p.key()
	if !ok || np == len(seen) {
		return "", false
	}
	for _, s := range seen[:np] {
		if s == k {
			return "", false
		}
	}
	seen[np] = k
	return k, true
}

// sigParams reads ;created=…;keyid="…" and the like into in.
func (p *scanner) sigParams(in *sigInput) bool {
	var seen [8]string
	for np := 0; p.peek() == ';'; np++ {
		k, ok := p.paramKey(seen[:], np)
		if !ok {
			return false
		}
		if p.peek() != '=' {
			// A bare key is Boolean true: only unknown parameters may be.
			switch k {
			case "created", "expires", "nonce", "alg", "keyid", "tag":
				return false
			}
			continue
		}
		p.pos++
		switch k {
		case "created", "expires":
			v, ok := p.integer()
			if !ok {
				return false
			}
			if k == "created" {
				in.created, in.hasCreated = v, true
			} else {
				in.expires, in.hasExpires = v, true
			}
		default:
			v, ok := p.str()
			if !ok {
				return false
			}
			switch k {
			case "nonce":
				in.nonce = v
			case "alg":
				in.alg = v
			case "keyid":
				in.keyid = v
			case "tag":
				in.tag = v
			}
		}
	}
	return true
}

// scanSigs reads a Signature value of label=:base64: members into out.
func scanSigs(s string, out *[maxFastMembers]fastSig) (n int, ok bool) {
	p := scanner{s: s}
	var labels [maxFastMembers]string
	for {
		if n == len(out) {
			return 0, false
		}
		label, k := p.key()
		if !k || p.peek() != '=' {
			return 0, false
		}
		p.pos++
		if p.peek() != ':' {
			return 0, false
		}
		// The base64 text runs to the next ':'; decodeSig checks it
		// strictly (any other byte sends the field to the strict parser).
		start := p.pos + 1
		end := strings.IndexByte(s[start:], ':')
		if end < 0 {
			return 0, false
		}
		out[n] = fastSig{label: label, b64: s[start : start+end]}
		p.pos = start + end + 1
		more, k := p.endMember(labels[:n], label)
		if !k {
			return 0, false
		}
		labels[n] = label
		n++
		if !more {
			return n, true
		}
	}
}

// decodeSig decodes a Signature member's base64 (canonical: padded, no
// stray bits) into dst.
func decodeSig(dst []byte, text string) ([]byte, bool) {
	n := b64.DecodedLen(len(text))
	if cap(dst) < n {
		dst = make([]byte, n)
	}
	m, err := b64.DecodeStd(dst[:n], text)
	if err != nil {
		return dst, false
	}
	return dst[:m], true
}

// componentCache holds the parsed component lists a Verifier has seen,
// keyed by their text: clients send the same few lists again and again.
// Readers load an immutable map; a new list copies it (rare, and bounded).
type componentCache struct {
	mu sync.Mutex // serializes writers
	m  atomic.Pointer[map[string][]Component]
}

const maxCachedLists = 256

// lookup returns the components of an inner list's text, if cached.
func (c *componentCache) lookup(list string) ([]Component, bool) {
	if m := c.m.Load(); m != nil {
		comps, ok := (*m)[list]
		return comps, ok
	}
	return nil, false
}

// store caches the components of a list that verified.
func (c *componentCache) store(list string, comps []Component) {
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.m.Load()
	if old != nil && len(*old) >= maxCachedLists {
		return
	}
	next := make(map[string][]Component, 1+lenOf(old))
	if old != nil {
		for k, v := range *old {
			next[k] = v
		}
	}
	next[strings.Clone(list)] = comps
	c.m.Store(&next)
}

// parseList reads an inner list's components with the strict parser.
func parseList(list string) ([]Component, error) {
	l, err := sf.ParseList(list)
	if err != nil {
		return nil, err
	}
	in, err := parseSigInput(l[0], false)
	if err != nil {
		return nil, err
	}
	return in.comps, nil
}

func lenOf(m *map[string][]Component) int {
	if m == nil {
		return 0
	}
	return len(*m)
}
