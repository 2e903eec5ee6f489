package signet

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"fmt"
)

// SignatureSize returns the size in bytes of the key's signatures.
func (k *Key) SignatureSize() int {
	if k.isZero() {
		return 0
	}
	if k.rsaPub != nil {
		return k.rsaPub.Size()
	}
	return k.spec.sigSize
}

// Sign appends to dst the signature of msg under the key's algorithm, in the
// JOSE encoding (RFC 7518): the MAC for HMAC, r‖s of fixed size for ECDSA,
// the raw signature for RSA and Ed25519. The hash, where the algorithm has
// one, is computed here. Signing with a public key fails with ErrKeyUsage.
func (k *Key) Sign(dst, msg []byte) ([]byte, error) {
	if k.isZero() {
		return dst, errZeroKey
	}
	sp := k.spec
	switch sp.family {
	case famLocal, famDir, famAESKW, famECDH, famRSAOAEP, famPBES2:
		return dst, k.notSigning()
	case famHMAC:
		st := k.hmacState()
		st.h.Reset()
		st.h.Write(msg)
		dst = append(dst, st.h.Sum(st.sum[:0])...)
		k.putHMAC(st)
		return dst, nil
	case famEd25519:
		if k.edPri == nil {
			return dst, k.noPrivate()
		}
		return append(dst, ed25519.Sign(k.edPri[:], msg)...), nil
	}
	var buf [64]byte
	digest := hashInto(buf[:0], sp.hash, msg)
	switch sp.family {
	case famRSA, famPSS:
		if k.rsaPri == nil {
			return dst, k.noPrivate()
		}
		var sig []byte
		var err error
		if sp.family == famRSA {
			sig, err = rsa.SignPKCS1v15(nil, k.rsaPri, sp.hash, digest)
		} else {
			sig, err = rsa.SignPSS(rand.Reader, k.rsaPri, sp.hash, digest, &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash})
		}
		if err != nil {
			return dst, fmt.Errorf("signet: %s sign: %w", sp.name, err)
		}
		return append(dst, sig...), nil
	default: // famECDSA
		if k.ecPri == nil {
			return dst, k.noPrivate()
		}
		der, err := ecdsa.SignASN1(rand.Reader, k.ecPri, digest)
		if err != nil {
			return dst, fmt.Errorf("signet: %s sign: %w", sp.name, err)
		}
		out, ok := derToRaw(dst, der, sp.sigSize/2)
		if !ok {
			return dst, fmt.Errorf("signet: %s sign: unexpected signature encoding", sp.name)
		}
		if sp.name == V3Public {
			// PASETO v3.public signatures are low-S, as strict verifiers expect.
			lowS(out[len(out)-sp.sigSize/2:], sp)
		}
		return out, nil
	}
}

func (k *Key) notSigning() error {
	return fmt.Errorf("%w: %s is an encryption key, it neither signs nor verifies", ErrKeyUsage, k.spec.name)
}

func (k *Key) noPrivate() error {
	return fmt.Errorf("%w: %s key is public, cannot sign", ErrKeyUsage, k.spec.name)
}

// Verify checks sig over msg with the key's algorithm. A signature that does
// not verify, or has the wrong size or encoding for the algorithm, returns
// an error wrapping ErrSignatureInvalid. MAC comparison is constant-time.
func (k *Key) Verify(msg, sig []byte) error {
	if k.isZero() {
		return errZeroKey
	}
	sp := k.spec
	switch sp.family {
	case famLocal, famDir, famAESKW, famECDH, famRSAOAEP, famPBES2:
		return k.notSigning()
	case famHMAC:
		st := k.hmacState()
		st.h.Reset()
		st.h.Write(msg)
		ok := hmac.Equal(st.h.Sum(st.sum[:0]), sig)
		k.putHMAC(st)
		if !ok {
			return errInvalid(sp)
		}
		return nil
	case famEd25519:
		if len(sig) != ed25519.SignatureSize || !ed25519.Verify(k.edPub[:], msg, sig) {
			return errInvalid(sp)
		}
		return nil
	}
	var buf [64]byte
	digest := hashInto(buf[:0], sp.hash, msg)
	switch sp.family {
	case famRSA:
		if len(sig) != k.rsaPub.Size() || rsa.VerifyPKCS1v15(k.rsaPub, sp.hash, digest, sig) != nil {
			return errInvalid(sp)
		}
	case famPSS:
		if len(sig) != k.rsaPub.Size() || rsa.VerifyPSS(k.rsaPub, sp.hash, digest, sig, &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash}) != nil {
			return errInvalid(sp)
		}
	default: // famECDSA
		n := sp.sigSize / 2
		if len(sig) != sp.sigSize || !scalarInRange(sig[:n], sp) || !scalarInRange(sig[n:], sp) {
			return errInvalid(sp)
		}
		var der [3 + 2*(3+67)]byte
		if !ecdsa.VerifyASN1(k.ecPub, digest, rawToDER(der[:0], sig[:n], sig[n:])) {
			return errInvalid(sp)
		}
	}
	return nil
}

// errInvalid is made once per algorithm: rejecting a forgery formats nothing.
func errInvalid(sp *spec) error { return sp.invalid }

func hashInto(dst []byte, h crypto.Hash, msg []byte) []byte {
	switch h {
	case crypto.SHA256:
		s := sha256Sum(msg)
		return append(dst, s[:]...)
	case crypto.SHA384:
		s := sha384Sum(msg)
		return append(dst, s[:]...)
	default:
		s := sha512Sum(msg)
		return append(dst, s[:]...)
	}
}
