package jwks_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/jwks"
)

func TestSmoke(t *testing.T) {
	k, _ := signet.GenerateKeyWithID(signet.ES256, "a")
	set, _ := jwk.MarshalSet(k)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(set) }))
	defer srv.Close()
	r, err := jwks.New(context.Background(), srv.URL, jwks.Options{Algorithms: []signet.Algorithm{signet.ES256}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.Ready(); err != nil {
		t.Fatal(err)
	}
	c, err := r.Select("a", signet.ES256)
	if err != nil || c.Len() != 1 {
		t.Fatal(err)
	}
	_, err = r.Select("b", signet.ES256)
	t.Log(err, r.Stats())
}
