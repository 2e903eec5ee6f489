package metrics_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/ratio"
	"github.com/signet-go/signet/server/keys"
	"github.com/signet-go/signet/server/metrics"
	"github.com/signet-go/signet/server/oauth"
	"github.com/signet-go/signet/server/storage"
)

// The cost of metrics on issuance: the token endpoint without an
// Observer, and with Metrics as Observer and Instrument around it. Run
// with
//
//	go test -run '^$' -bench Issue -cpu 1 ./metrics
//
// BenchmarkIssueRatio interleaves the two and reports x-floor, observed
// over plain (the target: below 1.02 for ES256).

// issueHandlers returns the plain and the observed token service, and the
// metrics of the observed one.
func issueHandlers(b *testing.B, alg signet.Algorithm) (plain, observed http.Handler, m *metrics.Metrics) {
	kek, err := keys.GenerateKEK()
	if err != nil {
		b.Fatal(err)
	}
	store := storage.NewMemory(nil)
	km, err := keys.New(store, keys.Config{KEK: kek, Algorithm: alg})
	if err != nil {
		b.Fatal(err)
	}
	if err := km.Refresh(context.Background()); err != nil {
		b.Fatal(err)
	}
	cs, err := oauth.ParseClients([]byte(`{"clients":[{"client_id":"svc-basic","client_secret_sha256":"` +
		hashHex(secretBasic) + `","scope":"read write","audience":["` + api + `"]}]}`))
	if err != nil {
		b.Fatal(err)
	}
	m = metrics.New()
	if err := m.WatchKeys(km); err != nil {
		b.Fatal(err)
	}
	mk := func(obs oauth.Observer) http.Handler {
		srv, err := oauth.New(oauth.Config{Issuer: issuer, Clients: cs, Store: store, Keys: km, Now: time.Now, Observer: obs})
		if err != nil {
			b.Fatal(err)
		}
		return srv.Handler()
	}
	return mk(nil), m.Instrument(mk(m)), m
}

var benchAuth = basic("svc-basic", secretBasic)["Authorization"][0]

func issueOnce(b *testing.B, h http.Handler) {
	r := httptest.NewRequest(http.MethodPost, oauth.PathToken, strings.NewReader("grant_type=client_credentials"))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.Header.Set("Authorization", benchAuth)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != 200 {
		b.Fatalf("%d %s", w.Code, w.Body)
	}
}

var benchAlgs = []signet.Algorithm{signet.ES256, signet.EdDSA, signet.HS256}

func BenchmarkIssue(b *testing.B) {
	for _, alg := range benchAlgs {
		plain, observed, _ := issueHandlers(b, alg)
		for _, c := range []struct {
			name string
			h    http.Handler
		}{{"plain", plain}, {"observed", observed}} {
			b.Run(string(alg)+"/"+c.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					issueOnce(b, c.h)
				}
			})
		}
	}
}

// BenchmarkIssueRatio reports observed issuance over plain issuance,
// interleaved (x-floor).
func BenchmarkIssueRatio(b *testing.B) {
	for _, alg := range benchAlgs {
		b.Run(string(alg), func(b *testing.B) {
			plain, observed, _ := issueHandlers(b, alg)
			ratio.Run(b, func() { issueOnce(b, plain) }, func() { issueOnce(b, observed) })
		})
	}
}

// BenchmarkScrape is the cost of one scrape of the handler, after a
// token was issued.
func BenchmarkScrape(b *testing.B) {
	_, observed, m := issueHandlers(b, signet.ES256)
	issueOnce(b, observed)
	h := m.Handler()
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, metrics.Path, nil))
		if w.Code != 200 {
			b.Fatal(w.Code)
		}
	}
}

// BenchmarkInstrument is Instrument's own cost, around a handler that
// only writes a status.
func BenchmarkInstrument(b *testing.B) {
	m := metrics.New()
	h := m.Instrument(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(200) }))
	r := httptest.NewRequest(http.MethodPost, oauth.PathToken, nil)
	w := httptest.NewRecorder()
	b.ReportAllocs()
	for b.Loop() {
		h.ServeHTTP(w, r)
	}
}

// BenchmarkTokenIssued is the cost of counting one issued token.
func BenchmarkTokenIssued(b *testing.B) {
	m := metrics.New()
	b.ReportAllocs()
	for b.Loop() {
		m.TokenIssued("ES256", "svc-basic")
	}
}
