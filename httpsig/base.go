package httpsig

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/signet-go/signet/internal/sf"
)

// FieldType is the Structured Field type of an HTTP field, which the sf
// parameter needs to re-serialize a field strictly (RFC 9421 §2.1.1).
type FieldType uint8

// The three top-level Structured Field types.
const (
	List FieldType = iota + 1
	Dictionary
	Item
)

// knownFields are the structured fields signet knows the type of; a
// Signer or Verifier can add more (Options.Fields, Policy.Fields).
var knownFields = map[string]FieldType{
	"signature-input": Dictionary, "signature": Dictionary, "accept-signature": Dictionary,
	"content-digest": Dictionary, "repr-digest": Dictionary,
	"want-content-digest": Dictionary, "want-repr-digest": Dictionary,
	"priority": Dictionary, "cache-status": List, "proxy-status": List,
	"cdn-cache-control": Dictionary, "client-cert": Item, "client-cert-chain": List,
}

// baseBuilder appends signature bases; fields extends knownFields.
type baseBuilder struct {
	fields map[string]FieldType
}

// appendBase writes the signature base of m for the components and the
// @signature-params value sigParams (RFC 9421 §2.5).
func (bb baseBuilder) appendBase(dst []byte, m *message, comps []Component, sigParams string) ([]byte, error) {
	dst, err := bb.appendLines(dst, m, comps)
	if err != nil {
		return dst, err
	}
	return append(append(dst, sigParamsName...), sigParams...), nil
}

// sigParamsName starts the last line of a signature base.
const sigParamsName = `"@signature-params": `

// appendLines writes the base's line of each component.
func (bb baseBuilder) appendLines(dst []byte, m *message, comps []Component) ([]byte, error) {
	for i := range comps {
		c := &comps[i]
		dst = append(dst, c.text...)
		dst = append(dst, ':', ' ')
		var err error
		if dst, err = bb.appendValue(dst, m, c); err != nil {
			return dst, err
		}
		dst = append(dst, '\n')
	}
	return dst, nil
}

// appendValue writes the component value of c in m.
func (bb baseBuilder) appendValue(dst []byte, m *message, c *Component) ([]byte, error) {
	if c.req {
		if !m.response {
			return dst, fmt.Errorf("%w: %s: req in a request signature", ErrComponent, c.text)
		}
		if m.related == nil {
			return dst, fmt.Errorf("%w: %s: the request is not known", ErrComponent, c.text)
		}
		m = m.related
	}
	if c.name[0] == '@' {
		return appendDerived(dst, m, c)
	}
	return bb.appendField(dst, m, c)
}

// appendDerived writes a derived component's value (RFC 9421 §2.2).
func appendDerived(dst []byte, m *message, c *Component) ([]byte, error) {
	if derived[c.name] == m.response {
		if m.response {
			return dst, fmt.Errorf("%w: %s is a request component: it needs req in a response", ErrComponent, c.name)
		}
		return dst, fmt.Errorf("%w: %s applies to responses only", ErrComponent, c.name)
	}
	switch c.name {
	case "@status":
		if m.status < 100 || m.status > 999 {
			return dst, fmt.Errorf("%w: @status %d", ErrComponent, m.status)
		}
		return strconv.AppendInt(dst, int64(m.status), 10), nil
	case "@method":
		return appendText(dst, c, m.method)
	case "@authority":
		if !m.hasAuthority {
			return dst, fmt.Errorf("%w: @authority: the request names no host", ErrComponent)
		}
		return appendText(dst, c, m.authority)
	case "@scheme":
		return appendText(dst, c, m.scheme)
	case "@target-uri":
		if !m.hasAuthority {
			return dst, fmt.Errorf("%w: @target-uri: the request names no host", ErrComponent)
		}
		return checkText(m.appendTargetURI(dst), len(dst), c)
	case "@request-target":
		return checkText(m.appendTarget(dst), len(dst), c)
	case "@path":
		return appendText(dst, c, m.path)
	case "@query":
		dst = append(dst, '?')
		return appendText(dst, c, m.query)
	default: // @query-param
		v, err := queryParam(m.query, c.param)
		if err != nil {
			return dst, err
		}
		return append(dst, v...), nil
	}
}

