package httpsig

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
)

// TestSecurity: each attack on a signed request fails with its sentinel.
func TestSecurity(t *testing.T) {
	hk, _ := mustKey(t, signet.HMACSHA256, "hk")
	ek, epub := mustKey(t, signet.Ed25519, "ek")
	comps := []string{"@method", "@authority", "@path", "@query", `"@query-param";name="Pet"`, "content-type", "content-digest"}
	sign := func(t *testing.T, k *signet.Key, o Options) *http.Request {
		t.Helper()
		if o.Components == nil {
			o.Components = comps
		}
		o.Digest = SHA256
		r := newPost(t)
		if err := mustSigner(t, k, o).SignRequest(r); err != nil {
			t.Fatal(err)
		}
		return serverSide(t, r)
	}
	setInput := func(r *http.Request, f func(string) string) {
		r.Header.Set("Signature-Input", f(r.Header.Get("Signature-Input")))
	}
	// resign replaces the signature by a valid one of hk over list (an
	// inner list with its parameters): what a signer holding the key can
	// send, so that only the policy stands in the way.
	resign := func(list string) func(*http.Request) {
		return func(r *http.Request) {
			sig, err := signRaw(hk, r, list)
			if err != nil {
				t.Error(err) // the parent's t: Error, not Fatal
			}
			r.Header.Set("Signature-Input", "sig1="+list)
			r.Header.Set("Signature", "sig1=:"+base64.StdEncoding.EncodeToString(sig)+":")
		}
	}
	base := Policy{Origin: &Origin{Scheme: "https"}}
	cases := []struct {
		name   string
		key    *signet.Key // signs; HMAC key hk by default
		o      Options
		p      *Policy
		keys   []*signet.Key // verify with; hk by default
		mutate func(*http.Request)
		want   error
	}{
		{name: "tampered method", mutate: func(r *http.Request) { r.Method = "DELETE" }, want: signet.ErrSignatureInvalid},
		{name: "tampered path", mutate: func(r *http.Request) { r.URL.Path, r.URL.RawPath = "/admin", "" }, want: signet.ErrSignatureInvalid},
		{name: "tampered query param", mutate: func(r *http.Request) { r.URL.RawQuery = strings.Replace(r.URL.RawQuery, "Pet=dog", "Pet=cat", 1) }, want: signet.ErrSignatureInvalid},
		{name: "tampered authority", mutate: func(r *http.Request) { r.Host = "evil.example" }, want: signet.ErrSignatureInvalid},
		{name: "tampered content-type", mutate: func(r *http.Request) { r.Header.Set("Content-Type", "text/html") }, want: signet.ErrSignatureInvalid},
		{name: "tampered body", mutate: func(r *http.Request) { r.Body = io.NopCloser(strings.NewReader(`{"hello": "WORLD"}`)) }, want: ErrDigest},
		{name: "digest replaced to match a new body", mutate: func(r *http.Request) {
			r.Body = io.NopCloser(strings.NewReader("evil"))
			r.Header.Set("Content-Digest", mustDigest(t, SHA256, "evil"))
		}, want: signet.ErrSignatureInvalid},
		{name: "deprecated digest algorithm only", o: Options{Components: []string{"@method", "@authority", "@path", "content-digest"}}, mutate: func(r *http.Request) {
			r.Header.Set("Content-Digest", "md5=:XrY7u+Ae7tCTyyK7j1rNww==:")
		}, want: signet.ErrSignatureInvalid},
		{name: "body not covered by a digest", o: Options{Components: []string{"@method", "@authority", "@path"}}, want: ErrDigest},
		{name: "missing content-digest field", mutate: func(r *http.Request) { r.Header.Del("Content-Digest") }, want: ErrComponent},
		{name: "fewer components than required", o: Options{Components: []string{"@method", "@authority", "@path", "content-digest"}}, p: &Policy{Require: []string{"@method", "content-type"}}, want: ErrNotCovered},
		{name: "created stripped", mutate: func(r *http.Request) {
			setInput(r, func(s string) string { return strings.Replace(s, ";created=1700000000", "", 1) })
		}, want: ErrNotCovered},
		{name: "created stripped, created not required", p: &Policy{NoCreated: true}, mutate: func(r *http.Request) {
			setInput(r, func(s string) string { return strings.Replace(s, ";created=1700000000", "", 1) })
		}, want: signet.ErrSignatureInvalid},
		{name: "params reordered", o: Options{Tag: "t"}, mutate: func(r *http.Request) {
			setInput(r, func(s string) string {
				s = strings.Replace(s, `;created=1700000000`, "", 1)
				return s + ";created=1700000000"
			})
		}, want: signet.ErrSignatureInvalid},
		{name: "component dropped from the list", mutate: func(r *http.Request) {
			setInput(r, func(s string) string { return strings.Replace(s, ` "content-type"`, "", 1) })
		}, want: signet.ErrSignatureInvalid},
		{name: "expired", o: Options{Expires: time.Second}, p: &Policy{Now: func() time.Time { return testNow.Add(2 * time.Minute) }}, want: signet.ErrExpired},
		{name: "created in the future", o: Options{Now: func() time.Time { return testNow.Add(10 * time.Minute) }}, want: signet.ErrNotYetValid},
		{name: "created too old", o: Options{Now: func() time.Time { return testNow.Add(-time.Hour) }}, want: ErrTooOld},
		{name: "alg param names another algorithm", o: Options{Alg: true}, mutate: func(r *http.Request) {
			setInput(r, func(s string) string { return strings.Replace(s, `alg="hmac-sha256"`, `alg="ed25519"`, 1) })
		}, want: signet.ErrAlgorithmMismatch},
		{name: "alg param names a JWS algorithm", o: Options{Alg: true}, mutate: func(r *http.Request) {
			setInput(r, func(s string) string { return strings.Replace(s, `alg="hmac-sha256"`, `alg="HS256"`, 1) })
		}, want: signet.ErrAlgorithmMismatch},
		{name: "alg param none", o: Options{Alg: true}, mutate: func(r *http.Request) {
			setInput(r, func(s string) string { return strings.Replace(s, `alg="hmac-sha256"`, `alg="none"`, 1) })
		}, want: signet.ErrAlgorithmMismatch},
		{name: "HMAC signature checked with an Ed25519 public key's bytes", keys: []*signet.Key{epub.WithKeyID("hk")}, want: signet.ErrSignatureInvalid},
		{name: "unknown keyid", keys: []*signet.Key{epub}, want: signet.ErrKeyNotFound},
		{name: "JWS key with the same keyid", keys: []*signet.Key{jwsTwin(t, hk)}, want: signet.ErrAlgorithmMismatch},
		{name: "replayed nonce", o: Options{Nonce: true}, p: &Policy{Replay: replayed(t)}, want: ErrReplay},
		{name: "nonce required", p: &Policy{RequireNonce: true}, want: ErrNotCovered},
		{name: "label only in Signature-Input", mutate: func(r *http.Request) { r.Header.Del("Signature") }, want: signet.ErrMalformed},
		{name: "signature not a byte sequence", mutate: func(r *http.Request) { r.Header.Set("Signature", `sig1="abc"`) }, want: signet.ErrMalformed},
		{name: "lenient structured field", mutate: func(r *http.Request) {
			setInput(r, func(s string) string { return strings.Replace(s, `("@method"`, `( "@method",`, 1) })
		}, want: signet.ErrMalformed},
		// Parameters only where RFC 9421 §2.1, §2.2 define them (issue
		// 14 review): key on a derived component is no component.
		{name: "key on a derived component", mutate: func(r *http.Request) {
			setInput(r, func(s string) string { return strings.Replace(s, `"@authority"`, `"@authority";key="x"`, 1) })
		}, want: ErrComponent},
		{name: "name on a field", mutate: func(r *http.Request) {
			setInput(r, func(s string) string { return strings.Replace(s, `"content-type"`, `"content-type";name="x"`, 1) })
		}, want: ErrComponent},
		{name: "unknown derived component", mutate: func(r *http.Request) {
			setInput(r, func(s string) string { return strings.Replace(s, `"@method"`, `"@signature-params"`, 1) })
		}, want: ErrComponent},
		{name: "duplicate component", mutate: func(r *http.Request) {
			setInput(r, func(s string) string { return strings.Replace(s, `"@path"`, `"@method"`, 1) })
		}, want: ErrComponent},
		{name: "@status in a request", mutate: func(r *http.Request) {
			setInput(r, func(s string) string { return strings.Replace(s, `"content-type"`, `"@status"`, 1) })
		}, want: ErrComponent},
		{name: "oversized Signature-Input", mutate: func(r *http.Request) {
			r.Header.Add("Signature-Input", "pad=(\""+strings.Repeat("a", DefaultMaxHeader)+"\")")
		}, want: signet.ErrTooLarge},
		{name: "oversized body", p: &Policy{MaxBody: 4}, want: signet.ErrTooLarge},
		{name: "newline smuggled into a covered field", mutate: func(r *http.Request) {
			r.Header["Content-Type"] = []string{"application/json\n\"@method\": GET"}
		}, want: ErrComponent},
		{name: "repeated query parameter", mutate: func(r *http.Request) { r.URL.RawQuery += "&Pet=cat" }, want: ErrComponent},
		{name: "forged HMAC base||HMAC(k, \"\") (common-fate/httpsig)", mutate: func(r *http.Request) {
			m := requestMessage(r, &Origin{Scheme: "https"})
			in := r.Header.Get("Signature-Input")
			comps, _ := ParseComponents(`"@method" "@authority" "@path"`)
			forgedInput := `("@method" "@authority" "@path");created=1700000000;keyid="hk"`
			b, _ := baseBuilder{}.appendBase(nil, &m, comps, forgedInput)
			mac := hmac.New(sha256.New, []byte("attacker does not know the key"))
			forged := mac.Sum(b)
			_ = in
			r.Header.Set("Signature-Input", "sig1="+forgedInput)
			r.Header.Set("Signature", "sig1=:"+base64.StdEncoding.EncodeToString(forged)+":")
		}, p: &Policy{UnsignedBody: true}, want: signet.ErrSignatureInvalid},
	}
	cases = append(cases, []struct {
		name   string
		key    *signet.Key
		o      Options
		p      *Policy
		keys   []*signet.Key
		mutate func(*http.Request)
		want   error
	}{
		// The default coverage (issue 14, item 1): a signature covering
		// nothing, or not the method, host and path, verifies for any
		// of them; the zero Policy refuses it.
		{name: "empty component list, validly signed", mutate: resign(`();created=1700000000;keyid="hk"`), p: &Policy{UnsignedBody: true}, want: ErrNotCovered},
		{name: "empty component list, defaults dropped", mutate: resign(`();created=1700000000;keyid="hk"`), p: &Policy{UnsignedBody: true, InsecureSkipDefaultCoverage: true}, want: ErrNotCovered},
		{name: "content-type only, validly signed", mutate: resign(`("content-type");created=1700000000;keyid="hk"`), p: &Policy{UnsignedBody: true}, want: ErrNotCovered},
		{name: "@authority not covered", mutate: resign(`("@method" "@path");created=1700000000;keyid="hk"`), p: &Policy{UnsignedBody: true}, want: ErrNotCovered},
		{name: "@method not covered", mutate: resign(`("@target-uri");created=1700000000;keyid="hk"`), p: &Policy{UnsignedBody: true}, want: ErrNotCovered},
		{name: "@path not covered", mutate: resign(`("@method" "@authority" "@query");created=1700000000;keyid="hk"`), p: &Policy{UnsignedBody: true}, want: ErrNotCovered},
		{name: "Require adds to the defaults", mutate: resign(`("@method" "@authority" "@path");created=1700000000;keyid="hk"`), p: &Policy{UnsignedBody: true, Require: []string{"content-type"}}, want: ErrNotCovered},
		{name: "@target-uri stands for @authority and @path", mutate: resign(`("@method" "@target-uri");created=1700000000;keyid="hk"`), p: &Policy{UnsignedBody: true}, want: nil},
		{name: "@request-target stands for @path", mutate: resign(`("@method" "@authority" "@request-target");created=1700000000;keyid="hk"`), p: &Policy{UnsignedBody: true}, want: nil},
		{name: "content-type only, defaults dropped explicitly", mutate: resign(`("content-type");created=1700000000;keyid="hk"`), p: &Policy{UnsignedBody: true, InsecureSkipDefaultCoverage: true}, want: nil},
		// A zero Skew means none (item 7).
		{name: "created a second ahead, zero skew", o: Options{Now: func() time.Time { return testNow.Add(time.Second) }}, want: signet.ErrNotYetValid},
		{name: "created a second ahead, a minute of skew", o: Options{Now: func() time.Time { return testNow.Add(time.Second) }}, p: &Policy{Skew: time.Minute}, want: nil},
		{name: "at expires, zero skew", o: Options{Expires: time.Minute}, p: &Policy{Now: func() time.Time { return testNow.Add(time.Minute) }}, want: signet.ErrExpired},
		{name: "a second before expires", o: Options{Expires: time.Minute}, p: &Policy{Now: func() time.Time { return testNow.Add(59 * time.Second) }}, want: nil},
		{name: "at expires plus skew", o: Options{Expires: time.Minute}, p: &Policy{Skew: time.Minute, Now: func() time.Time { return testNow.Add(2 * time.Minute) }}, want: signet.ErrExpired},
		// The age limit ends at created+MaxAge+Skew, as expires does
		// (issue 14 review): at that instant the signature is too old.
		{name: "created exactly MaxAge ago", p: &Policy{Now: func() time.Time { return testNow.Add(DefaultMaxAge) }}, want: ErrTooOld},
		{name: "created a second less than MaxAge ago", p: &Policy{Now: func() time.Time { return testNow.Add(DefaultMaxAge - time.Second) }}, want: nil},
		{name: "created exactly MaxAge plus skew ago", p: &Policy{Skew: time.Minute, Now: func() time.Time { return testNow.Add(DefaultMaxAge + time.Minute) }}, want: ErrTooOld},
		// Retention (item 6): a nonce without created, expires an hour
		// ahead, would pin its entry for an hour.
		{name: "nonce with expires far ahead and no created", o: Options{Nonce: true, NoCreated: true, Expires: time.Hour}, p: &Policy{NoCreated: true}, want: ErrNotCovered},
		{name: "nonce with expires within MaxAge, no created", o: Options{Nonce: true, NoCreated: true, ExpiresAt: testNow.Add(5 * time.Minute)}, p: &Policy{NoCreated: true}, want: nil},
	}...)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			k := c.key
			if k == nil {
				k = hk
			}
			r := sign(t, k, c.o)
			if c.mutate != nil {
				c.mutate(r)
				// What an attacker changes is the request line: the
				// verifier reads path and query from RequestURI.
				r.RequestURI = r.URL.RequestURI()
			}
			p := base
			if c.p != nil {
				p = *c.p
				p.Origin = base.Origin
			}
			keys := c.keys
			if keys == nil {
				keys = []*signet.Key{hk}
			}
			sv := mustVerifier(t, p, keys...)
			sv.strict = true
			m := requestMessage(r, p.Origin)
			res, errStrict := sv.verify(&m, r.Header, sv.now())
			if errStrict == nil { // VerifyRequest remembers the nonce last, after the body
				errStrict = sv.remember(res, nil, sv.now())
			}
			_, err := mustVerifier(t, p, keys...).VerifyRequest(r)
			if !errors.Is(err, c.want) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
			if err != nil && !isSignetError(err) {
				t.Fatalf("%v wraps no signet sentinel", err)
			}
			// The strict parser reaches the same verdict on the signature
			// (the body is checked after it, by VerifyRequest alone).
			if !errors.Is(c.want, ErrDigest) && !errors.Is(c.want, signet.ErrTooLarge) && !errors.Is(errStrict, c.want) {
				t.Fatalf("fast path: %v; strict parser: %v", err, errStrict)
			}
		})
	}
	_ = ek
}

