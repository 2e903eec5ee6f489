package paseto

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding"
	"fmt"
	"github.com/signet-go/signet/internal/unsafex"
	"hash"

	"golang.org/x/crypto/blake2b"
	"golang.org/x/crypto/chacha20"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/b64"
	"github.com/signet-go/signet/internal/keycache"
	"github.com/signet-go/signet/internal/pae"
)

// v4.local (PASETO Version4.md): XChaCha20, keys split from the 32-byte
// key with keyed BLAKE2b, encrypt-then-MAC with BLAKE2b-256 over PAE.

var (
	v4LocalHeader  = []byte("v4.local.")
	v4PublicHeader = []byte("v4.public.")
	encKeyInfo     = []byte("paseto-encryption-key")
	authKeyInfo    = []byte("paseto-auth-key-for-aead")
)

const (
	nonceSize = 32
	v4TagSize = 32
)

// v4State is a v4.local key's keyed BLAKE2b states, kept in a pool with the
// key (signet.Key.Cache): Reset returns each to its keyed state, so that no
// operation re-keys. Scratch space lives here so that hashing into it does
// not move anything to the heap.
type v4State struct {
	enc  hash.Hash // BLAKE2b-448 keyed with k: Ek ‖ n2
	auth hash.Hash // BLAKE2b-256 keyed with k: Ak
	// encSnap and authSnap, when set, are the two derivations' states
	// after the key block and the info string (prefixedSnapshot), shared
	// by the key's states; enc and auth are then unkeyed digests restored
	// from them for each token.
	encSnap, authSnap []byte
	mac               *macer // BLAKE2b-256 re-keyed with each token's Ak
	tmp               [56]byte
	ak                [32]byte
	sum               [32]byte
	pae               []byte // scratch for the MAC's input, reused
	raw               []byte // scratch for n ‖ c ‖ t, reused
	msg               []byte // scratch for the claims' JSON (issueV4Local), cleared after each token
}

type v4PoolID struct{}

func v4Pool(k *signet.Key) *pool[v4State] {
	return keycache.Get(k, v4PoolID{}, func(k *signet.Key) any {
		secret := k.Secret()
		encSnap, ok1 := prefixedSnapshot(56, secret, encKeyInfo)
		authSnap, ok2 := prefixedSnapshot(32, secret, authKeyInfo)
		fast := ok1 && ok2
		return newPool(func() *v4State {
			st := &v4State{mac: newMacer(), msg: make([]byte, 0, 1<<10)}
			var err1, err2 error
			if fast {
				st.encSnap, st.authSnap = encSnap, authSnap
				st.enc, err1 = blake2b.New(56, nil)
				st.auth, err2 = blake2b.New(32, nil)
			} else {
				st.enc, err1 = blake2b.New(56, secret)
				st.auth, err2 = blake2b.New(32, secret)
			}
			if err1 != nil || err2 != nil {
				panic("paseto: BLAKE2b refused a 32-byte key") // cannot happen
			}
			return st
		})
	}).(*pool[v4State])
}

// derive sets st.tmp to Ek ‖ n2 and st.ak to Ak for nonce n.
func (st *v4State) derive(n []byte) {
	if st.encSnap != nil {
		// Restored from the snapshots: key block and info already in.
		// The snapshots were checked when the key's pool was made.
		_ = st.enc.(encoding.BinaryUnmarshaler).UnmarshalBinary(st.encSnap)
		st.enc.Write(n)
		st.enc.Sum(st.tmp[:0])
		_ = st.auth.(encoding.BinaryUnmarshaler).UnmarshalBinary(st.authSnap)
		st.auth.Write(n)
		st.auth.Sum(st.ak[:0])
		return
	}
	st.enc.Reset()
	st.enc.Write(encKeyInfo)
	st.enc.Write(n)
	st.enc.Sum(st.tmp[:0])
	st.auth.Reset()
	st.auth.Write(authKeyInfo)
	st.auth.Write(n)
	st.auth.Sum(st.ak[:0])
}

// tag writes BLAKE2b-256(key=Ak, PAE(h, n, c, f, i)) into st.sum, feeding
// the PAE to the hash piece by piece instead of building it.
func (st *v4State) tag(n, c, f, i []byte) ([]byte, error) {
	m, err := st.mac.keyed(st.ak[:])
	if err != nil {
		return nil, err
	}
	// The ciphertext goes to the MAC as it is, not copied into the PAE.
	st.pae = pae.Write(m, st.pae[:0], v4LocalHeader, n, c, f, i)
	if cap(st.pae) > 64<<10 {
		st.pae = nil // do not keep a huge buffer in the pool (a large footer)
	}
	return m.Sum(st.sum[:0]), nil
}

