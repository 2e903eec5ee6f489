package jwe

import (
	"crypto/sha256"
	"encoding/binary"
)

// concatKDF derives size bytes from the ECDH shared secret z as RFC 7518
// §4.6.2 says (NIST SP 800-56A Concat KDF, SHA-256): AlgorithmID is algID
// (the enc for ECDH-ES, the alg for ECDH-ES+A*KW), PartyUInfo apu,
// PartyVInfo apv, SuppPubInfo the key size in bits, no SuppPrivInfo.
func concatKDF(dst, z []byte, algID string, apu, apv []byte, size int) []byte {
	var n4 [4]byte
	keyBits := uint32(8 * size)
	h := sha256.New()
	for counter := uint32(1); size > 0; counter++ {
		h.Reset()
		binary.BigEndian.PutUint32(n4[:], counter)
		h.Write(n4[:])
		h.Write(z)
		binary.BigEndian.PutUint32(n4[:], uint32(len(algID)))
		h.Write(n4[:])
		h.Write([]byte(algID))
		binary.BigEndian.PutUint32(n4[:], uint32(len(apu)))
		h.Write(n4[:])
		h.Write(apu)
		binary.BigEndian.PutUint32(n4[:], uint32(len(apv)))
		h.Write(n4[:])
		h.Write(apv)
		binary.BigEndian.PutUint32(n4[:], keyBits)
		h.Write(n4[:])
		var sum [32]byte
		out := h.Sum(sum[:0])
		take := min(size, len(out))
		dst = append(dst, out[:take]...)
		size -= take
	}
	return dst
}
