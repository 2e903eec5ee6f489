package httpsig

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/clip"
	"github.com/signet-go/signet/internal/sf"
)

// maxVerifications bounds the signature checks one message can cost, over
// all its signatures and candidate keys: a message with many signatures,
// or signatures without keyid against a large key set, cannot buy more.
const maxVerifications = 8

// MaxKeyCandidates bounds the keys one signature is tried against, over
// every RFC 9421 algorithm when it names none. A key set that offers more
// candidates (for a signature without keyid, or a custom signet.Keys that
// offers several for one keyid) is ambiguous for that signature: it is
// refused with signet.ErrKeyNotFound before any cryptography, so that a
// forgery against a large key set costs at most this many verifications,
// as in packages jwt and paseto. Give keys IDs and sign with keyid
// (Policy.RequireKeyID insists on it).
// It is signet.MaxAnonymousCandidates, the bound a KeySet applies per algorithm.
const MaxKeyCandidates = signet.MaxAnonymousCandidates

// maxSignatures bounds the members of Signature-Input and Signature.
const maxSignatures = 16

// maxNonce bounds the nonce parameter a Verifier accepts, and remembers.
const maxNonce = 256

// DefaultMaxHeader is the largest combined Signature-Input or Signature
// field a Verifier reads, unless Policy.MaxHeader says otherwise.
const DefaultMaxHeader = 16 << 10

// DefaultMaxAge is how old created may be when Policy.MaxAge is zero.
const DefaultMaxAge = 5 * time.Minute

// maxSkew bounds Policy.Skew.
const maxSkew = 5 * time.Minute

// Policy is what a Verifier requires of a signature beyond its
// cryptographic validity (RFC 9421 §3.2, §7). The zero Policy requires a
// request signature to cover @method, @authority and @path, and a
// response signature @status (see Require); a created parameter no older
// than DefaultMaxAge and not in the future (no clock skew: see Skew); an
// unexpired expires; a nonce not seen before when there is one; a
// Content-Digest covering any request body and matching it; and selects
// any signature whose key is found. A signature that covers no component
// at all is always refused.
type Policy struct {
	// Label selects the signature with this label only.
	Label string
	// Tag selects signatures with this tag parameter only (RFC 9421 §2.3).
	Tag string
	// Require lists components every accepted signature must cover, as
	// identifiers (see ParseComponent): e.g. "content-digest",
	// "content-type". They add to the default coverage: @method,
	// @authority and @path for a request (@target-uri stands for
	// @authority and @path, @request-target for @path, as their values
	// contain them), @status for a response.
	Require []string
	// InsecureSkipDefaultCoverage drops the default coverage, leaving
	// only Require: a request signature that does not cover @method,
	// @authority and @path verifies for another method, host or path than
	// the one it was made for, and can be replayed there. Set it only for
	// peers that cannot sign those components, with Require naming what
	// they do sign. A signature covering no component is refused even so.
	InsecureSkipDefaultCoverage bool
	// MaxAge bounds how old created may be: a signature is too old
	// (ErrTooOld) at created plus MaxAge plus Skew, as it is expired at
	// expires plus Skew. DefaultMaxAge when zero.
	MaxAge time.Duration
	// Skew is the clock skew allowed for created in the future and for
	// expires in the past: zero allows none (a signature is expired at
	// expires, like a JWT at exp), at most 5 minutes. A minute is usual
	// between servers whose clocks are synchronized.
	Skew time.Duration
	// NoCreated accepts signatures without a created parameter.
	NoCreated bool
	// RequireNonce refuses signatures without a nonce parameter. A
	// nonce over 256 bytes is refused (signet.ErrTooLarge) in any case.
	RequireNonce bool
	// RequireKeyID refuses signatures without a keyid parameter (which
	// are otherwise tried with at most MaxKeyCandidates keys).
	RequireKeyID bool
	// Replay remembers nonces; a bounded in-memory store
	// (NewMemoryReplayStore) when nil. A nonce is remembered under the ID
	// of the key that verified it, for as long as its signature could be
	// accepted: at most MaxAge plus twice Skew (a signature with a nonce
	// whose window is longer, expires far ahead without created, is
	// refused). The store is given the Verifier's time (Now) with each
	// nonce, and is asked last, once every other check (the body's
	// digest included) has passed: a refused message uses up no nonce.
	// The nonces of the message's other signatures that the policy
	// selects and that verify are remembered with it, so that the message
	// cannot be replayed on one of them.
	Replay ReplayStore
	// UnsignedBody accepts a request body that no covered Content-Digest
	// vouches for. By default a request with a body must cover
	// "content-digest", and the digest is always checked against the body.
	UnsignedBody bool
	// MaxBody bounds the body read to check its digest or reach its
	// trailers; DefaultMaxBody when zero.
	MaxBody int64
	// MaxHeader bounds the Signature-Input and Signature fields;
	// DefaultMaxHeader when zero.
	MaxHeader int
	// Origin, when set, gives the scheme and authority clients see, for
	// @scheme, @authority and @target-uri behind a proxy (and for the
	// request a response answers). A request as a server read it takes its
	// scheme from the connection (r.TLS) otherwise, never from its request
	// line.
	Origin *Origin
	// Fields adds structured-field types for the sf parameter.
	Fields map[string]FieldType
	// Now is the clock; time.Now when nil.
	Now func() time.Time
}

