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

// Tests of the defaults of issue 14: coverage, what is read before the
// signature is checked, nil keys, the replay store's bounds, the bound on
// keys tried without keyid, and errors that wrap signet's sentinels.

// TestResponseCoverage: a response signature must cover @status unless
// the verifier drops the defaults explicitly.
func TestResponseCoverage(t *testing.T) {
	k, pub := mustKey(t, signet.Ed25519, "srv")
	for _, tt := range []struct {
		comps []string
		p     Policy
		want  error
	}{
		{[]string{"@status", "content-type"}, Policy{}, nil},
		{[]string{"content-type"}, Policy{}, ErrNotCovered},
		{[]string{`"@method";req`, `"@path";req`}, Policy{}, ErrNotCovered},
		{[]string{"content-type"}, Policy{InsecureSkipDefaultCoverage: true}, nil},
		{[]string{"@status"}, Policy{Require: []string{"content-type"}}, ErrNotCovered},
	} {
		h := http.Header{"Content-Type": {"text/plain"}}
		req := httptest.NewRequest(http.MethodGet, "https://example.com/x", nil)
		if err := mustSigner(t, k, Options{Components: tt.comps}).SignResponse(200, h, nil, req, nil); err != nil {
			t.Fatal(err)
		}
		resp := &http.Response{StatusCode: 200, Header: h, Body: http.NoBody, Request: req}
		if _, err := mustVerifier(t, tt.p, pub).VerifyResponse(resp, nil); !errors.Is(err, tt.want) {
			t.Errorf("%v, %+v: got %v, want %v", tt.comps, tt.p, err, tt.want)
		}
	}
}

// TestMiddlewareCoverage: Middleware asks for the default components
// and the required ones; a nil Verifier fails closed.
func TestMiddlewareCoverage(t *testing.T) {
	_, pub := mustKey(t, signet.Ed25519, "c")
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { t.Error("the handler ran") })
	for _, tt := range []struct {
		p    Policy
		want string
	}{
		{Policy{}, `sig1=("@method" "@authority" "@path");created`},
		{Policy{Require: []string{"@path", "content-digest"}}, `sig1=("@method" "@authority" "@path" "content-digest");created`},
		{Policy{InsecureSkipDefaultCoverage: true, Require: []string{"content-type"}}, `sig1=("content-type");created`},
	} {
		rec := httptest.NewRecorder()
		Middleware(mustVerifier(t, tt.p, pub))(ok).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
		if rec.Code != http.StatusUnauthorized || rec.Header().Get("Accept-Signature") != tt.want {
			t.Errorf("%+v: %d, Accept-Signature %q, want %q", tt.p, rec.Code, rec.Header().Get("Accept-Signature"), tt.want)
		}
	}
	for _, v := range []*Verifier{nil, {}} {
		rec := httptest.NewRecorder()
		Middleware(v)(ok).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
		if rec.Code != http.StatusInternalServerError {
			t.Errorf("Middleware(%v): %d", v, rec.Code)
		}
	}
}

// watchedBody is a request body that records whether it was read, and
// fails every read with err when err is set.
type watchedBody struct {
	r    io.Reader
	read bool
	err  error
}

func (b *watchedBody) Read(p []byte) (int, error) {
	b.read = true
	if b.err != nil {
		return 0, b.err
	}
	return b.r.Read(p)
}

func (b *watchedBody) Close() error { return nil }

