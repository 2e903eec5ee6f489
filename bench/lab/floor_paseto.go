package lab

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha512"
	"crypto/subtle"
	"encoding/asn1"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math/big"
	"strings"

	"golang.org/x/crypto/blake2b"
	"golang.org/x/crypto/chacha20"
	"golang.org/x/crypto/chacha20poly1305"
)

// pasetoFloor is the spec's mandatory cryptography for one token, on a
// message of the same size as the library's, without encoding, claims or
// nonce generation (the nonce is made once):
//
//   - v4.local: both keyed BLAKE2b derivations (keyed states made once
//     and reset per token), XChaCha20 over the claims and the BLAKE2b-256
//     MAC (keyed per token: its key is derived) over PAE(h, n, c, f, i);
//   - v3.local: both HKDF-SHA384 derivations, AES-256-CTR and
//     HMAC-SHA384 over PAE(h, n, c, f, i);
//   - v2.local: XChaCha20-Poly1305 seal or open of the claims with
//     PAE(h, n, f) as additional data;
//   - v4.public, v2.public: Ed25519 over PAE(h, m, f[, i]);
//   - v3.public: ECDSA P-384 with SHA-384 over PAE(pk, h, m, f, i).
//
// seal encrypts or signs, open decrypts or verifies the token seal made,
// forged refuses it with one tag or signature byte flipped.
type pasetoFloor struct {
	seal, open, forged func()
}

var (
	pasetoEncKeyInfo  = []byte("paseto-encryption-key")
	pasetoAuthKeyInfo = []byte("paseto-auth-key-for-aead")
)

// pasetoPAE appends PASETO's pre-authentication encoding of pieces to dst.
func pasetoPAE(dst []byte, pieces ...[]byte) []byte {
	dst = binary.LittleEndian.AppendUint64(dst, uint64(len(pieces)))
	for _, p := range pieces {
		dst = binary.LittleEndian.AppendUint64(dst, uint64(len(p)))
		dst = append(dst, p...)
	}
	return dst
}

// pasetoMessage is the claims of p as the lab's reference library for
// k's version writes them: signet for v3 and v4, o1egl for v2 (signet has
// no v2).
func pasetoMessage(k KeySpec, p *Payload) ([]byte, error) {
	var lib PASETOLib = signetPASETO{}
	if strings.HasPrefix(k.Alg, "v2.") {
		lib = o1eglPASETO{}
	}
	x, err := lib.New(k)
	if err != nil {
		return nil, err
	}
	tok, err := x.Seal(p)
	if err != nil {
		return nil, err
	}
	m, _, err := x.(PASETOOpenerBytes).OpenBytes(tok, nil)
	return m, err
}

