package httpsig

import (
	"bytes"
	"fmt"
	"net/http"
	"slices"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/clip"
)

// ResponseOptions configure SignResponses. The zero value signs every
// response with the server's own signature and ignores Accept-Signature.
type ResponseOptions struct {
	// Answer opts in to answering Accept-Signature (RFC 9421 §5). It lists
	// the component sets, as identifiers (see ParseComponent), over which
	// a client may ask for a response signature. Each set must cover
	// @status, name request components (@method, @authority, @path, …,
	// and the request's fields) only with req, and no trailer field (tr)
	// without req: SignResponses signs the header before any trailer.
	//
	// A request that asks, with Accept-Signature, for one of these sets
	// (@status is added when it leaves it out) gets a second signature by
	// the same key over exactly that set, in the order given here. A
	// request that asks for anything else gets no answer: the response
	// carries the server's own signature only. Of what a client asks,
	// only this is taken:
	//   - the label, when it is at most 64 bytes and not the server's own
	//     or another answer's (labels are not signed: they only let the
	//     client find the answer);
	//   - whether created, expires and nonce are present; their values are
	//     the server's: its clock, its Options.Expires or ExpiresAt (else
	//     DefaultAnswerExpiry), and a fresh random nonce, never the
	//     client's (a nonce of the client's choosing would let it shape
	//     the signature into the answer to a challenge that someone else
	//     issued; a client that wants its answer bound to its request asks
	//     for a set with req components, such as
	//     `"signature";req;key="sig1"`, that the server allows);
	//   - alg and keyid only when they name the key's own; a request for
	//     another key or algorithm gets no answer.
	// The tag is never the client's: an answer carries the server's
	// Options.Tag, or none. At most 2 answers are made per response.
	//
	// When Answer is empty, the default, Accept-Signature is not read.
	Answer [][]string
}

// SignResponses returns net/http middleware that signs every response
// with s: over s's components (@status when it names none) and with s's
// parameters. s must cover @status, and no request component without req:
// a request has no @status, so a signature that covers it can never be
// taken for a request signature. SignResponses fails with ErrNotCovered
// or ErrComponent for a signer or an answer set that breaks this, and
// with signet.ErrKeyUsage for no signer or one made by Signer.Answer.
//
// A client's Accept-Signature is ignored unless ResponseOptions.Answer
// lists the component sets the server is willing to sign for it; what a
// client can then choose, and what it cannot, is said there. When
// answering, every response varies on Accept-Signature.
//
// Sign responses with a key that signs nothing else, and requests in
// particular with another key (and another keyid). A signature vouches
// for the lines of a signature base; only the covered components tell a
// request's from a response's. With one key for both, a verifier of that
// key may weigh a response signature as a request signature wherever the
// components coincide. Say a server signs its calls to a partner with key
// K and its responses with K too, and the partner requires content-type
// and content-digest: an attacker sends the server a POST /echo whose
// Accept-Signature asks for ("content-type" "content-digest") with the
// partner's tag, copies the response's Content-Type, Content-Digest,
// Signature-Input, Signature and body onto a POST to the partner, and the
// partner accepts a request from K with a body the attacker chose.
// SignResponses closes that path (@status is always covered, the tag is
// never the client's), and signet's Verifier requires @method, @authority
// and @path of a request by default, but a verifier elsewhere, or a
// response signed another way, may not; separate keys close it for every
// verifier.
//
// When a signature covers content-digest and its Signer has
// Options.Digest, the response is buffered so that its digest can be
// computed before the header is sent; otherwise it streams, signed when
// the header is written. A response that carries no content (to HEAD, or
// 204, 304) gets the Content-Digest of the empty content (RFC 9530). A
// response that cannot be signed with s is replaced by a 500 problem; an
// answer that cannot be made is left out.
func SignResponses(s *Signer, o ResponseOptions) (func(http.Handler) http.Handler, error) {
	rp, err := newResponder(s, o)
	if err != nil {
		return nil, err
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			signers, buffer := rp.own, rp.buffer
			if len(rp.sets) > 0 {
				w.Header().Add("Vary", "Accept-Signature")
				signers = rp.answers(r.Header)
				buffer = buffers(signers)
			}
			sw := &signingWriter{ResponseWriter: w, req: r, signers: signers, buffer: buffer}
			next.ServeHTTP(sw, r)
			sw.finish()
		})
	}, nil
}

// maxAnswers bounds the Accept-Signature requests SignResponses answers
// in one response: each answer is a signature to compute.
const maxAnswers = 2

// maxAnswerLabel bounds a label taken from Accept-Signature, which the
// response echoes.
const maxAnswerLabel = 64

// statusID is the identity of the component @status.
var statusID = mustComponents("@status")[0].id

