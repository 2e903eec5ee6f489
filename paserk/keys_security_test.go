package paserk_test

import (
	"encoding/hex"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/paserk"
)

// TestWeakK4Public: a k4.public whose key is a point of small order, or
// not canonically encoded, is refused with ErrWeakKey: signet's key model
// refuses it however it is encoded (issue 14, item 10).
func TestWeakK4Public(t *testing.T) {
	for name, h := range map[string]string{
		"identity":         "0100000000000000000000000000000000000000000000000000000000000000",
		"identity, x = -0": "0100000000000000000000000000000000000000000000000000000000000080",
		"order 2":          "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
		"order 4":          "0000000000000000000000000000000000000000000000000000000000000000",
		"order 4, -x":      "0000000000000000000000000000000000000000000000000000000000000080",
		"order 8":          "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
		"order 8, -x":      "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
		"order 8, other y": "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
		"y = p":            "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
		"y = 2^255 - 1":    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
	} {
		pk, err := hex.DecodeString(h)
		if err != nil {
			t.Fatal(err)
		}
		_, err = paserk.Decode("k4.public." + b64(pk))
		wantErr(t, err, signet.ErrWeakKey)
		if t.Failed() {
			t.Fatalf("%s: %v", name, err)
		}
	}
}

// TestErrorsWrapSentinels runs every seed of the fuzz corpora, cut at
// many lengths and with characters replaced, through Decode, Unwrap and
// Unseal, and every function through nil and zero keys: every error
// wraps one of signet's sentinels, and nil or zero keys ErrKeyUsage
// (issue 14: every error of every package; item 6).
func TestErrorsWrapSentinels(t *testing.T) {
	keys := newFuzzKeys(t)
	refused := 0
	for _, seed := range seedStrings(t) {
		for _, s := range variants(seed) {
			for name, op := range map[string]func() (*signet.Key, error){
				"Decode":    func() (*signet.Key, error) { return paserk.Decode(s) },
				"Unwrap k4": func() (*signet.Key, error) { return paserk.Unwrap(s, keys.wrap4) },
				"Unwrap k3": func() (*signet.Key, error) { return paserk.Unwrap(s, keys.wrap3) },
				"Unseal k4": func() (*signet.Key, error) { return paserk.Unseal(s, keys.seal4) },
				"Unseal k3": func() (*signet.Key, error) { return paserk.Unseal(s, keys.seal3) },
				"UnwrapPassword": func() (*signet.Key, error) {
					return paserk.UnwrapPassword(s, []byte("pw"))
				},
			} {
				if name == "UnwrapPassword" && !cheapPassword(s) {
					continue
				}
				k, err := op()
				if err == nil {
					continue
				}
				refused++
				if k != nil || !isSentinel(err) {
					t.Fatalf("%s(%q): key %v, error wraps no sentinel: %v", name, s, k != nil, err)
				}
			}
		}
	}
	if refused < 1000 {
		t.Fatalf("only %d inputs were refused: the sweep tests little", refused)
	}

	local := generate(t, signet.V4Local)
	secret := generate(t, signet.V4Public)
	sealed, err := paserk.Seal(local, secret)
	if err != nil {
		t.Fatal(err)
	}
	wrapped, err := paserk.Wrap(local, local)
	if err != nil {
		t.Fatal(err)
	}
	var nilKey *signet.Key
	for name, k := range map[string]*signet.Key{"nil": nilKey, "zero": {}} {
		for op, call := range map[string]func() error{
			"Encode":       func() error { _, err := paserk.Encode(k); return err },
			"ID":           func() error { _, err := paserk.ID(k); return err },
			"Wrap(k, ·)":   func() error { _, err := paserk.Wrap(k, local); return err },
			"Wrap(·, k)":   func() error { _, err := paserk.Wrap(local, k); return err },
			"Unwrap":       func() error { _, err := paserk.Unwrap(wrapped, k); return err },
			"Seal(k, ·)":   func() error { _, err := paserk.Seal(k, secret); return err },
			"Seal(·, k)":   func() error { _, err := paserk.Seal(local, k); return err },
			"Unseal":       func() error { _, err := paserk.Unseal(sealed, k); return err },
			"WrapPassword": func() error { _, err := paserk.WrapPassword(k, []byte("pw"), fast); return err },
		} {
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s key: %s panics: %v", name, op, r)
					}
				}()
				err := call()
				wantErr(t, err, signet.ErrKeyUsage)
				if t.Failed() {
					t.Fatalf("%s key: %s: %v", name, op, err)
				}
			}()
		}
	}
}

// variants returns s cut at many lengths, and with one character
// replaced by each of a few others at many positions.
func variants(s string) []string {
	out := []string{s}
	stride := 1 + len(s)/60
	for i := 0; i < len(s); i += stride {
		out = append(out, s[:i])
		for _, c := range []byte("A_.-=") {
			b := []byte(s)
			b[i] = c
			out = append(out, string(b))
		}
	}
	return out
}