// TestNothingReadFirst: the body (and so the trailers) of a request is
// not read before a signature has been selected and passed the policy
// and key checks, nor at all when no covered component needs it.
func TestNothingReadFirst(t *testing.T) {
	k, _ := mustKey(t, signet.Ed25519, "k")
	other, _ := mustKey(t, signet.Ed25519, "other")
	trComps := []string{"@method", "@authority", "@path", `"x-sum";tr`}
	// request is a POST announcing the trailer X-Sum, signed by s (not
	// at all when s is nil), with a watched body.
	request := func(t *testing.T, s *Signer) (*http.Request, *watchedBody) {
		t.Helper()
		r := httptest.NewRequest(http.MethodPost, "https://example.com/up", nil)
		r.Trailer = http.Header{"X-Sum": {"abc"}}
		if s != nil {
			if err := s.SignRequest(r); err != nil {
				t.Fatal(err)
			}
		}
		r.Trailer = http.Header{"X-Sum": nil} // announced, not yet received
		b := &watchedBody{r: strings.NewReader("data")}
		r.Body, r.ContentLength = b, -1
		return r, b
	}
	for _, tt := range []struct {
		name string
		s    *Signer
		p    Policy
		keys []*signet.Key
		want error
	}{
		{"unsigned", nil, Policy{}, []*signet.Key{k}, ErrNoSignature},
		{"unsigned, body not signed either", nil, Policy{UnsignedBody: true}, []*signet.Key{k}, ErrNoSignature},
		{"too old", mustSigner(t, k, Options{Components: trComps, Now: func() time.Time { return testNow.Add(-time.Hour) }}), Policy{}, []*signet.Key{k}, ErrTooOld},
		{"required component missing", mustSigner(t, k, Options{Components: trComps}), Policy{Require: []string{"content-digest"}}, []*signet.Key{k}, ErrNotCovered},
		{"unknown keyid", mustSigner(t, other, Options{Components: trComps}), Policy{}, []*signet.Key{k}, signet.ErrKeyNotFound},
		{"another label wanted", mustSigner(t, k, Options{Components: trComps}), Policy{Label: "other"}, []*signet.Key{k}, ErrNoSignature},
		{"no trailer covered, body not signed", mustSigner(t, k, Options{}), Policy{UnsignedBody: true}, []*signet.Key{k}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, b := request(t, tt.s)
			_, err := mustVerifier(t, tt.p, tt.keys...).VerifyRequest(r)
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			if b.read {
				t.Fatal("the body was read")
			}
		})
	}
	// A signature that passes the checks and covers a trailer reads it.
	r, b := request(t, mustSigner(t, k, Options{Components: trComps}))
	if _, err := mustVerifier(t, Policy{UnsignedBody: true}, k).VerifyRequest(r); !b.read || !errors.Is(err, ErrComponent) {
		// httptest's body is not net/http's: reading it fills no trailer.
		t.Fatalf("read %v, err %v", b.read, err)
	}
}

// TestBodyReadError: a body that cannot be read is an error, never an
// empty body, wherever it is read.
func TestBodyReadError(t *testing.T) {
	k, _ := mustKey(t, signet.HMACSHA256, "k")
	broken := errors.New("connection reset")
	for _, tt := range []struct {
		name    string
		comps   []string
		trailer bool
	}{
		{"body not covered: peeked", []string{"@method", "@authority", "@path"}, false},
		{"covered content-digest", []string{"@method", "@authority", "@path", "content-digest"}, false},
		{"trailer covered", []string{"@method", "@authority", "@path", `"x-sum";tr`}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "https://example.com/up", strings.NewReader("data"))
			if tt.trailer {
				r.Trailer = http.Header{"X-Sum": {"abc"}}
			}
			if err := mustSigner(t, k, Options{Components: tt.comps, Digest: SHA256}).SignRequest(r); err != nil {
				t.Fatal(err)
			}
			r.Body = &watchedBody{err: broken}
			_, err := mustVerifier(t, Policy{Origin: &Origin{Scheme: "https"}}, k).VerifyRequest(r)
			if !errors.Is(err, ErrDigest) || !errors.Is(err, broken) || !errors.Is(err, signet.ErrSignatureInvalid) {
				t.Fatalf("got %v", err)
			}
		})
	}
}

// badKeys is a key set that hands out a nil key.
type badKeys struct{}

func (badKeys) Select(string, signet.Algorithm) (signet.Candidates, error) {
	return signet.CandidatesOf(nil), nil
}

