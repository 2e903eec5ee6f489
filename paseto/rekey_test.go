package paseto

import (
	"bytes"
	"encoding"
	"testing"

	"golang.org/x/crypto/blake2b"
)

// TestMacerRekeys pins the fast path: with the x/crypto this module
// requires, re-keying in place must be taken and must agree with
// blake2b.New for many keys and message lengths, one digest reused.
func TestMacerRekeys(t *testing.T) {
	m := newMacer()
	if m.slow {
		t.Fatal("re-keying BLAKE2b in place failed its self-check: every token pays blake2b.New")
	}
	key := make([]byte, 32)
	msg := make([]byte, 600)
	for i := range msg {
		msg[i] = byte(i * 7)
	}
	for i := range 300 {
		key[i%32] ^= byte(i + 1)
		n := (i * 37) % len(msg)
		want, _ := blake2b.New(32, key)
		want.Write(msg[:n])
		h, err := m.keyed(key)
		if err != nil {
			t.Fatal(err)
		}
		h.Write(msg[:n])
		if got := h.Sum(nil); !bytes.Equal(got, want.Sum(nil)) {
			t.Fatalf("key %x, %d bytes: re-keyed MAC differs from blake2b.New", key, n)
		}
	}
}

// TestMacerFallback checks the slow path computes the same MAC.
func TestMacerFallback(t *testing.T) {
	m := newMacer()
	m.slow = true
	key := bytes.Repeat([]byte{9}, 32)
	h, err := m.keyed(key)
	if err != nil {
		t.Fatal(err)
	}
	h.Write([]byte("x"))
	want, _ := blake2b.New(32, key)
	want.Write([]byte("x"))
	if !bytes.Equal(h.Sum(nil), want.Sum(nil)) {
		t.Fatal("fallback MAC differs")
	}
}

// TestPrefixedSnapshot pins the derivations' fast path: with the x/crypto
// this module requires, the snapshot is taken, and restoring it and
// feeding a nonce gives blake2b.New's answer for many keys and nonces.
func TestPrefixedSnapshot(t *testing.T) {
	key := make([]byte, 32)
	n := make([]byte, 32)
	for i := range 100 {
		key[i%32] ^= byte(3*i + 1)
		n[(7*i)%32] ^= byte(i)
		for _, c := range []struct {
			size   int
			prefix []byte
		}{{56, encKeyInfo}, {32, authKeyInfo}} {
			snap, ok := prefixedSnapshot(c.size, key, c.prefix)
			if !ok {
				t.Fatal("snapshot refused: every v4.local token pays the key block twice")
			}
			want, _ := blake2b.New(c.size, key)
			want.Write(c.prefix)
			want.Write(n)
			got, _ := blake2b.New(c.size, nil)
			if err := got.(encoding.BinaryUnmarshaler).UnmarshalBinary(snap); err != nil {
				t.Fatal(err)
			}
			got.Write(n)
			if !bytes.Equal(got.Sum(nil), want.Sum(nil)) {
				t.Fatalf("size %d: restored derivation differs", c.size)
			}
		}
	}
}
