package httpsig

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/clip"
	"github.com/signet-go/signet/internal/itoa"
	"github.com/signet-go/signet/internal/sf"
)

// Options configure a Signer.
type Options struct {
	// Label names the signature in Signature-Input and Signature; "sig1"
	// when empty. A message that already has a signature with this label
	// is refused, never overwritten.
	Label string
	// Components are the covered components, as identifiers serialized
	// (`"@query-param";name="id"`) or bare (`@method`, `content-type`);
	// see ParseComponent. When empty, a request signature covers @method,
	// @authority and @path, and a response signature @status.
	Components []string
	// KeyID is the keyid parameter; the key's own ID when empty. No keyid
	// parameter is sent when both are empty.
	KeyID string
	// Tag is the tag parameter, sent when not empty.
	Tag string
	// Nonce adds a fresh random nonce parameter to every signature.
	Nonce bool
	// NonceValue is a fixed nonce parameter, for a nonce the verifier chose
	// (Accept-Signature); it excludes Nonce.
	NonceValue string
	// Expires, when positive, adds expires = created + Expires.
	Expires time.Duration
	// ExpiresAt, when not zero, adds expires at that time; it excludes
	// Expires.
	ExpiresAt time.Time
	// NoCreated leaves out the created parameter (RECOMMENDED by the RFC,
	// and required by default by Verifier).
	NoCreated bool
	// Alg adds the alg parameter with the key's algorithm.
	Alg bool
	// Digest, SHA256 or SHA512, makes the signer add a Content-Digest of
	// the body to a message that has none, when the components cover
	// "content-digest". The request body is read and replaced; a request
	// without a body gets the digest of the empty content.
	Digest string
	// Fields adds structured-field types for the sf parameter, by
	// lowercase field name.
	Fields map[string]FieldType
	// Origin gives the scheme and authority of requests as a server
	// received them (a proxy re-signing a request it forwards, a response
	// binding its request with req), as Policy.Origin does for verifiers.
	Origin *Origin
	// Now is the clock for created; time.Now when nil.
	Now func() time.Time
}

// A Signer adds signatures to messages with one key and one set of
// options. It is safe for concurrent use. Make one with NewSigner: a nil
// or zero Signer fails with signet.ErrKeyUsage.
type Signer struct {
	key     *signet.Key
	label   string
	comps   []Component
	keyid   string
	o       Options
	bb      baseBuilder
	digests bool // comps covers content-digest
	bufs    sync.Pool

	requestOnly bool // made by Answer: SignResponse refuses

	reqList, respList []byte // ("…" …) for requests and responses
	tail              []byte // the static parameters: ;nonce=…;alg=…;keyid=…;tag=…
}

// NewSigner returns a Signer for key, which must be a private key (or
// secret) of an RFC 9421 algorithm. A nil or zero key is refused with
// signet.ErrKeyUsage.
func NewSigner(key *signet.Key, o Options) (*Signer, error) {
	if key == nil || key.Algorithm() == "" {
		return nil, errZeroKey
	}
	if !key.Algorithm().IsHTTPSig() {
		return nil, fmt.Errorf("%w: %s is not an HTTP Message Signatures algorithm", signet.ErrAlgorithmMismatch, key.Algorithm())
	}
	if !key.CanSign() {
		return nil, fmt.Errorf("%w: %s key is public, cannot sign", signet.ErrKeyUsage, key.Algorithm())
	}
	s := &Signer{key: key, label: o.Label, keyid: o.KeyID, o: o, bb: baseBuilder{fields: o.Fields}}
	if s.label == "" {
		s.label = "sig1"
	}
	if p := (scanner{s: s.label}); !p.isKey() {
		return nil, fmt.Errorf("%w: label %q is not a Structured Field key", ErrComponent, clip.String(s.label))
	}
	if s.keyid == "" {
		s.keyid = key.KeyID()
	}
	if o.Nonce && o.NonceValue != "" || o.Expires > 0 && !o.ExpiresAt.IsZero() {
		return nil, fmt.Errorf("%w: httpsig: Options: Nonce and NonceValue, or Expires and ExpiresAt, together", signet.ErrUnsupported)
	}
	if o.Digest != "" {
		if _, err := newDigestHash(o.Digest); err != nil {
			return nil, err
		}
	}
	for _, id := range o.Components {
		c, err := ParseComponent(id)
		if err != nil {
			return nil, err
		}
		s.comps = append(s.comps, c)
		s.digests = s.digests || (c.name == "content-digest" && !c.req)
	}
	if err := checkUnique(s.comps); err != nil {
		return nil, err
	}
	if err := s.prepare(); err != nil {
		return nil, err
	}
	return s, nil
}

