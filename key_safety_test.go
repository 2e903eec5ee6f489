package signet_test

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"errors"
	"math/big"
	"reflect"
	"testing"

	"github.com/signet-go/signet"
)

// TestNilAndZeroKeyMethods calls every exported method of *Key and
// *KeySet, found by reflection so that a method added later is covered,
// on nil and zero values with zero arguments: none panics, and every
// error returned wraps ErrKeyUsage (ErrKeyNotFound for the zero KeySet,
// an empty set) (issue 14, item 6).
func TestNilAndZeroKeyMethods(t *testing.T) {
	var nilKey *signet.Key
	var nilSet *signet.KeySet
	for _, r := range []struct {
		name string
		recv any
		want error
	}{
		{"nil *Key", nilKey, signet.ErrKeyUsage},
		{"zero Key", &signet.Key{}, signet.ErrKeyUsage},
		{"nil *KeySet", nilSet, signet.ErrKeyUsage},
		{"zero KeySet", &signet.KeySet{}, signet.ErrKeyNotFound},
	} {
		v := reflect.ValueOf(r.recv)
		if v.NumMethod() < 4 {
			t.Fatalf("%s: only %d methods found", r.name, v.NumMethod())
		}
		for i := range v.NumMethod() {
			m, name := v.Method(i), v.Type().Method(i).Name
			args := make([]reflect.Value, m.Type().NumIn())
			for j := range args {
				args[j] = reflect.Zero(m.Type().In(j))
			}
			if name == "Select" {
				args[1] = reflect.ValueOf(signet.HS256)
			}
			var out []reflect.Value
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Errorf("%s.%s panics: %v", r.name, name, p)
					}
				}()
				out = m.Call(args)
			}()
			if len(out) == 0 {
				continue
			}
			if last := out[len(out)-1]; last.Type() == reflect.TypeFor[error]() {
				if err, _ := last.Interface().(error); !errors.Is(err, r.want) {
					t.Errorf("%s.%s: error %v, want %v", r.name, name, err, r.want)
				}
			}
		}
	}

	// What the methods without an error report.
	for name, k := range map[string]*signet.Key{"nil": nilKey, "zero": {}} {
		if k.CanSign() || k.Symmetric() || k.Secret() != nil || k.Material() != nil || k.PublicMaterial() != nil ||
			k.Algorithm() != "" || k.KeyID() != "" || k.SignatureSize() != 0 || k.Equal(k) {
			t.Errorf("%s Key reports a key", name)
		}
		if _, err := signet.MarshalPEM(k); !errors.Is(err, signet.ErrKeyUsage) {
			t.Errorf("MarshalPEM(%s Key): %v", name, err)
		}
		if _, err := signet.NewKeySet(k); !errors.Is(err, signet.ErrKeyUsage) {
			t.Errorf("NewKeySet(%s Key): %v", name, err)
		}
	}
	if nilKey.WithKeyID("a") != nil {
		t.Error("nil.WithKeyID is not nil")
	}
	if k := new(signet.Key).WithKeyID("a"); k.KeyID() != "a" || k.Algorithm() != "" || k.CanSign() {
		t.Error("a zero Key's WithKeyID copy is not a zero Key")
	}
	if nilSet.Len() != 0 || nilSet.Keys() != nil {
		t.Error("a nil KeySet has keys")
	}
	if _, ok := nilSet.Lookup("a"); ok {
		t.Error("a nil KeySet found a key")
	}
}

