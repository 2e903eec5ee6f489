package jwk_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
)

// seedKeys returns valid JWKs (every algorithm, private and public, and the
// RFC vectors) and near misses, for the fuzz corpora.
func seedKeys(f testing.TB) [][]byte {
	var seeds [][]byte
	for _, alg := range signet.JWSAlgorithms() {
		k := keys(f)[alg]
		if alg == signet.RS384 || alg == signet.PS512 {
			continue // same modulus as RS256; keep the corpus small
		}
		data, err := jwk.Marshal(k)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, data)
		if pub, err := jwk.MarshalPublic(k); err == nil {
			seeds = append(seeds, pub)
		}
	}
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "jose", "rfc*.json"))
	for _, file := range files {
		v := loadVector(f, filepath.Base(file))
		seeds = append(seeds, v.Key)
		if v.PublicKey != nil {
			seeds = append(seeds, v.PublicKey)
		}
	}
	seeds = append(seeds,
		[]byte(`{"kty":"oct","alg":"HS256","k":"AAAA"}`),
		[]byte(`{"kty":"oct","alg":"HS256","use":"enc","k":"AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA"}`),
		[]byte(`{"kty":"oct","alg":"HS256","k":"AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA=","k":"x"}`),
		[]byte(`{"kty":"EC","crv":"P-256","alg":"ES256","x":"AAAA","y":"AAAA"}`),
		[]byte(`{"kty":"OKP","crv":"X25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}`),
		[]byte(`{"kty":"RSA","alg":"RS256","n":"AQAB","e":"AQAB","d":"AQAB","p":"AQ","q":"AQ"}`),
		[]byte(`{"kty":"RSA","alg":"PS256","n":"AQAB","e":"AQAB","oth":[{"r":"AQ"}]}`),
		[]byte(`{"kty":"EC","key_ops":["sign","sign"],"ext":{"a":[1,{"b":null}]}}`),
		[]byte(`{"kty":"oct","alg":"HS256","k":"\u0041"}`),
		[]byte(`[{"kty":"oct"}]`),
		[]byte(`{"kty":`),
		// Small-order and non-canonical Ed25519 public keys (ErrWeakKey).
		[]byte(`{"kty":"OKP","crv":"Ed25519","alg":"EdDSA","x":"AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}`),
		[]byte(`{"kty":"OKP","crv":"Ed25519","alg":"EdDSA","x":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}`),
		[]byte(`{"kty":"OKP","crv":"Ed25519","alg":"EdDSA","x":"_________________________________________38"}`),
		// Private members a set does not read.
		[]byte(`{"kty":"OKP","crv":"Ed25519","alg":"EdDSA","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","d":7}`),
		[]byte(`{"kty":"RSA","alg":"RS256","n":"AQAB","e":"AQAB","d":null,"p":"!","q":[],"oth":{}}`),
	)
	return seeds
}