func newPASETOFloor(k KeySpec, p *Payload) (*pasetoFloor, error) {
	m, err := pasetoMessage(k, p)
	if err != nil {
		return nil, err
	}
	h := []byte(k.Alg + ".")
	f := &pasetoFloor{}
	switch k.Alg {
	case "v4.local", "v3.local":
		var n [32]byte
		rand.Read(n[:])
		// The MAC input, PAE(h, n, c, f, i), with c written in place.
		pre := pasetoPAE(nil, h, n[:], make([]byte, len(m)), nil, nil)
		off := 8 + 8 + len(h) + 8 + len(n) + 8
		c := pre[off : off+len(m)]
		out := make([]byte, len(m))
		// derive splits the key for this nonce, crypt applies the
		// keystream, tag computes the MAC over pre.
		var derive func()
		var crypt func(dst, src []byte)
		var tag func(dst []byte) []byte
		if k.Alg == "v4.local" {
			var tmp [56]byte
			var ak [32]byte
			// The keyed states are made once and reset per token (a
			// keyed BLAKE2b's Reset keeps its key), as the HMAC floors
			// reuse theirs.
			enc, err := blake2b.New(56, k.Secret)
			if err != nil {
				return nil, err
			}
			auth, err := blake2b.New(32, k.Secret)
			if err != nil {
				return nil, err
			}
			derive = func() {
				enc.Reset()
				enc.Write(pasetoEncKeyInfo)
				enc.Write(n[:])
				enc.Sum(tmp[:0])
				auth.Reset()
				auth.Write(pasetoAuthKeyInfo)
				auth.Write(n[:])
				auth.Sum(ak[:0])
			}
			crypt = func(dst, src []byte) {
				s, _ := chacha20.NewUnauthenticatedCipher(tmp[:32], tmp[32:])
				s.XORKeyStream(dst, src)
			}
			tag = func(dst []byte) []byte {
				mac, _ := blake2b.New(32, ak[:])
				mac.Write(pre)
				return mac.Sum(dst[:0])
			}
		} else {
			encInfo := string(pasetoEncKeyInfo) + string(n[:])
			authInfo := string(pasetoAuthKeyInfo) + string(n[:])
			var tmp, ak []byte
			derive = func() {
				tmp, _ = hkdf.Key(sha512.New384, k.Secret, nil, encInfo, 48)
				ak, _ = hkdf.Key(sha512.New384, k.Secret, nil, authInfo, 48)
			}
			crypt = func(dst, src []byte) {
				block, _ := aes.NewCipher(tmp[:32])
				cipher.NewCTR(block, tmp[32:]).XORKeyStream(dst, src)
			}
			tag = func(dst []byte) []byte {
				mac := hmac.New(sha512.New384, ak)
				mac.Write(pre)
				return mac.Sum(dst[:0])
			}
		}
		// Encrypt-then-MAC; the token's tag is the one seal makes.
		var sum [48]byte
		f.seal = func() { derive(); crypt(c, m); tag(sum[:]) }
		f.seal()
		good := append([]byte(nil), tag(sum[:])...)
		bad := pasetoForged(append(n[:], c...), good)
		// Decrypt checks the tag (in constant time) before deciphering;
		// a forged tag stops there.
		check := func(want []byte) bool { return subtle.ConstantTimeCompare(tag(sum[:]), want) == 1 }
		f.open = func() { derive(); pasetoMust(check(good)); crypt(out, c) }
		f.forged = func() { derive(); pasetoMust(!check(bad)) }
	case "v2.local":
		aead, err := chacha20poly1305.NewX(k.Secret)
		if err != nil {
			return nil, err
		}
		n := make([]byte, chacha20poly1305.NonceSizeX)
		rand.Read(n)
		ad := pasetoPAE(nil, h, n, nil)
		ct := aead.Seal(nil, n, m, ad)
		bad := pasetoForged(n, ct)
		buf, out := make([]byte, 0, len(ct)), make([]byte, 0, len(m))
		f.seal = func() { buf = aead.Seal(buf[:0], n, m, ad) }
		f.open = func() {
			_, err := aead.Open(out[:0], n, ct, ad)
			pasetoMust(err == nil)
		}
		f.forged = func() {
			_, err := aead.Open(out[:0], n, bad, ad)
			pasetoMust(err != nil)
		}
	case "v4.public", "v2.public":
		priv, ok1 := k.Private.(ed25519.PrivateKey)
		pub, ok2 := k.Public.(ed25519.PublicKey)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("lab: %s floor wants an Ed25519 key", k.Alg)
		}
		var msg []byte
		if k.Alg == "v4.public" {
			msg = pasetoPAE(nil, h, m, nil, nil)
		} else {
			msg = pasetoPAE(nil, h, m, nil)
		}
		sig := ed25519.Sign(priv, msg)
		bad := pasetoForged(m, sig)
		f.seal = func() { ed25519.Sign(priv, msg) }
		f.open = func() { pasetoMust(ed25519.Verify(pub, msg, sig)) }
		f.forged = func() { pasetoMust(!ed25519.Verify(pub, msg, bad)) }
	case "v3.public":
		priv, ok1 := k.Private.(*ecdsa.PrivateKey)
		pub, ok2 := k.Public.(*ecdsa.PublicKey)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("lab: %s floor wants a P-384 key", k.Alg)
		}
		pk, err := pub.Bytes() // uncompressed: 0x04 || X || Y
		if err != nil {
			return nil, err
		}
		pkc := append([]byte{0x02 | pk[len(pk)-1]&1}, pk[1:49]...) // compressed
		msg := pasetoPAE(nil, pkc, h, m, nil, nil)
		d := sha512.Sum384(msg)
		sig, err := ecdsa.SignASN1(rand.Reader, priv, d[:])
		if err != nil {
			return nil, err
		}
		// The token carries r ‖ s (96 bytes); forge it there, check DER.
		var rs struct{ R, S *big.Int }
		if _, err := asn1.Unmarshal(sig, &rs); err != nil {
			return nil, err
		}
		raw := make([]byte, 96)
		rs.R.FillBytes(raw[:48])
		rs.S.FillBytes(raw[48:])
		raw = pasetoForged(m, raw)
		rs.R, rs.S = new(big.Int).SetBytes(raw[:48]), new(big.Int).SetBytes(raw[48:])
		bad, err := asn1.Marshal(rs)
		if err != nil {
			return nil, err
		}
		f.seal = func() {
			d := sha512.Sum384(msg)
			_, err := ecdsa.SignASN1(rand.Reader, priv, d[:])
			pasetoMust(err == nil)
		}
		f.open = func() {
			d := sha512.Sum384(msg)
			pasetoMust(ecdsa.VerifyASN1(pub, d[:], sig))
		}
		f.forged = func() {
			d := sha512.Sum384(msg)
			pasetoMust(!ecdsa.VerifyASN1(pub, d[:], bad))
		}
	default:
		return nil, fmt.Errorf("lab: no floor for %s", k.Alg)
	}
	return f, nil
}

// pasetoTagSize is the size of the tag or signature that ends a token of
// purpose (without footer).
func pasetoTagSize(purpose string) int {
	switch purpose {
	case "v4.local":
		return 32
	case "v3.local":
		return 48
	case "v2.local":
		return 16 // Poly1305
	case "v3.public":
		return 96
	}
	return 64 // Ed25519
}

// pasetoForge changes one base64url character in the middle of the tag
// or signature (tail bytes) that ends tok. The middle, not the end: a
// changed last byte of an Ed25519 signature makes S non-canonical, which
// is refused before any curve arithmetic, so that the cost of refusing
// would depend on the signature's bytes.
func pasetoForge(tok string, tail int) string {
	b := []byte(tok)
	i := len(b) - tail*4/3/2
	if b[i] == 'A' {
		b[i] = 'B'
	} else {
		b[i] = 'A'
	}
	return string(b)
}

// pasetoForged returns tail as it is in a token whose payload part
// encodes head ‖ tail once pasetoForge has changed it: the floor refuses
// the same forgery as the libraries.
func pasetoForged(head, tail []byte) []byte {
	enc := base64.RawURLEncoding.EncodeToString(append(append([]byte(nil), head...), tail...))
	dec, err := base64.RawURLEncoding.DecodeString(pasetoForge(enc, len(tail)))
	if err != nil || bytes.Equal(dec[len(dec)-len(tail):], tail) {
		panic("lab: PASETO floor: forge changed nothing")
	}
	return dec[len(dec)-len(tail):]
}

// pasetoMust panics when a floor's own check fails.
func pasetoMust(ok bool) {
	if !ok {
		panic("lab: PASETO floor self-check failed")
	}
}
