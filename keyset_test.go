package signet_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/signet-go/signet"
)

// TestKeySetWithoutKeyID: input without a key ID gets at most
// MaxAnonymousCandidates candidates, keys without IDs only, or the set's
// one key for the algorithm; anything else is ambiguous and refused with
// ErrKeyNotFound (issue 14, item 5).
func TestKeySetWithoutKeyID(t *testing.T) {
	gen := func(alg signet.Algorithm, kid string) *signet.Key {
		k, err := signet.GenerateKeyWithID(alg, kid)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	max := signet.MaxAnonymousCandidates
	anon := make([]*signet.Key, max+1)
	for i := range anon {
		anon[i] = gen(signet.HS256, "")
	}
	esA, esB, ed := gen(signet.ES256, "a"), gen(signet.ES256, "b"), gen(signet.EdDSA, "e")
	named := gen(signet.HS256, "h")

	type want struct {
		keys []*signet.Key // the candidates, in order; nil for a refusal
		err  error
		text string // in the error
	}
	for _, c := range []struct {
		name string
		set  []*signet.Key
		alg  signet.Algorithm
		want want
	}{
		{"keys without ID, at the bound", anon[:max], signet.HS256, want{keys: anon[:max]}},
		{"keys without ID, over the bound", anon, signet.HS256, want{err: signet.ErrKeyNotFound, text: "ambiguous"}},
		{"keys without ID are preferred to one with", append([]*signet.Key{named}, anon[:2]...), signet.HS256, want{keys: anon[:2]}},
		{"the set's only key for the algorithm", []*signet.Key{esA, ed}, signet.EdDSA, want{keys: []*signet.Key{ed}}},
		{"two keys with IDs: ambiguous", []*signet.Key{esA, esB, ed}, signet.ES256, want{err: signet.ErrKeyNotFound, text: "ambiguous"}},
		{"no key for the algorithm", []*signet.Key{esA, ed}, signet.RS256, want{err: signet.ErrKeyNotFound, text: "no key"}},
		{"keys of other algorithms do not count", append([]*signet.Key{esA, esB}, anon[:1]...), signet.HS256, want{keys: anon[:1]}},
	} {
		t.Run(c.name, func(t *testing.T) {
			set, err := signet.NewKeySet(c.set...)
			if err != nil {
				t.Fatal(err)
			}
			got, err := set.Select("", c.alg)
			if c.want.err != nil {
				if !errors.Is(err, c.want.err) || !strings.Contains(err.Error(), c.want.text) {
					t.Fatalf("error %v, want %v (%q)", err, c.want.err, c.want.text)
				}
				return
			}
			if err != nil || got.Len() != len(c.want.keys) {
				t.Fatalf("%d candidates, %v; want %d", got.Len(), err, len(c.want.keys))
			}
			for i, k := range c.want.keys {
				if got.At(i) != k {
					t.Fatalf("candidate %d is not the set's key %d", i, i)
				}
			}
		})
	}
	// A key ID still selects its key, however many keys the set holds.
	big := make([]*signet.Key, 1000)
	for i := range big {
		big[i] = anon[i%len(anon)].WithKeyID(fmt.Sprint(i))
	}
	set, err := signet.NewKeySet(big...)
	if err != nil {
		t.Fatal(err)
	}
	if c, err := set.Select("999", signet.HS256); err != nil || c.Len() != 1 || c.At(0) != big[999] {
		t.Fatalf("kid 999: %v", err)
	}
	if _, err := set.Select("", signet.HS256); !errors.Is(err, signet.ErrKeyNotFound) {
		t.Fatalf("no kid among 1000 keys: %v", err)
	}
}
