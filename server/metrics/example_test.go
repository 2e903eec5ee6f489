package metrics_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/signet-go/signet/server/keys"
	"github.com/signet-go/signet/server/metrics"
	"github.com/signet-go/signet/server/oauth"
	"github.com/signet-go/signet/server/storage"
)

// The token service with its metrics, as signet serve mounts them.
func Example() {
	store := storage.NewMemory(nil)
	kek, _ := keys.GenerateKEK()
	m := metrics.New()
	km, err := keys.New(store, keys.Config{KEK: kek, Observer: m})
	if err != nil {
		panic(err)
	}
	if err := km.Refresh(context.Background()); err != nil {
		panic(err)
	}
	if err := m.WatchKeys(km); err != nil {
		panic(err)
	}
	clients, _ := oauth.ParseClients([]byte(`{"clients":[{"client_id":"svc-a",
	  "client_secret_sha256":"` + hashHex(secretBasic) + `","audience":["https://api.example.com"]}]}`))
	srv, err := oauth.New(oauth.Config{Issuer: "https://auth.example.com", Clients: clients, Store: store, Keys: km, Observer: m})
	if err != nil {
		panic(err)
	}
	mux := http.NewServeMux()
	mux.Handle(metrics.Path, m.Handler())
	mux.Handle("/", m.Instrument(srv.Handler()))

	// A client gets a token…
	r := httptest.NewRequest(http.MethodPost, oauth.PathToken, strings.NewReader("grant_type=client_credentials"))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.SetBasicAuth("svc-a", secretBasic)
	mux.ServeHTTP(httptest.NewRecorder(), r)

	// …and Prometheus scrapes /metrics.
	w := httptest.NewRecorder()
	mux.ServeHTTP(w, httptest.NewRequest(http.MethodGet, metrics.Path, nil))
	sc := bufio.NewScanner(w.Body)
	for sc.Scan() {
		if l := sc.Text(); strings.HasPrefix(l, "signet_tokens_issued_total{") || strings.HasPrefix(l, "signet_keys_published") {
			fmt.Println(l)
		}
	}
	// Output:
	// signet_keys_published 2
	// signet_tokens_issued_total{alg="ES256",client_id="svc-a"} 1
}