// encryptV4 makes a v4.local token of payload m. nonce is nil except in
// tests, which reproduce the published vectors.
func encryptV4(key *signet.Key, m, f, i, nonce []byte) (string, error) {
	p := v4Pool(key)
	st := p.get()
	defer p.put(st)
	return st.encrypt(m, f, i, nonce)
}

// encrypt is encryptV4 with a state of the key's pool.
func (st *v4State) encrypt(m, f, i, nonce []byte) (string, error) {
	rawLen := nonceSize + len(m) + v4TagSize
	tokLen := len(v4LocalHeader) + b64.EncodedLen(rawLen)
	if len(f) > 0 {
		tokLen += 1 + b64.EncodedLen(len(f))
	}
	var out, raw []byte
	if rawLen > maxPooledRaw {
		// A large token is the one buffer: n ‖ c ‖ t are built at its
		// tail and encoded forward in place. The encoding's end stays
		// inPlaceGap bytes or more before the next byte it reads.
		at := len(v4LocalHeader) + b64.EncodedLen(rawLen) - rawLen + inPlaceGap
		out = unsafex.MakeNoZero(max(tokLen, at+rawLen))
		raw = out[at : at+rawLen]
	} else {
		// n ‖ c ‖ t are built in the state's scratch; the token is the
		// one allocation.
		if cap(st.raw) < rawLen {
			st.raw = unsafex.MakeNoZero(rawLen)[:rawLen] // n, c and t written whole below
		}
		raw = st.raw[:rawLen]
		out = unsafex.MakeNoZero(tokLen)
	}
	n := raw[:nonceSize]
	if nonce != nil {
		copy(n, nonce)
	} else if _, err := rand.Read(n); err != nil {
		// Each nonce comes straight from the system's CSPRNG: nothing is
		// buffered that a cloned VM or forked process could hand out twice.
		return "", fmt.Errorf("paseto: nonce: %w", err)
	}
	st.derive(n)
	c := raw[nonceSize : nonceSize+len(m)]
	s, err := chacha20.NewUnauthenticatedCipher(st.tmp[:32], st.tmp[32:56])
	if err != nil {
		return "", err
	}
	s.XORKeyStream(c, m)
	t, err := st.tag(n, c, f, i)
	if err != nil {
		return "", err
	}
	copy(raw[nonceSize+len(m):], t)
	return assemble(out, v4LocalHeader, raw, f), nil
}

// maxPooledMsg is the largest claims' JSON a pooled state keeps as its
// scratch (issueV4Local); a larger one is left to the collector.
const maxPooledMsg = 64 << 10

// maxPooledRaw is the largest n ‖ c ‖ t built in a pooled state's
// scratch; a larger one is built in the token itself (encryptV4).
const maxPooledRaw = 4 << 10

// inPlaceGap is how far, at least, b64.AppendEncode's writes stay behind
// its reads when it encodes the tail of its own buffer forward: more than
// the 16 bytes it writes per step.
const inPlaceGap = 32

// decryptV4 opens the raw n ‖ c ‖ t of a v4.local token in place and
// returns the plaintext (a view of raw), or an error wrapping
// ErrSignatureInvalid when the tag does not match.
func decryptV4(key *signet.Key, raw, f, i []byte) ([]byte, error) {
	if len(raw) < nonceSize+v4TagSize {
		return nil, fmt.Errorf("%w: v4.local token too short", signet.ErrMalformed)
	}
	n, c, t := raw[:nonceSize], raw[nonceSize:len(raw)-v4TagSize], raw[len(raw)-v4TagSize:]
	p := v4Pool(key)
	st := p.get()
	defer p.put(st)
	st.derive(n)
	t2, err := st.tag(n, c, f, i)
	if err != nil {
		return nil, err
	}
	if subtle.ConstantTimeCompare(t, t2) != 1 {
		return nil, errAuth
	}
	s, err := chacha20.NewUnauthenticatedCipher(st.tmp[:32], st.tmp[32:56])
	if err != nil {
		return nil, err
	}
	s.XORKeyStream(c, c)
	return c, nil
}

// assemble writes h ‖ b64(raw) [‖ "." ‖ b64(f)] into out (which has the
// capacity) and returns it as a string, without copying.
func assemble(out, h, raw, f []byte) string {
	out = append(out, h...)
	out = b64.AppendEncode(out, raw)
	if len(f) > 0 {
		out = append(out, '.')
		out = b64.AppendEncode(out, f)
	}
	return bytesToString(out)
}

// messageV4 is what v4.public signs: PAE(h, m, f, i).
func messageV4(m, f, i []byte) []byte {
	return pae.Append(make([]byte, 0, pae.Len(len(v4PublicHeader), len(m), len(f), len(i))), v4PublicHeader, m, f, i)
}
