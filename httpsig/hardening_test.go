package httpsig

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
)

// Regression tests for the review of the first version (replay windows,
// trailers, work bounds, middleware edges).

// TestReplayWindow: a nonce is remembered for as long as its signature
// can be accepted, however far ahead created is.
func TestReplayWindow(t *testing.T) {
	k, _ := mustKey(t, signet.HMACSHA256, "k")
	now := testNow
	clock := func() time.Time { return now }
	r := newPost(t)
	s := mustSigner(t, k, Options{Nonce: true, Now: func() time.Time { return testNow.Add(59 * time.Second) }})
	if err := s.SignRequest(r); err != nil {
		t.Fatal(err)
	}
	v := mustVerifier(t, Policy{UnsignedBody: true, Skew: time.Minute, Now: clock}, k)
	if _, err := v.VerifyRequest(r); err != nil {
		t.Fatal(err)
	}
	for _, later := range []time.Duration{time.Minute, 5 * time.Minute, 6*time.Minute + 30*time.Second} {
		now = testNow.Add(later)
		if _, err := v.VerifyRequest(r); !errors.Is(err, ErrReplay) {
			t.Fatalf("replayed %v later: %v", later, err)
		}
	}
	// A nonce bounded by neither created nor expires is refused.
	r = newPost(t)
	if err := mustSigner(t, k, Options{Nonce: true, NoCreated: true}).SignRequest(r); err != nil {
		t.Fatal(err)
	}
	if _, err := mustVerifier(t, Policy{UnsignedBody: true, NoCreated: true}, k).VerifyRequest(r); !errors.Is(err, ErrNotCovered) {
		t.Fatal(err)
	}
}

// TestTrailers: a tr component is checked against the trailer as
// received, which means reading the body first.
func TestTrailers(t *testing.T) {
	k, _ := mustKey(t, signet.Ed25519, "k")
	raw := func(t *testing.T, value string) []byte {
		r, _ := http.NewRequest(http.MethodPost, "https://example.com/up", io.NopCloser(strings.NewReader("data")))
		r.ContentLength = -1
		r.Trailer = http.Header{"X-Checksum": {value}}
		if err := mustSigner(t, k, Options{Components: []string{"@method", "@authority", "@path", `"x-checksum";tr`}}).SignRequest(r); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := r.Write(&buf); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	verify := func(msg []byte) error {
		r, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(msg)))
		if err != nil {
			t.Fatal(err)
		}
		_, err = mustVerifier(t, Policy{UnsignedBody: true}, k).VerifyRequest(r)
		if err == nil {
			if body, _ := io.ReadAll(r.Body); string(body) != "data" {
				t.Fatalf("body %q", body)
			}
		}
		return err
	}
	msg := raw(t, "abc")
	if err := verify(msg); err != nil {
		t.Fatal(err)
	}
	if err := verify(bytes.Replace(msg, []byte("X-Checksum: abc"), []byte("X-Checksum: xyz"), 1)); !errors.Is(err, signet.ErrSignatureInvalid) {
		t.Fatalf("changed trailer: %v", err)
	}
	// A trailer announced but never sent is not a field.
	r, _ := http.NewRequest(http.MethodPost, "https://example.com/up", nil)
	r.Trailer = http.Header{"X-Checksum": nil}
	if err := mustSigner(t, k, Options{Components: []string{`"x-checksum";tr`}}).SignRequest(r); !errors.Is(err, ErrComponent) {
		t.Fatalf("signed an absent trailer: %v", err)
	}
}

