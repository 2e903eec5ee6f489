package jwt

import (
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
