package study

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"hash"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/signet-go/signet"
)

// LibFloor is the "floor" library: no JWT or PASETO library at all, the
// raw primitive of Floor run per request in the study's handler shape. Its
// rows measure what the primitive costs inside a server (between the
// kernel's networking, net/http and the collector) rather than in a tight
// loop, so that a library's row can be set beside what no library can
// beat in the same server.
const LibFloor = "floor"

// FloorAlgs are the algorithms the floor library serves: the JWS ones and
// v4.public (v4.local's floor is measured in a loop only).
var FloorAlgs = append(slices.Clone(JWTAlgs), "v4.public")

// errFloorRefused is the floor's own refusal: the primitive rejected the
// token, or its last segment is not a signature of the algorithm's shape.
var errFloorRefused = errors.New("signature or encoding refused by the primitive")

// floorTokens is the floor library. Issue runs the floor's Sign (the raw
// signature over the bytes of a token signet issued once, at start) and
// answers that pre-made token: the same length, the same JSON response.
// Check runs the raw verification over the request's token (the SHA-256
// of the signing input or PAE included, as in Floor.Verify, plus the
// base64 decoding of the signature that the wire form needs) and answers
// the study's identity (user 1, alice) without decoding the claims: no
// header, no claims, no exp. Floors are not safe for concurrent use (the
// HMAC state is reused), so Issue takes one from a pool.
type floorTokens struct {
	alg    string
	token  string
	floors sync.Pool // *Floor
	verify func(tok string) bool
	signet Tokens // writes the /check tokens file (WriteTokens)
}

func newFloor(alg, size string, k *Keys) (*floorTokens, error) {
	if !slices.Contains(FloorAlgs, alg) {
		return nil, fmt.Errorf("%w: study: the floor library does not do %q (algorithms: %v)", signet.ErrUnsupported, alg, FloorAlgs)
	}
	first, err := NewFloor(alg, size, k)
	if err != nil {
		return nil, err
	}
	sig, err := New(LibSignet, alg, size, k)
	if err != nil {
		return nil, err
	}
	f := &floorTokens{alg: alg, token: first.Token, signet: sig}
	f.floors.New = func() any {
		fl, err := NewFloor(alg, size, k)
		if err != nil {
			return nil
		}
		return fl
	}
	f.floors.Put(first)
	if f.verify, err = floorVerifier(alg, k); err != nil {
		return nil, err
	}
	return f, nil
}

func (f *floorTokens) Lib() string { return LibFloor }
func (f *floorTokens) Alg() string { return f.alg }

// Issue signs the floor's bytes and answers the pre-made token, whatever
// now and userID.
func (f *floorTokens) Issue(time.Time, uint) (string, error) {
	fl, _ := f.floors.Get().(*Floor)
	if fl == nil {
		return "", fmt.Errorf("study: floor %s: cannot make a floor", f.alg)
	}
	fl.Sign()
	f.floors.Put(fl)
	return f.token, nil
}

// Check verifies token's signature with the raw primitive and answers the
// study's identity.
func (f *floorTokens) Check(token string) (Identity, error) {
	if !f.verify(token) {
		return Identity{}, refused(LibFloor, errFloorRefused)
	}
	return Identity{UserID: UserID, Username: Username}, nil
}

// floorVerifier returns the raw verification of alg over a token in its
// wire form.
func floorVerifier(alg string, k *Keys) (func(string) bool, error) {
	if alg == "v4.public" {
		pub := k.Ed25519.Public().(ed25519.PublicKey)
		h := "v4.public."
		return func(tok string) bool {
			body, err := pasetoParts(tok, h)
			if err != nil || len(body) < ed25519.SignatureSize {
				return false
			}
			m, sig := body[:len(body)-ed25519.SignatureSize], body[len(body)-ed25519.SignatureSize:]
			return ed25519.Verify(pub, pae(nil, []byte(h), m, nil, nil), sig)
		}, nil
	}
	var check func(input, sig []byte) bool
	digest := func(input []byte) []byte { d := sha256.Sum256(input); return d[:] }
	switch alg {
	case "HS256":
		macs := sync.Pool{New: func() any { return hmac.New(sha256.New, k.HMAC) }}
		check = func(input, sig []byte) bool {
			mac := macs.Get().(hash.Hash)
			mac.Reset()
			mac.Write(input)
			var buf [sha256.Size]byte
			ok := hmac.Equal(mac.Sum(buf[:0]), sig)
			macs.Put(mac)
			return ok
		}
	case "RS256":
		check = func(input, sig []byte) bool {
			return rsa.VerifyPKCS1v15(&k.RSA.PublicKey, crypto.SHA256, digest(input), sig) == nil
		}
	case "PS256":
		pss := &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash}
		check = func(input, sig []byte) bool {
			return rsa.VerifyPSS(&k.RSA.PublicKey, crypto.SHA256, digest(input), sig, pss) == nil
		}
	case "ES256":
		check = func(input, sig []byte) bool {
			der, ok := derP256(sig)
			return ok && ecdsa.VerifyASN1(&k.P256.PublicKey, digest(input), der)
		}
	case "EdDSA":
		pub := k.Ed25519.Public().(ed25519.PublicKey)
		check = func(input, sig []byte) bool { return ed25519.Verify(pub, input, sig) }
	default:
		return nil, fmt.Errorf("%w: study: no floor for %s", signet.ErrUnsupported, alg)
	}
	return func(tok string) bool {
		dot := strings.LastIndexByte(tok, '.')
		if dot < 0 {
			return false
		}
		sig, err := base64.RawURLEncoding.DecodeString(tok[dot+1:])
		if err != nil {
			return false
		}
		return check([]byte(tok[:dot]), sig)
	}, nil
}

// derP256 is the DER form (SEQUENCE of two INTEGERs) of a JWS ES256
// signature r ‖ s, written by hand: the conversion every Go library pays
// before crypto/ecdsa verifies, without math/big. false when sig is not
// 64 bytes.
func derP256(sig []byte) ([]byte, bool) {
	if len(sig) != 64 {
		return nil, false
	}
	out := make([]byte, 2, 2+2*(2+33))
	out[0] = 0x30
	out = appendDERInt(appendDERInt(out, sig[:32]), sig[32:])
	out[1] = byte(len(out) - 2)
	return out, true
}

// appendDERInt appends the DER INTEGER of the unsigned big-endian v: its
// leading zeros dropped (one kept for zero), a zero byte prefixed when the
// top bit is set.
func appendDERInt(b, v []byte) []byte {
	for len(v) > 1 && v[0] == 0 {
		v = v[1:]
	}
	n := len(v)
	if v[0]&0x80 != 0 {
		n++
	}
	b = append(b, 0x02, byte(n))
	if n > len(v) {
		b = append(b, 0)
	}
	return append(b, v...)
}
