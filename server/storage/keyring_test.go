package storage_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet/server/storage"
)

func TestKeyRingLimits(t *testing.T) {
	big := storage.KeyRing{Keys: []storage.Key{{ID: "k", Wrapped: strings.Repeat("A", storage.MaxKeyRingSize)}}}
	if _, err := storage.EncodeKeyRing(big); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("EncodeKeyRing over MaxKeyRingSize: %v, want ErrInvalid", err)
	}
	year10000 := storage.KeyRing{Keys: []storage.Key{{ID: "k", Created: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}}}
	if _, err := storage.EncodeKeyRing(year10000); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("EncodeKeyRing of year 10000: %v, want ErrInvalid", err)
	}
	for _, in := range []string{"", "{", "null x", `{"version":-1}`, `{"keys":[{"created":"yesterday"}]}`, `{"version":1}` + strings.Repeat(" ", storage.MaxKeyRingSize)} {
		if _, err := storage.DecodeKeyRing([]byte(in)); !errors.Is(err, storage.ErrInvalid) {
			t.Errorf("DecodeKeyRing(%.40q): %v, want ErrInvalid", in, err)
		}
	}
}

func FuzzDecodeKeyRing(f *testing.F) {
	good, err := storage.EncodeKeyRing(storage.KeyRing{Version: 7, Keys: []storage.Key{
		{ID: "a", Algorithm: "ES256", State: storage.KeyActive, Wrapped: "w", Public: "{}",
			Created: time.Date(2030, 1, 2, 3, 4, 5, 6, time.UTC), RetireAt: time.Date(2030, 1, 9, 3, 4, 5, 6, time.UTC)},
		{ID: "b", State: storage.KeyNext, ActivateAt: time.Date(2030, 1, 3, 0, 0, 0, 0, time.FixedZone("x", -3600))},
	}})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(`{"version":0,"keys":null}`))
	f.Add([]byte(`{"version":18446744073709551615,"keys":[{"created":"0000-01-01T00:00:00+01:00"}]}`))
	f.Add([]byte(`{"keys":[{"kid":"\u0000","remove_at":"9999-12-31T23:59:59.999999999-23:59"}]}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		r, err := storage.DecodeKeyRing(in)
		if err != nil {
			if !errors.Is(err, storage.ErrInvalid) {
				t.Fatalf("DecodeKeyRing error %v does not wrap ErrInvalid", err)
			}
			return
		}
		// What decodes re-encodes to the same ring, or is refused as
		// ErrInvalid (a time outside the years JSON can write).
		enc, err := storage.EncodeKeyRing(r)
		if err != nil {
			if !errors.Is(err, storage.ErrInvalid) {
				t.Fatalf("EncodeKeyRing error %v does not wrap ErrInvalid", err)
			}
			return
		}
		again, err := storage.DecodeKeyRing(enc)
		if err != nil {
			t.Fatalf("DecodeKeyRing of EncodeKeyRing's output: %v", err)
		}
		if again.Version != r.Version || len(again.Keys) != len(r.Keys) {
			t.Fatalf("round trip changed the ring: %+v → %+v", r, again)
		}
		for i := range r.Keys {
			if again.Keys[i] != r.Keys[i] {
				t.Fatalf("round trip changed key %d: %#v → %#v", i, r.Keys[i], again.Keys[i])
			}
		}
	})
}
