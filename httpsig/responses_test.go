package httpsig

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/signet-go/signet"
)

func mustSignResponses(t testing.TB, s *Signer, o ResponseOptions) func(http.Handler) http.Handler {
	t.Helper()
	mw, err := SignResponses(s, o)
	if err != nil {
		t.Fatal(err)
	}
	return mw
}

// echoBody is what the handler of the response tests writes: text the
// client chose, as an echo or an error page would.
const echoBody = `{"echo":"transfer 1000 to mallory"}`

func echoHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, echoBody)
	})
}

// serveSigned runs h on a POST /echo with the Accept-Signature accept
// ("" for none) and returns the response and its request.
func serveSigned(t *testing.T, h http.Handler, accept string) (*http.Response, *http.Request) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "https://api.example/echo", strings.NewReader(`{"echo":"transfer 1000 to mallory"}`))
	if accept != "" {
		req.Header.Set("Accept-Signature", accept)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	resp := rec.Result()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, rec.Body)
	}
	return resp, req
}

// labels returns the labels of the signatures of h, in order.
func labels(t *testing.T, h http.Header) []string {
	t.Helper()
	d, err := parseDictLines("Signature-Input", h.Values("Signature-Input"), DefaultMaxHeader)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range d {
		out = append(out, m.Key)
	}
	return out
}

// oracleServer is the server of the oracle tests: an Ed25519 key "srv",
// its own signature over @status and content-type, and, opted in, two
// sets it answers Accept-Signature with.
func oracleServer(t *testing.T, answer bool) (*Signer, ResponseOptions, *signet.Key) {
	t.Helper()
	k, pub := mustKey(t, signet.Ed25519, "srv")
	s := mustSigner(t, k, Options{Components: []string{"@status", "content-type"}, Digest: SHA256})
	var o ResponseOptions
	if answer {
		o.Answer = [][]string{
			{"@status", "content-type", "content-digest"},
			{"@status", `"@method";req`, `"@path";req`},
		}
	}
	return s, o, pub
}