// A responder is what SignResponses signs with: the server's Signer and
// the component sets it answers Accept-Signature with.
type responder struct {
	s      *Signer
	own    []*Signer // {s}, shared by every response without answers (read only)
	buffer bool      // s needs the body (buffers(own))
	sets   []answerSet
}

// An answerSet is one of ResponseOptions.Answer.
type answerSet struct {
	ids  []string // the component identities, sorted, to compare with a request's
	text []string // the identifiers, in the server's order, for Options.Components
}

func newResponder(s *Signer, o ResponseOptions) (*responder, error) {
	if s == nil {
		return nil, fmt.Errorf("%w: SignResponses without a Signer", signet.ErrKeyUsage)
	}
	if s.key == nil {
		return nil, fmt.Errorf("SignResponses: %w", errNoSigner)
	}
	if s.requestOnly {
		return nil, errAnswerRequestOnly
	}
	if err := checkResponseSet(s.compsOr(defaultResponse)); err != nil {
		return nil, fmt.Errorf("SignResponses: the Signer's components: %w", err)
	}
	rp := &responder{s: s, own: []*Signer{s}}
	rp.buffer = buffers(rp.own)
	for i, ids := range o.Answer {
		comps := make([]Component, len(ids))
		for j, id := range ids {
			c, err := ParseComponent(id)
			if err != nil {
				return nil, fmt.Errorf("SignResponses: ResponseOptions.Answer[%d]: %w", i, err)
			}
			comps[j] = c
		}
		if len(comps) > maxComponents {
			return nil, fmt.Errorf("%w: SignResponses: ResponseOptions.Answer[%d] has more than %d components", ErrComponent, i, maxComponents)
		}
		if err := checkUnique(comps); err != nil {
			return nil, fmt.Errorf("SignResponses: ResponseOptions.Answer[%d]: %w", i, err)
		}
		if err := checkResponseSet(comps); err != nil {
			return nil, fmt.Errorf("SignResponses: ResponseOptions.Answer[%d]: %w", i, err)
		}
		set := answerSet{text: make([]string, len(comps))}
		for j, c := range comps {
			set.ids = append(set.ids, c.id)
			set.text[j] = c.text
		}
		slices.Sort(set.ids)
		rp.sets = append(rp.sets, set)
	}
	return rp, nil
}

// checkResponseSet refuses components that a response signature made by
// SignResponses must not cover, and a set without @status.
func checkResponseSet(comps []Component) error {
	status := false
	for i := range comps {
		if err := checkResponseComponent(&comps[i]); err != nil {
			return err
		}
		status = status || comps[i].id == statusID
	}
	if !status {
		return fmt.Errorf("%w: a response signature must cover @status, or it could pass for a request signature", ErrNotCovered)
	}
	return nil
}

// checkResponseComponent refuses a component that is not the response's
// (a request component without req, @status of the request) or that is
// not there when SignResponses signs (a response trailer).
func checkResponseComponent(c *Component) error {
	switch {
	case c.name == "":
		return fmt.Errorf("%w: the zero Component", ErrComponent)
	case c.name == "@status" && c.req:
		return fmt.Errorf("%w: %s: a request has no status", ErrComponent, c.text)
	case c.name[0] == '@' && derived[c.name] && !c.req:
		return fmt.Errorf("%w: %s is a request component: it needs req in a response", ErrComponent, c.text)
	case c.tr && !c.req:
		return fmt.Errorf("%w: %s: SignResponses signs the header before any trailer", ErrComponent, c.text)
	}
	return nil
}

// answers returns the signers of a response to a request with fields h:
// the server's, and one for each of the first Accept-Signature requests
// that can be answered.
func (rp *responder) answers(h http.Header) []*Signer {
	wants, err := ParseAcceptSignature(h)
	if err != nil || len(wants) == 0 {
		return rp.own
	}
	signers := []*Signer{rp.s}
	for _, want := range wants {
		if len(signers) > maxAnswers {
			break
		}
		if a, err := rp.answer(want, signers); err == nil {
			signers = append(signers, a)
		}
	}
	return signers
}

