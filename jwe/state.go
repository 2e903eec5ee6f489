package jwe

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/rsa"
	"fmt"
	"sync/atomic"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/keycache"
)

// keyState is what package jwe derives from a signet key once, for the
// key's life, kept in the key's cache (internal/keycache): the prepared
// content cipher of a dir key, the AES key-wrapping cipher, the parsed
// ECDH or RSA key, and the encoded header.
type keyState struct {
	err      error // why the key cannot be used here, or nil
	km       *km
	ce       *ce
	dir      *contentKey  // dir: the key itself, ready
	kek      cipher.Block // A*KW
	kekGCM   cipher.AEAD  // A*GCMKW
	ecPri    *ecdh.PrivateKey
	ecPub    *ecdh.PublicKey
	crv      string // ECDH: the JWK crv of the key's curve
	rsaPri   *rsa.PrivateKey
	rsaPub   *rsa.PublicKey
	password []byte
	hdr      atomic.Pointer[hdrEntry] // the header of the key's last key ID
}

// hdrEntry is a key's encoded static header (dir, A*KW, RSA-OAEP-256:
// {"alg":…,"enc":…,"kid":…}) for one key ID.
type hdrEntry struct {
	kid   string
	b64   []byte
	exact bool // parsing the header gives kid back (staticHeaderOf)
}

type stateID struct{}

// stateOf returns key's state; key is a JWE key (checked by the caller).
func stateOf(key *signet.Key) *keyState {
	return keycache.Get(key, stateID{}, newState).(*keyState)
}

func newState(key *signet.Key) any {
	st := &keyState{km: kmOf(key.Algorithm()), ce: ceOf(key.Encryption())}
	if st.km == nil || st.ce == nil {
		st.err = fmt.Errorf("%w: %s is not a JWE key", signet.ErrAlgorithmMismatch, key.Algorithm())
		return st
	}
	var err error
	switch st.km.kind {
	case kindDir:
		secret := key.Secret()
		st.dir, err = newContentKey(st.ce, secret)
		clear(secret)
	case kindKW, kindGCMKW:
		secret := key.Secret()
		var b cipher.Block
		if b, err = aes.NewCipher(secret); err == nil {
			if st.km.kind == kindKW {
				st.kek = b
			} else {
				st.kekGCM, err = cipher.NewGCM(b)
			}
		}
		clear(secret)
	case kindPBES2:
		st.password = key.Secret()
	case kindECDH, kindECDHKW:
		if pri, ok := key.Material().(*ecdh.PrivateKey); ok {
			st.ecPri, st.ecPub = pri, pri.PublicKey()
		} else if pub, ok := key.PublicMaterial().(*ecdh.PublicKey); ok {
			st.ecPub = pub
		} else {
			err = fmt.Errorf("%w: %s key without an ECDH key", signet.ErrKeyUsage, key.Algorithm())
			break
		}
		switch st.ecPub.Curve() {
		case ecdh.P256():
			st.crv = "P-256"
		case ecdh.P384():
			st.crv = "P-384"
		default:
			st.crv = "X25519"
		}
	case kindRSA:
		if pri, ok := key.Material().(*rsa.PrivateKey); ok {
			st.rsaPri, st.rsaPub = pri, &pri.PublicKey
		} else if pub, ok := key.PublicMaterial().(*rsa.PublicKey); ok {
			st.rsaPub = pub
		} else {
			err = fmt.Errorf("%w: %s key without an RSA key", signet.ErrKeyUsage, key.Algorithm())
		}
	}
	if err != nil {
		st.err = fmt.Errorf("jwe: %s key: %w", key.Algorithm(), err)
	}
	return st
}

// coordSize is the size of a coordinate of the key's curve.
func (st *keyState) coordSize() int {
	switch st.crv {
	case "P-256", "X25519":
		return 32
	}
	return 48
}