// TestSignResponsesIgnoresAcceptSignature: by default the server signs
// with its own components and parameters, whatever Accept-Signature asks
// for, and the response does not vary on it.
func TestSignResponsesIgnoresAcceptSignature(t *testing.T) {
	s, o, pub := oracleServer(t, false)
	h := mustSignResponses(t, s, o)(echoHandler())
	for _, accept := range []string{
		"",
		`a=("content-type" "content-digest");created;nonce="chosen";tag="partner"`,
		`sig1=("@method" "@authority" "@path");keyid="srv";alg="ed25519"`,
		`a=("content-type"), b=("@status")`,
		`not a dictionary (`,
	} {
		resp, req := serveSigned(t, h, accept)
		if got := labels(t, resp.Header); !slices.Equal(got, []string{"sig1"}) {
			t.Fatalf("Accept-Signature %q: signatures %v, want the server's only", accept, got)
		}
		if in := resp.Header.Get("Signature-Input"); !strings.HasPrefix(in, `sig1=("@status" "content-type");created=`) || strings.Contains(in, "chosen") || strings.Contains(in, "partner") {
			t.Fatalf("Accept-Signature %q: Signature-Input %s", accept, in)
		}
		if v := resp.Header.Values("Vary"); len(v) != 0 {
			t.Fatalf("Vary %v without answers", v)
		}
		if _, err := mustVerifier(t, Policy{UnsignedBody: true}, pub).VerifyResponse(resp, req); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSignResponsesOptions: SignResponses is not built with a signer or an
// answer set that could make a signature without @status, or cover what a
// response does not have when it is signed.
func TestSignResponsesOptions(t *testing.T) {
	k, _ := mustKey(t, signet.Ed25519, "srv")
	s := mustSigner(t, k, Options{})
	answer, err := s.Answer(Want{Label: "a", Components: mustComponents("@method")})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		s    *Signer
		sets [][]string
		want error
	}{
		{"no signer", nil, nil, signet.ErrKeyUsage},
		{"a signer made by Answer", answer, nil, signet.ErrKeyUsage},
		{"signer without @status", mustSigner(t, k, Options{Components: []string{"content-type", "content-digest"}}), nil, ErrNotCovered},
		{"signer covering @method without req", mustSigner(t, k, Options{Components: []string{"@status", "@method"}}), nil, ErrComponent},
		{"signer covering a response trailer", mustSigner(t, k, Options{Components: []string{"@status", `"x";tr`}}), nil, ErrComponent},
		{"set without @status", s, [][]string{{"content-type", "content-digest"}}, ErrNotCovered},
		{"empty set", s, [][]string{{}}, ErrNotCovered},
		{"set with @path without req", s, [][]string{{"@status", "@path"}}, ErrComponent},
		{"set with @status;req", s, [][]string{{`"@status";req`, "@status"}}, ErrComponent},
		{"set with a response trailer", s, [][]string{{"@status", `"x";tr`}}, ErrComponent},
		{"set with an unknown component", s, [][]string{{"@status", "@nope"}}, ErrComponent},
		{"set covering a component twice", s, [][]string{{"@status", "date", "Date"}}, ErrComponent},
	} {
		t.Run(c.name, func(t *testing.T) {
			mw, err := SignResponses(c.s, ResponseOptions{Answer: c.sets})
			if !errors.Is(err, c.want) || mw != nil {
				t.Fatalf("got %v, want %v", err, c.want)
			}
		})
	}
	// What is allowed: the default @status, request parts with req, and
	// request trailers.
	if _, err := SignResponses(s, ResponseOptions{Answer: [][]string{{"@status"}, {"@status", `"@method";req`, `"x";req;tr`, `"signature";req;key="sig1"`}}}); err != nil {
		t.Fatal(err)
	}
}

// TestResponseOracle: each way a client could use Accept-Signature to get
// the server's key to sign something it chose is refused (with its
// sentinel) or neutralised, in the answer and in the response the
// middleware sends.
func TestResponseOracle(t *testing.T) {
	s, o, pub := oracleServer(t, true)
	rp, err := newResponder(s, o)
	if err != nil {
		t.Fatal(err)
	}
	h := mustSignResponses(t, s, o)(echoHandler())
	digestSet := []string{`"@status"`, `"content-type"`, `"content-digest"`}
	reqSet := []string{`"@status"`, `"@method";req`, `"@path";req`}
	cases := []struct {
		name   string
		accept string
		want   error    // from the answer; nil: answered
		comps  []string // answered: the covered components, in the server's order
		check  func(t *testing.T, res *Result, input string)
	}{
		{name: "client-chosen tag ignored", accept: `a=("@status" "content-type" "content-digest");tag="partner"`, comps: digestSet,
			check: func(t *testing.T, res *Result, input string) {
				if res.Tag != "" || strings.Contains(input, "tag=") {
					t.Fatalf("tag %q in %s", res.Tag, input)
				}
			}},
		{name: "set without @status gets @status", accept: `a=("content-type" "content-digest")`, comps: digestSet},
		{name: "set in another order is signed in the server's", accept: `a=("content-digest" "@status" "content-type")`, comps: digestSet},
		{name: "client-chosen nonce replaced by the server's", accept: `a=("content-type" "content-digest");nonce="chosen-by-client"`, comps: digestSet,
			check: func(t *testing.T, res *Result, input string) {
				if res.Nonce == "" || res.Nonce == "chosen-by-client" || strings.Contains(input, "chosen-by-client") {
					t.Fatalf("nonce %q", res.Nonce)
				}
			}},
		{name: "created, expires, alg and keyid of the key's own", accept: `a=("content-type" "content-digest");created;expires;alg="ed25519";keyid="srv"`, comps: digestSet,
			check: func(t *testing.T, res *Result, input string) {
				if !res.Created.Equal(testNow) || !res.Expires.Equal(testNow.Add(DefaultAnswerExpiry)) || res.KeyID != "srv" || !strings.Contains(input, `alg="ed25519"`) {
					t.Fatalf("%+v %s", res, input)
				}
			}},
		{name: "request components with req", accept: `a=("@method";req "@path";req)`, comps: reqSet},
		{name: "request components without req", accept: `a=("@method" "@authority" "@path")`, want: ErrComponent},
		{name: "request components without req, @status included", accept: `a=("@status" "@method" "@path")`, want: ErrComponent},
		{name: "@status of the request", accept: `a=("@status";req "content-type")`, want: ErrComponent},
		{name: "response trailer", accept: `a=("@status" "content-type";tr)`, want: ErrComponent},
		{name: "headers only, a set not allowed", accept: `a=("content-type")`, want: signet.ErrUnsupported},
		{name: "a superset of an allowed set", accept: `a=("@status" "content-type" "content-digest" "date")`, want: signet.ErrUnsupported},
		{name: "empty list", accept: `a=()`, want: signet.ErrUnsupported},
		{name: "another keyid", accept: `a=("content-type" "content-digest");keyid="partner-key"`, want: signet.ErrKeyNotFound},
		{name: "another alg", accept: `a=("content-type" "content-digest");alg="hmac-sha256"`, want: signet.ErrAlgorithmMismatch},
		{name: "the server's label", accept: `sig1=("content-type" "content-digest")`, want: ErrComponent},
		{name: "a label too long to echo", accept: strings.Repeat("l", maxAnswerLabel+1) + `=("content-type" "content-digest")`, want: signet.ErrTooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wants, err := ParseAcceptSignature(http.Header{"Accept-Signature": {c.accept}})
			if err != nil || len(wants) != 1 {
				t.Fatal(wants, err)
			}
			label := wants[0].Label
			a, err := rp.answer(wants[0], rp.own)
			if !errors.Is(err, c.want) || (err == nil) != (a != nil) {
				t.Fatalf("answer: %v, want %v", err, c.want)
			}
			resp, req := serveSigned(t, h, c.accept)
			if v := resp.Header.Values("Vary"); !slices.Contains(v, "Accept-Signature") {
				t.Fatalf("Vary %v", v)
			}
			got := labels(t, resp.Header)
			if c.want != nil {
				if !slices.Equal(got, []string{"sig1"}) {
					t.Fatalf("signatures %v, want the server's only", got)
				}
				return
			}
			if !slices.Equal(got, []string{"sig1", label}) {
				t.Fatalf("signatures %v, want sig1 and %s", got, label)
			}
			res, err := mustVerifier(t, Policy{Label: label, UnsignedBody: true}, pub).VerifyResponse(resp, req)
			if err != nil {
				t.Fatal(err)
			}
			var comps []string
			for _, cc := range res.Components() {
				comps = append(comps, cc.String())
			}
			if !slices.Equal(comps, c.comps) {
				t.Fatalf("covers %v, want %v", comps, c.comps)
			}
			if c.check != nil {
				d, _ := parseDictLines("Signature-Input", resp.Header.Values("Signature-Input"), DefaultMaxHeader)
				m, _ := d.Get(label)
				in, _ := parseSigInput(m, false)
				c.check(t, res, in.text)
			}
		})
	}
	// A Want built in code with a zero Component is refused, not a panic.
	if _, err := rp.answer(Want{Label: "z", Components: []Component{{}}}, rp.own); !errors.Is(err, ErrComponent) {
		t.Fatalf("zero Component: %v", err)
	}
	// Refused requests are skipped, and two answers at most are made.
	resp, _ := serveSigned(t, h, `a=("content-type"), b=("@method";req "@path";req), sig1=("content-type" "content-digest"), c=("content-type" "content-digest"), d=("content-type" "content-digest")`)
	if got := labels(t, resp.Header); !slices.Equal(got, []string{"sig1", "b", "c"}) {
		t.Fatalf("signatures %v", got)
	}
}

