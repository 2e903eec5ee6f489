package jwe

import (
	"crypto/cipher"
	"crypto/rand"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/b64"
)

// PBES2Runs counts the PBKDF2 derivations made (tests check that a hostile
// p2c causes none).
func PBES2Runs() int64 { return pbes2Runs.Load() }

// SealDir returns a token whose protected header is exactly header, sealed
// with a dir key's own CEK, with the given encrypted key segment: for
// tests of header handling that need a token that authenticates.
func SealDir(key *signet.Key, header, ek string, pt []byte) string {
	st := stateOf(key)
	c := st.ce
	hdr := b64.EncodeToString([]byte(header))
	raw := make([]byte, c.ivSize+c.ctSize(len(pt))+c.tagSize)
	rand.Read(raw[:c.ivSize])
	copy(raw[c.ivSize:], pt)
	ct, tag := st.dir.seal(raw[c.ivSize:], raw[:c.ivSize], len(pt), []byte(hdr))
	return hdr + "." + ek + "." + b64.EncodeToString(raw[:c.ivSize]) + "." + b64.EncodeToString(ct) + "." + b64.EncodeToString(tag)
}

// SealCBCBadPadding returns a dir A*CBC-HS* token whose last block
// decrypts to bad padding under a valid tag: the sender's own mistake,
// which only the key's holder can make.
func SealCBCBadPadding(key *signet.Key, header string) string {
	st := stateOf(key)
	c := st.ce
	hdr := b64.EncodeToString([]byte(header))
	raw := make([]byte, c.ivSize+32+c.tagSize)
	rand.Read(raw[:c.ivSize])
	pt := raw[c.ivSize : c.ivSize+32]
	for i := range pt {
		pt[i] = 'x'
	}
	pt[31] = 0 // padding byte 0: never valid
	iv := raw[:c.ivSize]
	cipher.NewCBCEncrypter(st.dir.block, iv).CryptBlocks(pt, pt)
	tag := st.dir.mac(nil, []byte(hdr), iv, pt)
	return hdr + ".." + b64.EncodeToString(iv) + "." + b64.EncodeToString(pt) + "." + b64.EncodeToString(tag)
}
