// Package claimsjson hands a verified claims payload to a caller's type
// with encoding/json, the way both jwt and paseto do it: the payload has
// already been validated strictly (internal/jsonx); what is left is to
// refuse what encoding/json would read differently, and to decode a copy.
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