// The default coverage (RFC 9421 §7.2.1: what a signature does not cover
// can be changed at will), as bits of what a signature covers: one pass
// over its components, no allocation.
const (
	coversMethod = 1 << iota
	coversAuthority
	coversPath
	coversStatus

	requestCoverage  = coversMethod | coversAuthority | coversPath
	responseCoverage = coversStatus
)

// missingCoverage returns the first default component comps leaves out
// for a request (response false) or a response, or "" when none.
// @target-uri stands for @authority and @path, @request-target for @path:
// their values contain them. Components with req, of the request a
// response answers, do not count.
func missingCoverage(comps []Component, response bool) string {
	var have uint8
	for i := range comps {
		switch comps[i].id { // the identity: ";req" and other parameters are part of it
		case "@method":
			have |= coversMethod
		case "@authority":
			have |= coversAuthority
		case "@path":
			have |= coversPath
		case "@target-uri":
			have |= coversAuthority | coversPath
		case "@request-target":
			have |= coversPath
		case "@status":
			have |= coversStatus
		}
	}
	switch {
	case response:
		if have&responseCoverage != responseCoverage {
			return "@status"
		}
	case have&coversMethod == 0:
		return "@method"
	case have&coversAuthority == 0:
		return "@authority"
	case have&coversPath == 0:
		return "@path"
	}
	return ""
}

// Result describes the signature a Verifier accepted.
type Result struct {
	Label     string
	Key       *signet.Key // the key that verified it
	KeyID     string      // the keyid parameter ("" when absent)
	Algorithm signet.Algorithm
	Created   time.Time // zero when absent
	Expires   time.Time // zero when absent
	Nonce     string
	Tag       string
	comps     []Component // the covered components, in signed order (shared: never modified)
}

// Components returns the covered components, in signed order.
// A nil Result covers nothing.
func (r *Result) Components() []Component {
	if r == nil {
		return nil
	}
	return slices.Clone(r.comps)
}

// Covers reports whether the signature covers the component identified
// by id (serialized or bare, as for ParseComponent).
func (r *Result) Covers(id string) bool {
	if r == nil {
		return false
	}
	c, err := ParseComponent(id)
	return err == nil && r.covers(c.id)
}

// covers reports whether the signature covers the component whose
// identity (Component.id) is id.
func (r *Result) covers(id string) bool {
	for i := range r.comps {
		if r.comps[i].id == id {
			return true
		}
	}
	return false
}

// contentDigestID is the identity of the component content-digest.
var contentDigestID = mustComponents("content-digest")[0].id

// A Verifier checks signatures on messages against a key set and a
// Policy. It is safe for concurrent use.
type Verifier struct {
	keys    signet.Keys
	p       Policy
	require []Component
	replay  ReplayStore
	bb      baseBuilder
	bufs    sync.Pool
	lists   componentCache
	strict  bool              // tests: always take the strict parser
	onCheck func(*signet.Key) // tests: called before each signature check
}

