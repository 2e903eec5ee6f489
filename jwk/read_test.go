package jwk_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
)

// readSetFixture is a set that mixes keys ReadSet keeps and keys it must
// skip, each with the sentinel the skip wraps.
func readSetFixture(t testing.TB) (keep []object, skip []object, why []error) {
	rsaPub := vectorObject(t, "rfc7520-4.1-rs256.json").with("d", nil, "p", nil, "q", nil, "dp", nil, "dq", nil, "qi", nil)
	ecPub := vectorObject(t, "rfc7515-a3-es256.json").with("d", nil)
	ed := vectorObject(t, "rfc8037-a4-eddsa.json").with("d", nil)
	keep = []object{
		rsaPub.with("kid", "rsa", "alg", "RS256", "x5c", []string{"MIIB"}, "x5t", "abc", "issuer", "https://login.example/{tenantid}/v2.0"),
		ecPub.with("kid", "ec", "alg", "ES256", "use", "sig"),
		ed.with("kid", "ed", "key_ops", []string{"verify"}),                      // no alg: EdDSA is the one allowed OKP algorithm
		rsaPub.with("kid", "rsa-private", "alg", "RS256", "d", "AQAB", "p", "!"), // private members not read
	}
	skips := []struct {
		o   object
		err error
	}{
		{rsaPub.with("kid", "enc", "alg", "RS256", "use", "enc"), signet.ErrKeyUsage},
		{rsaPub.with("kid", "oaep", "alg", "RSA-OAEP"), signet.ErrUnsupported},
		{rsaPub.with("kid", "ps", "alg", "PS256"), signet.ErrUnsupported}, // not allowed
		{ecPub.with("kid", "ecdh", "key_ops", []string{"deriveKey"}), signet.ErrKeyUsage},
		{ecPub.with("kid", "p384", "crv", "P-384"), signet.ErrUnsupported}, // no alg, no allowed algorithm for P-384
		{ecPub.with("kid", "k1", "crv", "secp256k1"), signet.ErrUnsupported},
		{ed.with("kid", "x25519", "crv", "X25519"), signet.ErrUnsupported},
		{object{"kty": "AKP", "kid": "pq", "alg": "ML-DSA-44", "pub": "AAAA"}, signet.ErrUnsupported},
		{object{"kty": "oct", "kid": "mac", "alg": "HS256", "k": b64(bytes.Repeat([]byte{1}, 32))}, signet.ErrUnsupported},
		{object{"alg": "ES256", "kid": "no-kty"}, signet.ErrMalformed},
		{ecPub.with("kid", "bad-x", "alg", "ES256", "x", "AAAA="), signet.ErrMalformed},
		{ecPub.with("kid", "off-curve", "alg", "ES256", "x", b64(make([]byte, 32))), signet.ErrWeakKey},
		{ecPub.with("kid", "mismatch", "alg", "ES384"), signet.ErrUnsupported}, // ES384 not allowed
		{rsaPub.with("kid", "weak", "alg", "RS256", "n", b64(bytes.Repeat([]byte{0xc1}, 128))), signet.ErrWeakKey},
		{rsaPub.with("kid", "typed", "alg", "RS256", "e", 65537), signet.ErrMalformed},
		{object{"kty": "EC", "kid": "no-crv"}, signet.ErrMalformed},
		{object{"kty": 7}, signet.ErrMalformed},
	}
	for _, s := range skips {
		skip = append(skip, s.o)
		why = append(why, s.err)
	}
	return keep, skip, why
}

var readAllowed = []signet.Algorithm{signet.RS256, signet.ES256, signet.EdDSA}