// isSentinel reports whether err wraps one of signet's sentinel errors.
func isSentinel(err error) bool {
	for _, s := range []error{
		signet.ErrMalformed, signet.ErrTooLarge, signet.ErrUnsupported, signet.ErrWeakKey,
		signet.ErrAlgorithmMismatch, signet.ErrKeyUsage,
	} {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

func FuzzParseKey(f *testing.F) {
	for _, s := range seedKeys(f) {
		f.Add(s, "")
		f.Add(s, "ES256")
	}
	f.Add([]byte(`{"kty":"RSA","n":"AQAB","e":"AQAB"}`), "RS256")
	f.Fuzz(func(t *testing.T, data []byte, alg string) {
		k, err := jwk.ParseKeyFor(data, signet.Algorithm(alg))
		if err != nil {
			if k != nil {
				t.Fatal("key returned with an error")
			}
			if !isSentinel(err) {
				t.Fatalf("error wraps no sentinel: %v", err)
			}
			return
		}
		if alg != "" && k.Algorithm() != signet.Algorithm(alg) {
			t.Fatalf("ParseKeyFor(%q) bound the key to %s", alg, k.Algorithm())
		}
		// What was read writes back, and reads back as the same key.
		out, err := jwk.Marshal(k)
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		k2, err := jwk.ParseKey(out)
		if err != nil {
			t.Fatalf("ParseKey(Marshal(k)): %v\n%s", err, out)
		}
		if !k2.Equal(k) || k2.Algorithm() != k.Algorithm() || k2.KeyID() != k.KeyID() {
			t.Fatal("round trip changed the key")
		}
		out2, err := jwk.Marshal(k2)
		if err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("Marshal not stable: %v", err)
		}
		tp, err := jwk.Thumbprint(k)
		if err != nil {
			t.Fatalf("Thumbprint: %v", err)
		}
		if tp2, _ := jwk.Thumbprint(k2); tp2 != tp {
			t.Fatal("thumbprint changed in the round trip")
		}
		if !k.Symmetric() {
			if _, err := jwk.MarshalPublic(k); err != nil {
				t.Fatalf("MarshalPublic: %v", err)
			}
		}
	})
}

func FuzzParseSet(f *testing.F) {
	seeds := seedKeys(f)
	for _, s := range seeds {
		f.Add([]byte(`{"keys":[` + string(s) + `]}`))
	}
	f.Add([]byte(`{"keys":[` + string(seeds[0]) + `,` + string(seeds[1]) + `,{"kty":"AKP"}]}`))
	f.Add([]byte(`{"keys":[]}`))
	f.Add([]byte(`{"keys":[],"keys":[]}`))
	f.Add([]byte(`{"keys":null}`))
	f.Add([]byte(`{"keys":[1,"a",null]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		set, err := jwk.ParseSet(data)
		if err != nil {
			if set != nil {
				t.Fatal("set returned with an error")
			}
			if !isSentinel(err) {
				t.Fatalf("error wraps no sentinel: %v", err)
			}
			return
		}
		var public []*signet.Key
		for _, k := range set.Keys() {
			if k.Symmetric() {
				continue
			}
			if k.CanSign() {
				t.Fatal("a verification set holds a private key")
			}
			if k.KeyID() != "" {
				if got, ok := set.Lookup(k.KeyID()); !ok || got != k {
					t.Fatal("key not found by its kid")
				}
			}
			public = append(public, k)
		}
		out, err := jwk.MarshalSet(public...)
		if err != nil {
			t.Fatalf("MarshalSet: %v", err)
		}
		again, err := jwk.ParseSet(out)
		if err != nil {
			t.Fatalf("ParseSet(MarshalSet(set)): %v\n%s", err, out)
		}
		if again.Len() != len(public) {
			t.Fatalf("round trip kept %d of %d keys", again.Len(), len(public))
		}
		for i, k := range again.Keys() {
			want, _ := public[i].Public()
			if !k.Equal(want) || k.KeyID() != want.KeyID() {
				t.Fatalf("key %d changed in the round trip", i)
			}
		}
	})
}

func FuzzReadSet(f *testing.F) {
	seeds := seedKeys(f)
	for _, s := range seeds {
		f.Add([]byte(`{"keys":[`+string(s)+`]}`), "RS256 ES256 EdDSA")
	}
	keep, skip, _ := readSetFixture(f)
	var all []string
	for _, o := range append(keep, skip...) {
		all = append(all, string(o.json(f)))
	}
	f.Add([]byte(`{"keys":[`+strings.Join(all, ",")+`]}`), "RS256 ES256 EdDSA")
	f.Add([]byte(`{"keys":[`+strings.Join(all, ",")+`]}`), "RS256 PS256 ES256 ecdsa-p256-sha256")
	f.Add([]byte(`{"keys":[{"kty":"RSA","n":"AQAB","e":"AQAB"},{"kty":"EC","crv":"P-256"},{"kty":"OKP","crv":"Ed25519","x":""}]}`), "PS512")
	f.Add([]byte(`{"keys":[{"kid":"a","kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"},{"kid":"a","kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}]}`), "EdDSA")
	f.Add([]byte(`{"keys":[1,"a",null,[],{}]}`), "ES256")
	f.Add([]byte(`{"keys":[]}`), "")
	f.Add([]byte(`{"keys":null}`), "HS256")
	f.Fuzz(func(t *testing.T, data []byte, algs string) {
		var allowed []signet.Algorithm
		for _, a := range strings.Fields(algs) {
			allowed = append(allowed, signet.Algorithm(a))
		}
		set, rep, err := jwk.ReadSet(data, allowed)
		if err != nil {
			if set != nil {
				t.Fatal("set returned with an error")
			}
			if !isSentinel(err) {
				t.Fatalf("error wraps no sentinel: %v", err)
			}
			return
		}
		if rep.Keys != set.Len() {
			t.Fatalf("report says %d keys, set has %d", rep.Keys, set.Len())
		}
		for i, s := range rep.Skipped {
			if !isSentinel(s.Err) && !errors.Is(s.Err, signet.ErrTooLarge) {
				t.Fatalf("skip reason wraps no sentinel: %v", s.Err)
			}
			if i > 0 && s.Index <= rep.Skipped[i-1].Index {
				t.Fatal("report out of order")
			}
		}
		seen := map[string]bool{}
		for _, k := range set.Keys() {
			if k.CanSign() || k.Symmetric() {
				t.Fatal("a read set holds a private or secret key")
			}
			ok := false
			for _, a := range allowed {
				ok = ok || a == k.Algorithm()
			}
			if !ok {
				t.Fatalf("key bound to %s, not allowed", k.Algorithm())
			}
			if kid := k.KeyID(); kid != "" {
				if seen[kid] {
					t.Fatalf("kid %q kept twice", kid)
				}
				seen[kid] = true
			}
		}
	})
}