// NewVerifier returns a Verifier that looks keys up in keys (a
// *signet.KeySet, or one *signet.Key) by the keyid parameter. Nil keys, a
// nil or zero *signet.Key, or a nil *signet.KeySet are refused with
// signet.ErrKeyUsage.
func NewVerifier(keys signet.Keys, p Policy) (*Verifier, error) {
	if err := checkKeys(keys); err != nil {
		return nil, err
	}
	v := &Verifier{keys: keys, p: p, replay: p.Replay, bb: baseBuilder{fields: p.Fields}}
	for _, id := range p.Require {
		c, err := ParseComponent(id)
		if err != nil {
			return nil, err
		}
		v.require = append(v.require, c)
	}
	if v.p.MaxAge <= 0 {
		v.p.MaxAge = DefaultMaxAge
	}
	if v.p.Skew < 0 || v.p.Skew > maxSkew {
		return nil, fmt.Errorf("%w: httpsig: Policy.Skew %v is not between 0 and %v", signet.ErrUnsupported, v.p.Skew, maxSkew)
	}
	if v.p.MaxBody <= 0 {
		v.p.MaxBody = DefaultMaxBody
	}
	if v.p.MaxHeader <= 0 {
		v.p.MaxHeader = DefaultMaxHeader
	}
	v.p.MaxHeader = min(v.p.MaxHeader, sf.MaxLen) // the parser's own bound
	if v.replay == nil {
		v.replay = NewMemoryReplayStore(ReplayLimits{Retention: v.p.MaxAge + 2*v.p.Skew})
	}
	return v, nil
}

// checkKeys refuses key sets that would fail (or panic) at every
// verification: nil, a nil or zero *signet.Key, a nil *signet.KeySet.
func checkKeys(keys signet.Keys) error {
	switch ks := keys.(type) {
	case nil:
		return fmt.Errorf("%w: httpsig: no keys", signet.ErrKeyUsage)
	case *signet.Key:
		if ks == nil || ks.Algorithm() == "" {
			return errZeroKey
		}
	case *signet.KeySet:
		if ks == nil {
			return fmt.Errorf("%w: httpsig: a nil KeySet", signet.ErrKeyUsage)
		}
	}
	return nil
}

// errNoVerifier is what a Verifier not made by NewVerifier returns.
var errNoVerifier = fmt.Errorf("%w: httpsig: a Verifier not made by NewVerifier", signet.ErrKeyUsage)

// VerifyRequest checks the signatures of r, a request as a server
// received it (or as a client built it). When the request has a body, its
// Content-Digest is checked: the body is read (up to Policy.MaxBody) and
// replaced by the bytes read, so that the handler can read it again.
//
// Nothing is read from the body before a signature has been selected and
// has passed the policy and key checks: an unsigned request is refused
// with its body unread. The body is read only for a covered
// content-digest (after the signature verified) or to reach trailers a
// covered component needs (tr).
func (v *Verifier) VerifyRequest(r *http.Request) (*Result, error) {
	if v == nil || v.keys == nil {
		return nil, errNoVerifier
	}
	if r == nil {
		return nil, fmt.Errorf("%w: httpsig: VerifyRequest of a nil request", signet.ErrMalformed)
	}
	m := requestMessage(r, v.p.Origin)
	if len(r.Trailer) > 0 {
		m.body = &r.Body
	}
	now := v.now() // one instant judges the message, and its nonce
	res, others, err := v.verifyAll(&m, r.Header, now)
	if err != nil {
		return nil, err
	}
	if err := v.checkBody(r.Header, &r.Body, res); err != nil {
		return nil, err
	}
	if err := v.remember(res, others, now); err != nil {
		return nil, err
	}
	return res, nil
}

// VerifyResponse checks the signatures of resp, as a client received it;
// resp.Request (or req, when not nil) is the request it answers. Its body
// is checked against Content-Digest as for VerifyRequest.
func (v *Verifier) VerifyResponse(resp *http.Response, req *http.Request) (*Result, error) {
	if v == nil || v.keys == nil {
		return nil, errNoVerifier
	}
	if resp == nil {
		return nil, fmt.Errorf("%w: httpsig: VerifyResponse of a nil response", signet.ErrMalformed)
	}
	if req == nil {
		req = resp.Request
	}
	var rm *message
	if req != nil {
		m := requestMessage(req, v.p.Origin)
		rm = &m
	}
	m := responseMessage(resp.StatusCode, resp.Header, resp.Trailer, rm)
	if len(resp.Trailer) > 0 {
		m.body = &resp.Body
	}
	now := v.now()
	res, others, err := v.verifyAll(&m, resp.Header, now)
	if err != nil {
		return nil, err
	}
	if err := v.checkBody(resp.Header, &resp.Body, res); err != nil {
		return nil, err
	}
	if err := v.remember(res, others, now); err != nil {
		return nil, err
	}
	return res, nil
}

