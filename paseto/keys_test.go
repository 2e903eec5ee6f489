package paseto_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/tokentest"
	"github.com/signet-go/signet/paseto"
)

// newKeys makes n keys for alg (public halves for public algorithms);
// kid, when not nil, names key i.
func newKeys(t *testing.T, alg signet.Algorithm, n int, kid func(int) string) []*signet.Key {
	t.Helper()
	keys := make([]*signet.Key, n)
	for i := range keys {
		k, err := signet.GenerateKey(alg)
		if err != nil {
			t.Fatal(err)
		}
		keys[i] = public(t, k)
		if kid != nil {
			keys[i] = keys[i].WithKeyID(kid(i))
		}
	}
	return keys
}

// manyKeySet is a set of 1000 v4.local keys without IDs, for the attack
// table: a token without kid is refused as ambiguous before any check.
func manyKeySet(t *testing.T) *signet.KeySet {
	t.Helper()
	return mustSet(t, newKeys(t, signet.V4Local, 1000, nil)...)
}

func mustSet(t *testing.T, keys ...*signet.Key) *signet.KeySet {
	t.Helper()
	s, err := signet.NewKeySet(keys...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestBoundedWorkPerToken: a token without a kid in its footer costs at
// most signet.MaxAnonymousCandidates tag or signature checks, whatever the
// key set holds and whatever a Keys implementation offers (issue 14,
// item 5).
func TestBoundedWorkPerToken(t *testing.T) {
	const n = 1000
	max := signet.MaxAnonymousCandidates
	for _, alg := range []signet.Algorithm{signet.V4Public, signet.V4Local} {
		t.Run(string(alg), func(t *testing.T) {
			attacker, _ := signet.GenerateKey(alg)
			forged, err := issueBytes(attacker, []byte(`{"sub":"admin"}`))
			if err != nil {
				t.Fatal(err)
			}
			anon := newKeys(t, alg, n, nil)
			named := make([]*signet.Key, n)
			for i, k := range anon {
				named[i] = k.WithKeyID(fmt.Sprintf("k%d", i))
			}
			mixed := append(newKeys(t, alg, max, nil), named[max:]...)
			for _, c := range []struct {
				name    string
				keys    signet.Keys
				want    error
				offered int
			}{
				{"1000 keys without kid: ambiguous", mustSet(t, anon...), signet.ErrKeyNotFound, 0},
				{"1000 keys with kids: ambiguous", mustSet(t, named...), signet.ErrKeyNotFound, 0},
				{"MaxAnonymousCandidates without kid among 1000", mustSet(t, mixed...), signet.ErrSignatureInvalid, max},
				// Refused before any check: not ErrSignatureInvalid.
				{"Keys offering 1000 candidates", tokentest.Many(anon), signet.ErrKeyNotFound, n},
			} {
				counter := &tokentest.Counting{Keys: c.keys}
				_, err := openBytes(alg, counter, forged)
				if !errors.Is(err, c.want) {
					t.Errorf("%s: error %v, want %v", c.name, err, c.want)
				}
				if counter.Offered != c.offered {
					t.Errorf("%s: %d candidates offered, want %d", c.name, counter.Offered, c.offered)
				}
			}
		})
	}
}

func issueBytes(k *signet.Key, payload []byte) (string, error) {
	if k.Symmetric() {
		return paseto.EncryptBytes(k, payload, paseto.Options{})
	}
	return paseto.SignBytes(k, payload, paseto.Options{})
}

func openBytes(alg signet.Algorithm, keys signet.Keys, tok string) ([]byte, error) {
	if alg.Symmetric() {
		return paseto.DecryptBytes(keys, tok, paseto.Policy{})
	}
	return paseto.VerifyBytes(keys, tok, paseto.Policy{})
}

// TestNilAndZeroKeys calls every exported function of the package that
// takes a key with nil and zero keys: an error wrapping the expected
// sentinel, never a panic (issue 14, item 6).
func TestNilAndZeroKeys(t *testing.T) {
	type app struct {
		paseto.Claims
		Role string `json:"role"`
	}
	var nilKey *signet.Key
	var nilSet *signet.KeySet
	for name, k := range map[string]*signet.Key{"nil *Key": nilKey, "zero Key": {}} {
		for fn, call := range map[string]func() error{
			"Encrypt(Claims)": func() error { _, err := paseto.Encrypt(k, paseto.Claims{Subject: "s"}, paseto.Options{}); return err },
			"Encrypt(Map)":    func() error { _, err := paseto.Encrypt(k, paseto.Map{"sub": "s"}, paseto.Options{}); return err },
			"Encrypt(struct)": func() error { _, err := paseto.Encrypt(k, app{Role: "r"}, paseto.Options{}); return err },
			"EncryptBytes":    func() error { _, err := paseto.EncryptBytes(k, []byte(`{}`), paseto.Options{}); return err },
			"Sign(Claims)":    func() error { _, err := paseto.Sign(k, paseto.Claims{Subject: "s"}, paseto.Options{}); return err },
			"Sign(Map)":       func() error { _, err := paseto.Sign(k, paseto.Map{"sub": "s"}, paseto.Options{}); return err },
			"Sign(struct)":    func() error { _, err := paseto.Sign(k, app{Role: "r"}, paseto.Options{}); return err },
			"SignBytes":       func() error { _, err := paseto.SignBytes(k, []byte(`{}`), paseto.Options{}); return err },
		} {
			expectRefusal(t, name+" "+fn, call, signet.ErrKeyUsage)
		}
	}
	local, _ := signet.GenerateKey(signet.V4Local)
	secret, _ := signet.GenerateKey(signet.V4Public)
	localTok, err := paseto.EncryptBytes(local, []byte(`{}`), paseto.Options{})
	if err != nil {
		t.Fatal(err)
	}
	publicTok, err := paseto.SignBytes(secret, []byte(`{}`), paseto.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []struct {
		name string
		keys signet.Keys
		want error
	}{
		{"nil Keys", nil, signet.ErrKeyUsage},
		{"nil *Key", nilKey, signet.ErrKeyUsage},
		{"zero Key", &signet.Key{}, signet.ErrKeyUsage},
		{"nil *KeySet", nilSet, signet.ErrKeyUsage},
		{"zero KeySet (empty)", &signet.KeySet{}, signet.ErrKeyNotFound},
		{"Keys offering a nil key", tokentest.Many{nil}, signet.ErrAlgorithmMismatch},
		{"Keys offering a zero key", tokentest.Many{{}}, signet.ErrAlgorithmMismatch},
	} {
		for fn, call := range map[string]func() error{
			"Decrypt[Claims]": func() error { _, err := paseto.Decrypt[paseto.Claims](v.keys, localTok, paseto.Policy{}); return err },
			"Decrypt[Map]":    func() error { _, err := paseto.Decrypt[paseto.Map](v.keys, localTok, paseto.Policy{}); return err },
			"DecryptBytes":    func() error { _, err := paseto.DecryptBytes(v.keys, localTok, paseto.Policy{}); return err },
			"Verify[Claims]":  func() error { _, err := paseto.Verify[paseto.Claims](v.keys, publicTok, paseto.Policy{}); return err },
			"Verify[Map]":     func() error { _, err := paseto.Verify[paseto.Map](v.keys, publicTok, paseto.Policy{}); return err },
			"VerifyBytes":     func() error { _, err := paseto.VerifyBytes(v.keys, publicTok, paseto.Policy{}); return err },
		} {
			expectRefusal(t, v.name+" "+fn, call, v.want)
		}
	}
}

// expectRefusal runs call, which must return an error wrapping want and
// must not panic.
func expectRefusal(t *testing.T, name string, call func() error, want error) {
	t.Helper()
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("%s: panic: %v", name, r)
			}
		}()
		err = call()
	}()
	if !errors.Is(err, want) {
		t.Errorf("%s: error %v, want %v", name, err, want)
	}
}
