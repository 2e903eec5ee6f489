package lab

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/dunglas/httpsfv"
)

// The time window of HTTPSigVerifierAt, for the libraries that cannot be
// given a clock (yaronf v0.3.2 and remitly v1.2.0 read time.Now): their
// own time checks are turned off and the adapter applies this one to the
// signature's created and expires before the library verifies it.

// httpsigInput is one signature's label and time parameters, as
// Signature-Input carries them.
type httpsigInput struct {
	label            string
	created, expires int64
	hasCreated       bool
	hasExpires       bool
	components       []string // the covered components' names
}

// covers reports whether the signature covers the component name.
func (in httpsigInput) covers(name string) bool { return slices.Contains(in.components, name) }

// httpsigInputs reads r's Signature-Input (with the RFC 8941 parser the
// three peers use).
func httpsigInputs(r *http.Request) ([]httpsigInput, error) {
	d, err := httpsfv.UnmarshalDictionary(r.Header.Values("Signature-Input"))
	if err != nil {
		return nil, err
	}
	var out []httpsigInput
	for _, label := range d.Names() {
		m, _ := d.Get(label)
		il, ok := m.(httpsfv.InnerList)
		if !ok {
			return nil, fmt.Errorf("signature %q: not an inner list", label)
		}
		in := httpsigInput{label: label}
		for _, it := range il.Items {
			if name, ok := it.Value.(string); ok {
				in.components = append(in.components, name)
			}
		}
		if v, ok := il.Params.Get("created"); ok {
			if in.created, ok = v.(int64); !ok {
				return nil, fmt.Errorf("signature %q: created is not an integer", label)
			}
			in.hasCreated = true
		}
		if v, ok := il.Params.Get("expires"); ok {
			if in.expires, ok = v.(int64); !ok {
				return nil, fmt.Errorf("signature %q: expires is not an integer", label)
			}
			in.hasExpires = true
		}
		out = append(out, in)
	}
	if len(out) == 0 {
		return nil, errors.New("no signature")
	}
	return out, nil
}

// checkTime applies HTTPSigVerifierAt's window at now: created present,
// at most five minutes old and a minute ahead; expires, when present, not
// passed by more than a minute.
func (in httpsigInput) checkTime(now time.Time) error {
	switch {
	case !in.hasCreated:
		return fmt.Errorf("signature %q: no created", in.label)
	case time.Unix(in.created, 0).Before(now.Add(-httpsigMaxAge)):
		return fmt.Errorf("signature %q: created too long ago", in.label)
	case time.Unix(in.created, 0).After(now.Add(time.Minute)):
		return fmt.Errorf("signature %q: created in the future", in.label)
	case in.hasExpires && time.Unix(in.expires, 0).Before(now.Add(-time.Minute)):
		return fmt.Errorf("signature %q: expired", in.label)
	}
	return nil
}

// httpsigEach runs verify on each of r's signatures whose time is right
// at now, and succeeds when one does: the signature by the bound key,
// whatever its label. It returns the first error otherwise.
func httpsigEach(r *http.Request, now time.Time, verify func(in httpsigInput) error) error {
	ins, err := httpsigInputs(r)
	if err != nil {
		return err
	}
	var first error
	for _, in := range ins {
		err := in.checkTime(now)
		if err == nil {
			if err = verify(in); err == nil {
				return nil
			}
		}
		if first == nil {
			first = err
		}
	}
	return first
}
