package paseto

import (
	"bytes"
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
