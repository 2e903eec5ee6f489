package httpsig

import (
	"fmt"
	"net/http"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/clip"
	"github.com/signet-go/signet/internal/sf"
)

// A Want is one signature asked for with Accept-Signature (RFC 9421 §5):
// the label to use, exactly which components to cover, and which
// parameters to include.
type Want struct {
	Label      string
	Components []Component
	Created    bool             // include created
	Expires    bool             // include expires
	Nonce      string           // include this nonce
	Tag        string           // include this tag
	KeyID      string           // sign with this key
	Alg        signet.Algorithm // sign with this algorithm
}

// ParseAcceptSignature reads the Accept-Signature field of h. It returns
// no Wants and no error when the field is absent. The field is read up to
// DefaultMaxHeader bytes and 16 members (signet.ErrTooLarge beyond);
// anything that is not a dictionary of signature requests wraps
// signet.ErrMalformed, an alg that names no RFC 9421 algorithm
// signet.ErrUnsupported.
func ParseAcceptSignature(h http.Header) ([]Want, error) {
	lines := h.Values("Accept-Signature")
	if len(lines) == 0 {
		return nil, nil
	}
	d, err := parseDictLines("Accept-Signature", lines, DefaultMaxHeader)
	if err != nil {
		return nil, err
	}
	if len(d) > maxSignatures {
		return nil, fmt.Errorf("%w: Accept-Signature asks for more than %d signatures", signet.ErrTooLarge, maxSignatures)
	}
	out := make([]Want, 0, len(d))
	for _, mem := range d {
		in, err := parseSigInput(mem.Value, true)
		if err != nil {
			return nil, fmt.Errorf("%w: Accept-Signature %s: %w", signet.ErrMalformed, clip.String(mem.Key), err)
		}
		w := Want{Label: mem.Key, Components: in.comps, Nonce: in.nonce, Tag: in.tag, KeyID: in.keyid}
		if in.alg != "" {
			a, err := signet.ParseAlgorithm(in.alg)
			if err != nil || !a.IsHTTPSig() {
				return nil, fmt.Errorf("%w: Accept-Signature alg %q", signet.ErrUnsupported, clip.String(in.alg))
			}
			w.Alg = a
		}
		il := mem.Value.(sf.InnerList) // parseSigInput checked
		_, w.Created = il.Params.Get("created")
		_, w.Expires = il.Params.Get("expires")
		out = append(out, w)
	}
	return out, nil
}

// AcceptSignature returns the Accept-Signature field value asking for the
// signatures wants.
func AcceptSignature(wants ...Want) (string, error) {
	d := make(sf.Dictionary, 0, len(wants))
	for _, w := range wants {
		var params sf.Params
		if w.Created {
			params = append(params, sf.Param{Key: "created", Value: true})
		}
		if w.Expires {
			params = append(params, sf.Param{Key: "expires", Value: true})
		}
		for _, p := range [...]struct{ k, v string }{{"nonce", w.Nonce}, {"alg", string(w.Alg)}, {"keyid", w.KeyID}, {"tag", w.Tag}} {
			if p.v != "" {
				params = append(params, sf.Param{Key: p.k, Value: p.v})
			}
		}
		il := sf.InnerList{Items: make([]sf.Item, len(w.Components)), Params: params}
		for i, c := range w.Components {
			il.Items[i] = sf.Item{Value: c.name, Params: c.params}
		}
		d = append(d, sf.DictMember{Key: w.Label, Value: il})
	}
	s, err := sf.SerializeDictionary(d)
	if err != nil {
		return "", fmt.Errorf("%w: Accept-Signature: %v", ErrComponent, err)
	}
	return s, nil
}

// DefaultAnswerExpiry is the lifetime of an answer to a Want that asks
// for expires when the Signer sets none.
const DefaultAnswerExpiry = 5 * time.Minute

// Answer returns a Signer for a client answering the Accept-Signature of
// a server it sends requests to (RFC 9421 §5): the signature w asks for
// over the client's own request, with its label, exactly its components,
// and its parameters, the nonce (the server's challenge) and tag
// included. It fails with ErrKeyNotFound or ErrAlgorithmMismatch when w
// asks for another key or algorithm than s signs with.
//
// The Signer it returns signs requests only: its SignResponse fails with
// ErrKeyUsage. A server answers Accept-Signature on its responses with
// SignResponses and ResponseOptions.Answer, which take far less from the
// client: answering exactly whatever a client asks would make the
// server's key a signing oracle.
func (s *Signer) Answer(w Want) (*Signer, error) {
	if s == nil || s.key == nil {
		return nil, errNoSigner
	}
	if err := s.checkWantKey(w); err != nil {
		return nil, err
	}
	o := s.o
	o.Label, o.Tag = w.Label, w.Tag
	o.Nonce, o.NonceValue = false, w.Nonce
	o.Alg = o.Alg || w.Alg != ""
	o.NoCreated = o.NoCreated && !w.Created
	if w.Expires && o.Expires <= 0 && o.ExpiresAt.IsZero() {
		o.Expires = DefaultAnswerExpiry
	}
	o.Components = make([]string, len(w.Components))
	for i, c := range w.Components {
		o.Components[i] = c.text
	}
	if len(o.Components) == 0 {
		return nil, fmt.Errorf("%w: Accept-Signature %q asks for no components", ErrComponent, clip.String(w.Label))
	}
	a, err := NewSigner(s.key, o)
	if err != nil {
		return nil, err
	}
	a.requestOnly = true
	return a, nil
}

// checkWantKey refuses a Want that asks for another key or algorithm than
// s signs with.
func (s *Signer) checkWantKey(w Want) error {
	if w.KeyID != "" && w.KeyID != s.keyid {
		return fmt.Errorf("%w: Accept-Signature asks for keyid %q", signet.ErrKeyNotFound, clip.String(w.KeyID))
	}
	if w.Alg != "" && w.Alg != s.key.Algorithm() {
		return fmt.Errorf("%w: Accept-Signature asks for %s, key is %s", signet.ErrAlgorithmMismatch, clip.String(string(w.Alg)), s.key.Algorithm())
	}
	return nil
}

// errAnswerRequestOnly refuses to sign a response with a Signer from
// Answer.
var errAnswerRequestOnly = fmt.Errorf("%w: a Signer from Answer signs requests only; answer Accept-Signature on responses with SignResponses", signet.ErrKeyUsage)
