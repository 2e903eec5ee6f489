package paseto

import (
	"bytes"
	"encoding"
	"encoding/binary"
	"hash"

	"golang.org/x/crypto/blake2b"
)

// macer computes the v4.local tag, BLAKE2b-256 keyed with a per-token key
// Ak, on one digest that is re-keyed in place instead of made anew for
// every token (blake2b.New allocates a ~350-byte digest each time).
//
// x/crypto's BLAKE2b has no re-key call, but its digests restore a state
// through encoding.BinaryUnmarshaler, and a keyed BLAKE2b state before any
// input is plain data: the chaining value with the key length in its
// parameter block, and the zero-padded key as a pending full block. rekey
// writes that state. newMacer checks the result against blake2b.New on a
// test key and, if they ever differ (a future state encoding), falls back
// to blake2b.New for every token.
type macer struct {
	d     hash.Hash // unkeyed BLAKE2b-256 whose state rekey overwrites
	state []byte    // the state encoding; the key block is rewritten per token
	slow  bool      // the state encoding is not the expected one
}

// The x/crypto BLAKE2b state encoding: "b2b", h[8], c[2] (big-endian
// uint64s), the digest size, the 128-byte block, the block offset.
const (
	stateMagic    = "b2b"
	stateBlockOff = len(stateMagic) + 8*8 + 2*8 + 1
	stateSize     = stateBlockOff + blake2b.BlockSize + 1
)

var blake2bIV = [8]uint64{
	0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
	0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179,
}

// keyedState is the state encoding of BLAKE2b with digest size size keyed
// with key, before any input: the key block pending, nothing compressed.
func keyedState(size int, key []byte) []byte {
	st := make([]byte, 0, stateSize)
	st = append(st, stateMagic...)
	for i, v := range blake2bIV {
		if i == 0 {
			// Parameter block: digest length, key length, fanout 1, depth 1.
			v ^= uint64(size) | uint64(len(key))<<8 | 1<<16 | 1<<24
		}
		st = binary.BigEndian.AppendUint64(st, v)
	}
	st = append(st, make([]byte, 16)...) // byte counter: nothing hashed yet
	st = append(st, byte(size))
	st = append(st, key...)
	st = append(st, make([]byte, blake2b.BlockSize-len(key))...) // the key block
	return append(st, blake2b.BlockSize)                         // a full block pending
}

func newMacer() *macer {
	d, _ := blake2b.New256(nil)
	m := &macer{d: d, state: keyedState(v4TagSize, make([]byte, v4TagSize))}
	m.slow = !m.selfCheck()
	return m
}

// A prefixed digest is BLAKE2b keyed with a fixed key and fed a fixed
// prefix, restored for each input from a snapshot taken after the key
// block was compressed: every use saves the compression of the key block
// (a second one on short inputs) that Reset on a keyed digest repeats.
// v4.local's two key derivations are of this form: BLAKE2b keyed with k,
// of "paseto-encryption-key" or "paseto-auth-key-for-aead" and the nonce.
// The snapshot is made once per key and checked against blake2b.New;
// when the state encoding is not the expected one, ok is false and the
// caller keeps keyed digests.
func prefixedSnapshot(size int, key, prefix []byte) (snap []byte, ok bool) {
	d, err := blake2b.New(size, nil)
	if err != nil {
		return nil, false
	}
	if err := d.(encoding.BinaryUnmarshaler).UnmarshalBinary(keyedState(size, key)); err != nil {
		return nil, false
	}
	d.Write(prefix) // compresses the key block, buffers the prefix
	snap, err = d.(encoding.BinaryMarshaler).MarshalBinary()
	if err != nil {
		return nil, false
	}
	// Check on a test input against the plain computation.
	probe := []byte("paseto v4.local derivation self-check, 32 bytes..")[:32]
	want, _ := blake2b.New(size, key)
	want.Write(prefix)
	want.Write(probe)
	got, _ := blake2b.New(size, nil)
	if got.(encoding.BinaryUnmarshaler).UnmarshalBinary(snap) != nil {
		return nil, false
	}
	got.Write(probe)
	if !bytes.Equal(got.Sum(nil), want.Sum(nil)) {
		return nil, false
	}
	return snap, true
}

// selfCheck compares a re-keyed digest with blake2b.New on a test input.
func (m *macer) selfCheck() bool {
	key := []byte("paseto v4.local re-key self-check")[:v4TagSize]
	msg := []byte("the state encoding x/crypto restores")
	want, _ := blake2b.New(v4TagSize, key)
	want.Write(msg)
	h, ok := m.rekey(key)
	if !ok {
		return false
	}
	h.Write(msg)
	return bytes.Equal(h.Sum(nil), want.Sum(nil))
}

// rekey returns m.d reset to BLAKE2b-256 keyed with key (32 bytes).
func (m *macer) rekey(key []byte) (hash.Hash, bool) {
	u, ok := m.d.(encoding.BinaryUnmarshaler)
	if !ok {
		return nil, false
	}
	copy(m.state[stateBlockOff:], key)
	err := u.UnmarshalBinary(m.state)
	clear(m.state[stateBlockOff : stateBlockOff+len(key)])
	return m.d, err == nil
}

// keyed returns BLAKE2b-256 keyed with key, re-keying m.d when it can.
func (m *macer) keyed(key []byte) (hash.Hash, error) {
	if !m.slow {
		if h, ok := m.rekey(key); ok {
			return h, nil
		}
	}
	return blake2b.New(v4TagSize, key)
}
