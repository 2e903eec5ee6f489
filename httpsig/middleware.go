package httpsig

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"

	"github.com/signet-go/signet"
)

type resultKey struct{}

// FromContext returns the Result that Middleware stored in the context of
// a verified request.
func FromContext(ctx context.Context) (*Result, bool) {
	r, ok := ctx.Value(resultKey{}).(*Result)
	return r, ok
}

// Middleware returns net/http middleware that verifies every request with
// v before the handler runs. A verified request reaches the handler with
// its Result in the context (FromContext) and its body readable again. An
// unsigned or invalid request gets 401 and an RFC 9457 problem body whose
// detail names the class of failure, not its particulars (which could
// serve as an oracle), and an Accept-Signature that asks for the
// components the policy requires. An unsigned request is refused before
// its body is read.
//
// The policy of v requires @method, @authority and @path at least, unless
// it was built with Policy.InsecureSkipDefaultCoverage, the one explicit
// way to accept less. A nil Verifier, or one not made by NewVerifier,
// refuses every request (500): the middleware fails closed.
func Middleware(v *Verifier) func(http.Handler) http.Handler {
	accept := ""
	if v != nil && v.keys != nil {
		var comps []Component
		if !v.p.InsecureSkipDefaultCoverage {
			comps = mustComponents("@method", "@authority", "@path")
		}
		for _, c := range v.require {
			if !slices.ContainsFunc(comps, func(d Component) bool { return d.id == c.id }) {
				comps = append(comps, c)
			}
		}
		if len(comps) > 0 {
			accept, _ = AcceptSignature(Want{Label: "sig1", Components: comps, Created: !v.p.NoCreated})
		}
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if v == nil || v.keys == nil {
				writeProblem(w, http.StatusInternalServerError, "signature verification is not configured")
				return
			}
			res, err := v.VerifyRequest(r)
			if err != nil {
				if accept != "" {
					w.Header().Set("Accept-Signature", accept)
				}
				writeProblem(w, http.StatusUnauthorized, failureClass(err))
				return
			}
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), resultKey{}, res)))
		})
	}
}

// failureClass is the coarse reason given to the client.
func failureClass(err error) string {
	switch {
	case errors.Is(err, ErrNoSignature):
		return "signature required"
	case errors.Is(err, ErrNotCovered):
		return "signature does not cover the required components"
	case errors.Is(err, signet.ErrExpired), errors.Is(err, ErrTooOld), errors.Is(err, signet.ErrNotYetValid):
		return "signature outside its validity window"
	case errors.Is(err, ErrReplay):
		return "signature replayed"
	case errors.Is(err, ErrDigest):
		return "content digest missing or wrong"
	case errors.Is(err, signet.ErrTooLarge):
		return "signature fields or body too large"
	}
	return "signature invalid"
}

func writeProblem(w http.ResponseWriter, status int, detail string) {
	body, _ := json.Marshal(struct {
		Type   string `json:"type"`
		Title  string `json:"title"`
		Status int    `json:"status"`
		Detail string `json:"detail"`
	}{"about:blank", http.StatusText(status), status, detail})
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(body)
}

// SignResponses returns net/http middleware that signs every response
// with s. A request with Accept-Signature also gets each signature it asks
// for that s's key can make (Signer.Answer), and the response varies on
// Accept-Signature. When the signer covers content-digest, the response
// is buffered so that its digest can be computed before the header is
// sent; otherwise it streams, signed when the header is written.
func SignResponses(s *Signer) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			signers := []*Signer{s}
			if wants, err := ParseAcceptSignature(r.Header); err == nil {
				for _, want := range wants {
					if len(signers) > maxAnswers {
						break // each answer is a signature to compute
					}
					if labelUsed(signers, want.Label) {
						continue // labels are unique in a message
					}
					if a, err := s.Answer(want); err == nil {
						signers = append(signers, a)
					}
				}
			}
			if len(r.Header.Values("Accept-Signature")) > 0 {
				w.Header().Add("Vary", "Accept-Signature")
			}
			sw := &signingWriter{ResponseWriter: w, req: r, signers: signers, buffer: s.digests && s.o.Digest != ""}
			next.ServeHTTP(sw, r)
			sw.finish()
		})
	}
}

// maxAnswers bounds the Accept-Signature requests SignResponses answers
// in one response.
const maxAnswers = 2

func labelUsed(signers []*Signer, label string) bool {
	for _, s := range signers {
		if s.label == label {
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
