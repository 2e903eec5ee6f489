package claimsjson

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/jsonx"
)

// Rest holds the members that a format's reader of the plain shape
// (jsonx.Flat: at most 16 members, plain ASCII names, no white space, no
// nested object) passed over, the ones that are not registered claims, as
// positions in the payload: a Plan decodes them from there without
// scanning the payload again. The reader calls Add for each and Done once
// it has read the whole payload that way; a Rest that is not done is not
// used. (Positions rather than strings: a Rest holds no pointer, so
// filling it costs no write barrier.)
type Rest struct {
	members [16]restMember
	n       int
	ok      bool
}

// restMember is a member's name and value, payload[na:nb] and
// payload[va:vb].
type restMember struct{ na, nb, va, vb int32 }

// Add records a member the reader passed over: name and value are
// substrings of payload (Flat's Name and Value); anything else leaves r
// unused.
func (r *Rest) Add(payload, name, value string) {
	if r.n >= len(r.members) {
		r.n = len(r.members) + 1 // more than fit: Done leaves r unused
		return
	}
	base := uintptr(unsafe.Pointer(unsafe.StringData(payload)))
	na := uintptr(unsafe.Pointer(unsafe.StringData(name))) - base
	va := uintptr(unsafe.Pointer(unsafe.StringData(value))) - base
	if na > uintptr(len(payload)) || uintptr(len(name)) > uintptr(len(payload))-na ||
		va > uintptr(len(payload)) || uintptr(len(value)) > uintptr(len(payload))-va || len(payload) > math.MaxInt32 {
		r.n = len(r.members) + 1 // not views of payload
		return
	}
	r.members[r.n] = restMember{int32(na), int32(na) + int32(len(name)), int32(va), int32(va) + int32(len(value))}
	r.n++
}

// Done says the reader read the whole payload in the plain shape, or
// with jsonx's fold rule (NewMembersFold) when the caller decodes with
// folded set.
func (r *Rest) Done() { r.ok = r.n <= len(r.members) }

// Reset empties r, for a reader that starts over on another path.
func (r *Rest) Reset() { r.n, r.ok = 0, false }

// decodeRest decodes the members of a done Rest into the struct at v with
// the plan's reader, which reads each value at its position in s (the
// payload), as Take does. Their names are plain ASCII and no value holds
// an object, so the fold rule comes down to comparing these names (the
// reader has refused a registered claim's name in other case). fallback
// says encoding/json must decode this payload, as for Taker; a member of
// a type its field does not take is an error, the first one's.
func (p *Plan) decodeRest(s string, r *Rest, v unsafe.Pointer, folded bool) (fallback bool, err error) {
	ms := r.members[:r.n]
	rd := reader{s: s, fold: true}
	for k := range ms {
		m := &ms[k]
		if int(m.vb) > len(s) {
			return false, errScan // not this payload's Rest
		}
		name := s[m.na:m.nb]
		f, fb := p.lookup(name)
		if f != nil {
			if end := f.c.read(&rd, int(m.va), 1, unsafe.Add(v, f.off)); end != int(m.vb) {
				if end < 0 && rd.err == nil {
					return false, typeError(name, s[m.va:m.vb])
				}
				return false, errScan // text the reader of the plain shape did not validate
			}
		} else if fb {
			return true, nil
		}
	}
	if folded {
		return false, nil
	}
	for a := 1; a < len(ms); a++ {
		na := s[ms[a].na:ms[a].nb]
		for b := range a {
			if nb := s[ms[b].na:ms[b].nb]; len(na) == len(nb) && equalFoldASCII(na, nb) {
				return false, errFoldDuplicate
			}
		}
	}
	return false, nil
}

var errFoldDuplicate = fmt.Errorf("%w: claims: member names differ only in case: %v", signet.ErrMalformed, jsonx.ErrDuplicate)
