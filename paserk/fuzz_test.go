package paserk_test

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/paserk"
)

// seedStrings returns the PASERK strings of every vector file, for the
// fuzz corpora.
func seedStrings(f testing.TB) []string {
	var seeds []string
	for _, file := range vectorFiles {
		for _, v := range loadVectors(f, file) {
			if v.Paserk != nil {
				seeds = append(seeds, *v.Paserk)
			}
		}
	}
	return append(seeds,
		"", ".", "k4", "k4.", "k4..", "k4.local.", "k4.local.A", "k4.local.AA==",
		"k3.public.AgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAB",
		"k4.local-wrap.pie.", "k4.local-wrap.aws-kms.AAAA", "k1.local.AAAA", "k9999999999.x.y",
		// Small-order and non-canonical Ed25519 keys (ErrWeakKey).
		"k4.public.AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
		"k4.public.7P_______________________________________38",
		"k4.public._________________________________________38",
	)
}

func FuzzDecode(f *testing.F) {
	for _, s := range seedStrings(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k, err := paserk.Decode(s)
		if err != nil {
			if k != nil {
				t.Fatal("key returned with an error")
			}
			if !isSentinel(err) {
				t.Fatalf("error wraps no sentinel: %v", err)
			}
			return
		}
		// Decoding is strict, so every accepted string is the one
		// encoding of its key.
		out, err := paserk.Encode(k)
		if err != nil {
			t.Fatalf("Encode(Decode(%q)): %v", s, err)
		}
		if out != s {
			t.Fatalf("Decode accepted a non-canonical %q (canonical %q)", s, out)
		}
		if _, err := paserk.ID(k); err != nil {
			t.Fatalf("ID: %v", err)
		}
	})
}

// fuzzKeys are fixed keys of the vectors, so that mutations of the
// vectors' strings stay near valid data.
type fuzzKeys struct{ wrap4, wrap3, seal4, seal3 *signet.Key }

func newFuzzKeys(f testing.TB) fuzzKeys {
	wk := unhex(f, "707172737475767778797a7b7c7d7e7f808182838485868788898a8b8c8d8e8f")
	wrap4, err := signet.NewKey(signet.V4Local, wk)
	if err != nil {
		f.Fatal(err)
	}
	wrap3, err := signet.NewKey(signet.V3Local, wk)
	if err != nil {
		f.Fatal(err)
	}
	seal4 := mustRawToKey(f, "k4", "secret", unhex(f, loadVectors(f, "k4.seal.json")[0].SealingSecretKey))
	seal3 := pemKey(f, loadVectors(f, "k3.seal.json")[0].SealingSecretKey)
	return fuzzKeys{wrap4, wrap3, seal4, seal3}
}

// cheapPassword reports whether unwrapping s with a password costs little
// (so that the fuzzer may try it): k4 Argon2id at most 256 KiB and 2 passes,
// k3 PBKDF2 at most 1,000 iterations.
func cheapPassword(s string) bool {
	dot := strings.LastIndexByte(s, '.')
	d, err := b64Decode(s[dot+1:])
	if err != nil || len(d) < 36 {
		return true // refused before any derivation
	}
	if strings.HasPrefix(s, "k4.") {
		return binary.BigEndian.Uint64(d[16:]) <= 256<<10 && binary.BigEndian.Uint32(d[24:]) <= 2
	}
	return binary.BigEndian.Uint32(d[32:]) <= 1000
}

func FuzzUnwrap(f *testing.F) {
	keys := newFuzzKeys(f)
	for _, s := range seedStrings(f) {
		f.Add(s)
	}
	small, err := paserk.WrapPassword(keys.seal4, []byte("pw"), fast)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(small)
	f.Fuzz(func(t *testing.T, s string) {
		type op struct {
			name string
			fn   func() (*signet.Key, error)
		}
		ops := []op{
			{"Unwrap k4", func() (*signet.Key, error) { return paserk.Unwrap(s, keys.wrap4) }},
			{"Unwrap k3", func() (*signet.Key, error) { return paserk.Unwrap(s, keys.wrap3) }},
			{"Unseal k4", func() (*signet.Key, error) { return paserk.Unseal(s, keys.seal4) }},
			{"Unseal k3", func() (*signet.Key, error) { return paserk.Unseal(s, keys.seal3) }},
		}
		if cheapPassword(s) {
			ops = append(ops, op{"UnwrapPassword", func() (*signet.Key, error) { return paserk.UnwrapPassword(s, []byte("pw")) }})
		}
		for _, o := range ops {
			k, err := o.fn()
			if err != nil {
				if k != nil {
					t.Fatalf("%s: key returned with an error", o.name)
				}
				if !isSentinel(err) {
					t.Fatalf("%s: error wraps no sentinel: %v", o.name, err)
				}
				continue
			}
			if _, err := paserk.Encode(k); err != nil {
				t.Fatalf("%s gave a key that does not encode: %v", o.name, err)
			}
		}
	})
}

// isSentinel reports whether err wraps one of signet's sentinel errors.
func isSentinel(err error) bool {
	for _, s := range []error{
		signet.ErrMalformed, signet.ErrTooLarge, signet.ErrUnsupported, signet.ErrWeakKey,
		signet.ErrSignatureInvalid, signet.ErrAlgorithmMismatch, signet.ErrKeyUsage,
	} {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}