// readTrailers reads the body of a message that announces trailers (up to
// Policy.MaxBody) and hands it on, so that net/http fills in the trailer
// fields, once a signature covering them (tr) has been selected and has
// passed the policy and key checks. It reads at most once per message.
func (v *Verifier) readTrailers(m *message) error {
	body := m.body
	m.body = nil
	if body == nil || *body == nil || *body == http.NoBody {
		return nil
	}
	orig := *body
	data, err := io.ReadAll(io.LimitReader(orig, overLimit(v.p.MaxBody)))
	if err != nil || int64(len(data)) > v.p.MaxBody {
		// Refused for this signature, but another one that covers no
		// trailer may yet be accepted: the body is handed on as it is,
		// not cut at the limit or at the fault.
		*body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(data), orig), orig}
		if err != nil {
			return fmt.Errorf("%w: reading the body for its trailers: %w", ErrDigest, err)
		}
		return fmt.Errorf("%w: body over %d bytes", signet.ErrTooLarge, v.p.MaxBody)
	}
	orig.Close()
	*body = io.NopCloser(bytes.NewReader(data))
	return nil
}

// checkBody enforces the digest part of the policy on a message body.
func (v *Verifier) checkBody(h http.Header, body *io.ReadCloser, res *Result) error {
	covered := res.covers(contentDigestID)
	hasBody := *body != nil && *body != http.NoBody
	if !covered {
		if hasBody && !v.p.UnsignedBody {
			// Peek: an empty body needs no digest. A read error is
			// not an empty body.
			var one [1]byte
			n, err := io.ReadFull(*body, one[:])
			if n == 0 {
				if err == io.EOF {
					return nil
				}
				return fmt.Errorf("%w: reading the body: %w", ErrDigest, err)
			}
			*body = struct {
				io.Reader
				io.Closer
			}{io.MultiReader(bytes.NewReader(one[:n]), *body), *body}
			return fmt.Errorf("%w: the body is not covered by a signed Content-Digest", ErrDigest)
		}
		return nil
	}
	dc, err := parseDigest(strings.Join(h.Values("Content-Digest"), ", "))
	if err != nil {
		return err
	}
	var data []byte
	if hasBody {
		data, err = readDigested(*body, v.p.MaxBody, dc)
		(*body).Close()
		*body = io.NopCloser(bytes.NewReader(data))
		return err
	}
	return dc.verify()
}

