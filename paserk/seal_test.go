package paserk_test

import (
	"crypto/ed25519"
	"errors"
	"strings"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/paserk"
)

func TestSealRoundTrip(t *testing.T) {
	for _, ver := range []struct{ local, public signet.Algorithm }{
		{signet.V4Local, signet.V4Public}, {signet.V3Local, signet.V3Public},
	} {
		// Several recipients, so that both parities of the Edwards x and
		// of the P-384 y are met.
		for range 8 {
			sk := generate(t, ver.public)
			k := generate(t, ver.local)
			s, err := paserk.Seal(k, publicOf(t, sk))
			if err != nil {
				t.Fatalf("Seal: %v", err)
			}
			got, err := paserk.Unseal(s, sk)
			if err != nil || !got.Equal(k) || got.Algorithm() != ver.local {
				t.Fatalf("Unseal(Seal(%s)): %v", ver.local, err)
			}
			// Another recipient cannot unseal it.
			_, err = paserk.Unseal(s, generate(t, ver.public))
			wantErr(t, err, signet.ErrSignatureInvalid)
		}
		sk := generate(t, ver.public)
		s, _ := paserk.Seal(generate(t, ver.local), publicOf(t, sk))
		n := len(s[strings.LastIndexByte(s, '.')+1:]) * 6 / 8
		for i := 0; i < n; i++ {
			_, err := paserk.Unseal(tamper(t, s, i), sk)
			if err == nil {
				t.Fatalf("byte %d changed: unsealed", i)
			}
			// A changed ephemeral key may be no point at all.
			if !errors.Is(err, signet.ErrSignatureInvalid) && !errors.Is(err, signet.ErrMalformed) {
				t.Fatalf("byte %d changed: %v", i, err)
			}
		}
		_, err := paserk.Unseal(s[:len(s)-4], sk)
		wantErr(t, err, signet.ErrMalformed)
	}
}

func TestSealRefusals(t *testing.T) {
	l4, l3 := generate(t, signet.V4Local), generate(t, signet.V3Local)
	s4, s3 := generate(t, signet.V4Public), generate(t, signet.V3Public)
	sealed4, err := paserk.Seal(l4, s4)
	if err != nil {
		t.Fatal(err)
	}
	sealed3, err := paserk.Seal(l3, s3)
	if err != nil {
		t.Fatal(err)
	}

	// Cross-version.
	_, err = paserk.Seal(l4, s3)
	wantErr(t, err, signet.ErrAlgorithmMismatch)
	_, err = paserk.Seal(l3, publicOf(t, s4))
	wantErr(t, err, signet.ErrAlgorithmMismatch)
	_, err = paserk.Unseal(sealed4, s3)
	wantErr(t, err, signet.ErrAlgorithmMismatch)
	_, err = paserk.Unseal(sealed3, s4)
	wantErr(t, err, signet.ErrAlgorithmMismatch)

	// Kinds of keys.
	_, err = paserk.Seal(s4, publicOf(t, s4)) // only local keys are sealed
	wantErr(t, err, signet.ErrKeyUsage)
	_, err = paserk.Seal(l4, generate(t, signet.V4Local)) // to a public-key key
	wantErr(t, err, signet.ErrKeyUsage)
	_, err = paserk.Unseal(sealed4, publicOf(t, s4)) // needs the private key
	wantErr(t, err, signet.ErrKeyUsage)
	_, err = paserk.Unseal(sealed4, l4)
	wantErr(t, err, signet.ErrKeyUsage)
	_, err = paserk.Unseal(sealed4, generate(t, signet.EdDSA))
	wantErr(t, err, signet.ErrUnsupported)
	_, err = paserk.Seal(l4, nil)
	wantErr(t, err, signet.ErrKeyUsage)
	_, err = paserk.Unseal(sealed4, nil)
	wantErr(t, err, signet.ErrKeyUsage)

	// Unseal reads only seals.
	w, _ := paserk.Wrap(l4, generate(t, signet.V4Local))
	_, err = paserk.Unseal(w, s4)
	wantErr(t, err, signet.ErrUnsupported)

	// A low-order Ed25519 recipient (y = 0, order 4; the k4.public-1
	// vector's key) would give an all-zero shared secret, and the identity
	// (y = 1) has no X25519 counterpart: no key can be made of either, so
	// nothing can be sealed to them (Seal's own checks stay as a second
	// line).
	identity := make([]byte, 32)
	identity[0] = 1
	for _, pk := range [][]byte{make([]byte, 32), identity} {
		_, err = signet.NewKey(signet.V4Public, ed25519.PublicKey(pk))
		wantErr(t, err, signet.ErrWeakKey)
		_, err = paserk.Decode("k4.public." + b64(pk))
		wantErr(t, err, signet.ErrWeakKey)
	}

	// A low-order ephemeral key in a seal: refused before the tag.
	d, _ := b64Decode(sealed4[len("k4.seal."):])
	clear(d[32:64])
	_, err = paserk.Unseal("k4.seal."+b64(d), s4)
	wantErr(t, err, signet.ErrMalformed)
	// A k3 ephemeral key off the curve.
	d, _ = b64Decode(sealed3[len("k3.seal."):])
	clear(d[48:97])
	d[48], d[96] = 2, 1
	_, err = paserk.Unseal("k3.seal."+b64(d), s3)
	wantErr(t, err, signet.ErrMalformed)
}
