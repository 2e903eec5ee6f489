package jwk_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
)

func TestSetRoundTrip(t *testing.T) {
	var pubs []*signet.Key
	for _, alg := range signet.JWSAlgorithms() {
		if !alg.Symmetric() {
			pubs = append(pubs, keys(t)[alg])
		}
	}
	data, err := jwk.MarshalSet(pubs...)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte(`"d"`)) {
		t.Fatal("MarshalSet wrote a private member")
	}
	set, err := jwk.ParseSet(data)
	if err != nil {
		t.Fatal(err)
	}
	if set.Len() != len(pubs) {
		t.Fatalf("set has %d keys, want %d", set.Len(), len(pubs))
	}
	for i, k := range set.Keys() {
		want, _ := pubs[i].Public()
		if !k.Equal(want) || k.KeyID() != want.KeyID() || k.CanSign() {
			t.Fatalf("key %d (%s) changed", i, want.Algorithm())
		}
		got, err := set.Select(k.KeyID(), k.Algorithm())
		if err != nil || got.Len() != 1 || got.At(0) != k {
			t.Fatalf("Select(%s): %v", k.KeyID(), err)
		}
	}
	again, err := jwk.MarshalSet(set.Keys()...)
	if err != nil || !bytes.Equal(again, data) {
		t.Fatalf("MarshalSet is not deterministic: %v", err)
	}

	empty, err := jwk.MarshalSet()
	if err != nil || string(empty) != `{"keys":[]}` {
		t.Fatalf("MarshalSet() = %s, %v", empty, err)
	}
	if set, err := jwk.ParseSet(empty); err != nil || set.Len() != 0 {
		t.Fatalf("ParseSet(empty): %v", err)
	}
}

// TestSetSkips: keys that are not for signet are ignored (RFC 7517 §5),
// the others kept.
func TestSetSkips(t *testing.T) {
	rsaPub := vectorObject(t, "rfc7520-4.1-rs256.json").with("d", nil, "p", nil, "q", nil, "dp", nil, "dq", nil, "qi", nil)
	ecPub := vectorObject(t, "rfc7515-a3-es256.json").with("d", nil)
	ed := vectorObject(t, "rfc8037-a4-eddsa.json").with("d", nil)
	keep := []object{
		rsaPub.with("kid", "rsa", "alg", "PS256"),
		ecPub.with("kid", "ec", "alg", "ES256", "use", "sig"),
		ed.with("kid", "ed", "alg", "EdDSA", "key_ops", []string{"verify"}),
		ed.with("kid", "ed-9864", "alg", "Ed25519"), // RFC 9864's name: an EdDSA key
		{"kty": "oct", "kid": "mac", "alg": "HS256", "k": b64(bytes.Repeat([]byte{1}, 32))},
		// Private members are not read: a multi-prime key's public half
		// is an RSA public key like any other.
		rsaPub.with("kid", "multi", "alg", "RS256", "d", "AQAB", "oth", []object{}),
	}
	skip := []object{
		rsaPub.with("kid", "enc", "alg", "RS256", "use", "enc"),
		rsaPub.with("kid", "oaep", "alg", "RSA-OAEP"),
		rsaPub.with("kid", "no-alg"),
		ecPub.with("kid", "ecdh", "alg", "ECDH-ES", "key_ops", []string{"deriveKey"}),
		ecPub.with("kid", "no-ops", "alg", "ES256", "key_ops", []string{}),
		ecPub.with("kid", "k1", "alg", "ES256", "crv", "secp256k1", "x", "garbage!", "y", "garbage!"),
		ed.with("kid", "x25519", "crv", "X25519", "alg", "EdDSA"),
		ed.with("kid", "ed448", "crv", "Ed448", "alg", "Ed448", "x", b64(make([]byte, 57))),
		{"kty": "AKP", "kid": "pq", "alg": "ML-DSA-44", "pub": "AAAA"},
		{"kty": "oct", "kid": "wrap", "alg": "A128KW", "k": b64(make([]byte, 16))},
		{"kty": "oct", "kid": "enc-mac", "alg": "HS256", "use": "enc", "k": "not base64 at all"},
		rsaPub.with("kid", "dup-of-skipped", "alg", "RS256", "use", "enc"), // repeats a kid only among skipped keys
		rsaPub.with("kid", "dup-of-skipped", "alg", "RS256", "use", "enc"),
	}
	all := append(append([]object{}, skip[:3]...), keep...)
	all = append(all, skip[3:]...)
	data, err := json.Marshal(map[string]any{"keys": all, "extra": "ignored"})
	if err != nil {
		t.Fatal(err)
	}
	set, err := jwk.ParseSet(data)
	if err != nil {
		t.Fatal(err)
	}
	var kids []string
	for _, k := range set.Keys() {
		kids = append(kids, k.KeyID())
	}
	if got := strings.Join(kids, ","); got != "rsa,ec,ed,ed-9864,mac,multi" {
		t.Fatalf("kept %s, want rsa,ec,ed,ed-9864,mac,multi", got)
	}
	if k, ok := set.Lookup("ed-9864"); !ok || k.Algorithm() != signet.EdDSA {
		t.Fatal("the Ed25519 key is not bound to EdDSA")
	}
	if k, ok := set.Lookup("rsa"); !ok || k.Algorithm() != signet.PS256 {
		t.Fatal("rsa key not bound to its alg")
	}
}

