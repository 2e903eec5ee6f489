package keys

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/paserk"
	"github.com/signet-go/signet/server/internal/storetest"
	"github.com/signet-go/signet/server/storage"
)

// secrets returns the base64url forms of k's private material: the JWK
// "d" (or "k" for HMAC, and the RSA primes), or the Ed25519 seed of a
// v4.public key.
func secrets(t *testing.T, k *signet.Key) []string {
	t.Helper()
	if k.Algorithm() == signet.V4Public {
		seed := k.Material().(ed25519.PrivateKey).Seed()
		return []string{base64.RawURLEncoding.EncodeToString(seed), base64.StdEncoding.EncodeToString(seed)}
	}
	j, err := jwk.Marshal(k)
	if err != nil {
		t.Fatal(err)
	}
	var members map[string]any
	if err := json.Unmarshal(j, &members); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range []string{"d", "k", "p", "q", "dp", "dq", "qi"} {
		if s, _ := members[m].(string); s != "" {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no private member in the %s key", k.Algorithm())
	}
	return out
}

// TestLogHoldsNoSecret: the Logger "never receives key material" (Config),
// nor do the errors Refresh returns, which Run logs: through rotations,
// removals and the failures of a tampered ring and of another KEK, no
// private key of the ring and not the KEK appears in either.
func TestLogHoldsNoSecret(t *testing.T) {
	for _, alg := range []signet.Algorithm{signet.ES256, signet.RS256, signet.HS256, signet.V4Public} {
		t.Run(string(alg), func(t *testing.T) {
			ctx := context.Background()
			kek := newKEK(t)
			var mu sync.Mutex
			now := time.Unix(1_800_000_000, 0).UTC()
			clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
			advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
			var log storetest.LogBuffer
			cfg := Config{Algorithm: alg, KEK: kek, Rotate: 10 * time.Second, MaxAge: 2 * time.Second, MaxTokenTTL: 5 * time.Second,
				Reload: time.Second, Now: clock, Logger: slog.New(slog.NewJSONHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))}
			mem := storage.NewMemory(clock)
			m, err := New(mem, cfg)
			if err != nil {
				t.Fatal(err)
			}
			var errs []string
			private := map[string]*signet.Key{}
			collect := func() {
				r, err := mem.Keys(ctx)
				if err != nil {
					t.Fatal(err)
				}
				for _, rec := range r.Keys {
					if private[rec.ID] == nil {
						k, err := unwrap(rec, kek)
						if err != nil {
							t.Fatal(err)
						}
						private[rec.ID] = k
					}
				}
			}
			for range 4 { // first start, rotations, removals
				if err := m.Refresh(ctx); err != nil {
					t.Fatal(err)
				}
				collect()
				advance(10 * time.Second)
			}
			// A tampered ring (another record's wrapped key) and a ring
			// under another KEK fail; Run would log these errors.
			r, _ := mem.Keys(ctx)
			tampered := append([]storage.Key(nil), r.Keys...)
			tampered[0].Wrapped = tampered[1].Wrapped
			if _, err := mem.SwapKeys(ctx, r.Version, tampered); err != nil {
				t.Fatal(err)
			}
			if err := m.Refresh(ctx); err == nil {
				t.Fatal("Refresh of a tampered ring succeeded")
			} else {
				errs = append(errs, err.Error())
			}
			other := cfg
			other.KEK = newKEK(t)
			if m2, err := New(mem, other); err != nil {
				t.Fatal(err)
			} else if err := m2.Refresh(ctx); err == nil {
				t.Fatal("Refresh under another KEK succeeded")
			} else {
				errs = append(errs, err.Error())
			}

			text := log.String() + "\n" + strings.Join(errs, "\n")
			if !strings.Contains(log.String(), "keys: key state") || len(private) < 4 {
				t.Fatalf("vacuous: %d keys, log %q", len(private), log.String())
			}
			kekText, err := paserk.Encode(kek)
			if err != nil {
				t.Fatal(err)
			}
			raw := kek.Secret()
			forbidden := []string{kekText[len("k4.local."):], base64.StdEncoding.EncodeToString(raw)}
			for _, k := range private {
				forbidden = append(forbidden, secrets(t, k)...)
			}
			for _, s := range forbidden {
				if strings.Contains(text, s) || strings.Contains(text, s[:16]) {
					t.Fatalf("the log or an error holds private material (%.6s…)", s)
				}
			}
		})
	}
}