// TestNilKeys: nil and zero keys are errors (signet.ErrKeyUsage), never
// panics, when made and when used.
func TestNilKeys(t *testing.T) {
	var nilKey *signet.Key
	var nilSet *signet.KeySet
	for name, keys := range map[string]signet.Keys{"nil": nil, "nil Key": nilKey, "zero Key": &signet.Key{}, "nil KeySet": nilSet} {
		if _, err := NewVerifier(keys, Policy{}); !errors.Is(err, signet.ErrKeyUsage) {
			t.Errorf("NewVerifier(%s): %v", name, err)
		}
	}
	for name, k := range map[string]*signet.Key{"nil": nil, "zero": {}} {
		if _, err := NewSigner(k, Options{}); !errors.Is(err, signet.ErrKeyUsage) {
			t.Errorf("NewSigner(%s key): %v", name, err)
		}
	}
	k, _ := mustKey(t, signet.HMACSHA256, "k")
	signed := func() *http.Request {
		r := httptest.NewRequest(http.MethodGet, "https://example.com/", nil)
		if err := mustSigner(t, k, Options{}).SignRequest(r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	var nilVerifier *Verifier
	for name, v := range map[string]*Verifier{"nil": nilVerifier, "zero": {}} {
		if _, err := v.VerifyRequest(signed()); !errors.Is(err, signet.ErrKeyUsage) {
			t.Errorf("%s Verifier, request: %v", name, err)
		}
		if _, err := v.VerifyResponse(&http.Response{StatusCode: 200, Header: http.Header{}}, nil); !errors.Is(err, signet.ErrKeyUsage) {
			t.Errorf("%s Verifier, response: %v", name, err)
		}
	}
	v, err := NewVerifier(badKeys{}, Policy{Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.VerifyRequest(signed()); !errors.Is(err, signet.ErrKeyUsage) {
		t.Errorf("a key set handing out a nil key: %v", err)
	}
}

// countingKeys is a key set without a bound of its own: Select hands
// out every key of the algorithm, and counts what it handed out.
type countingKeys struct {
	keys    []*signet.Key
	handed  int
	selects int
}

func (c *countingKeys) Select(kid string, alg signet.Algorithm) (signet.Candidates, error) {
	c.selects++
	var out []*signet.Key
	for _, k := range c.keys {
		if k.Algorithm() == alg && (kid == "" || k.KeyID() == kid) {
			out = append(out, k)
		}
	}
	if len(out) == 0 {
		return signet.Candidates{}, fmt.Errorf("%w: none for %s", signet.ErrKeyNotFound, alg)
	}
	c.handed += len(out)
	return signet.CandidatesOf(out...), nil
}

// verifyCounting verifies r with a Verifier of keys and counts the
// signature checks it makes.
func verifyCounting(t testing.TB, keys signet.Keys, r *http.Request) (int, error) {
	t.Helper()
	v := mustVerifierSet(t, keys, Policy{Now: fixedNow})
	checks := 0
	v.onCheck = func(*signet.Key) { checks++ }
	_, err := v.VerifyRequest(r)
	return checks, err
}

// TestAnonymousCandidates: a signature without keyid (and without alg)
// is checked against at most MaxKeyCandidates keys over all algorithms:
// a forgery against 1,000 keys costs no verification at all, and one
// against a few costs at most that many.
func TestAnonymousCandidates(t *testing.T) {
	var ks countingKeys
	for range 1000 {
		k, err := signet.GenerateKey(signet.HMACSHA256)
		if err != nil {
			t.Fatal(err)
		}
		ks.keys = append(ks.keys, k)
	}
	forger, _ := signet.GenerateKey(signet.HMACSHA256)
	forged := func(o Options) *http.Request {
		r := httptest.NewRequest(http.MethodGet, "https://example.com/", nil)
		if err := mustSigner(t, forger, o).SignRequest(r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, o := range []Options{{Now: fixedNow}, {Now: fixedNow, Alg: true}} {
		checks, err := verifyCounting(t, &ks, forged(o))
		if !errors.Is(err, signet.ErrKeyNotFound) || checks != 0 {
			t.Fatalf("1,000 keys, alg %v: %d checks, %v", o.Alg, checks, err)
		}
	}
	// Spread over algorithms, no more in all: two keys of each of three
	// algorithms is ambiguous, though no algorithm has more than four.
	var spread countingKeys
	for _, alg := range []signet.Algorithm{signet.HMACSHA256, signet.Ed25519, signet.ECDSAP256SHA256} {
		for range 2 {
			k, err := signet.GenerateKey(alg)
			if err != nil {
				t.Fatal(err)
			}
			spread.keys = append(spread.keys, k)
		}
	}
	if checks, err := verifyCounting(t, &spread, forged(Options{Now: fixedNow})); !errors.Is(err, signet.ErrKeyNotFound) || checks != 0 {
		t.Fatalf("6 keys over 3 algorithms: %d checks, %v", checks, err)
	}
	// Up to the bound, each candidate is tried once.
	few := countingKeys{keys: ks.keys[:MaxKeyCandidates]}
	if checks, err := verifyCounting(t, &few, forged(Options{Now: fixedNow})); !errors.Is(err, signet.ErrSignatureInvalid) || checks != MaxKeyCandidates {
		t.Fatalf("%d keys: %d checks, %v", MaxKeyCandidates, checks, err)
	}
	// With keyid, one key whatever the set's size.
	named := countingKeys{keys: []*signet.Key{ks.keys[0].WithKeyID("a")}}
	for _, k := range ks.keys[1:] {
		named.keys = append(named.keys, k.WithKeyID("b"))
	}
	r := forged(Options{Now: fixedNow, KeyID: "a"})
	if checks, err := verifyCounting(t, &named, r); !errors.Is(err, signet.ErrSignatureInvalid) || checks != 1 {
		t.Fatalf("keyid: %d checks, %v", checks, err)
	}
}

// TestReplayStoreLimits: one key filling its share of the store locks out
// no other key; a nonce whose time ends past the retention is refused, not
// held; entries age out and free their key's share.
func TestReplayStoreLimits(t *testing.T) {
	now := testNow
	s := NewMemoryReplayStore(ReplayLimits{Entries: 10, PerKey: 3, Retention: 10 * time.Minute})
	for i := range 3 {
		if err := s.Remember("flood", fmt.Sprint(i), now, now.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Remember("flood", "3", now, now.Add(time.Minute)); !errors.Is(err, ErrReplay) || !errors.Is(err, signet.ErrTokenID) {
		t.Fatalf("a key over its share: %v", err)
	}
	for _, key := range []string{"a", "b", "c"} {
		if err := s.Remember(key, "0", now, now.Add(time.Minute)); err != nil {
			t.Fatalf("key %s locked out by another: %v", key, err)
		}
	}
	if err := s.Remember("a", "far", now, now.Add(11*time.Minute)); !errors.Is(err, ErrReplay) {
		t.Fatalf("a nonce held past the retention: %v", err)
	}
	if err := s.Remember("a", "edge", now, now.Add(10*time.Minute)); err != nil {
		t.Fatalf("a nonce held for the retention: %v", err)
	}
	now = now.Add(2 * time.Minute)
	if err := s.Remember("flood", "3", now, now.Add(time.Minute)); err != nil || s.Len() != 2 {
		t.Fatalf("after the entries aged out: %v, %d held", err, s.Len())
	}
	// The whole store still bounds the keys together.
	full := NewMemoryReplayStore(ReplayLimits{Entries: 2, PerKey: 5})
	if full.Remember("a", "1", now, now.Add(time.Minute)) != nil || full.Remember("b", "1", now, now.Add(time.Minute)) != nil {
		t.Fatal("refused under the bound")
	}
	if err := full.Remember("c", "1", now, now.Add(time.Minute)); !errors.Is(err, ErrReplay) {
		t.Fatalf("a full store: %v", err)
	}
	// A Verifier scopes a nonce to the key that verified it: a key
	// without an ID accepts any keyid, which cannot open a new scope.
	anon, err := signet.GenerateKey(signet.HMACSHA256)
	if err != nil {
		t.Fatal(err)
	}
	var scopes []string
	v, err := NewVerifier(anon, Policy{Now: fixedNow, Replay: replayFunc(func(keyID, _ string, _, _ time.Time) error {
		scopes = append(scopes, keyID)
		return nil
	})})
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest(http.MethodGet, "https://example.com/", nil)
	if err := mustSigner(t, anon, Options{Nonce: true, KeyID: "chosen-by-the-client"}).SignRequest(r); err != nil {
		t.Fatal(err)
	}
	if _, err := v.VerifyRequest(r); err != nil || len(scopes) != 1 || scopes[0] != "" {
		t.Fatalf("%v, scopes %q", err, scopes)
	}
	// A store's own failure refuses the signature, as ErrReplay.
	v, err = NewVerifier(anon, Policy{Now: fixedNow, Replay: replayFunc(func(string, string, time.Time, time.Time) error { return errors.New("store down") })})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.VerifyRequest(r); !errors.Is(err, ErrReplay) {
		t.Fatalf("store failure: %v", err)
	}
}

// TestSkewBounds: Skew is zero or up to five minutes.
func TestSkewBounds(t *testing.T) {
	k, _ := mustKey(t, signet.HMACSHA256, "k")
	for _, skew := range []time.Duration{-time.Second, 5*time.Minute + time.Second} {
		if _, err := NewVerifier(k, Policy{Skew: skew}); !errors.Is(err, signet.ErrUnsupported) {
			t.Errorf("Skew %v: %v", skew, err)
		}
	}
	for _, skew := range []time.Duration{0, 5 * time.Minute} {
		if _, err := NewVerifier(k, Policy{Skew: skew}); err != nil {
			t.Errorf("Skew %v: %v", skew, err)
		}
	}
}

// TestErrorsWrapSignet walks the failures of the package outside the
// verification tables (TestSecurity checks each of its cases the same
// way): every error wraps a signet sentinel, the package's own sentinels
// included.
func TestErrorsWrapSignet(t *testing.T) {
	k, pub := mustKey(t, signet.Ed25519, "k")
	hk, _ := mustKey(t, signet.HMACSHA256, "hk")
	var errs []error
	add := func(_ any, err error) { errs = append(errs, err) }
	errs = append(errs, ErrNoSignature, ErrComponent, ErrNotCovered, ErrTooOld, ErrReplay, ErrDigest)
	add(NewSigner(pub, Options{}))
	add(NewSigner(jwsTwin(t, hk), Options{}))
	add(NewSigner(k, Options{Label: "Bad Label"}))
	add(NewSigner(k, Options{Nonce: true, NonceValue: "n"}))
	add(NewSigner(k, Options{Digest: "md5"}))
	add(NewSigner(k, Options{Components: []string{"@method", "@method"}}))
	add(NewSigner(k, Options{Components: []string{"@nope"}}))
	add(NewVerifier(pub, Policy{Require: []string{`"bad`}}))
	add(NewVerifier(pub, Policy{Skew: time.Hour}))
	add(ParseComponent("@query-param"))
	add(ParseComponents(`"a";sf;bs`))
	add(ContentDigest("sha-1", nil))
	add(NewDigestReader(strings.NewReader(""), "sha-256=:AAAA:"))
	add(NewDigestReader(strings.NewReader(""), "md5=:AAAA:"))
	if d, err := NewDigestReader(strings.NewReader("x"), mustDigest(t, SHA256, "y")); err == nil {
		add(io.ReadAll(d))
	}
	add(ParseAcceptSignature(http.Header{"Accept-Signature": {"a=(\"@method\");alg=\"HS256\""}}))
	add(ParseAcceptSignature(http.Header{"Accept-Signature": {"a=b"}}))
	add(AcceptSignature(Want{Label: "A"}))
	s := mustSigner(t, k, Options{})
	errs = append(errs, s.SignResponse(200, nil, nil, nil, nil))
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	if err := s.SignRequest(r); err != nil {
		t.Fatal(err)
	}
	errs = append(errs, s.SignRequest(r)) // the label again
	add((&Transport{}).RoundTrip(httptest.NewRequest(http.MethodGet, "/", nil)))
	add(RequestBase(httptest.NewRequest(http.MethodGet, "/", nil), "sig1", nil))
	resp := &http.Response{StatusCode: 200, Header: http.Header{}, Body: http.NoBody}
	add(mustVerifier(t, Policy{}, pub).VerifyResponse(resp, nil))
	resp.Header.Set("Signature-Input", `sig1=("@method";req);created=1700000000`)
	resp.Header.Set("Signature", "sig1=:AAAA:")
	add(mustVerifier(t, Policy{}, pub).VerifyResponse(resp, nil))
	// A raw message over net/http with every kind of bad field.
	for _, msg := range []string{
		"GET / HTTP/1.1\nHost: a\nSignature-Input: s=(\"@method\" \"@authority\" \"@path\");created=1700000000\nSignature: s=:AAAA:\n\n",
		"GET / HTTP/1.1\nHost: a\nSignature-Input: s=(\"@method\");created=1700000000\n\n",
		"GET / HTTP/1.1\nHost: a\nSignature-Input: s=\"x\"\nSignature: s=:AAAA:\n\n",
		"GET / HTTP/1.1\nHost: a\nSignature-Input: s=();created=1700000000\nSignature: s=:AAAA:\n\n",
		"GET / HTTP/1.1\nHost: a\nSignature-Input: s=(\"@method\" \"@authority\" \"@path\");created=1700000000;alg=\"none\"\nSignature: s=:AAAA:\n\n",
		"GET / HTTP/1.1\nHost: a\nSignature-Input: s=(\"@method\" \"@authority\" \"@path\" \"x\");created=1700000000\nSignature: s=:AAAA:\n\n",
	} {
		r, err := http.ReadRequest(bufio.NewReader(bytes.NewReader([]byte(msg))))
		if err != nil {
			t.Fatal(err)
		}
		add(mustVerifier(t, Policy{}, pub).VerifyRequest(r))
	}
	for i, err := range errs {
		if err == nil {
			t.Errorf("case %d: no error", i)
			continue
		}
		if !isSignetError(err) {
			t.Errorf("case %d: %v wraps no signet sentinel", i, err)
		}
	}
}