func TestParseSetRejects(t *testing.T) {
	ecPub := vectorObject(t, "rfc7515-a3-es256.json").with("d", nil, "alg", "ES256")
	good := ecPub.json(t)
	set := func(members ...string) []byte {
		return []byte(`{"keys":[` + strings.Join(members, ",") + `]}`)
	}
	many := make([]string, jwk.MaxSetKeys+1)
	for i := range many {
		many[i] = `{}`
	}
	tests := []struct {
		name string
		data []byte
		want error
	}{
		{"too large", append(set(string(good)), bytes.Repeat([]byte(" "), jwk.MaxSetSize)...), signet.ErrTooLarge},
		{"too many keys", set(many...), signet.ErrTooLarge},
		{"key too large", set(`{"kty":"EC","pad":"` + strings.Repeat("a", jwk.MaxKeySize) + `"}`), signet.ErrTooLarge},
		{"bad JSON", []byte(`{"keys":[`), signet.ErrMalformed},
		{"not an object", []byte(`[` + string(good) + `]`), signet.ErrMalformed},
		{"no keys", []byte(`{"key":[]}`), signet.ErrMalformed},
		{"keys not array", []byte(`{"keys":` + string(good) + `}`), signet.ErrMalformed},
		{"keys null", []byte(`{"keys":null}`), signet.ErrMalformed},
		{"duplicate keys member", []byte(`{"keys":[],"keys":[` + string(good) + `]}`), signet.ErrMalformed},
		{"element not an object", set(string(good), `"key"`), signet.ErrMalformed},
		{"duplicate member in a key", set(`{"kty":"EC","kty":"oct"}`), signet.ErrMalformed},
		{"duplicate member in a skipped key", set(string(good), `{"kty":"AKP","kty":"AKP"}`), signet.ErrMalformed},
		{"key without kty", set(`{"alg":"ES256"}`), signet.ErrMalformed},
		{"malformed supported key", set(string(ecPub.with("x", "AAAA=").json(t))), signet.ErrMalformed},
		{"point off curve", set(string(ecPub.with("x", b64(make([]byte, 32))).json(t))), signet.ErrWeakKey},
		{"weak HMAC", set(`{"kty":"oct","alg":"HS256","k":"AAAA"}`), signet.ErrWeakKey},
		{"alg contradicts kty", set(string(ecPub.with("alg", "RS256").json(t))), signet.ErrAlgorithmMismatch},
		{"alg contradicts crv", set(string(ecPub.with("alg", "ES512").json(t))), signet.ErrAlgorithmMismatch},
		{"repeated kid", set(string(ecPub.with("kid", "a").json(t)), string(ecPub.with("kid", "a").json(t))), signet.ErrUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := jwk.ParseSet(tt.data)
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if s != nil {
				t.Fatal("set returned with an error")
			}
		})
	}
}

func TestMarshalSetRejects(t *testing.T) {
	all := keys(t)
	if _, err := jwk.MarshalSet(all[signet.ES256], all[signet.HS256]); !errors.Is(err, signet.ErrKeyUsage) {
		t.Fatalf("HMAC in set: %v", err)
	}
	if _, err := jwk.MarshalSet(all[signet.ES256], nil); !errors.Is(err, signet.ErrKeyUsage) {
		t.Fatalf("nil in set: %v", err)
	}
	dup := all[signet.EdDSA].WithKeyID(all[signet.ES256].KeyID())
	if _, err := jwk.MarshalSet(all[signet.ES256], dup); !errors.Is(err, signet.ErrUnsupported) {
		t.Fatalf("repeated kid: %v", err)
	}
}
