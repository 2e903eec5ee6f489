package keys_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/server/storage"
)

// attackerPublic is the public JWK of a key the attacker holds, written
// under kid as the record's Public would be.
func attackerPublic(t *testing.T, alg signet.Algorithm, kid string) string {
	t.Helper()
	k, err := signet.GenerateKeyWithID(alg, kid)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := k.Public()
	if err != nil {
		t.Fatal(err)
	}
	b, err := jwk.MarshalPublic(pub)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestTamperedRingNeverServed: someone who can write the store but has no
// KEK (a Redis without auth, a copied bolt file) changes a record of the
// ring an instance serves, keeping its kid and wrapped key. The instance
// must refuse the new ring (signet.ErrSignatureInvalid) as a fresh one
// would, and never publish what the record now says: a public key the
// attacker holds in the JWKS would let resource servers accept the
// attacker's tokens.
func TestTamperedRingNeverServed(t *testing.T) {
	for name, tamper := range map[string]func(t *testing.T, k *storage.Key){
		"public replaced": func(t *testing.T, k *storage.Key) {
			k.Public = attackerPublic(t, signet.ES256, k.ID)
		},
		"algorithm changed": func(t *testing.T, k *storage.Key) {
			k.Algorithm = string(signet.ES384)
			k.Public = attackerPublic(t, signet.ES384, k.ID)
		},
	} {
		t.Run(name, func(t *testing.T) {
			for _, st := range []storage.KeyState{storage.KeyActive, storage.KeyNext} {
				ctx := context.Background()
				clk := newClock()
				mem := storage.NewMemory(clk.Now)
				kek := mustKEK(t)
				m := mustNew(t, mem, fastConfig(t, clk, kek, signet.ES256))
				mustRefresh(t, m)
				r := ring(t, mem)
				var tampered string
				for i := range r.Keys {
					if r.Keys[i].State == st {
						tamper(t, &r.Keys[i])
						tampered = r.Keys[i].Public
					}
				}
				if _, err := mem.SwapKeys(ctx, r.Version, r.Keys); err != nil {
					t.Fatal(err)
				}
				if err := m.Refresh(ctx); !errors.Is(err, signet.ErrSignatureInvalid) {
					t.Fatalf("%s key: Refresh of the tampered ring = %v; want ErrSignatureInvalid", st, err)
				}
				if fresh := mustNew(t, mem, fastConfig(t, clk, kek, signet.ES256)); fresh.Refresh(ctx) == nil {
					t.Fatalf("%s key: a fresh instance loaded the tampered ring", st)
				}
				// The ring served is no longer the store's: nothing is
				// signed or verified with it until a ring loads again.
				if k, err := m.Signer(ctx); k != nil || !errors.Is(err, storage.ErrUnavailable) || !errors.Is(err, signet.ErrSignatureInvalid) {
					t.Fatalf("%s key: Signer after the tampered ring = %v, %v", st, k, err)
				}
				if ks, err := m.Verifier(ctx); ks != nil || !errors.Is(err, storage.ErrUnavailable) {
					t.Fatalf("%s key: Verifier after the tampered ring = %v, %v", st, ks, err)
				}
				if m.Ready() {
					t.Fatalf("%s key: Ready after the tampered ring", st)
				}
				body := serveJWKS(m, http.MethodGet, nil).Body.String()
				if strings.Contains(body, tampered) {
					t.Fatalf("%s key: the JWKS publishes the tampered public key: %s", st, body)
				}
				for _, k := range m.Ring() {
					if k.Algorithm != signet.ES256 {
						t.Fatalf("%s key: Ring reports %s %s", st, k.ID, k.Algorithm)
					}
				}
			}
		})
	}
}

// TestUnopenableRingStopsSigning: an instance that served a ring and then
// finds in the store one it cannot open (here: the store came back empty
// and an instance with another KEK wrote a fresh ring) no longer signs or
// verifies with its old ring: the other instances rotate that ring's keys
// out, so tokens it went on signing would name keys no JWKS publishes.
// Once the store holds a ring it opens again, it serves that one.
func TestUnopenableRingStopsSigning(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	ts := &testStore{Store: storage.NewMemory(clk.Now)}
	cfg := fastConfig(t, clk, mustKEK(t), signet.ES256)
	m := mustNew(t, ts, cfg)
	mustRefresh(t, m)
	old := signerKID(t, m)

	ts.Store = storage.NewMemory(clk.Now) // lost its data
	other := mustNew(t, ts, fastConfig(t, clk, mustKEK(t), signet.ES256))
	mustRefresh(t, other) // a fresh ring under another KEK
	if err := m.Refresh(ctx); !errors.Is(err, signet.ErrSignatureInvalid) {
		t.Fatalf("Refresh of a ring under another KEK = %v; want ErrSignatureInvalid", err)
	}
	if k, err := m.Signer(ctx); k != nil || !errors.Is(err, storage.ErrUnavailable) || !errors.Is(err, signet.ErrSignatureInvalid) {
		t.Fatalf("Signer with a ring it cannot open in the store = %v, %v (old key %s)", k, err, old)
	}
	if ks, err := m.Verifier(ctx); ks != nil || !errors.Is(err, storage.ErrUnavailable) {
		t.Fatalf("Verifier with a ring it cannot open in the store = %v, %v", ks, err)
	}
	if m.Ready() {
		t.Fatal("Ready with a ring it cannot open in the store")
	}

	ts.Store = storage.NewMemory(clk.Now) // the operator cleared it
	mustRefresh(t, m)
	if kid := signerKID(t, m); kid == old || !m.Ready() {
		t.Fatalf("after a ring it opens: signer %s (old %s), ready %v", kid, old, m.Ready())
	}
}