// TestReadSetSkips: every key ReadSet cannot use is skipped with its
// reason, the rest serve.
func TestReadSetSkips(t *testing.T) {
	keep, skip, why := readSetFixture(t)
	all := make([]any, 0, len(keep)+len(skip)+1)
	for i := range max(len(keep), len(skip)) {
		if i < len(skip) {
			all = append(all, skip[i])
		}
		if i < len(keep) {
			all = append(all, keep[i])
		}
	}
	all = append(all, "not an object", []int{1})
	data, err := json.Marshal(map[string]any{"keys": all})
	if err != nil {
		t.Fatal(err)
	}
	set, rep, err := jwk.ReadSet(data, readAllowed)
	if err != nil {
		t.Fatal(err)
	}
	var kids []string
	for _, k := range set.Keys() {
		kids = append(kids, k.KeyID())
		if k.CanSign() {
			t.Fatalf("%s: a read set holds a private key", k.KeyID())
		}
	}
	if got := strings.Join(kids, ","); got != "rsa,ec,ed,rsa-private" {
		t.Fatalf("kept %s", got)
	}
	if rep.Keys != 4 || len(rep.Skipped) != len(skip)+2 {
		t.Fatalf("report: %d kept, %d skipped; want 4 and %d", rep.Keys, len(rep.Skipped), len(skip)+2)
	}
	if k, _ := set.Lookup("ed"); k.Algorithm() != signet.EdDSA {
		t.Fatalf("key without alg bound to %s", k.Algorithm())
	}
	byKid := map[string]jwk.SkippedKey{}
	for i, s := range rep.Skipped {
		if i > 0 && s.Index <= rep.Skipped[i-1].Index {
			t.Fatal("report not in document order")
		}
		if s.Err == nil {
			t.Fatalf("skipped key %d has no reason", s.Index)
		}
		byKid[s.KeyID] = s
	}
	for i, o := range skip {
		kid, _ := o["kid"].(string)
		s, ok := byKid[kid]
		if !ok {
			t.Errorf("%q not reported", kid)
			continue
		}
		if !errors.Is(s.Err, why[i]) {
			t.Errorf("%q: %v, want %v", kid, s.Err, why[i])
		}
	}
	last := rep.Skipped[len(rep.Skipped)-1]
	if !errors.Is(last.Err, signet.ErrMalformed) || last.Index != len(all)-1 {
		t.Errorf("non-object element: %+v", last)
	}
}

// TestReadSetNoAlg: a key without "alg" is bound to the one allowed
// algorithm its type fits, and skipped when none or several fit.
func TestReadSetNoAlg(t *testing.T) {
	rsaPub := vectorObject(t, "rfc7520-4.1-rs256.json").with("d", nil, "p", nil, "q", nil, "dp", nil, "dq", nil, "qi", nil, "alg", nil, "kid", "k")
	ecPub := vectorObject(t, "rfc7515-a3-es256.json").with("d", nil, "alg", nil, "kid", "k")
	ed := vectorObject(t, "rfc8037-a4-eddsa.json").with("d", nil, "alg", nil, "kid", "k")
	A := func(a ...signet.Algorithm) []signet.Algorithm { return a }
	tests := []struct {
		name    string
		key     object
		allowed []signet.Algorithm
		want    signet.Algorithm // "" = skipped
	}{
		{"RSA, RS256 only", rsaPub, A(signet.RS256, signet.ES256), signet.RS256},
		{"RSA, PS384 only", rsaPub, A(signet.PS384, signet.EdDSA), signet.PS384},
		{"RSA, RS256 and PS256", rsaPub, A(signet.RS256, signet.PS256), ""},
		{"RSA, no RSA algorithm", rsaPub, A(signet.ES256), ""},
		{"RSA, repeated allowed entry", rsaPub, A(signet.RS256, signet.RS256), signet.RS256},
		{"EC P-256, ES256", ecPub, A(signet.ES256, signet.ES384, signet.RS256), signet.ES256},
		{"EC P-256, only ES384", ecPub, A(signet.ES384), ""},
		{"EC P-256, ES256 and its RFC 9421 twin", ecPub, A(signet.ES256, signet.ECDSAP256SHA256), ""},
		{"OKP Ed25519, EdDSA", ed, A(signet.EdDSA), signet.EdDSA},
		{"OKP Ed25519, none", ed, A(signet.RS256), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := []byte(`{"keys":[` + string(tt.key.json(t)) + `]}`)
			set, rep, err := jwk.ReadSet(data, tt.allowed)
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == "" {
				if set.Len() != 0 || len(rep.Skipped) != 1 || !errors.Is(rep.Skipped[0].Err, signet.ErrUnsupported) {
					t.Fatalf("kept %d, report %+v", set.Len(), rep)
				}
				return
			}
			k, ok := set.Lookup("k")
			if !ok || k.Algorithm() != tt.want {
				t.Fatalf("got %v (report %+v), want %s", k.Algorithm(), rep, tt.want)
			}
		})
	}
}

