package jwk_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
)

// TestParseSetReadsPublicHalvesOnly: a verification set does not decode
// or check the private members of RSA, EC and OKP keys, so garbage there
// parses, shown by construction rather than by timing: a set of private
// keys costs what the set of their public halves costs (issue 14, item
// 10). The keys of the set are the public halves, which cannot sign.
// ParseKey, which returns private keys, still reads them strictly.
func TestParseSetReadsPublicHalvesOnly(t *testing.T) {
	garbage := []any{"d", "!not base64!", "p", 7, "q", []int{1}, "dp", nil, "dq", "", "qi", map[string]int{"a": 1}, "oth", "x"}
	var real, junk []object
	var want []*signet.Key
	for _, c := range []struct{ file, alg, kid string }{
		{"rfc7520-4.1-rs256.json", "RS256", "rsa"},
		{"rfc7515-a3-es256.json", "ES256", "ec"},
		{"rfc8037-a4-eddsa.json", "EdDSA", "ed"},
	} {
		o := vectorObject(t, c.file).with("alg", c.alg, "kid", c.kid)
		priv, err := jwk.ParseKey(o.json(t))
		if err != nil || !priv.CanSign() {
			t.Fatalf("%s: not a private key: %v", c.file, err)
		}
		pub, _ := priv.Public()
		want = append(want, pub)
		real = append(real, o)
		bad := o.with(garbage...)
		// "dp": nil above removes the member; set it to JSON null too.
		bad["dp"] = json.RawMessage("null")
		junk = append(junk, bad)
		if _, err := jwk.ParseKey(bad.json(t)); err == nil || !isSentinel(err) {
			t.Fatalf("%s: ParseKey of garbage private members: %v, want a refusal", c.file, err)
		}
	}
	for name, keys := range map[string][]object{"private keys": real, "garbage private members": junk} {
		data, err := json.Marshal(map[string]any{"keys": keys})
		if err != nil {
			t.Fatal(err)
		}
		set, err := jwk.ParseSet(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if set.Len() != len(want) {
			t.Fatalf("%s: %d keys, want %d", name, set.Len(), len(want))
		}
		for i, k := range set.Keys() {
			if k.CanSign() || !k.Equal(want[i]) || k.KeyID() != want[i].KeyID() {
				t.Fatalf("%s: key %d is not the public half %q", name, i, want[i].KeyID())
			}
		}
	}
}

// TestWeakEd25519JWK: an OKP key whose "x" is a small-order or
// non-canonical point is refused with ErrWeakKey, by ParseKey and by
// ParseSet, where it fails the set (issue 14, item 10).
func TestWeakEd25519JWK(t *testing.T) {
	zero := make([]byte, 32)
	identity := append([]byte{1}, make([]byte, 31)...)
	nonCanonical := append(make([]byte, 31), 0x7f)
	for i := range 31 {
		nonCanonical[i] = 0xff
	}
	for name, x := range map[string][]byte{"identity": identity, "order 4": zero, "non-canonical": nonCanonical} {
		o := object{"kty": "OKP", "crv": "Ed25519", "alg": "EdDSA", "x": b64(x)}
		if _, err := jwk.ParseKey(o.json(t)); !errors.Is(err, signet.ErrWeakKey) {
			t.Errorf("%s: ParseKey: %v, want ErrWeakKey", name, err)
		}
		if _, err := jwk.ParseKeyFor(o.with("alg", nil).json(t), signet.Ed25519); !errors.Is(err, signet.ErrWeakKey) {
			t.Errorf("%s: ParseKeyFor(ed25519): %v, want ErrWeakKey", name, err)
		}
		set, _ := json.Marshal(map[string]any{"keys": []object{o}})
		if _, err := jwk.ParseSet(set); !errors.Is(err, signet.ErrWeakKey) {
			t.Errorf("%s: ParseSet: %v, want ErrWeakKey", name, err)
		}
	}
}

// TestErrorsWrapSentinels runs every seed of the fuzz corpora, cut at
// every length and with bytes replaced, through ParseKey, ParseKeyFor and
// ParseSet, and the writers through nil and zero keys: every error wraps
// one of signet's sentinels (issue 14: every error of every package).
func TestErrorsWrapSentinels(t *testing.T) {
	check := func(what string, err error) {
		t.Helper()
		if err != nil && !isSentinel(err) {
			t.Fatalf("%s: error wraps no sentinel: %v", what, err)
		}
	}
	var errs int
	for _, seed := range seedKeys(t) {
		for _, in := range variants(seed) {
			_, err := jwk.ParseKey(in)
			check("ParseKey", err)
			_, err2 := jwk.ParseKeyFor(in, signet.ES256)
			check("ParseKeyFor", err2)
			_, err3 := jwk.ParseSet(append(append([]byte(`{"keys":[`), in...), "]}"...))
			check("ParseSet", err3)
			if err != nil {
				errs++
			}
		}
	}
	if errs < 1000 {
		t.Fatalf("only %d inputs were refused: the sweep tests little", errs)
	}
	var nilKey *signet.Key
	for name, k := range map[string]*signet.Key{"nil": nilKey, "zero": {}} {
		_, err := jwk.Marshal(k)
		wantIs(t, name+" Marshal", err, signet.ErrKeyUsage)
		_, err = jwk.MarshalPublic(k)
		wantIs(t, name+" MarshalPublic", err, signet.ErrKeyUsage)
		_, err = jwk.MarshalSet(k)
		wantIs(t, name+" MarshalSet", err, signet.ErrKeyUsage)
		_, err = jwk.Thumbprint(k)
		wantIs(t, name+" Thumbprint", err, signet.ErrKeyUsage)
	}
}

func wantIs(t *testing.T, what string, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Errorf("%s: %v, want %v", what, err, want)
	}
}

// variants returns seed cut at many lengths, and with one byte replaced
// by each of a few JSON-significant characters at many positions: every
// position of short seeds, a stride of them in long ones (RSA private
// keys), to keep the sweep fast.
func variants(seed []byte) [][]byte {
	var out [][]byte
	stride := 1 + len(seed)/80
	for i := 0; i < len(seed); i += stride {
		out = append(out, seed[:i])
	}
	for i := 0; i < len(seed); i += stride {
		for _, c := range []byte(`"0A}:`) {
			v := append([]byte(nil), seed...)
			v[i] = c
			out = append(out, v)
		}
	}
	return out
}
