package httpsig

import (
	"fmt"
	"net/http"

	"github.com/signet-go/signet"
)

// Transport is an http.RoundTripper that signs every request with Signer
// before Base sends it, adding its signature after any the request already
// carries. The request is signed as sent, by its URL and Host, even when it
// is one a server received and forwards. With a Verifier, a request that
// names no Accept-Encoding asks for identity: net/http would otherwise ask
// for gzip and decompress the body, which its Content-Digest could not
// vouch for. The caller's request is not modified: a copy is signed. When
// Verifier is set, every response must carry a signature it accepts
// (VerifyResponse), or RoundTrip returns an error instead. Errors of
// signing and verifying wrap signet sentinels; an error of Base (the
// network) is returned as Base gave it.
type Transport struct {
	Signer   *Signer
	Verifier *Verifier         // optional
	Base     http.RoundTripper // http.DefaultTransport when nil
}

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(r *http.Request) (*http.Response, error) {
	if t == nil || t.Signer == nil || t.Signer.key == nil {
		if r.Body != nil {
			r.Body.Close()
		}
		return nil, fmt.Errorf("%w: httpsig: Transport without a Signer made by NewSigner", signet.ErrKeyUsage)
	}
	signed := r.Clone(r.Context())
	// What is sent is r.URL's request line: a request a server received
	// and forwards (httputil.ReverseProxy keeps its RequestURI) is signed
	// as the client request it now is, not as it was received.
	signed.RequestURI = ""
	if err := t.Signer.SignRequest(signed); err != nil {
		if r.Body != nil {
			r.Body.Close()
		}
		return nil, err
	}
	if t.Verifier != nil && signed.Header.Get("Accept-Encoding") == "" {
		// net/http would ask for gzip itself and hand on the body
		// decompressed, without its Content-Encoding: no Content-Digest
		// (over the content as sent) could be checked against it.
		signed.Header.Set("Accept-Encoding", "identity")
	}
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	resp, err := base.RoundTrip(signed)
	if err != nil || t.Verifier == nil {
		return resp, err
	}
	if _, err := t.Verifier.VerifyResponse(resp, signed); err != nil {
		resp.Body.Close()
		return nil, fmt.Errorf("httpsig: response from %s: %w", r.URL.Redacted(), err)
	}
	return resp, nil
}