// answer returns a Signer for the response signature w asks for, made as
// ResponseOptions.Answer says, or the reason it cannot be made; taken are
// the signers whose labels are in use.
func (rp *responder) answer(w Want, taken []*Signer) (*Signer, error) {
	s := rp.s
	if err := s.checkWantKey(w); err != nil {
		return nil, err
	}
	if len(w.Label) > maxAnswerLabel {
		return nil, fmt.Errorf("%w: Accept-Signature label of %d bytes, limit %d", signet.ErrTooLarge, len(w.Label), maxAnswerLabel)
	}
	if w.Label == "" || labelUsed(taken, w.Label) {
		return nil, fmt.Errorf("%w: Accept-Signature label %q is empty or taken", ErrComponent, w.Label)
	}
	ids := make([]string, 0, len(w.Components)+1)
	for i := range w.Components {
		if err := checkResponseComponent(&w.Components[i]); err != nil {
			return nil, fmt.Errorf("Accept-Signature %s: %w", clip.String(w.Label), err)
		}
		ids = append(ids, w.Components[i].id)
	}
	if !slices.Contains(ids, statusID) {
		ids = append(ids, statusID)
	}
	slices.Sort(ids)
	i := slices.IndexFunc(rp.sets, func(set answerSet) bool { return slices.Equal(set.ids, ids) })
	if i < 0 {
		return nil, fmt.Errorf("%w: Accept-Signature %s asks for components this server does not sign", signet.ErrUnsupported, clip.String(w.Label))
	}
	o := s.o
	o.Label = w.Label
	o.Components = rp.sets[i].text
	if w.Nonce != "" && !o.Nonce && o.NonceValue == "" {
		o.Nonce = true // the server's random nonce, not w.Nonce
	}
	o.Alg = o.Alg || w.Alg != ""
	o.NoCreated = o.NoCreated && !w.Created
	if w.Expires && o.Expires <= 0 && o.ExpiresAt.IsZero() {
		o.Expires = DefaultAnswerExpiry
	}
	return NewSigner(s.key, o)
}

func labelUsed(signers []*Signer, label string) bool {
	for _, s := range signers {
		if s.label == label {
			return true
		}
	}
	return false
}

// buffers reports whether one of signers adds a Content-Digest, which
// needs the whole body before the header is sent.
func buffers(signers []*Signer) bool {
	for _, s := range signers {
		if s.digests && s.o.Digest != "" {
			return true
		}
	}
	return false
}

// signingWriter signs the response header before it is written.
type signingWriter struct {
	http.ResponseWriter
	req     *http.Request
	signers []*Signer
	buffer  bool
	status  int
	body    bytes.Buffer
	wrote   bool
	failed  bool // signing failed: a problem was sent, the handler's output is dropped
}

func (sw *signingWriter) WriteHeader(status int) {
	if sw.wrote || sw.status != 0 {
		return
	}
	if status >= 100 && status < 200 {
		sw.ResponseWriter.WriteHeader(status) // informational: not signed
		return
	}
	sw.status = status
	if !sw.buffer {
		sw.send(nil)
	}
}

func (sw *signingWriter) Write(p []byte) (int, error) {
	if sw.status == 0 {
		sw.WriteHeader(http.StatusOK)
	}
	if sw.failed {
		return len(p), nil
	}
	if sw.buffer {
		return sw.body.Write(p)
	}
	return sw.ResponseWriter.Write(p)
}

// send signs and writes the header (and, when buffering, the body).
func (sw *signingWriter) send(body []byte) {
	sw.wrote = true
	if body != nil && (sw.req.Method == http.MethodHead || sw.status == http.StatusNoContent || sw.status == http.StatusNotModified) {
		// No content is sent (net/http drops what the handler wrote):
		// Content-Digest is over the empty content, as RFC 9530 has it.
		body = []byte{}
	}
	h := sw.Header()
	for i, s := range sw.signers {
		if err := s.SignResponse(sw.status, h, nil, sw.req, body); err != nil {
			if i > 0 {
				continue // an Accept-Signature answer: the response stands without it
			}
			h.Del("Signature-Input")
			h.Del("Signature")
			sw.failed = true
			writeProblem(sw.ResponseWriter, http.StatusInternalServerError, "response could not be signed")
			return
		}
	}
	sw.ResponseWriter.WriteHeader(sw.status)
	if body != nil {
		sw.ResponseWriter.Write(body)
	}
}

func (sw *signingWriter) finish() {
	if sw.wrote {
		return
	}
	if sw.status == 0 {
		sw.status = http.StatusOK
	}
	body := sw.body.Bytes()
	if body == nil {
		body = []byte{}
	}
	sw.send(body)
}

// FlushError sends the header, signed, before flushing; a buffered
// response (one covering content-digest) is held until the handler ends.
// http.ResponseController finds it before Unwrap.
func (sw *signingWriter) FlushError() error {
	if sw.buffer {
		return nil
	}
	if sw.status == 0 {
		sw.WriteHeader(http.StatusOK)
	}
	if sw.failed {
		return nil
	}
	return http.NewResponseController(sw.ResponseWriter).Flush()
}

// Flush implements http.Flusher as FlushError does.
func (sw *signingWriter) Flush() { _ = sw.FlushError() }

// Unwrap gives http.ResponseController the underlying writer, for what
// signing does not touch (deadlines).
func (sw *signingWriter) Unwrap() http.ResponseWriter { return sw.ResponseWriter }