// verifyAll selects and checks a signature of m, whose fields are h, at
// the instant now of the Verifier's clock. It also returns the message's
// other signatures that the policy selects, that carry a nonce and that
// verified (see checkOther): remember spends their nonces with the
// accepted one's.
func (v *Verifier) verifyAll(m *message, h http.Header, now time.Time) (res *Result, others []*Result, err error) {
	inLines, sigLines := h["Signature-Input"], h["Signature"]
	if len(inLines) == 0 && len(sigLines) == 0 {
		return nil, nil, fmt.Errorf("%w: no Signature-Input", ErrNoSignature)
	}
	// The fast path takes what fits the strict path's size limits (the
	// same arithmetic as parseDictLines), so that both refuse alike.
	if !v.strict && len(inLines) == 1 && len(sigLines) == 1 && len(inLines[0])+2 <= v.p.MaxHeader && len(sigLines[0])+2 <= v.p.MaxHeader {
		if res, err, ok := v.verifyFast(m, inLines[0], sigLines[0], now, &others); ok {
			return res, others, err
		}
		others = nil // what the fast path found is checked again below
	}
	inputs, err := parseDictLines("Signature-Input", inLines, v.p.MaxHeader)
	if err != nil {
		return nil, nil, err
	}
	sigs, err := parseDictLines("Signature", sigLines, v.p.MaxHeader)
	if err != nil {
		return nil, nil, err
	}
	if len(inputs) > maxSignatures || len(sigs) > maxSignatures {
		return nil, nil, fmt.Errorf("%w: more than %d signatures", signet.ErrTooLarge, maxSignatures)
	}
	if len(inputs) != len(sigs) {
		return nil, nil, fmt.Errorf("%w: Signature-Input has %d members, Signature %d", signet.ErrMalformed, len(inputs), len(sigs))
	}
	var first error
	tried, budget := 0, maxVerifications
	for _, mem := range inputs {
		sm, ok := sigs.Get(mem.Key)
		if !ok {
			return nil, nil, fmt.Errorf("%w: label %q is in Signature-Input only", signet.ErrMalformed, clip.String(mem.Key))
		}
		if v.p.Label != "" && mem.Key != v.p.Label {
			continue
		}
		in, err := parseSigInput(mem.Value, false)
		if err != nil {
			if res != nil {
				continue // another signature, which could not pass on its own
			}
			return nil, nil, fmt.Errorf("%w: Signature-Input %s: %w", signet.ErrMalformed, clip.String(mem.Key), err)
		}
		if v.p.Tag != "" && in.tag != v.p.Tag || res != nil && in.nonce == "" {
			continue
		}
		it, ok := sm.(sf.Item)
		sig, isBytes := it.Value.([]byte)
		if res != nil {
			if ok && isBytes {
				if err := v.checkOther(m, mem.Key, &in, sig, &budget, now, &others); err != nil {
					return nil, nil, err
				}
			}
			continue
		}
		tried++
		if !ok || !isBytes {
			return nil, nil, fmt.Errorf("%w: Signature %s is not a Byte Sequence", signet.ErrMalformed, clip.String(mem.Key))
		}
		if res, err = v.check(m, mem.Key, &in, sig, &budget, now); err != nil && first == nil {
			first = err
		}
	}
	if res != nil {
		return res, others, nil
	}
	if tried == 0 {
		return nil, nil, fmt.Errorf("%w: none with label %q and tag %q", ErrNoSignature, clip.String(v.p.Label), clip.String(v.p.Tag))
	}
	return nil, nil, first
}

// errBudget refuses a signature check beyond the message's
// maxVerifications.
var errBudget = fmt.Errorf("%w: more than %d verifications for one message", signet.ErrTooLarge, maxVerifications)

// checkOther checks a signature of m other than res, the one accepted,
// that the policy selects and that carries a nonce. The message is
// accepted once: every signature in it that the policy would accept on
// its own must spend its nonce with it, or the same message replayed
// without the accepted signature (or with the signatures reordered)
// would pass on this one's fresh nonce. One that verifies joins
// others, whose nonces remember spends; one that does not could not
// pass on its own and is ignored. When the message's verification
// budget is spent before it can be checked, the message is refused
// (signet.ErrTooLarge): its nonce could not be spent.
func (v *Verifier) checkOther(m *message, label string, in *sigInput, sig []byte, budget *int, now time.Time, others *[]*Result) error {
	other, err := v.check(m, label, in, sig, budget, now)
	switch {
	case err == nil:
		*others = append(*others, other)
	case errors.Is(err, errBudget):
		return fmt.Errorf("%w: signature %s carries a nonce, and the message's %d verifications are spent", signet.ErrTooLarge, clip.String(label), maxVerifications)
	}
	return nil
}

