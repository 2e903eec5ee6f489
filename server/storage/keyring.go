package storage

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
)

// EncodeKeyRing is the JSON form in which the persistent stores keep a key
// ring. Its times are written in UTC to the nanosecond (RFC 3339), so a
// ring read back equals the one stored, field for field, with every time
// in UTC. A ring whose encoding exceeds MaxKeyRingSize, or that cannot be
// encoded (a year outside 0–9999), is refused with an error wrapping
// ErrInvalid.
func EncodeKeyRing(r KeyRing) ([]byte, error) {
	b, err := json.Marshal(KeyRing{Version: r.Version, Keys: normalizeKeys(r.Keys)})
	if err != nil {
		return nil, fmt.Errorf("%w: key ring: %v", ErrInvalid, err)
	}
	if len(b) > MaxKeyRingSize {
		return nil, fmt.Errorf("%w: key ring of %d bytes (at most %d)", ErrInvalid, len(b), MaxKeyRingSize)
	}
	return b, nil
}

// EncodeSwap is EncodeKeyRing of keys as the ring SwapKeys stores over
// version old, at version old+1; an old of math.MaxUint64 (a version that
// cannot grow) is refused with an error wrapping ErrInvalid. Every store's
// SwapKeys starts with it.
func EncodeSwap(old uint64, keys []Key) ([]byte, error) {
	if old == math.MaxUint64 {
		return nil, fmt.Errorf("%w: key ring version %d cannot grow", ErrInvalid, old)
	}
	return EncodeKeyRing(KeyRing{Version: old + 1, Keys: keys})
}

// DecodeKeyRing reads what EncodeKeyRing wrote. Input over MaxKeyRingSize
// or not a key ring is refused with an error wrapping ErrInvalid (a store
// holding such a value was written by something else).
func DecodeKeyRing(b []byte) (KeyRing, error) {
	if len(b) > MaxKeyRingSize {
		return KeyRing{}, fmt.Errorf("%w: stored key ring of %d bytes (at most %d)", ErrInvalid, len(b), MaxKeyRingSize)
	}
	var r KeyRing
	if err := json.Unmarshal(b, &r); err != nil {
		return KeyRing{}, fmt.Errorf("%w: stored key ring: %v", ErrInvalid, err)
	}
	r.Keys = normalizeKeys(r.Keys)
	return r, nil
}

// normalizeKeys returns a copy of keys with every time in UTC and without
// a monotonic clock reading, as every store gives them back.
func normalizeKeys(keys []Key) []Key {
	if keys == nil {
		return nil
	}
	out := slices.Clone(keys)
	for i := range out {
		k := &out[i]
		k.Created = k.Created.UTC()
		k.ActivateAt = k.ActivateAt.UTC()
		k.RetireAt = k.RetireAt.UTC()
		k.RemoveAt = k.RemoveAt.UTC()
	}
	return out
}
