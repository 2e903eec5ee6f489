package httpsig

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/clip"
	"github.com/signet-go/signet/internal/sf"
)

// A Component identifies one covered part of a message (RFC 9421 §2): a
// derived component such as "@method", or an HTTP field by its lowercase
// name, with its parameters. Make one with ParseComponent; the zero value
// is not a component.
type Component struct {
	name   string
	param  string // key="…" for fields, name="…" for @query-param
	sf     bool
	bs     bool
	req    bool
	tr     bool
	params sf.Params // as given or received, in order, for serialization
	text   string    // the serialized identifier, e.g. "@query-param";name="id"
	id     string    // identity: name and parameters regardless of order
	canon  string    // a field's canonical header key ("Content-Type")
}

// Name returns the component name: "@method", "content-type", ….
func (c Component) Name() string { return c.name }

// String returns the serialized identifier, as it appears in
// Signature-Input and in the signature base: "@path", "example-dict";key="a".
func (c Component) String() string { return c.text }

// derived lists the derived components and whether each belongs to requests
// (true) or responses (false).
var derived = map[string]bool{
	"@method": true, "@target-uri": true, "@authority": true, "@scheme": true,
	"@request-target": true, "@path": true, "@query": true, "@query-param": true,
	"@status": false,
}

// ParseComponent reads one component identifier, either serialized as in
// Signature-Input (`"@query-param";name="id"`, `"example-dict";key="a"`,
// `"content-type"`) or as a bare name (`@method`, `content-type`). Field
// names are lowercased in the bare form and must be lowercase in the
// serialized one. Errors wrap ErrComponent.
func ParseComponent(s string) (Component, error) {
	if len(s) > 0 && s[0] != '"' {
		s = `"` + strings.ToLower(s) + `"`
	}
	it, err := sf.ParseItem(s)
	if err != nil {
		return Component{}, fmt.Errorf("%w: %q is not a component identifier: %v", ErrComponent, clip.String(s), err)
	}
	return componentOf(it)
}

// ParseComponents reads a space-separated list of component identifiers,
// serialized or bare: `"@method" "@path" content-digest`.
func ParseComponents(s string) ([]Component, error) {
	var out []Component
	for f := range strings.FieldsSeq(s) {
		c, err := ParseComponent(f)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, checkUnique(out)
}

// componentOf checks a parsed identifier: a lowercase name without
// control characters, and only the parameters RFC 9421 §2 defines where
// it defines them: sf, key, bs and tr on fields only (key and bs
// exclusive, bs and sf exclusive), name on @query-param only (which
// needs it), req on any component.
func componentOf(it sf.Item) (Component, error) {
	name, ok := it.Value.(string)
	if !ok || name == "" {
		return Component{}, fmt.Errorf("%w: identifier is not a non-empty String", ErrComponent)
	}
	c := Component{name: name, params: it.Params}
	if name != strings.ToLower(name) {
		return c, fmt.Errorf("%w: %q: component names are lowercase", ErrComponent, clip.String(name))
	}
	for _, p := range it.Params {
		switch p.Key {
		case "sf", "bs", "req", "tr":
			if v, ok := p.Value.(bool); !ok || !v {
				return c, fmt.Errorf("%w: %s: parameter %s takes no value", ErrComponent, name, p.Key)
			}
			switch p.Key {
			case "sf":
				c.sf = true
			case "bs":
				c.bs = true
			case "req":
				c.req = true
			case "tr":
				c.tr = true
			}
		case "key", "name":
			v, ok := p.Value.(string)
			if !ok {
				return c, fmt.Errorf("%w: %s: parameter %s must be a String", ErrComponent, name, p.Key)
			}
			// RFC 9421 §2.1.2, §2.2.8: key selects a member of a
			// Dictionary field, name a parameter of the query.
			if p.Key == "name" && name != "@query-param" || p.Key == "key" && name[0] == '@' {
				return c, fmt.Errorf("%w: %s: parameter %s does not apply", ErrComponent, name, p.Key)
			}
			if p.Key == "key" && v == "" {
				// No Dictionary member has an empty key; taken as no key,
				// it would alias the whole field.
				return c, fmt.Errorf("%w: %s: parameter key is empty", ErrComponent, name)
			}
			c.param = v
		default:
			return c, fmt.Errorf("%w: %s: unknown parameter %q", ErrComponent, name, clip.String(p.Key))
		}
	}
	if name[0] == '@' {
		if _, ok := derived[name]; !ok {
			return c, fmt.Errorf("%w: unknown derived component %q", ErrComponent, clip.String(name))
		}
		if c.sf || c.bs || c.tr {
			return c, fmt.Errorf("%w: %s: sf, bs and tr apply to fields only", ErrComponent, name)
		}
		if name == "@query-param" && c.param == "" {
			if _, has := it.Params.Get("name"); !has {
				return c, fmt.Errorf("%w: @query-param needs a name parameter", ErrComponent)
			}
		}
	} else if c.bs && (c.sf || c.param != "") {
		return c, fmt.Errorf("%w: %s: bs excludes sf and key", ErrComponent, name)
	}
	for i := range len(name) {
		if b := name[i]; b <= ' ' || b >= 0x7f || b == ':' || b == '"' {
			return c, fmt.Errorf("%w: %q is not a field name", ErrComponent, clip.String(name))
		}
	}
	text, err := sf.SerializeItem(sf.Item{Value: name, Params: it.Params})
	if err != nil {
		return c, fmt.Errorf("%w: %v", ErrComponent, err)
	}
	c.text = text
	c.id = c.identity()
	if name[0] != '@' {
		c.canon = http.CanonicalHeaderKey(name)
	}
	return c, nil
}

// key is the component's identity: name and parameters regardless of
// their order (RFC 9421 §2: the same component must not be covered twice).
func (c Component) key() string { return c.id }

func (c Component) identity() string {
	var b strings.Builder
	b.WriteString(c.name)
	for _, f := range [...]struct {
		on bool
		s  string
	}{{c.sf, ";sf"}, {c.bs, ";bs"}, {c.req, ";req"}, {c.tr, ";tr"}} {
		if f.on {
			b.WriteString(f.s)
		}
	}
	if c.param != "" || c.name == "@query-param" {
		b.WriteString(";=")
		b.WriteString(c.param)
	}
	return b.String()
}

// checkUnique refuses a list that covers one component twice.
func checkUnique(cs []Component) error {
	for i := range cs {
		for j := range i {
			if cs[i].key() == cs[j].key() {
				return fmt.Errorf("%w: %s covered twice", ErrComponent, cs[i].text)
			}
		}
	}
	return nil
}

// malformed wraps signet.ErrMalformed with a field's name.
func malformed(field string, err error) error {
	return fmt.Errorf("%w: %s: %v", signet.ErrMalformed, field, err)
}

// sfError wraps an error of the sf parser reading field: ErrTooLarge for
// a value over sf.MaxLen, else as malformed.
func sfError(field string, err error) error {
	if errors.Is(err, sf.ErrTooLong) {
		return fmt.Errorf("%w: %s over %d bytes", signet.ErrTooLarge, field, sf.MaxLen)
	}
	return malformed(field, err)
}