// signRaw signs r's signature base for list (an inner list with its
// parameters) with k, as a signer holding the key could.
func signRaw(k *signet.Key, r *http.Request, list string) ([]byte, error) {
	l, err := parseList(list[:strings.LastIndexByte(list, ')')+1])
	if err != nil {
		return nil, err
	}
	m := requestMessage(r, &Origin{Scheme: "https"})
	b, err := baseBuilder{}.appendBase(nil, &m, l, list)
	if err != nil {
		return nil, err
	}
	return k.Sign(nil, b)
}

// signetSentinels are the sentinels of package signet: every error of
// package httpsig wraps one of them.
var signetSentinels = []error{
	signet.ErrMalformed, signet.ErrTooLarge, signet.ErrSignatureInvalid, signet.ErrAlgorithmMismatch,
	signet.ErrKeyNotFound, signet.ErrWeakKey, signet.ErrUnsupported, signet.ErrKeyUsage,
	signet.ErrExpired, signet.ErrNotYetValid, signet.ErrIssuedInFuture, signet.ErrMissingClaim,
	signet.ErrAudience, signet.ErrIssuer, signet.ErrSubject, signet.ErrTokenID, signet.ErrType, signet.ErrFooter,
}

// isSignetError reports whether err wraps a signet sentinel.
func isSignetError(err error) bool {
	for _, s := range signetSentinels {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// jwsTwin is an HS256 key with k's secret and key ID.
func jwsTwin(t *testing.T, k *signet.Key) *signet.Key {
	t.Helper()
	twin, err := signet.NewKey(signet.HS256, k.Material())
	if err != nil {
		t.Fatal(err)
	}
	return twin.WithKeyID(k.KeyID())
}

// replayed is a store that has seen every nonce.
func replayed(t *testing.T) ReplayStore {
	return replayFunc(func(string, string, time.Time, time.Time) error { return ErrReplay })
}

type replayFunc func(keyID, nonce string, now, until time.Time) error

func (f replayFunc) Remember(keyID, nonce string, now, until time.Time) error {
	return f(keyID, nonce, now, until)
}

// TestReplayStore: the in-memory store refuses a nonce twice, forgets it
// after its time, and fails closed when full.
func TestReplayStore(t *testing.T) {
	now := testNow
	s := NewMemoryReplayStore(ReplayLimits{Entries: 2})
	if err := s.Remember("k", "n1", now, now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := s.Remember("k", "n1", now, now.Add(time.Minute)); !errors.Is(err, ErrReplay) {
		t.Fatal(err)
	}
	if err := s.Remember("other", "n1", now, now.Add(time.Minute)); err != nil {
		t.Fatal("a nonce is scoped to its key", err)
	}
	if err := s.Remember("k", "n2", now, now.Add(time.Minute)); !errors.Is(err, ErrReplay) {
		t.Fatal("a full store must refuse", err)
	}
	now = now.Add(2 * time.Minute)
	if err := s.Remember("k", "n2", now, now.Add(time.Minute)); err != nil || s.Len() != 1 {
		t.Fatal(err, s.Len())
	}
	// Through a Verifier: the second use of a nonce is refused.
	k, _ := mustKey(t, signet.HMACSHA256, "k")
	r := newPost(t)
	if err := mustSigner(t, k, Options{Nonce: true}).SignRequest(r); err != nil {
		t.Fatal(err)
	}
	v := mustVerifier(t, Policy{UnsignedBody: true}, k)
	if _, err := v.VerifyRequest(r); err != nil {
		t.Fatal(err)
	}
	if _, err := v.VerifyRequest(r); !errors.Is(err, ErrReplay) {
		t.Fatal(err)
	}
}
