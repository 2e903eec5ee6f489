package jwt

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/signet-go/signet"
)

// TestHeaderCache: keys made by WithKeyID share a cache; each token still
// names its own key ID, whatever the order of signing.
func TestHeaderCache(t *testing.T) {
	k, _ := signet.GenerateKeyWithID(signet.HS256, "one")
	two := k.WithKeyID("two")
	none := k.WithKeyID("")
	c := Claims{Subject: "s", ExpiresAt: 4102444800}
	for _, key := range []*signet.Key{k, two, none, k, none, two} {
		tok, err := Sign(key, c)
		if err != nil {
			t.Fatal(err)
		}
		_, h, err := VerifyBytes(key, tok, Policy{})
		if err != nil {
			t.Fatal(err)
		}
		if h.KeyID != key.KeyID() || h.Type != "JWT" {
			t.Fatalf("key %q: header %+v", key.KeyID(), h)
		}
	}
	long := k.WithKeyID(strings.Repeat("k", 80))
	tok, err := SignBytes(long, []byte(`{"exp":4102444800}`), "application/example+jwt")
	if err != nil {
		t.Fatal(err)
	}
	if _, h, err := VerifyBytes(long, tok, Policy{Type: "application/example+jwt"}); err != nil || h.KeyID != long.KeyID() {
		t.Fatalf("%+v %v", h, err)
	}
}

// TestVerifyKnownHeader: a token whose header is byte for byte the one the
// key writes skips parsing it; the outcome is the parsed path's, whatever
// the header's bytes, and the Policy's typ still applies.
func TestVerifyKnownHeader(t *testing.T) {
	k, _ := signet.GenerateKeyWithID(signet.HS256, "kid-1")
	c := Claims{Subject: "s", ExpiresAt: 4102444800}
	tok, err := Sign(k, c)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := Verify[Claims](k, tok, Policy{}); err != nil || got.Subject != "s" {
		t.Fatalf("known header: %+v %v", got, err)
	}
	if _, h, err := VerifyBytes(k, tok, Policy{}); err != nil || h != (Header{Algorithm: signet.HS256, KeyID: "kid-1", Type: "JWT"}) {
		t.Fatalf("known header: %+v %v", h, err)
	}
	if _, err := Verify[Claims](k, tok, Policy{Type: "at+jwt"}); err == nil {
		t.Fatal("known header accepted against Policy.Type at+jwt")
	}
	// The same header with its members in another order is parsed.
	reordered := signWithHeader(t, k, `{"typ":"JWT","kid":"kid-1","alg":"HS256"}`, `{"sub":"s","exp":4102444800}`)
	if _, h, err := VerifyBytes(k, reordered, Policy{}); err != nil || h.KeyID != "kid-1" || h.Type != "JWT" {
		t.Fatalf("reordered header: %+v %v", h, err)
	}
	// Another key ID is another header: not the key's, refused.
	other := signWithHeader(t, k, `{"alg":"HS256","kid":"kid-2","typ":"JWT"}`, `{"sub":"s","exp":4102444800}`)
	if _, err := Verify[Claims](k, other, Policy{}); err == nil {
		t.Fatal("a token naming another kid verified")
	}
	// A key of another format never takes the shortcut.
	pk, _ := signet.GenerateKey(signet.V4Public)
	if _, err := Verify[Claims](pk, tok, Policy{}); err == nil {
		t.Fatal("a PASETO key verified a JWS")
	}
}

// signWithHeader makes a JWS with the given header and payload JSON.
func signWithHeader(t *testing.T, k *signet.Key, header, payload string) string {
	t.Helper()
	enc := base64.RawURLEncoding
	input := enc.EncodeToString([]byte(header)) + "." + enc.EncodeToString([]byte(payload))
	sig, err := k.Sign(nil, []byte(input))
	if err != nil {
		t.Fatal(err)
	}
	return input + "." + enc.EncodeToString(sig)
}

// TestKnownHeaderEdges: a key ID that is not valid UTF-8 (its header
// carries U+FFFD) never takes the shortcut, so a single Key and a KeySet
// agree; keys made by WithKeyID, verified in turn, keep their own key IDs
// (TestAllocationsKeysTakingTurns: without rebuilding the cached header).
func TestKnownHeaderEdges(t *testing.T) {
	base, _ := signet.GenerateKey(signet.HS256)
	odd := base.WithKeyID("a\xffb")
	tok, err := Sign(odd, Claims{Subject: "s", ExpiresAt: 4102444800})
	if err != nil {
		t.Fatal(err)
	}
	set, err := signet.NewKeySet(odd)
	if err != nil {
		t.Fatal(err)
	}
	_, _, errKey := VerifyBytes(odd, tok, Policy{})
	_, _, errSet := VerifyBytes(set, tok, Policy{})
	if (errKey == nil) != (errSet == nil) {
		t.Fatalf("single key: %v; key set: %v", errKey, errSet)
	}

	a, b := base.WithKeyID("a"), base.WithKeyID("b")
	ta, _ := Sign(a, Claims{Subject: "a", ExpiresAt: 4102444800})
	tb, _ := Sign(b, Claims{Subject: "b", ExpiresAt: 4102444800})
	for _, c := range []struct {
		k   *signet.Key
		tok string
		kid string
	}{{a, ta, "a"}, {b, tb, "b"}, {a, ta, "a"}} {
		if _, h, err := VerifyBytes(c.k, c.tok, Policy{}); err != nil || h.KeyID != c.kid {
			t.Fatalf("kid %s: %+v %v", c.kid, h, err)
		}
	}
	if _, _, err := VerifyBytes(a, tb, Policy{}); err == nil {
		t.Fatal("a token naming kid b verified with the key of kid a")
	}
}