// TestReadSetRepeatedKid: a kid carried by two kept keys is ambiguous: both
// are left out, the rest serve.
func TestReadSetRepeatedKid(t *testing.T) {
	ecPub := vectorObject(t, "rfc7515-a3-es256.json").with("d", nil, "alg", "ES256")
	ed := vectorObject(t, "rfc8037-a4-eddsa.json").with("d", nil, "alg", "EdDSA")
	data := fmt.Appendf(nil, `{"keys":[%s,%s,%s,%s]}`,
		ecPub.with("kid", "a").json(t), ed.with("kid", "a").json(t), ed.with("kid", "b").json(t),
		ed.with("kid", "a", "use", "enc").json(t)) // a skipped key's kid does not count
	set, rep, err := jwk.ReadSet(data, readAllowed)
	if err != nil {
		t.Fatal(err)
	}
	if set.Len() != 1 || set.Keys()[0].KeyID() != "b" {
		t.Fatalf("kept %d keys", set.Len())
	}
	if len(rep.Skipped) != 3 || rep.Skipped[0].Index != 0 || rep.Skipped[1].Index != 1 || rep.Skipped[2].Index != 3 {
		t.Fatalf("report %+v", rep.Skipped)
	}
	if !errors.Is(rep.Skipped[0].Err, signet.ErrUnsupported) || !errors.Is(rep.Skipped[2].Err, signet.ErrKeyUsage) {
		t.Fatalf("reasons %v / %v", rep.Skipped[0].Err, rep.Skipped[2].Err)
	}
}

// TestReadSetRejects: what fails the whole document.
func TestReadSetRejects(t *testing.T) {
	ecPub := vectorObject(t, "rfc7515-a3-es256.json").with("d", nil, "alg", "ES256")
	good := string(ecPub.json(t))
	many := strings.TrimSuffix(strings.Repeat(`{},`, jwk.MaxSetKeys+1), ",")
	tests := []struct {
		name    string
		data    string
		allowed []signet.Algorithm
		want    error
	}{
		{"too large", `{"keys":[` + good + `]}` + strings.Repeat(" ", jwk.MaxSetSize), readAllowed, signet.ErrTooLarge},
		{"too many keys", `{"keys":[` + many + `]}`, readAllowed, signet.ErrTooLarge},
		{"bad JSON", `{"keys":[`, readAllowed, signet.ErrMalformed},
		{"no keys", `{"key":[]}`, readAllowed, signet.ErrMalformed},
		{"keys not an array", `{"keys":{}}`, readAllowed, signet.ErrMalformed},
		{"a repeated member name anywhere", `{"keys":[` + good + `,{"kty":"EC","kty":"EC"}]}`, readAllowed, signet.ErrMalformed},
		{"not strict JSON", `{"keys":[` + good + `],}`, readAllowed, signet.ErrMalformed},
		{"no allowed algorithm", `{"keys":[` + good + `]}`, nil, signet.ErrUnsupported},
		{"unknown allowed algorithm", `{"keys":[` + good + `]}`, []signet.Algorithm{"none"}, signet.ErrUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, _, err := jwk.ReadSet([]byte(tt.data), tt.allowed)
			if !errors.Is(err, tt.want) || set != nil {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
		})
	}
	// A key over MaxKeySize is skipped, not fatal.
	big := `{"kty":"EC","pad":"` + strings.Repeat("a", jwk.MaxKeySize) + `"}`
	set, rep, err := jwk.ReadSet([]byte(`{"keys":[`+big+`,`+good+`]}`), readAllowed)
	if err != nil || set.Len() != 1 || len(rep.Skipped) != 1 || !errors.Is(rep.Skipped[0].Err, signet.ErrTooLarge) {
		t.Fatalf("oversized key: %v, %+v", err, rep)
	}
	// All skipped: an empty set, no error.
	set, rep, err = jwk.ReadSet([]byte(`{"keys":[{"kty":"oct","k":"AAAA"}]}`), readAllowed)
	if err != nil || set == nil || set.Len() != 0 || rep.Keys != 0 || len(rep.Skipped) != 1 {
		t.Fatalf("all skipped: %v, %+v", err, rep)
	}
}

// TestReadSetStrictUnchanged: ParseSet keeps refusing what ReadSet skips.
func TestReadSetStrictUnchanged(t *testing.T) {
	ecPub := vectorObject(t, "rfc7515-a3-es256.json").with("d", nil, "alg", "ES256")
	data := []byte(`{"keys":[` + string(ecPub.json(t)) + `,` + string(ecPub.with("kid", "w", "x", "AAAA").json(t)) + `]}`)
	if _, err := jwk.ParseSet(data); !errors.Is(err, signet.ErrMalformed) {
		t.Fatalf("ParseSet: %v", err)
	}
	set, _, err := jwk.ReadSet(data, readAllowed)
	if err != nil || set.Len() != 1 {
		t.Fatalf("ReadSet: %v", err)
	}
}
