package study

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/asn1"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"golang.org/x/crypto/blake2b"
	"golang.org/x/crypto/chacha20"
)

// A Floor is the raw primitive of one algorithm on the bytes of one
// token: what any library must at least compute to issue (Sign) or check
// (Verify) it, without encoding, claims or parsing. The bytes are those of
// signet's token for the payload class (the other library's differ by a
// few header bytes):
//
//   - JWS: the primitive over the signing input header.payload: HMAC-SHA256
//     on a keyed state made once and reset per token; RSA PKCS #1 v1.5 or
//     PSS and ECDSA P-256, the SHA-256 of the input included (ECDSA
//     verifies the DER form of the token's r ‖ s, converted once outside
//     the loop); Ed25519.
//   - v4.public: Ed25519 over PAE(h, m, f, i).
//   - v4.local: both keyed BLAKE2b derivations (keyed states made once),
//     XChaCha20 over the claims and the BLAKE2b-256 MAC over
//     PAE(h, n, c, f, i); checking compares the tag, then deciphers.
//
// Verify panics if the primitive refuses the token: the floor is broken.
type Floor struct {
	Alg, Size string
	// Token is signet's token whose bytes Sign and Verify work on.
	Token        string
	Sign, Verify func()
	// Forged checks the token with one signature or tag bit flipped and
	// panics if the primitive accepts it (the tests' self-check).
	Forged func()
}

// NewFloor returns the floor of alg for the payload class size, on keys k.
func NewFloor(alg, size string, k *Keys) (*Floor, error) {
	t, err := New(LibSignet, alg, size, k)
	if err != nil {
		return nil, err
	}
	tok, err := t.Issue(time.Now(), UserID)
	if err != nil {
		return nil, err
	}
	f := &Floor{Alg: alg, Size: size, Token: tok}
	switch alg {
	case "v4.public":
		err = f.v4Public(tok, k)
	case "v4.local":
		err = f.v4Local(tok, k)
	default:
		err = f.jws(tok, k)
	}
	if err != nil {
		return nil, err
	}
	f.Verify()
	f.Forged()
	return f, nil
}

func (f *Floor) jws(tok string, k *Keys) error {
	dot := strings.LastIndexByte(tok, '.')
	input := []byte(tok[:dot])
	sig, err := base64.RawURLEncoding.DecodeString(tok[dot+1:])
	if err != nil {
		return err
	}
	bad := flip(sig)
	digest := func() []byte { d := sha256.Sum256(input); return d[:] }
	var check func(s []byte) bool
	switch f.Alg {
	case "HS256":
		mac := hmac.New(sha256.New, k.HMAC)
		buf := make([]byte, 0, sha256.Size)
		f.Sign = func() { mac.Reset(); mac.Write(input); buf = mac.Sum(buf[:0]) }
		check = func(s []byte) bool { mac.Reset(); mac.Write(input); buf = mac.Sum(buf[:0]); return hmac.Equal(buf, s) }
	case "RS256":
		f.Sign = func() { _, err := rsa.SignPKCS1v15(nil, k.RSA, crypto.SHA256, digest()); must(err == nil) }
		check = func(s []byte) bool { return rsa.VerifyPKCS1v15(&k.RSA.PublicKey, crypto.SHA256, digest(), s) == nil }
	case "PS256":
		pss := &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash}
		f.Sign = func() { _, err := rsa.SignPSS(rand.Reader, k.RSA, crypto.SHA256, digest(), pss); must(err == nil) }
		check = func(s []byte) bool { return rsa.VerifyPSS(&k.RSA.PublicKey, crypto.SHA256, digest(), s, pss) == nil }
	case "ES256":
		f.Sign = func() { _, err := ecdsa.SignASN1(rand.Reader, k.P256, digest()); must(err == nil) }
		good, err := derSig(sig)
		if err != nil {
			return err
		}
		forged, err := derSig(bad)
		if err != nil {
			return err
		}
		f.Verify = func() { must(ecdsa.VerifyASN1(&k.P256.PublicKey, digest(), good)) }
		f.Forged = func() { must(!ecdsa.VerifyASN1(&k.P256.PublicKey, digest(), forged)) }
		return nil
	case "EdDSA":
		pub := k.Ed25519.Public().(ed25519.PublicKey)
		f.Sign = func() { ed25519.Sign(k.Ed25519, input) }
		check = func(s []byte) bool { return ed25519.Verify(pub, input, s) }
	default:
		return fmt.Errorf("%w: study: no floor for %s", signet.ErrUnsupported, f.Alg)
	}
	f.Verify = func() { must(check(sig)) }
	f.Forged = func() { must(!check(bad)) }
	return nil
}

// derSig converts a JWS ECDSA signature (r ‖ s) to the DER form
// crypto/ecdsa verifies.
func derSig(sig []byte) ([]byte, error) {
	n := len(sig) / 2
	return asn1.Marshal(struct{ R, S *big.Int }{new(big.Int).SetBytes(sig[:n]), new(big.Int).SetBytes(sig[n:])})
}

// pasetoParts splits a PASETO token without footer into its header
// ("v4.public.") and decoded body.
func pasetoParts(tok, header string) ([]byte, error) {
	rest, ok := strings.CutPrefix(tok, header)
	if !ok || strings.Contains(rest, ".") {
		return nil, fmt.Errorf("%w: study: not a %s token without footer", signet.ErrMalformed, header)
	}
	return base64.RawURLEncoding.DecodeString(rest)
}

