package claimsjson

import (
	"fmt"
	"unsafe"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/jsonx"
)

// Rest holds the members that a format's reader of the plain shape
// (jsonx.Flat: at most 16 members, plain ASCII names, no white space, no
// nested object) passed over, the ones that are not registered claims, as
// views of the payload: a Plan decodes them from there without scanning
// the payload again. The reader calls Add for each and Done once it has
// read the whole payload that way; a Rest that is not done is not used.
type Rest struct {
	members [16]restMember
	n       int
	ok      bool
}

type restMember struct{ name, value string }

// Add records a member the reader passed over.
func (r *Rest) Add(name, value string) {
	if r.n == len(r.members) {
		r.n++ // more than fit: Done leaves r unused
		return
	}
	r.members[r.n] = restMember{name, value}
	r.n++
}

// Done says the reader read the whole payload in the plain shape.
func (r *Rest) Done() { r.ok = r.n <= len(r.members) }

// decodeRest is decode on the members of a done Rest. Their names are
// plain ASCII and no value holds an object, so the fold rule comes down
// to comparing these names (the reader has refused a registered claim's
// name in other case).
func (p *Plan) decodeRest(r *Rest, v unsafe.Pointer, folded bool) (fallback bool, err error) {
	ms := r.members[:r.n]
	for k := range ms {
		m := &ms[k]
		f, fb := p.lookup(m.name)
		if f != nil {
			if !f.decode(m.value, unsafe.Add(v, f.off)) {
				return false, typeError(m.name, m.value)
			}
		} else if fb {
			return true, nil
		}
	}
	if folded {
		return false, nil
	}
	for a := 1; a < len(ms); a++ {
		for b := range a {
			if len(ms[a].name) == len(ms[b].name) && equalFoldASCII(ms[a].name, ms[b].name) {
				return false, errFoldDuplicate
			}
		}
	}
	return false, nil
}

var errFoldDuplicate = fmt.Errorf("%w: claims: member names differ only in case: %v", signet.ErrMalformed, jsonx.ErrDuplicate)