// errZeroKey refuses a nil or zero *signet.Key, to a Signer or a Verifier.
var errZeroKey = fmt.Errorf("%w: httpsig: a nil or zero Key (make keys with signet.NewKey, GenerateKey or ParsePEM)", signet.ErrKeyUsage)

// errNoSigner is what a nil Signer, or one not made by NewSigner, returns.
var errNoSigner = fmt.Errorf("%w: httpsig: a Signer not made by NewSigner", signet.ErrKeyUsage)

// SignRequest adds a signature to r: Signature-Input and Signature field
// lines with the Signer's label, after any already there. With
// Options.Digest, a body without Content-Digest gets one first. A request
// with RequestURI set is viewed as the server received it (as a Verifier
// does); to sign one a server forwards under another URL, clear its
// RequestURI first, as Transport does.
func (s *Signer) SignRequest(r *http.Request) error {
	if s == nil || s.key == nil {
		return errNoSigner
	}
	if r == nil {
		return fmt.Errorf("%w: httpsig: SignRequest of a nil request", signet.ErrMalformed)
	}
	if r.Header == nil {
		r.Header = http.Header{}
	}
	if s.digests && s.o.Digest != "" && r.Header.Get("Content-Digest") == "" {
		// A request without a body gets the digest of the empty content
		// (RFC 9530), which a Verifier checks against its empty body.
		var body []byte
		if r.Body != nil && r.Body != http.NoBody {
			var err error
			body, err = io.ReadAll(r.Body)
			r.Body.Close()
			if err != nil {
				return fmt.Errorf("%w: httpsig: reading the body: %w", signet.ErrMalformed, err)
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		}
		if err := s.addDigest(r.Header, body); err != nil {
			return err
		}
	}
	m := requestMessage(r, s.o.Origin)
	return s.sign(&m, r.Header, defaultRequest)
}

// SignResponse adds a signature to a response with status code status and
// fields h (and trailer, which may be nil), as a server writes it; req is
// the request it answers, needed for components with the req parameter.
// body is the response content, used only to add a Content-Digest with
// Options.Digest; pass nil otherwise.
func (s *Signer) SignResponse(status int, h, trailer http.Header, req *http.Request, body []byte) error {
	if s == nil || s.key == nil {
		return errNoSigner
	}
	if h == nil {
		return fmt.Errorf("%w: httpsig: SignResponse needs the response's header map", signet.ErrMalformed)
	}
	if s.requestOnly {
		return errAnswerRequestOnly
	}
	if s.digests && s.o.Digest != "" && h.Get("Content-Digest") == "" && body != nil {
		if err := s.addDigest(h, body); err != nil {
			return err
		}
	}
	var rm *message
	if req != nil {
		m := requestMessage(req, s.o.Origin)
		rm = &m
	}
	m := responseMessage(status, h, trailer, rm)
	return s.sign(&m, h, defaultResponse)
}

func (s *Signer) addDigest(h http.Header, body []byte) error {
	v, err := ContentDigest(s.o.Digest, body)
	if err != nil {
		return err
	}
	h.Set("Content-Digest", v)
	return nil
}

var (
	defaultRequest  = mustComponents("@method", "@authority", "@path")
	defaultResponse = mustComponents("@status")
)

func mustComponents(ids ...string) []Component {
	out := make([]Component, len(ids))
	for i, id := range ids {
		c, err := ParseComponent(id)
		if err != nil {
			panic(err)
		}
		out[i] = c
	}
	return out
}

// signBuf is the scratch space of one signature, pooled.
type signBuf struct {
	input, base, sig, line []byte
}

// prepare serializes, once, what does not change between signatures: the
// component list and the parameters after created, expires and nonce.
func (s *Signer) prepare() error {
	list := func(comps []Component) ([]byte, error) {
		t, err := sigInputText(comps, nil)
		return []byte(t), err
	}
	var err error
	if s.reqList, err = list(s.compsOr(defaultRequest)); err != nil {
		return err
	}
	if s.respList, err = list(s.compsOr(defaultResponse)); err != nil {
		return err
	}
	var tail sf.Params
	if s.o.NonceValue != "" {
		tail = append(tail, sf.Param{Key: "nonce", Value: s.o.NonceValue})
	}
	if s.o.Alg {
		tail = append(tail, sf.Param{Key: "alg", Value: string(s.key.Algorithm())})
	}
	if s.keyid != "" {
		tail = append(tail, sf.Param{Key: "keyid", Value: s.keyid})
	}
	if s.o.Tag != "" {
		tail = append(tail, sf.Param{Key: "tag", Value: s.o.Tag})
	}
	t, err := sigInputText(nil, tail)
	if err != nil {
		return fmt.Errorf("%w: signature parameters: %v", ErrComponent, err)
	}
	s.tail = []byte(t[len("()"):])
	return nil
}

func (s *Signer) compsOr(defaults []Component) []Component {
	if len(s.comps) > 0 {
		return s.comps
	}
	return defaults
}

// sign builds the signature parameters and base for m, signs, and adds the
// two field lines to h.
func (s *Signer) sign(m *message, h http.Header, defaults []Component) error {
	comps, list := s.comps, s.reqList
	if len(comps) == 0 {
		comps = defaults
	}
	if m.response {
		list = s.respList
	}
	if len(h["Signature-Input"]) > 0 || len(h["Signature"]) > 0 {
		if err := labelFree(h, s.label); err != nil {
			return err
		}
	}
	buf, _ := s.bufs.Get().(*signBuf)
	if buf == nil {
		buf = new(signBuf)
	}
	defer s.bufs.Put(buf)

	// The Signature-Input member: label=("…" …);created=…;…
	in := append(buf.input[:0], s.label...)
	in = append(in, '=')
	start := len(in)
	in = append(in, list...)
	now := time.Now
	if s.o.Now != nil {
		now = s.o.Now
	}
	created := now().Unix()
	if !s.o.NoCreated {
		in = itoa.Append(append(in, ";created="...), created)
	}
	switch {
	case s.o.Expires > 0:
		in = itoa.Append(append(in, ";expires="...), created+int64((s.o.Expires+time.Second-1)/time.Second))
	case !s.o.ExpiresAt.IsZero():
		in = itoa.Append(append(in, ";expires="...), s.o.ExpiresAt.Unix())
	}
	if s.o.Nonce {
		var n [24]byte
		if _, err := rand.Read(n[:]); err != nil {
			return fmt.Errorf("%w: httpsig: nonce: %w", signet.ErrUnsupported, err)
		}
		in = append(in, `;nonce="`...)
		in = base64.RawURLEncoding.AppendEncode(in, n[:])
		in = append(in, '"')
	}
	in = append(in, s.tail...)
	buf.input = in

	base, err := s.bb.appendLines(buf.base[:0], m, comps)
	if err == nil {
		base = append(append(base, sigParamsName...), in[start:]...)
	}
	buf.base = base
	if err != nil {
		return err
	}
	sig, err := s.key.Sign(buf.sig[:0], base)
	buf.sig = sig
	if err != nil {
		return err
	}
	// Both field lines in one string, and both header slices in one
	// array when they are new: two allocations in all.
	line := append(buf.line[:0], in...)
	line = append(line, s.label...)
	line = append(line, "=:"...)
	line = base64.StdEncoding.AppendEncode(line, sig)
	line = append(line, ':')
	buf.line = line
	both := string(line)
	inLine, sigLine := both[:len(in)], both[len(in):]
	if len(h["Signature-Input"]) == 0 && len(h["Signature"]) == 0 {
		pair := []string{inLine, sigLine}
		h["Signature-Input"], h["Signature"] = pair[:1:1], pair[1:]
		return nil
	}
	h["Signature-Input"] = append(h["Signature-Input"], inLine)
	h["Signature"] = append(h["Signature"], sigLine)
	return nil
}

// labelFree refuses to add a signature whose label is already in use.
func labelFree(h http.Header, label string) error {
	for _, name := range [...]string{"Signature-Input", "Signature"} {
		lines := h.Values(name)
		if len(lines) == 0 {
			continue
		}
		d, err := parseDictLines(name, lines, DefaultMaxHeader)
		if err != nil {
			return err
		}
		if _, taken := d.Get(label); taken {
			return fmt.Errorf("%w: label %q is already used in %s", ErrComponent, clip.String(label), name)
		}
	}
	return nil
}
