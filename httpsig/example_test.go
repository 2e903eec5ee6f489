package httpsig_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/httpsig"
)

// A client signs its requests through a Transport; the server verifies
// them in middleware and reads who signed from the context.
func Example() {
	key, _ := signet.GenerateKeyWithID(signet.Ed25519, "client-1")
	pub, _ := key.Public()
	keys, _ := signet.NewKeySet(pub)

	v, _ := httpsig.NewVerifier(keys, httpsig.Policy{
		Require: []string{"content-digest"}, // and, by default, @method, @authority, @path
	})
	handler := httpsig.Middleware(v)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		res, _ := httpsig.FromContext(r.Context())
		body, _ := io.ReadAll(r.Body)
		fmt.Fprintf(w, "%s sent %s", res.KeyID, body)
	}))
	srv := httptest.NewServer(handler)
	defer srv.Close()

	s, _ := httpsig.NewSigner(key, httpsig.Options{
		Components: []string{"@method", "@authority", "@path", "content-type", "content-digest"},
		Digest:     httpsig.SHA256,
		Nonce:      true,
	})
	client := &http.Client{Transport: &httpsig.Transport{Signer: s}}
	resp, err := client.Post(srv.URL+"/orders", "application/json", strings.NewReader(`{"qty":1}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	out, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(resp.StatusCode, string(out))

	// Unsigned, the same request is refused.
	resp, _ = http.Post(srv.URL+"/orders", "application/json", strings.NewReader(`{"qty":1}`))
	resp.Body.Close()
	fmt.Println(resp.StatusCode)
	// Output:
	// 200 client-1 sent {"qty":1}
	// 401
}