// appendText appends a derived value, which must be printable ASCII.
func appendText(dst []byte, c *Component, v string) ([]byte, error) {
	return checkText(append(dst, v...), len(dst), c)
}

// checkText checks that the value appended to dst from start on is
// printable ASCII.
func checkText(dst []byte, start int, c *Component) ([]byte, error) {
	for _, b := range dst[start:] {
		if b < 0x20 || b > 0x7e {
			return dst[:start], fmt.Errorf("%w: %s: value has a character outside printable ASCII", ErrComponent, c.name)
		}
	}
	return dst, nil
}

// appendField writes an HTTP field's value (RFC 9421 §2.1): each line
// trimmed of leading and trailing white space, obs-fold made one space,
// lines joined with ", "; or re-serialized (sf, key), or each line as a
// Byte Sequence (bs).
func (bb baseBuilder) appendField(dst []byte, m *message, c *Component) ([]byte, error) {
	where := "header"
	if c.tr {
		where = "trailer"
	}
	lines, ok := m.fieldLines(c.name, c.canon, c.tr)
	if !ok {
		return dst, fmt.Errorf("%w: %s: no such %s field", ErrComponent, c.text, where)
	}
	if c.bs {
		l := make(sf.List, len(lines))
		for i, line := range lines {
			l[i] = sf.Item{Value: []byte(trimOWS(unfold(line)))}
		}
		s, err := sf.SerializeList(l)
		if err != nil {
			return dst, fmt.Errorf("%w: %s: %v", ErrComponent, c.text, err)
		}
		return append(dst, s...), nil
	}
	start := len(dst)
	for i, line := range lines {
		if i > 0 {
			dst = append(dst, ',', ' ')
		}
		dst = append(dst, trimOWS(unfold(line))...)
	}
	for _, b := range dst[start:] {
		if b < 0x20 && b != '\t' || b >= 0x7f {
			return dst, fmt.Errorf("%w: %s: value is not ASCII text (cover it with bs)", ErrComponent, c.text)
		}
	}
	if !c.sf && c.param == "" {
		return dst, nil
	}
	value := string(dst[start:])
	dst = dst[:start]
	typ := bb.fieldType(c.name)
	if c.param != "" {
		typ = Dictionary
	}
	s, err := reserialize(value, typ, c.param)
	if err != nil {
		return dst, fmt.Errorf("%w: %s: %v", ErrComponent, c.text, err)
	}
	return append(dst, s...), nil
}

func (bb baseBuilder) fieldType(name string) FieldType {
	if t, ok := bb.fields[name]; ok {
		return t
	}
	return knownFields[name]
}

// reserialize parses value strictly as typ and serializes it again; with
// key, only that Dictionary member.
func reserialize(value string, typ FieldType, key string) (string, error) {
	switch typ {
	case List:
		l, err := sf.ParseList(value)
		if err != nil {
			return "", err
		}
		return sf.SerializeList(l)
	case Item:
		it, err := sf.ParseItem(value)
		if err != nil {
			return "", err
		}
		return sf.SerializeItem(it)
	case Dictionary:
		d, err := sf.ParseDictionary(value)
		if err != nil {
			return "", err
		}
		if key == "" {
			return sf.SerializeDictionary(d)
		}
		mem, ok := d.Get(key)
		if !ok {
			return "", fmt.Errorf("no member %q", key)
		}
		return sf.SerializeList(sf.List{mem})
	}
	return "", fmt.Errorf("structured type unknown (register it in Fields)")
}

// trimOWS removes leading and trailing spaces and tabs.
func trimOWS(s string) string { return strings.Trim(s, " \t") }

// unfold replaces obs-fold (CRLF or LF followed by spaces or tabs) with
// one space (RFC 9110 §5.5). Go's header reader already does this; a
// header map built by hand may not have. A CR or LF that is not part of a
// fold is left for the caller to refuse.
func unfold(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		j := i
		if s[j] == '\r' && j+1 < len(s) && s[j+1] == '\n' {
			j++
		}
		if s[j] == '\n' && j+1 < len(s) && (s[j+1] == ' ' || s[j+1] == '\t') {
			for j+1 < len(s) && (s[j+1] == ' ' || s[j+1] == '\t') {
				j++
			}
			b.WriteByte(' ')
			i = j
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
