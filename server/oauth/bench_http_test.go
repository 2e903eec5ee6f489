package oauth

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/signet-go/signet/internal/ratio"
)

// The same measures as bench_test.go, through a real net/http server on
// 127.0.0.1 and a keep-alive client: what the target names. On
// one core the client's cost (building the request, reading the
// response) is in every figure, so these ratios are lower than the
// in-process ones, which stay the stricter view. Run with
//
//	go test -run '^$' -bench 'HTTP' -cpu 1 ./oauth

// httpBench is a loopback server and a keep-alive client for it.
type httpBench struct {
	srv    *httptest.Server
	client *http.Client
	url    string
}

func newHTTPBench(b *testing.B, h http.Handler) *httpBench {
	srv := httptest.NewServer(h) // 127.0.0.1
	b.Cleanup(srv.Close)
	tr := &http.Transport{MaxIdleConnsPerHost: 1, DisableCompression: true}
	b.Cleanup(tr.CloseIdleConnections)
	return &httpBench{srv: srv, client: &http.Client{Transport: tr}, url: srv.URL + PathToken}
}

// post sends the request of benchRequest (a client_credentials POST with
// client_secret_basic) and reads the whole response, over the kept-alive
// connection.
func (hb *httpBench) post(b *testing.B) {
	req, err := http.NewRequest(http.MethodPost, hb.url, strings.NewReader("grant_type=client_credentials"))
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", benchAuth)
	resp, err := hb.client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 {
		b.Fatalf("%d %v", resp.StatusCode, err)
	}
}

func BenchmarkTokenHTTP(b *testing.B) {
	for _, alg := range benchAlgs {
		b.Run(string(alg), func(b *testing.B) {
			hb := newHTTPBench(b, benchEnv(b, alg).h)
			b.ReportAllocs()
			for b.Loop() {
				hb.post(b)
			}
		})
	}
}

func BenchmarkEmptyHandlerHTTP(b *testing.B) {
	hb := newHTTPBench(b, emptyHandler)
	b.ReportAllocs()
	for b.Loop() {
		hb.post(b)
	}
}

// BenchmarkStaticResponseHTTP answers with a fixed body the size of an
// HS256 token response, headers as the token endpoint's: a reference,
// not the floor. The client's transport reads a response with a body
// differently from one without (its read loop waits for the body to be
// read before the connection is reused): a cost of any endpoint that
// answers with a body.
func BenchmarkStaticResponseHTTP(b *testing.B) {
	body := []byte(`{"access_token":"` + strings.Repeat("x", 500) + `","token_type":"Bearer","expires_in":600}` + "\n")
	hb := newHTTPBench(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h["X-Request-Id"] = []string{"0123456789ab-1"}
		h["Content-Type"] = hdrJSON
		noStore(h)
		w.WriteHeader(200)
		w.Write(body)
	}))
	b.ReportAllocs()
	for b.Loop() {
		hb.post(b)
	}
}

// BenchmarkTokenRatioHTTP reports issuance through net/http over its
// floor, the raw sign plus the same request to an empty handler through
// net/http, interleaved (x-floor; the target is ≤ 1.15).
func BenchmarkTokenRatioHTTP(b *testing.B) {
	for _, alg := range benchAlgs {
		b.Run(string(alg), func(b *testing.B) {
			e := benchEnv(b, alg)
			sign := rawSign(b, e.keys.signer)
			token, empty := newHTTPBench(b, e.h), newHTTPBench(b, emptyHandler)
			ratio.Run(b, func() { sign(); empty.post(b) }, func() { token.post(b) })
		})
	}
}