// TestResponseSignatureIsNoRequestSignature: no signature SignResponses
// makes, its own or an answer, verifies as a request signature of the
// same key under the default request policy, even when every field it
// covers is copied onto the request; the same fields verify as the
// response they came from.
func TestResponseSignatureIsNoRequestSignature(t *testing.T) {
	s, o, pub := oracleServer(t, true)
	h := mustSignResponses(t, s, o)(echoHandler())
	// What the old oracle would have been asked: a signature over
	// response fields that a request can carry too, with a partner's tag.
	resp, req := serveSigned(t, h, `a=("content-type" "content-digest");tag="partner";nonce="fresh-1"`)
	if got := labels(t, resp.Header); !slices.Equal(got, []string{"sig1", "a"}) {
		t.Fatalf("signatures %v", got)
	}
	for _, label := range []string{"sig1", "a"} {
		resp.Body = io.NopCloser(strings.NewReader(echoBody))
		if _, err := mustVerifier(t, Policy{Label: label, UnsignedBody: true}, pub).VerifyResponse(resp, req); err != nil {
			t.Fatalf("%s as the response: %v", label, err)
		}
		forged, err := http.NewRequest(http.MethodPost, "https://partner.example/inbox", strings.NewReader(echoBody))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"Content-Type", "Content-Digest", "Signature-Input", "Signature"} {
			forged.Header[name] = resp.Header.Values(name)
		}
		for _, p := range []Policy{{}, {Label: label}} {
			forged.Body = io.NopCloser(strings.NewReader(echoBody))
			// Which check refuses it first is the verifier's business:
			// a required component missing (@method, @authority, @path),
			// or @status, which a request does not have.
			_, err := mustVerifier(t, p, pub).VerifyRequest(forged)
			if !errors.Is(err, ErrComponent) && !errors.Is(err, ErrNotCovered) {
				t.Fatalf("%s verified as a request signature under %+v: %v", label, p, err)
			}
		}
	}
}
