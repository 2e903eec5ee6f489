package oauth

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/ratio"
	"github.com/signet-go/signet/jwt"
)

// The target: issuing a token through net/http costs at most
// 1.15× (raw sign + an empty handler's cost) on one core. Run with
//
//	go test -run '^$' -bench 'Token|EmptyHandler|RawSign' -cpu 1 ./oauth
//
// BenchmarkTokenRatio interleaves issuance with its floor (the raw
// jwt.Sign of the same claims plus the empty handler) and reports
// x-floor.

var benchAuth = basicHeader("svc-basic", secretBasic)["Authorization"][0]

func benchRequest() *http.Request {
	r := httptest.NewRequest(http.MethodPost, PathToken, strings.NewReader("grant_type=client_credentials"))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.Header.Set("Authorization", benchAuth)
	return r
}

// serveOnce builds a request as a client's would arrive and serves it.
func serveOnce(b *testing.B, h http.Handler) {
	r := benchRequest()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != 200 {
		b.Fatalf("%d %s", w.Code, w.Body)
	}
}

var emptyHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(200) })

func benchEnv(b *testing.B, alg signet.Algorithm) *env {
	e := newEnv(b, FormatJWT)
	e.keys = newStaticKeys(b, alg)
	var err error
	e.srv, err = New(Config{Issuer: testIssuer, Clients: e.srv.Clients(), Store: e.store, Keys: e.keys, Now: time.Now})
	if err != nil {
		b.Fatal(err)
	}
	e.h = e.srv.Handler()
	return e
}

func rawSign(b *testing.B, key *signet.Key) func() {
	claims := jwt.Claims{Issuer: testIssuer, Subject: "svc-basic", Audience: jwt.Audience{apiA}, ID: "AAAAAAAAAAAAAAAAAAAAAA"}
	return func() {
		if _, err := jwt.Sign(key, claims, jwt.Options{Lifetime: 10 * time.Minute}); err != nil {
			b.Fatal(err)
		}
	}
}

var benchAlgs = []signet.Algorithm{signet.ES256, signet.EdDSA, signet.HS256}

func BenchmarkToken(b *testing.B) {
	for _, alg := range benchAlgs {
		b.Run(string(alg), func(b *testing.B) {
			e := benchEnv(b, alg)
			b.ReportAllocs()
			for b.Loop() {
				serveOnce(b, e.h)
			}
		})
	}
}

// BenchmarkTokenLogged is BenchmarkToken/ES256 with a JSON log record
// per request (to io.Discard): the cost of logging.
func BenchmarkTokenLogged(b *testing.B) {
	e := benchEnv(b, signet.ES256)
	srv, err := New(Config{Issuer: testIssuer, Clients: e.srv.Clients(), Store: e.store, Keys: e.keys, Logger: slogJSON(io.Discard)})
	if err != nil {
		b.Fatal(err)
	}
	h := srv.Handler()
	b.ReportAllocs()
	for b.Loop() {
		serveOnce(b, h)
	}
}

func BenchmarkEmptyHandler(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		serveOnce(b, emptyHandler)
	}
}

func BenchmarkRawSign(b *testing.B) {
	for _, alg := range benchAlgs {
		b.Run(string(alg), func(b *testing.B) {
			e := benchEnv(b, alg)
			sign := rawSign(b, e.keys.signer)
			b.ReportAllocs()
			for b.Loop() {
				sign()
			}
		})
	}
}

// BenchmarkTokenRatio reports issuance over its floor, raw sign + empty
// handler, interleaved (x-floor; the target is ≤ 1.15).
func BenchmarkTokenRatio(b *testing.B) {
	for _, alg := range benchAlgs {
		b.Run(string(alg), func(b *testing.B) {
			e := benchEnv(b, alg)
			sign := rawSign(b, e.keys.signer)
			ratio.Run(b, func() { sign(); serveOnce(b, emptyHandler) }, func() { serveOnce(b, e.h) })
		})
	}
}
