package jwks_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/jwks"
)

// providerSets are the published JWK Sets in testdata (see its README for
// their sources), with what ReadSet must make of them.
var providerSets = []struct {
	file    string
	allowed []signet.Algorithm
	keys    int
	skipped map[error]int // skipped keys by the sentinel their reason wraps
	bound   map[string]signet.Algorithm
}{
	{file: "google.json", allowed: []signet.Algorithm{signet.RS256}, keys: 2},
	{file: "apple.json", allowed: []signet.Algorithm{signet.RS256, signet.ES256}, keys: 3},
	// Auth0 publishes "x5c" and "x5t" besides "n" and "e": ignored.
	{file: "auth0.json", allowed: []signet.Algorithm{signet.RS256}, keys: 2},
	// Cognito's kids are standard base64, with '+', '/' and '='.
	{file: "cognito.json", allowed: []signet.Algorithm{signet.RS256}, keys: 2,
		bound: map[string]signet.Algorithm{"vyVQH7UMjwYboVvyFf+zd4KHZfgc+RtmU/A2vHhgITI=": signet.RS256}},
	// Entra publishes no "alg": RS256 is the one RSA algorithm allowed.
	{file: "entra-common.json", allowed: []signet.Algorithm{signet.RS256, signet.ES256}, keys: 7,
		bound: map[string]signet.Algorithm{"Mc7l3Iz93g7uwgNeEmmw_WYGPko": signet.RS256}},
	// ... and with two RSA algorithms allowed, no key can be bound.
	{file: "entra-common.json", allowed: []signet.Algorithm{signet.RS256, signet.PS256}, keys: 0,
		skipped: map[error]int{signet.ErrUnsupported: 7}},
	// PayPal: 4 RS256 and 3 PS256 keys (PS256 not allowed here), 7 EC
	// P-256 keys without "alg" (bound to ES256), one X25519 key.
	{file: "paypal.json", allowed: []signet.Algorithm{signet.RS256, signet.ES256}, keys: 11,
		skipped: map[error]int{signet.ErrUnsupported: 4},
		bound:   map[string]signet.Algorithm{"f16b4522a7c8ad2358df9a57a500851114d2e7d2": signet.ES256, "16e6c7334cf754186f877ff1f4a0bc128e1c97ca": signet.RS256}},
	{file: "paypal.json", allowed: []signet.Algorithm{signet.PS256}, keys: 3,
		skipped: map[error]int{signet.ErrUnsupported: 12}},
	// Yahoo: three RSA keys of 1024 bits (below signet's minimum) and
	// one ES256 key.
	{file: "yahoo.json", allowed: []signet.Algorithm{signet.RS256, signet.ES256}, keys: 1,
		skipped: map[error]int{signet.ErrWeakKey: 3},
		bound:   map[string]signet.Algorithm{"3466d51f7dd0c780565688c183921816c45889ad": signet.ES256}},
	// Verimi: one RSA key with "alg", one without.
	{file: "verimi.json", allowed: []signet.Algorithm{signet.RS256}, keys: 2,
		bound: map[string]signet.Algorithm{"public:aa547775-4759-40f9-9c31-bd2340191323": signet.RS256}},
}

// TestProviderSets: jwk.ReadSet reads the JWK Sets large providers
// publish, keeping and skipping what it must.
func TestProviderSets(t *testing.T) {
	for _, p := range providerSets {
		t.Run(p.file+"/"+joinAlgs(p.allowed), func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", p.file))
			if err != nil {
				t.Fatal(err)
			}
			set, rep, err := jwk.ReadSet(data, p.allowed)
			if err != nil {
				t.Fatal(err)
			}
			if set.Len() != p.keys || rep.Keys != p.keys {
				t.Fatalf("%d keys, want %d (report %+v)", set.Len(), p.keys, rep)
			}
			want := 0
			for sentinel, n := range p.skipped {
				want += n
				got := 0
				for _, s := range rep.Skipped {
					if errors.Is(s.Err, sentinel) {
						got++
					}
				}
				if got != n {
					t.Errorf("%d keys skipped with %v, want %d: %+v", got, sentinel, n, rep.Skipped)
				}
			}
			if len(rep.Skipped) != want {
				t.Errorf("%d skipped, want %d: %+v", len(rep.Skipped), want, rep.Skipped)
			}
			for kid, alg := range p.bound {
				if k, ok := set.Lookup(kid); !ok || k.Algorithm() != alg {
					t.Errorf("kid %q: %v, want %s", kid, k.Algorithm(), alg)
				}
			}
			for _, k := range set.Keys() {
				if k.CanSign() {
					t.Fatal("private key")
				}
			}
		})
	}
}

// TestProviderSetsServed: each published set served to a Remote.
func TestProviderSetsServed(t *testing.T) {
	srv := newKeyServer(t)
	for _, p := range providerSets {
		data, err := os.ReadFile(filepath.Join("testdata", p.file))
		if err != nil {
			t.Fatal(err)
		}
		srv.setBody(data)
		r := start(t, srv.url(), jwks.Options{Algorithms: p.allowed})
		st := r.Stats()
		if p.keys == 0 {
			if st.Ready || !errors.Is(r.Ready(), signet.ErrUnavailable) {
				t.Errorf("%s: ready with no usable key", p.file)
			}
		} else if st.Keys != p.keys || !st.Ready {
			t.Errorf("%s: stats %+v, want %d keys", p.file, st, p.keys)
		}
		r.Close()
	}
}

func joinAlgs(algs []signet.Algorithm) string {
	s := ""
	for i, a := range algs {
		if i > 0 {
			s += "+"
		}
		s += string(a)
	}
	return s
}
