package jwks_test

import (
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/jwks"
	"github.com/signet-go/signet/jwt"
)

// hitFixture is a Remote and a KeySet holding the same set of a few keys,
// and a token signed by one of them.
func hitFixture(t testing.TB) (*jwks.Remote, *signet.KeySet, string) {
	t.Helper()
	var keys []*signet.Key
	for _, kid := range []string{"2030-04", "2030-05", "2030-06"} {
		keys = append(keys, genKey(t, signet.EdDSA, kid))
	}
	keys = append(keys, genKey(t, signet.ES256, "ec"))
	srv := newKeyServer(t, keys...)
	r := start(t, srv.url(), jwks.Options{Algorithms: []signet.Algorithm{signet.EdDSA, signet.ES256}})
	body, err := jwk.MarshalSet(keys...)
	if err != nil {
		t.Fatal(err)
	}
	set, err := jwk.ParseSet(body)
	if err != nil {
		t.Fatal(err)
	}
	return r, set, signedBy(t, keys[1])
}

// TestSelectNoAlloc: a cache hit allocates nothing, in Select and in
// jwt.Verify (which looks a hit up in the Remote's KeySet directly, and so
// allocates the same with a Remote as with a *signet.KeySet).
func TestSelectNoAlloc(t *testing.T) {
	r, set, tok := hitFixture(t)
	if n := testing.AllocsPerRun(1000, func() {
		if _, err := r.Select("2030-05", signet.EdDSA); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Fatalf("Select hit: %v allocations", n)
	}
	if n := testing.AllocsPerRun(1000, func() {
		if _, err := r.Select("", signet.ES256); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Fatalf("Select of the sole key for an algorithm: %v allocations", n)
	}
	verify := func(keys signet.Keys) float64 {
		return testing.AllocsPerRun(200, func() {
			if _, err := jwt.Verify[jwt.Claims](keys, tok, jwt.Policy{}); err != nil {
				t.Fatal(err)
			}
		})
	}
	if withSet, withRemote := verify(set), verify(r); withRemote != withSet {
		t.Fatalf("jwt.Verify allocates %v times with a Remote, %v with a KeySet", withRemote, withSet)
	}
}

// BenchmarkSelect compares a Remote's cache hit with the KeySet lookup it
// wraps.
func BenchmarkSelect(b *testing.B) {
	r, set, _ := hitFixture(b)
	for _, c := range []struct {
		name string
		keys signet.Keys
	}{{"KeySet", set}, {"Remote", r}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.keys.Select("2030-05", signet.EdDSA); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkVerify is jwt.Verify of an EdDSA token with each source.
func BenchmarkVerify(b *testing.B) {
	r, set, tok := hitFixture(b)
	for _, c := range []struct {
		name string
		keys signet.Keys
	}{{"KeySet", set}, {"Remote", r}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := jwt.Verify[jwt.Claims](c.keys, tok, jwt.Policy{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSelectMissCooldown is the cost of an unknown kid during the
// cooldown: answered at once.
func BenchmarkSelectMissCooldown(b *testing.B) {
	r, _, _ := hitFixture(b)
	r.Select("warm-up", signet.EdDSA) // starts the cooldown
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Select("unknown", signet.EdDSA); err == nil {
			b.Fatal("found")
		}
	}
}