// verifyFast is verify for fields in the canonical subset fastparse.go
// reads; ok is false when they are not, and nothing was checked. The
// other signatures that verified are appended to others.
func (v *Verifier) verifyFast(m *message, inField, sigField string, now time.Time, others *[]*Result) (res *Result, err error, ok bool) {
	var ins [maxFastMembers]fastInput
	var sigs [maxFastMembers]fastSig
	n, ok := scanInputs(inField, &ins)
	if !ok {
		return nil, nil, false
	}
	ns, ok := scanSigs(sigField, &sigs)
	if !ok || ns != n {
		return nil, nil, false
	}
	// Every signature is decoded first, as the strict parser does: one
	// that is not canonical base64 sends the message there.
	var sigBuf [1024]byte
	var decoded [maxFastMembers][]byte
	buf := sigBuf[:0]
	for j := range ns {
		d, ok := decodeSig(buf[len(buf):], sigs[j].b64)
		if !ok {
			return nil, nil, false
		}
		decoded[j] = d
		if cap(d) == cap(buf[len(buf):]) { // decoded into sigBuf
			buf = buf[:len(buf)+len(d)]
		}
	}
	tried, budget := 0, maxVerifications
	for i := range n {
		fi := &ins[i]
		j := 0
		for j < ns && sigs[j].label != fi.label {
			j++
		}
		if j == ns {
			return nil, nil, false // the strict path names the fault
		}
		if v.p.Label != "" && fi.label != v.p.Label || res != nil && fi.in.nonce == "" {
			continue
		}
		// As the strict path: a selected label's components are read
		// (and refused when bad) before its tag is compared.
		comps, cached := v.lists.lookup(fi.list)
		if !cached {
			var cerr error
			if comps, cerr = parseList(fi.list); cerr != nil {
				if res != nil {
					continue // another signature, which could not pass on its own
				}
				return nil, fmt.Errorf("%w: Signature-Input %s: %w", signet.ErrMalformed, clip.String(fi.label), cerr), true
			}
		}
		if v.p.Tag != "" && fi.in.tag != v.p.Tag {
			continue
		}
		sig := decoded[j]
		in := fi.in
		in.comps = comps
		if res != nil {
			if cerr := v.checkOther(m, fi.label, &in, sig, &budget, now, others); cerr != nil {
				return nil, cerr, true
			}
			continue
		}
		tried++
		r, cerr := v.check(m, fi.label, &in, sig, &budget, now)
		if cerr == nil {
			if !cached {
				v.lists.store(fi.list, comps) // only lists that verified
			}
			res = r
			continue
		}
		if err == nil {
			err = cerr
		}
	}
	if res != nil {
		return res, nil, true
	}
	if tried == 0 {
		return nil, fmt.Errorf("%w: none with label %q and tag %q", ErrNoSignature, clip.String(v.p.Label), clip.String(v.p.Tag)), true
	}
	return nil, err, true
}