// mutate flips every bit it can reach in material as returned by
// Material or PublicMaterial, or as handed to NewKey.
func mutate(t *testing.T, m any) {
	t.Helper()
	flip := func(x *big.Int) {
		if x != nil {
			x.Add(x, big.NewInt(2))
		}
	}
	switch m := m.(type) {
	case nil: // an HMAC key's PublicMaterial
	case []byte:
		for i := range m {
			m[i] ^= 0xff
		}
	case ed25519.PrivateKey:
		for i := range m {
			m[i] ^= 0xff
		}
	case ed25519.PublicKey:
		for i := range m {
			m[i] ^= 0xff
		}
	case *rsa.PrivateKey:
		flip(m.N)
		m.E = 3
		flip(m.D)
		for _, p := range m.Primes {
			flip(p)
		}
		flip(m.Precomputed.Dp)
		flip(m.Precomputed.Dq)
		flip(m.Precomputed.Qinv)
	case *rsa.PublicKey:
		flip(m.N)
		m.E = 3
	case *ecdsa.PrivateKey:
		//lint:ignore SA1019 the test changes what the deprecated fields hold, as a caller could.
		flip(m.D)
		flip(m.X)
		flip(m.Y)
	case *ecdsa.PublicKey:
		//lint:ignore SA1019 as above.
		flip(m.X)
		//lint:ignore SA1019 as above.
		flip(m.Y)
	default:
		t.Fatalf("material %T", m)
	}
}

// TestMaterialIsCopied: nothing a caller holds (what it handed to NewKey,
// what Secret, Material and PublicMaterial returned) shares state with a
// key. Every reachable value is changed, and the key still signs and
// verifies as before, and still hands out what it did (issue 14, item 6).
func TestMaterialIsCopied(t *testing.T) {
	msg := []byte("header.payload")
	for _, alg := range []signet.Algorithm{signet.HS256, signet.RS256, signet.PS256, signet.ES256, signet.ES384, signet.EdDSA} {
		t.Run(string(alg), func(t *testing.T) {
			gen, err := signet.GenerateKey(alg)
			if err != nil {
				t.Fatal(err)
			}
			given := gen.Material()
			k, err := signet.NewKey(alg, given) // a key made of a caller's value
			if err != nil {
				t.Fatal(err)
			}
			verifier := k
			if !k.Symmetric() {
				verifier, _ = k.Public()
			}
			wantMaterial := k.Material()
			before, err := k.Sign(nil, msg)
			if err != nil {
				t.Fatal(err)
			}

			mutate(t, given)
			mutate(t, k.Material())
			mutate(t, k.PublicMaterial())
			mutate(t, verifier.Material())
			mutate(t, verifier.PublicMaterial())
			if s := k.Secret(); s != nil {
				mutate(t, s)
			}

			if err := verifier.Verify(msg, before); err != nil {
				t.Fatalf("a signature made before no longer verifies: %v", err)
			}
			after, err := k.Sign(nil, msg)
			if err != nil {
				t.Fatal(err)
			}
			if err := verifier.Verify(msg, after); err != nil {
				t.Fatalf("a signature made after does not verify: %v", err)
			}
			if err := gen.Verify(msg, after); err != nil {
				t.Fatalf("the original key does not verify the copy's signature: %v", err)
			}
			again, err := signet.NewKey(alg, k.Material())
			if err != nil || !again.Equal(gen) || !reflect.DeepEqual(equalForm(k.Material()), equalForm(wantMaterial)) {
				t.Fatalf("the key's material changed: %v", err)
			}
		})
	}
}

// equalForm is material in a form reflect.DeepEqual compares by value
// (an RSA key's internal precomputation is left out).
func equalForm(m any) any {
	switch m := m.(type) {
	case *rsa.PrivateKey:
		return [4][]byte{m.N.Bytes(), m.D.Bytes(), m.Primes[0].Bytes(), m.Primes[1].Bytes()}
	case *ecdsa.PrivateKey:
		b, _ := m.Bytes()
		return b
	}
	return m
}

// TestSecretIsACopy: each call returns a fresh copy, equal to the secret.
func TestSecretIsACopy(t *testing.T) {
	k, _ := signet.GenerateKey(signet.HS256)
	a, b := k.Secret(), k.Secret()
	if !bytes.Equal(a, b) || &a[0] == &b[0] {
		t.Fatal("Secret does not return equal, separate copies")
	}
	if pub, _ := signet.GenerateKey(signet.EdDSA); pub.Secret() != nil {
		t.Fatal("an Ed25519 key has a secret")
	}
}