// TestWorkBounds: many signatures, components or keys cost bounded work.
func TestWorkBounds(t *testing.T) {
	k, _ := mustKey(t, signet.HMACSHA256, "k")
	r := newPost(t)
	var in, sig []string
	for i := range maxSignatures + 1 {
		in = append(in, fmt.Sprintf(`s%d=("@method");created=1700000000`, i))
		sig = append(sig, fmt.Sprintf("s%d=:AAAA:", i))
	}
	r.Header.Set("Signature-Input", strings.Join(in, ", "))
	r.Header.Set("Signature", strings.Join(sig, ", "))
	if _, err := mustVerifier(t, Policy{UnsignedBody: true}, k).VerifyRequest(r); !errors.Is(err, signet.ErrTooLarge) {
		t.Fatalf("%d signatures: %v", maxSignatures+1, err)
	}
	// Without keyid, one signature against many keys that all have IDs:
	// ambiguous (signet.MaxAnonymousCandidates, httpsig.MaxKeyCandidates;
	// TestAnonymousCandidates counts the checks up to it), and
	// RequireKeyID refuses it outright.
	var keys []*signet.Key
	for i := range 20 {
		kk, _ := mustKey(t, signet.HMACSHA256, fmt.Sprintf("k%d", i))
		keys = append(keys, kk)
	}
	r = newPost(t)
	nokid, _ := signet.GenerateKey(signet.HMACSHA256)
	if err := mustSigner(t, nokid, Options{}).SignRequest(r); err != nil {
		t.Fatal(err)
	}
	if _, err := mustVerifier(t, Policy{UnsignedBody: true}, keys...).VerifyRequest(r); !errors.Is(err, signet.ErrKeyNotFound) {
		t.Fatal(err)
	}
	if _, err := mustVerifier(t, Policy{UnsignedBody: true, RequireKeyID: true}, keys...).VerifyRequest(r); !errors.Is(err, ErrNotCovered) {
		t.Fatal(err)
	}
	// Too many components.
	ids := make([]string, maxComponents+1)
	for i := range ids {
		ids[i] = fmt.Sprintf(`"x-h%d"`, i)
	}
	r = newPost(t)
	r.Header.Set("Signature-Input", "s=("+strings.Join(ids, " ")+");created=1700000000")
	r.Header.Set("Signature", "s=:AAAA:")
	if _, err := mustVerifier(t, Policy{UnsignedBody: true}, k).VerifyRequest(r); !errors.Is(err, ErrComponent) {
		t.Fatal(err)
	}
}

// TestSignResponsesEdges: an Accept-Signature answer cannot take the
// server's label or multiply its work; Flush sends a signed header; a
// request line in absolute form does not choose @scheme; nil headers.
func TestSignResponsesEdges(t *testing.T) {
	k, pub := mustKey(t, signet.Ed25519, "srv")
	s := mustSigner(t, k, Options{Now: time.Now})
	h := mustSignResponses(t, s, ResponseOptions{Answer: [][]string{{"@status"}}})(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "hello")
		http.NewResponseController(w).Flush()
		io.WriteString(w, " world")
	}))
	var wants []string
	for i := range maxSignatures + 1 {
		wants = append(wants, fmt.Sprintf(`w%d=("@status")`, i))
	}
	for _, c := range []struct {
		accept string
		n      int // signatures in the response
	}{
		{`sig1=("@status")`, 1}, // the server's own label: not answered
		{strings.Join(wants[:maxSignatures], ", "), 1 + maxAnswers}, // 16 asked, maxAnswers answered
		{strings.Join(wants, ", "), 1},                              // 17 asked: the field is refused, none answered
	} {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.Header.Set("Accept-Signature", c.accept)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		resp := rec.Result()
		if resp.StatusCode != 200 || rec.Body.String() != "hello world" {
			t.Fatalf("%d %q", resp.StatusCode, rec.Body.String())
		}
		if n := len(resp.Header.Values("Signature")); n != c.n {
			t.Fatalf("%d signatures, want %d", n, c.n)
		}
		if _, err := mustVerifier(t, Policy{Label: "sig1", UnsignedBody: true, Now: time.Now}, pub).VerifyResponse(resp, req); err != nil {
			t.Fatal(err)
		}
	}
	// Absolute form over plain HTTP: @scheme is http.
	r, err := http.ReadRequest(bufio.NewReader(strings.NewReader("GET https://api.example.com/x HTTP/1.1\r\nHost: api.example.com\r\n\r\n")))
	if err != nil {
		t.Fatal(err)
	}
	if m := requestMessage(r, nil); m.scheme != "http" {
		t.Fatalf("@scheme %q", m.scheme)
	}
	// nil header maps.
	r = &http.Request{Method: "POST", URL: r.URL, Body: io.NopCloser(strings.NewReader("x"))}
	if err := mustSigner(t, k, Options{Components: []string{"@method", "content-digest"}, Digest: SHA256}).SignRequest(r); err != nil {
		t.Fatal(err)
	}
	if err := s.SignResponse(200, nil, nil, nil, nil); err == nil {
		t.Fatal("SignResponse with a nil header map")
	}
}