// check verifies one signature: policy first, then the key, then the
// cryptography. It does not remember the nonce: the caller does so with
// remember once every other check, the body's digest included, has
// passed, so that a refused message never uses up a nonce.
func (v *Verifier) check(m *message, label string, in *sigInput, sig []byte, budget *int, now time.Time) (*Result, error) {
	res := &Result{Label: label, KeyID: in.keyid, Nonce: in.nonce, Tag: in.tag, comps: in.comps}
	if err := v.checkPolicy(m.response, now, in, res); err != nil {
		return nil, err
	}
	var alg signet.Algorithm
	if in.alg != "" {
		a, err := signet.ParseAlgorithm(in.alg)
		if err != nil || !a.IsHTTPSig() {
			return nil, fmt.Errorf("%w: alg %q is not an HTTP Message Signatures algorithm", signet.ErrAlgorithmMismatch, clip.String(in.alg))
		}
		alg = a
	}
	if v.p.RequireKeyID && in.keyid == "" {
		return nil, fmt.Errorf("%w: no keyid parameter", ErrNotCovered)
	}
	var one [4]*signet.Key
	cands, err := selectKeys(one[:0], v.keys, in.keyid, alg)
	if err != nil {
		return nil, err
	}
	if len(cands) > *budget {
		cands = cands[:*budget]
	}
	if len(cands) == 0 {
		return nil, errBudget
	}
	*budget -= len(cands)
	if m.body != nil && readsTrailers(in.comps) {
		if err := v.readTrailers(m); err != nil {
			return nil, err
		}
	}
	bp, _ := v.bufs.Get().(*[]byte)
	if bp == nil {
		bp = new([]byte)
	}
	defer v.bufs.Put(bp)
	base, err := v.bb.appendLines((*bp)[:0], m, in.comps)
	if err == nil {
		base = append(append(base, sigParamsName...), in.text...)
	}
	*bp = base
	if err != nil {
		return nil, err
	}
	for _, k := range cands {
		if k == nil {
			err = fmt.Errorf("%w: httpsig: the key set gave a nil key", signet.ErrKeyUsage)
			continue
		}
		ka := k.Algorithm()
		if !ka.IsHTTPSig() || (alg != "" && ka != alg) {
			err = fmt.Errorf("%w: key %q is for %s", signet.ErrAlgorithmMismatch, clip.String(k.KeyID()), ka)
			continue
		}
		if v.onCheck != nil {
			v.onCheck(k)
		}
		if err = k.Verify(base, sig); err == nil {
			res.Key, res.Algorithm = k, ka
			break
		}
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

// remember records the nonce of an accepted signature, the last check of
// all: a message refused for any other reason (its body included) must
// not use up the nonce of the genuine one.
//
// The nonce is remembered for as long as the signature could be
// accepted: until created ages out or expires passes, whichever is
// first (checkPolicy refused a nonce bounded by neither, or by an
// expires further ahead than MaxAge and Skew). It is scoped to the key
// that verified it, not to the keyid the signer chose: a key without an
// ID accepts any keyid. The store is given now, the instant checkPolicy
// judged the signature at, so that it keeps the verifier's time.
//
// The nonces of the message's other signatures that verified (others,
// from verifyAll) are spent too: the message is accepted once, whichever
// of its signatures passes.
func (v *Verifier) remember(res *Result, others []*Result, now time.Time) error {
	if err := v.rememberOne(res, now); err != nil {
		return err
	}
	for i, o := range others {
		// Two signatures with one nonce and one key (answers to one
		// Accept-Signature challenge) spend it once.
		same := func(r *Result) bool { return r.Nonce == o.Nonce && r.Key.KeyID() == o.Key.KeyID() }
		if same(res) || slices.ContainsFunc(others[:i], same) {
			continue
		}
		if err := v.rememberOne(o, now); err != nil {
			return err
		}
	}
	return nil
}

// rememberOne records the nonce of one signature that verified.
func (v *Verifier) rememberOne(res *Result, now time.Time) error {
	if res.Nonce == "" {
		return nil
	}
	var until time.Time
	if !res.Created.IsZero() { // set whenever created was given (checkPolicy refused created so far back)
		until = res.Created.Add(v.p.MaxAge + v.p.Skew)
	}
	if !res.Expires.IsZero() {
		if e := res.Expires.Add(v.p.Skew); until.IsZero() || e.Before(until) {
			until = e
		}
	}
	if err := v.replay.Remember(res.Key.KeyID(), res.Nonce, now, until); err != nil {
		if !errors.Is(err, ErrReplay) {
			err = fmt.Errorf("%w: %w", ErrReplay, err) // a store's own failure refuses too
		}
		return err
	}
	return nil
}

// readsTrailers reports whether comps covers a trailer field of the
// message itself (tr without req).
func readsTrailers(comps []Component) bool {
	for i := range comps {
		if comps[i].tr && !comps[i].req {
			return true
		}
	}
	return false
}

// selectKeys finds the keys that may have made a signature with keyid and,
// when the signature names one, alg. Without alg the key decides: any
// RFC 9421 algorithm is looked up. More than MaxKeyCandidates distinct
// keys in all, with or without keyid (a custom signet.Keys may offer several for
// one keyid), are refused as ambiguous, as jwt and paseto do.
// keys is a Verifier's: NewVerifier (checkKeys) refused nil ones, so
// they are not checked again here.
func selectKeys(out []*signet.Key, keys signet.Keys, keyid string, alg signet.Algorithm) ([]*signet.Key, error) {
	switch ks := keys.(type) {
	case *signet.Key:
		if keyid != "" && ks.KeyID() != "" && keyid != ks.KeyID() {
			return nil, fmt.Errorf("%w: keyid %q", signet.ErrKeyNotFound, clip.String(keyid))
		}
		return append(out, ks), nil
	case *signet.KeySet:
		if keyid != "" {
			k, ok := ks.Lookup(keyid)
			if !ok {
				return nil, fmt.Errorf("%w: keyid %q", signet.ErrKeyNotFound, clip.String(keyid))
			}
			return append(out, k), nil
		}
	}
	algs := []signet.Algorithm{alg}
	if alg == "" {
		algs = signet.HTTPSigAlgorithms()
	}
	var first error
	for _, a := range algs {
		c, err := keys.Select(keyid, a)
		if err != nil {
			if first == nil || errors.Is(first, signet.ErrKeyNotFound) {
				first = err
			}
			continue
		}
		for i := range c.Len() {
			k := c.At(i)
			if slices.Contains(out, k) {
				continue // a key set that ignores alg offers one key for each
			}
			if len(out) == MaxKeyCandidates {
				return nil, fmt.Errorf("%w: ambiguous: the key set offers more than %d candidate keys for keyid %q", signet.ErrKeyNotFound, MaxKeyCandidates, clip.String(keyid))
			}
			out = append(out, k)
		}
	}
	if len(out) == 0 {
		if first == nil {
			first = fmt.Errorf("%w: keyid %q", signet.ErrKeyNotFound, clip.String(keyid))
		}
		return nil, first
	}
	return out, nil
}

func (v *Verifier) now() time.Time {
	if v.p.Now != nil {
		return v.p.Now()
	}
	return time.Now()
}

// checkPolicy applies the time windows, required components and nonce
// rule to a signature's parameters; response tells which default
// coverage applies.
func (v *Verifier) checkPolicy(response bool, now time.Time, in *sigInput, res *Result) error {
	if len(in.comps) == 0 {
		return fmt.Errorf("%w: the signature covers no component", ErrNotCovered)
	}
	switch {
	case in.hasCreated:
		res.Created = time.Unix(in.created, 0)
		if res.Created.After(now.Add(v.p.Skew)) {
			return fmt.Errorf("%w: created %d is in the future", signet.ErrNotYetValid, in.created)
		}
		// Too old at created+MaxAge+Skew, as a signature is expired
		// at expires: the same instant ends both windows, and the
		// replay store keeps the nonce up to and including it.
		if !now.Before(res.Created.Add(v.p.MaxAge + v.p.Skew)) {
			return fmt.Errorf("%w: created %d is more than %v ago", ErrTooOld, in.created, v.p.MaxAge)
		}
	case !v.p.NoCreated:
		return fmt.Errorf("%w: no created parameter", ErrNotCovered)
	}
	if in.hasExpires {
		res.Expires = time.Unix(in.expires, 0)
		if !now.Before(res.Expires.Add(v.p.Skew)) {
			return fmt.Errorf("%w: expires %d has passed", signet.ErrExpired, in.expires)
		}
		if in.hasCreated && in.expires < in.created {
			return fmt.Errorf("%w: expires before created", signet.ErrMalformed)
		}
	}
	if v.p.RequireNonce && in.nonce == "" {
		return fmt.Errorf("%w: no nonce parameter", ErrNotCovered)
	}
	if len(in.nonce) > maxNonce {
		// A replay store holds every accepted nonce for MaxAge: one
		// client must not fill it with nonces of kilobytes.
		return fmt.Errorf("%w: nonce of %d bytes, limit %d", signet.ErrTooLarge, len(in.nonce), maxNonce)
	}
	if in.nonce != "" && !in.hasCreated {
		// Nothing bounds how long such a signature stays good, or
		// expires does so further ahead than a signature with created
		// could last: no store should remember its nonce for so long.
		if !in.hasExpires {
			return fmt.Errorf("%w: a nonce needs created or expires to bound it", ErrNotCovered)
		}
		if res.Expires.After(now.Add(v.p.MaxAge + v.p.Skew)) {
			return fmt.Errorf("%w: a nonce without created needs expires within %v", ErrNotCovered, v.p.MaxAge+v.p.Skew)
		}
	}
	if !v.p.InsecureSkipDefaultCoverage {
		if c := missingCoverage(in.comps, response); c != "" {
			return fmt.Errorf("%w: %s", ErrNotCovered, c)
		}
	}
	for _, c := range v.require {
		if !res.covers(c.id) {
			return fmt.Errorf("%w: %s", ErrNotCovered, c.text)
		}
	}
	return nil
}

// parseDictLines parses the lines of a Dictionary field as one value
// (RFC 9651 §4.2: lines are combined with commas), bounded by max bytes.
func parseDictLines(name string, lines []string, max int) (sf.Dictionary, error) {
	n := 0
	for _, l := range lines {
		n += len(l) + 2
	}
	if n > max {
		return nil, fmt.Errorf("%w: %s is %d bytes, limit %d", signet.ErrTooLarge, name, n, max)
	}
	d, err := sf.ParseDictionary(strings.Join(lines, ", "))
	if err != nil {
		return nil, sfError(name, err)
	}
	return d, nil
}