func (f *Floor) v4Public(tok string, k *Keys) error {
	h := "v4.public."
	body, err := pasetoParts(tok, h)
	if err != nil {
		return err
	}
	if len(body) < ed25519.SignatureSize {
		return fmt.Errorf("%w: study: short v4.public token", signet.ErrMalformed)
	}
	m, sig := body[:len(body)-ed25519.SignatureSize], body[len(body)-ed25519.SignatureSize:]
	msg := pae(nil, []byte(h), m, nil, nil)
	pub := k.Ed25519.Public().(ed25519.PublicKey)
	bad := flip(sig)
	f.Sign = func() { ed25519.Sign(k.Ed25519, msg) }
	f.Verify = func() { must(ed25519.Verify(pub, msg, sig)) }
	f.Forged = func() { must(!ed25519.Verify(pub, msg, bad)) }
	return nil
}

func (f *Floor) v4Local(tok string, k *Keys) error {
	h := []byte("v4.local.")
	body, err := pasetoParts(tok, string(h))
	if err != nil {
		return err
	}
	if len(body) < 32+32 {
		return fmt.Errorf("%w: study: short v4.local token", signet.ErrMalformed)
	}
	n, c, want := body[:32], body[32:len(body)-32], body[len(body)-32:]
	enc, err := blake2b.New(56, k.Local)
	if err != nil {
		return err
	}
	auth, err := blake2b.New(32, k.Local)
	if err != nil {
		return err
	}
	var tmp [56]byte
	var ak, sum [32]byte
	derive := func() {
		enc.Reset()
		enc.Write([]byte("paseto-encryption-key"))
		enc.Write(n)
		enc.Sum(tmp[:0])
		auth.Reset()
		auth.Write([]byte("paseto-auth-key-for-aead"))
		auth.Write(n)
		auth.Sum(ak[:0])
	}
	crypt := func(dst, src []byte) {
		s, err := chacha20.NewUnauthenticatedCipher(tmp[:32], tmp[32:])
		must(err == nil)
		s.XORKeyStream(dst, src)
	}
	// pre is PAE(h, n, c, f, i) with c in place: sealing writes the
	// ciphertext there, then MACs pre.
	pre := pae(nil, h, n, c, nil, nil)
	off := 8 + 8 + len(h) + 8 + len(n) + 8
	pc := pre[off : off+len(c)]
	tag := func() []byte {
		mac, err := blake2b.New(32, ak[:])
		must(err == nil)
		mac.Write(pre)
		return mac.Sum(sum[:0])
	}
	// The plaintext, to seal: the token's own claims.
	derive()
	m := make([]byte, len(c))
	crypt(m, c)
	out := make([]byte, len(c))
	f.Sign = func() { derive(); crypt(pc, m); tag() }
	f.Verify = func() { derive(); must(subtle.ConstantTimeCompare(tag(), want) == 1); crypt(out, pc) }
	bad := flip(want)
	f.Forged = func() { derive(); must(subtle.ConstantTimeCompare(tag(), bad) == 0) }
	return nil
}

// pae is PASETO's pre-authentication encoding of pieces, appended to dst.
func pae(dst []byte, pieces ...[]byte) []byte {
	dst = binary.LittleEndian.AppendUint64(dst, uint64(len(pieces)))
	for _, p := range pieces {
		dst = binary.LittleEndian.AppendUint64(dst, uint64(len(p)))
		dst = append(dst, p...)
	}
	return dst
}

// flip returns a copy of b with one bit of its middle byte flipped.
func flip(b []byte) []byte {
	c := append([]byte(nil), b...)
	c[len(c)/2] ^= 1
	return c
}

// must panics when a floor's own check fails: the floor is broken.
func must(ok bool) {
	if !ok {
		panic("study: floor self-check failed")
	}
}

// Op returns the floor's function for a scenario operation: Sign for
// "issue", Verify for "check".
func (f *Floor) Op(op string) (func(), error) {
	switch op {
	case "issue":
		return f.Sign, nil
	case "check":
		return f.Verify, nil
	}
	return nil, fmt.Errorf("%w: study: no floor for operation %q", signet.ErrUnsupported, op)
}

// Cost measures fn's time per call with testing.Benchmark (one second of
// calls, the default benchtime) at GOMAXPROCS=1, as the servers run,
// runs times, and returns the fastest: a primitive's cost is what it takes
// when nothing else interferes, and a shared machine only adds to it.
// GOMAXPROCS is restored after. It is the primitive's cost in the bound
// 1 / (hello's CPU per request + cost). A panic of fn (a broken floor) is
// returned as an error, before any measurement.
func Cost(fn func(), runs int) (ns float64, err error) {
	if runs < 1 {
		return 0, fmt.Errorf("%w: study: Cost: %d runs", signet.ErrMalformed, runs)
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("study: floor: %v", r)
		}
	}()
	fn() // fail here, not inside the benchmark's goroutine
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	for range runs {
		r := testing.Benchmark(func(b *testing.B) {
			for b.Loop() {
				fn()
			}
		})
		if r.N == 0 {
			return 0, errors.New("study: floor: no iterations")
		}
		if v := float64(r.T.Nanoseconds()) / float64(r.N); ns == 0 || v < ns {
			ns = v
		}
	}
	return ns, nil
}
