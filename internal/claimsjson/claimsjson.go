// Package claimsjson codes a caller's claims type the way both jwt and
// paseto do it. The payload has already been validated strictly
// (internal/jsonx); what is left is to refuse what encoding/json would read
// differently, and to decode.
//
// A type that embeds the format's registered claims (Filter.Can) is split:
// the format's own codec reads and writes the registered members. When
// its other fields are of the kinds a Plan codes (see Plan), the Plan,
// worked out once per type by reflection and then run with field offsets,
// codes them with encoding/json's exact bytes and results (differential
// tests and fuzzing hold it to that). It writes with Plan.Append, and
// reads with one validating reader: the format's claims reader hands it
// each member it takes as it walks the payload (Taker.Unregistered, which
// refuses a variant spelling of a registered claim, then Take), or, when it
// read the payload in the plain shape, the members it passed over (Rest),
// which Finish reads at their positions rather than scanning the payload
// again. Errors of the text come from Take, before the format checks the
// registered claims; a member of a type its field does not take is
// reported by Finish, after them. Any other type goes through
// encoding/json: Into and Object, a payload without its registered
// members (Filter.Without) for a type the Filter can split.
package claimsjson

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/jsonx"
)

// Decode decodes payload into out, a pointer. asMap says out is a map of
// the claims: numbers come back as json.Number, so none loses precision.
// verbatim says out keeps every member as it is (a map or a
// json.RawMessage); otherwise out is filled by encoding/json's
// case-insensitive field matching, so an object whose member names differ
// only in case ({"sub":"alice","SUB":"admin"}), at any depth, is refused
// first. Errors wrap signet.ErrMalformed.
func Decode(payload string, out any, asMap, verbatim bool) error {
	if !verbatim {
		if err := CheckFold(payload); err != nil {
			return err
		}
	}
	var err error
	if asMap {
		d := json.NewDecoder(strings.NewReader(payload))
		d.UseNumber()
		err = d.Decode(out)
	} else {
		// A copy: a caller's UnmarshalJSON may write to what it is given.
		err = json.Unmarshal([]byte(payload), out)
	}
	if err != nil {
		return fmt.Errorf("%w: claims: %v", signet.ErrMalformed, err)
	}
	return nil
}

// CheckFold refuses a payload with member names that differ only in case
// (at any depth), which encoding/json would decode into one struct field:
// the checks and the caller could then read different values.
func CheckFold(payload string) error {
	if err := jsonx.ValidFold(payload); err != nil {
		return fmt.Errorf("%w: claims: member names differ only in case: %v", signet.ErrMalformed, err)
	}
	return nil
}

// Object marshals v with encoding/json and checks that it is a JSON
// object, as a token's claims must be.
func Object(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("%w: encode claims: %v", signet.ErrMalformed, err)
	}
	if len(b) < 2 || b[0] != '{' {
		return nil, fmt.Errorf("%w: claims must encode as a JSON object", signet.ErrMalformed)
	}
	return b, nil
}
