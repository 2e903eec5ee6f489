package jwt_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/tokentest"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/jwt"
)

// hmacKeys makes n HS256 keys; kid, when not nil, names key i.
func hmacKeys(t *testing.T, n int, kid func(int) string) []*signet.Key {
	t.Helper()
	keys := make([]*signet.Key, n)
	for i := range keys {
		keys[i] = mustKey(t, signet.HS256)
		if kid != nil {
			keys[i] = keys[i].WithKeyID(kid(i))
		}
	}
	return keys
}

// manyKeySet is a set of 1000 HS256 keys with IDs, for the attack table:
// a token without kid is refused as ambiguous before any check.
func manyKeySet(t *testing.T) *signet.KeySet {
	t.Helper()
	return mustSet(t, hmacKeys(t, 1000, func(i int) string { return fmt.Sprintf("k%d", i) })...)
}

func mustSet(t *testing.T, keys ...*signet.Key) *signet.KeySet {
	t.Helper()
	s, err := signet.NewKeySet(keys...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestBoundedWorkPerToken: a token without kid costs at most
// signet.MaxAnonymousCandidates signature checks, whatever the key set
// holds and whatever a Keys implementation offers (issue 14, item 5).
func TestBoundedWorkPerToken(t *testing.T) {
	const n = 1000
	attacker := mustKey(t, signet.HS256)
	forged, err := jwt.SignBytes(attacker, []byte(`{"sub":"admin"}`), "JWT") // no kid
	if err != nil {
		t.Fatal(err)
	}
	anon := hmacKeys(t, n, nil)
	named := hmacKeys(t, n, func(i int) string { return fmt.Sprintf("k%d", i) })
	mixed := append(hmacKeys(t, signet.MaxAnonymousCandidates, nil), named[signet.MaxAnonymousCandidates:]...)

	// A published JWK Set of a thousand Ed25519 keys, with and without
	// kids, read as a verifier reads it.
	edKeys := make([]*signet.Key, n)
	edAnon := make([]*signet.Key, n)
	for i := range edKeys {
		k := mustKey(t, signet.EdDSA)
		edAnon[i] = pub(t, k)
		edKeys[i] = edAnon[i].WithKeyID(fmt.Sprintf("ed%d", i))
	}
	jwks := func(keys []*signet.Key) *signet.KeySet {
		data, err := jwk.MarshalSet(keys...)
		if err != nil {
			t.Fatal(err)
		}
		set, err := jwk.ParseSet(data)
		if err != nil || set.Len() != n {
			t.Fatalf("ParseSet: %d keys, %v", set.Len(), err)
		}
		return set
	}
	edForged, err := jwt.SignBytes(mustKey(t, signet.EdDSA), []byte(`{"sub":"admin"}`), "JWT")
	if err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		name    string
		keys    signet.Keys
		token   string
		want    error
		offered int
	}{
		{"1000 keys without kid: ambiguous", mustSet(t, anon...), forged, signet.ErrKeyNotFound, 0},
		{"1000 keys with kids: ambiguous", mustSet(t, named...), forged, signet.ErrKeyNotFound, 0},
		{"MaxAnonymousCandidates without kid among 1000", mustSet(t, mixed...), forged, signet.ErrSignatureInvalid, signet.MaxAnonymousCandidates},
		{"JWK Set of 1000 keys with kids", jwks(edKeys), edForged, signet.ErrKeyNotFound, 0},
		{"JWK Set of 1000 keys without kid", jwks(edAnon), edForged, signet.ErrKeyNotFound, 0},
		// The loop itself is bounded: refused before any check, so the
		// error is not ErrSignatureInvalid.
		{"Keys offering 1000 candidates", tokentest.Many(anon), forged, signet.ErrKeyNotFound, n},
	} {
		t.Run(c.name, func(t *testing.T) {
			counter := &tokentest.Counting{Keys: c.keys}
			_, _, err := jwt.VerifyBytes(counter, c.token, jwt.Policy{})
			if !errors.Is(err, c.want) {
				t.Fatalf("error %v, want %v", err, c.want)
			}
			if counter.Offered != c.offered {
				t.Fatalf("%d candidates offered, want %d", counter.Offered, c.offered)
			}
		})
	}

	// The keys that are tried still verify their own tokens, with or
	// without a kid.
	set := mustSet(t, mixed...)
	for _, k := range []*signet.Key{mixed[signet.MaxAnonymousCandidates-1], mixed[n-1]} {
		tok, err := jwt.SignBytes(k, []byte(`{}`), "JWT")
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := jwt.VerifyBytes(set, tok, jwt.Policy{}); err != nil {
			t.Fatalf("key %q: %v", k.KeyID(), err)
		}
	}
}

// TestNilAndZeroKeys calls every exported function of the package that
// takes a key with nil and zero keys: an error wrapping the expected
// sentinel, never a panic (issue 14, item 6).
func TestNilAndZeroKeys(t *testing.T) {
	good := mustKey(t, signet.HS256)
	tok, err := jwt.Sign(good, jwt.Claims{Subject: "s"})
	if err != nil {
		t.Fatal(err)
	}
	var nilKey *signet.Key
	var nilSet *signet.KeySet
	signers := map[string]*signet.Key{"nil *Key": nilKey, "zero Key": {}}
	for name, k := range signers {
		for fn, call := range map[string]func() error{
			"Sign(Claims)": func() error { _, err := jwt.Sign(k, jwt.Claims{Subject: "s"}); return err },
			"Sign(Map)":    func() error { _, err := jwt.Sign(k, jwt.Map{"sub": "s"}); return err },
			"Sign(struct)": func() error {
				_, err := jwt.Sign(k, struct {
					jwt.Claims
					Role string `json:"role"`
				}{Role: "r"})
				return err
			},
			"SignBytes": func() error { _, err := jwt.SignBytes(k, []byte(`{}`), "JWT"); return err },
		} {
			expectRefusal(t, name+" "+fn, call, signet.ErrKeyUsage)
		}
	}
	verifiers := []struct {
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
	}
	for _, v := range verifiers {
		for fn, call := range map[string]func() error{
			"Verify[Claims]": func() error { _, err := jwt.Verify[jwt.Claims](v.keys, tok, jwt.Policy{}); return err },
			"Verify[Map]":    func() error { _, err := jwt.Verify[jwt.Map](v.keys, tok, jwt.Policy{}); return err },
			"VerifyBytes":    func() error { _, _, err := jwt.VerifyBytes(v.keys, tok, jwt.Policy{}); return err },
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
