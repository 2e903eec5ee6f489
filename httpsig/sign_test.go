package httpsig

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
)

var testNow = time.Unix(1_700_000_000, 0)

func fixedNow() time.Time { return testNow }

// newPost is the request of the tests: a JSON POST with a query.
func newPost(t testing.TB) *http.Request {
	t.Helper()
	r, err := http.NewRequest(http.MethodPost, "https://Example.COM:443/foo/bar%2Fbaz?param=Value&Pet=dog&sp=a+b", strings.NewReader(`{"hello": "world"}`))
	if err != nil {
		t.Fatal(err)
	}
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Date", "Tue, 20 Apr 2021 02:07:55 GMT")
	return r
}

var allComponents = []string{
	"@method", "@target-uri", "@authority", "@scheme", "@request-target", "@path", "@query",
	`"@query-param";name="Pet"`, `"@query-param";name="sp"`, "content-type", "content-digest", "date",
}

func mustKey(t testing.TB, alg signet.Algorithm, kid string) (*signet.Key, *signet.Key) {
	t.Helper()
	k, err := signet.GenerateKeyWithID(alg, kid)
	if err != nil {
		t.Fatal(err)
	}
	if alg.Symmetric() {
		return k, k
	}
	pub, err := k.Public()
	if err != nil {
		t.Fatal(err)
	}
	return k, pub
}

