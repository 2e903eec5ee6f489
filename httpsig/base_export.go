package httpsig

import (
	"fmt"
	"net/http"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/clip"
)

// RequestBase returns the signature base of the signature labelled label
// in r (RFC 9421 §2.5), as a verifier rebuilds it: a debugging aid for
// signatures that do not verify. origin is as in Policy.Origin.
func RequestBase(r *http.Request, label string, origin *Origin) (string, error) {
	if r == nil {
		return "", fmt.Errorf("%w: httpsig: RequestBase of a nil request", signet.ErrMalformed)
	}
	m := requestMessage(r, origin)
	return labelledBase(&m, r.Header, label, nil)
}

// ResponseBase is RequestBase for a response; req is the request it
// answers (resp.Request when nil), seen through origin.
func ResponseBase(resp *http.Response, req *http.Request, label string, origin *Origin) (string, error) {
	if resp == nil {
		return "", fmt.Errorf("%w: httpsig: ResponseBase of a nil response", signet.ErrMalformed)
	}
	if req == nil {
		req = resp.Request
	}
	var rm *message
	if req != nil {
		m := requestMessage(req, origin)
		rm = &m
	}
	m := responseMessage(resp.StatusCode, resp.Header, resp.Trailer, rm)
	return labelledBase(&m, resp.Header, label, nil)
}

func labelledBase(m *message, h http.Header, label string, fields map[string]FieldType) (string, error) {
	inputs, err := parseDictLines("Signature-Input", h.Values("Signature-Input"), DefaultMaxHeader)
	if err != nil {
		return "", err
	}
	mem, ok := inputs.Get(label)
	if !ok {
		return "", fmt.Errorf("%w: no signature labelled %q", ErrNoSignature, clip.String(label))
	}
	in, err := parseSigInput(mem, false)
	if err != nil {
		return "", malformed("Signature-Input", err)
	}
	b, err := baseBuilder{fields: fields}.appendBase(nil, m, in.comps, in.text)
	return string(b), err
}