func mustSigner(t testing.TB, k *signet.Key, o Options) *Signer {
	t.Helper()
	if o.Now == nil {
		o.Now = fixedNow
	}
	s, err := NewSigner(k, o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustVerifier(t testing.TB, p Policy, keys ...*signet.Key) *Verifier {
	t.Helper()
	if p.Now == nil {
		p.Now = fixedNow
	}
	set, err := signet.NewKeySet(keys...)
	if err != nil {
		t.Fatal(err)
	}
	v, err := NewVerifier(set, p)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// serverSide turns a client request into the request a server reads.
func serverSide(t testing.TB, r *http.Request) *http.Request {
	t.Helper()
	if r.GetBody != nil {
		r.Body, _ = r.GetBody()
	}
	var buf bytes.Buffer
	if err := r.Write(&buf); err != nil {
		t.Fatal(err)
	}
	got, err := http.ReadRequest(bufioReader(&buf))
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestRoundTrip: for every algorithm, a request signed by a client
// verifies as the server reads it, with every derived component and a
// Content-Digest, and the Result says what was checked.
func TestRoundTrip(t *testing.T) {
	for _, alg := range signet.HTTPSigAlgorithms() {
		t.Run(string(alg), func(t *testing.T) {
			priv, pub := mustKey(t, alg, "k-"+string(alg))
			s := mustSigner(t, priv, Options{Components: allComponents, Digest: SHA512, Nonce: true, Alg: true, Tag: "app", Expires: time.Minute})
			r := newPost(t)
			if err := s.SignRequest(r); err != nil {
				t.Fatal(err)
			}
			v := mustVerifier(t, Policy{Require: []string{"@method", "@path", "content-digest"}, Tag: "app", Origin: &Origin{Scheme: "https"}}, pub)
			res, err := v.VerifyRequest(serverSide(t, r))
			if err != nil {
				t.Fatalf("%v\nSignature-Input: %s", err, r.Header.Get("Signature-Input"))
			}
			if res.Algorithm != alg || res.KeyID != "k-"+string(alg) || res.Label != "sig1" || res.Tag != "app" ||
				!res.Created.Equal(testNow) || !res.Expires.Equal(testNow.Add(time.Minute)) || res.Nonce == "" || len(res.Components()) != len(allComponents) {
				t.Fatalf("result %+v", res)
			}
			// The client's own view of the request verifies too.
			r2 := newPost(t)
			r2.Header = r.Header.Clone()
			v2 := mustVerifier(t, Policy{}, pub)
			if _, err := v2.VerifyRequest(r2); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestResponseRoundTrip: a response signature binding the request (req).
func TestResponseRoundTrip(t *testing.T) {
	priv, pub := mustKey(t, signet.Ed25519, "resp")
	s := mustSigner(t, priv, Options{Components: []string{"@status", "content-type", "content-digest", `"@method";req`, `"@authority";req`, `"@path";req`}, Digest: SHA256})
	req := newPost(t)
	h := http.Header{"Content-Type": {"text/plain"}}
	body := []byte("hello")
	if err := s.SignResponse(http.StatusOK, h, nil, req, body); err != nil {
		t.Fatal(err)
	}
	resp := &http.Response{StatusCode: 200, Header: h, Body: io.NopCloser(bytes.NewReader(body)), Request: req}
	v := mustVerifier(t, Policy{}, pub)
	if _, err := v.VerifyResponse(resp, nil); err != nil {
		t.Fatal(err)
	}
	// The same response to another request does not verify.
	other := newPost(t)
	other.Method = http.MethodPut
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if _, err := v.VerifyResponse(resp, other); !errors.Is(err, signet.ErrSignatureInvalid) {
		t.Fatalf("response replayed for another request: %v", err)
	}
	// req in a request signature is refused.
	bad := mustSigner(t, priv, Options{Components: []string{`"@method";req`}})
	if err := bad.SignRequest(newPost(t)); !errors.Is(err, ErrComponent) {
		t.Fatalf("req in a request: %v", err)
	}
}

// TestMultipleSignatures: a second signer adds, never overwrites, and a
// verifier selects by label, tag or key.
func TestMultipleSignatures(t *testing.T) {
	k1, p1 := mustKey(t, signet.HMACSHA256, "client")
	k2, p2 := mustKey(t, signet.ECDSAP256SHA256, "proxy")
	r := newPost(t)
	r.Header.Set("Content-Digest", mustDigest(t, SHA256, `{"hello": "world"}`))
	if err := mustSigner(t, k1, Options{Components: []string{"@method", "@authority", "@path", "content-digest"}, Tag: "client"}).SignRequest(r); err != nil {
		t.Fatal(err)
	}
	if err := mustSigner(t, k2, Options{Label: "proxy_sig", Components: []string{"@method", "@authority", "@path", "content-digest", `"signature";key="sig1"`}, Tag: "proxy"}).SignRequest(r); err != nil {
		t.Fatal(err)
	}
	if err := mustSigner(t, k2, Options{Components: []string{"@method"}}).SignRequest(r); !errors.Is(err, ErrComponent) {
		t.Fatalf("a taken label was not refused: %v", err)
	}
	if n := len(r.Header.Values("Signature-Input")); n != 2 {
		t.Fatalf("%d Signature-Input lines", n)
	}
	for _, c := range []struct {
		p     Policy
		keys  []*signet.Key
		label string
	}{
		{Policy{Tag: "proxy"}, []*signet.Key{p1, p2}, "proxy_sig"},
		{Policy{Tag: "client"}, []*signet.Key{p1, p2}, "sig1"},
		{Policy{Label: "proxy_sig"}, []*signet.Key{p2}, "proxy_sig"},
		{Policy{}, []*signet.Key{p2}, "proxy_sig"}, // sig1's key is unknown: skipped
	} {
		c.p.Origin = &Origin{Scheme: "https"} // the server sees plain HTTP here
		res, err := mustVerifier(t, c.p, c.keys...).VerifyRequest(serverSide(t, r))
		if err != nil {
			t.Fatalf("%+v: %v", c.p, err)
		}
		if res.Label != c.label {
			t.Fatalf("%+v: selected %s, want %s", c.p, res.Label, c.label)
		}
	}
	if _, err := mustVerifier(t, Policy{Tag: "nobody"}, p1, p2).VerifyRequest(serverSide(t, r)); !errors.Is(err, ErrNoSignature) {
		t.Fatalf("tag nobody: %v", err)
	}
}

func mustDigest(t testing.TB, alg, body string) string {
	t.Helper()
	d, err := ContentDigest(alg, []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestAcceptSignature: a verifier asks, a client's signer answers its
// request exactly, nonce and tag included.
func TestAcceptSignature(t *testing.T) {
	comps, err := ParseComponents(`"@method" "@authority" "@path" "content-type"`)
	if err != nil {
		t.Fatal(err)
	}
	field, err := AcceptSignature(Want{Label: "wanted", Components: comps, Created: true, Expires: true, Nonce: "n-123", Tag: "t", KeyID: "k", Alg: signet.Ed25519})
	if err != nil {
		t.Fatal(err)
	}
	want := `wanted=("@method" "@authority" "@path" "content-type");created;expires;nonce="n-123";alg="ed25519";keyid="k";tag="t"`
	if field != want {
		t.Fatalf("got %s", field)
	}
	wants, err := ParseAcceptSignature(http.Header{"Accept-Signature": {field}})
	if err != nil || len(wants) != 1 {
		t.Fatal(wants, err)
	}
	priv, pub := mustKey(t, signet.Ed25519, "k")
	s := mustSigner(t, priv, Options{})
	a, err := s.Answer(wants[0])
	if err != nil {
		t.Fatal(err)
	}
	r := newPost(t)
	if err := a.SignRequest(r); err != nil {
		t.Fatal(err)
	}
	res, err := mustVerifier(t, Policy{Label: "wanted", RequireNonce: true, UnsignedBody: true}, pub).VerifyRequest(r)
	if err != nil {
		t.Fatal(err)
	}
	if res.Nonce != "n-123" || res.Tag != "t" || res.Expires.IsZero() || len(res.Components()) != 4 {
		t.Fatalf("%+v", res)
	}
	// What Answer makes signs requests only: a server does not answer a
	// client's Accept-Signature with it (SignResponses does, its own way).
	if err := a.SignResponse(http.StatusOK, http.Header{}, nil, r, nil); !errors.Is(err, signet.ErrKeyUsage) {
		t.Fatalf("a response signed by an Answer signer: %v", err)
	}
	if _, err := SignResponses(a, ResponseOptions{}); !errors.Is(err, signet.ErrKeyUsage) {
		t.Fatalf("SignResponses with an Answer signer: %v", err)
	}
	// Another key or algorithm cannot answer.
	other, _ := mustKey(t, signet.ECDSAP256SHA256, "k")
	if _, err := mustSigner(t, other, Options{}).Answer(wants[0]); !errors.Is(err, signet.ErrAlgorithmMismatch) {
		t.Fatal(err)
	}
	wrongID, _ := mustKey(t, signet.Ed25519, "other")
	if _, err := mustSigner(t, wrongID, Options{}).Answer(wants[0]); !errors.Is(err, signet.ErrKeyNotFound) {
		t.Fatal(err)
	}
}

// TestMiddleware: verified requests reach the handler with their Result
// and body; others get 401 with a problem body and an Accept-Signature
// asking for the required components; responses are signed.
func TestMiddleware(t *testing.T) {
	ck, cpub := mustKey(t, signet.HMACSHA256, "client")
	sk, spub := mustKey(t, signet.Ed25519, "server")
	v := mustVerifier(t, Policy{Require: []string{"@method", "@path", "content-digest"}, Now: time.Now}, cpub)
	rs := mustSigner(t, sk, Options{Components: []string{"@status", "content-digest", `"@method";req`}, Digest: SHA256, Now: time.Now})
	h := Middleware(v)(mustSignResponses(t, rs, ResponseOptions{})(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		res, ok := FromContext(r.Context())
		body, _ := io.ReadAll(r.Body)
		if !ok || res.KeyID != "client" || string(body) != `{"hello": "world"}` {
			http.Error(w, "no result", 500)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, "ok "+res.KeyID)
	})))
	srv := httptest.NewServer(h)
	defer srv.Close()

	client := &http.Client{Transport: &Transport{
		Signer:   mustSigner(t, ck, Options{Components: []string{"@method", "@path", "@authority", "content-digest"}, Digest: SHA512, Now: time.Now}),
		Verifier: mustVerifier(t, Policy{Now: time.Now}, spub),
	}}
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/x", strings.NewReader(`{"hello": "world"}`))
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != "ok client" {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	if req.Header.Get("Signature") != "" {
		t.Fatal("the Transport modified the caller's request")
	}

	// Unsigned: 401, a problem body, and Accept-Signature.
	resp, err = http.Post(srv.URL+"/x", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 401 || resp.Header.Get("Content-Type") != "application/problem+json" ||
		!strings.Contains(string(body), "signature required") || !strings.Contains(resp.Header.Get("Accept-Signature"), `"content-digest"`) {
		t.Fatalf("%d %s %v", resp.StatusCode, body, resp.Header)
	}

	// A signed request whose body was changed: 401.
	signed, _ := http.NewRequest(http.MethodPost, srv.URL+"/x", strings.NewReader(`{"hello": "world"}`))
	ss := mustSigner(t, ck, Options{Components: []string{"@method", "@authority", "@path", "content-digest"}, Digest: SHA256, Now: time.Now})
	if err := ss.SignRequest(signed); err != nil {
		t.Fatal(err)
	}
	signed.Body = io.NopCloser(strings.NewReader(`{"hello": "WORLD"}`))
	resp, err = http.DefaultClient.Do(signed)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 401 || !strings.Contains(string(body), "digest") {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
}
