package paserk_test

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/paserk"
)

// fast are password costs small enough for unit tests (and -race).
var fast = paserk.PasswordParams{Memory: 64, Time: 1, Parallelism: 1, Iterations: 1000}

func TestWrapPasswordRoundTrip(t *testing.T) {
	pw := []byte("correct horse battery staple")
	for _, alg := range pasetoAlgs {
		k := generate(t, alg)
		s, err := paserk.WrapPassword(k, pw, fast)
		if err != nil {
			t.Fatalf("WrapPassword %s: %v", alg, err)
		}
		typ := map[bool]string{true: ".local-pw.", false: ".secret-pw."}[k.Symmetric()]
		if !strings.HasPrefix(s, "k"+string(alg[1])+typ) {
			t.Fatalf("WrapPassword(%s) = %q", alg, s)
		}
		got, err := paserk.UnwrapPassword(s, pw)
		if err != nil || !got.Equal(k) || got.Algorithm() != alg {
			t.Fatalf("UnwrapPassword(WrapPassword(%s)): %v", alg, err)
		}
		_, err = paserk.UnwrapPassword(s, []byte("correct horse battery stapler"))
		wantErr(t, err, signet.ErrSignatureInvalid)
		// Every changed byte outside the cost fields fails authentication.
		costs := costRange(s)
		n := len(s[strings.LastIndexByte(s, '.')+1:]) * 6 / 8
		for i := 0; i < n; i++ {
			if i >= costs[0] && i < costs[1] {
				continue
			}
			_, err := paserk.UnwrapPassword(tamper(t, s, i), pw)
			wantErr(t, err, signet.ErrSignatureInvalid)
		}
		// A changed but acceptable cost changes the key: authentication fails.
		_, err = paserk.UnwrapPassword(setCosts(t, s, 128, 1, 1, 1001), pw)
		wantErr(t, err, signet.ErrSignatureInvalid)
		// Decode does not unwrap.
		_, err = paserk.Decode(s)
		wantErr(t, err, signet.ErrUnsupported)
	}
}

// costRange returns the byte range of the cost fields in the decoded data
// of a password-wrapped PASERK.
func costRange(s string) [2]int {
	if strings.HasPrefix(s, "k4.") {
		return [2]int{16, 32}
	}
	return [2]int{32, 36}
}

// setCosts rewrites the costs of a password-wrapped PASERK: Argon2id
// memory (KiB), time and parallelism for k4, PBKDF2 iterations for k3.
func setCosts(t *testing.T, s string, memKiB uint64, tm, para, iter uint32) string {
	return setCostsRaw(t, s, memKiB*1024, tm, para, iter)
}

// setCostsRaw is setCosts with the Argon2id memory in bytes, as written
// in the PASERK.
func setCostsRaw(t *testing.T, s string, memBytes uint64, tm, para, iter uint32) string {
	t.Helper()
	dot := strings.LastIndexByte(s, '.')
	d, err := b64Decode(s[dot+1:])
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(s, "k4.") {
		binary.BigEndian.PutUint64(d[16:], memBytes)
		binary.BigEndian.PutUint32(d[24:], tm)
		binary.BigEndian.PutUint32(d[28:], para)
	} else {
		binary.BigEndian.PutUint32(d[32:], iter)
	}
	return s[:dot+1] + b64(d)
}

// TestUnwrapPasswordCostBounds checks that the costs a string carries are
// refused before any key derivation when they exceed the maxima (the JWE
// p2c lesson), or are invalid.
func TestUnwrapPasswordCostBounds(t *testing.T) {
	pw := []byte("pw")
	s4, err := paserk.WrapPassword(generate(t, signet.V4Local), pw, fast)
	if err != nil {
		t.Fatal(err)
	}
	s3, err := paserk.WrapPassword(generate(t, signet.V3Public), pw, fast)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		s    string
		want error
	}{
		{"memory 1 GiB + 1 KiB", setCosts(t, s4, paserk.MaxMemory+1, 1, 1, 0), signet.ErrTooLarge},
		{"memory 2^64-1024", setCostsRaw(t, s4, ^uint64(0)&^1023, 1, 1, 0), signet.ErrTooLarge},
		{"memory 2^64-1", setCostsRaw(t, s4, ^uint64(0), 1, 1, 0), signet.ErrMalformed},
		{"time 17", setCosts(t, s4, 64, paserk.MaxTime+1, 1, 0), signet.ErrTooLarge},
		{"time 2^32-1", setCosts(t, s4, 64, ^uint32(0), 1, 0), signet.ErrTooLarge},
		{"parallelism 9", setCosts(t, s4, 64, 1, paserk.MaxParallelism+1, 0), signet.ErrTooLarge},
		{"parallelism 256", setCosts(t, s4, 64, 1, 256, 0), signet.ErrTooLarge},
		{"memory not KiB", setCostsRaw(t, s4, 64*1024+1, 1, 1, 0), signet.ErrMalformed},
		{"memory 0", setCosts(t, s4, 0, 1, 1, 0), signet.ErrMalformed},
		{"memory below 8 per lane", setCosts(t, s4, 15, 1, 2, 0), signet.ErrMalformed},
		{"time 0", setCosts(t, s4, 64, 0, 1, 0), signet.ErrMalformed},
		{"parallelism 0", setCosts(t, s4, 64, 1, 0, 0), signet.ErrMalformed},
		{"iterations 10M + 1", setCosts(t, s3, 0, 0, 0, paserk.MaxIterations+1), signet.ErrTooLarge},
		{"iterations 2^32-1", setCosts(t, s3, 0, 0, 0, ^uint32(0)), signet.ErrTooLarge},
		{"iterations 0", setCosts(t, s3, 0, 0, 0, 0), signet.ErrMalformed},
	}
	for _, s := range []string{s4, s3} {
		if err := paserk.CheckPassword(s); err != nil {
			t.Fatalf("CheckPassword(%.20s…): %v", s, err)
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The checks derive no key (CheckPassword), and UnwrapPassword
			// fails in them: with their error, before any derivation.
			checked := paserk.CheckPassword(tt.s)
			wantErr(t, checked, tt.want)
			k, err := paserk.UnwrapPassword(tt.s, pw)
			if k != nil {
				t.Fatal("key returned with an error")
			}
			if err == nil || err.Error() != checked.Error() {
				t.Fatalf("UnwrapPassword: %v, want the checks' %v", err, checked)
			}
		})
	}
}

func TestWrapPasswordRefusals(t *testing.T) {
	k4, k3 := generate(t, signet.V4Local), generate(t, signet.V3Local)
	pw := []byte("pw")
	for _, tt := range []struct {
		name string
		k    *signet.Key
		p    paserk.PasswordParams
		want error
	}{
		{"memory", k4, paserk.PasswordParams{Memory: paserk.MaxMemory + 1}, signet.ErrTooLarge},
		{"time", k4, paserk.PasswordParams{Time: paserk.MaxTime + 1}, signet.ErrTooLarge},
		{"parallelism", k4, paserk.PasswordParams{Parallelism: paserk.MaxParallelism + 1}, signet.ErrTooLarge},
		{"memory per lane", k4, paserk.PasswordParams{Memory: 8, Parallelism: 2}, signet.ErrMalformed},
		{"iterations", k3, paserk.PasswordParams{Iterations: paserk.MaxIterations + 1}, signet.ErrTooLarge},
	} {
		_, err := paserk.WrapPassword(tt.k, pw, tt.p)
		if err == nil {
			t.Fatalf("%s: accepted", tt.name)
		}
		wantErr(t, err, tt.want)
	}
	_, err := paserk.WrapPassword(k4, nil, fast)
	wantErr(t, err, signet.ErrWeakKey)
	_, err = paserk.WrapPassword(publicOf(t, generate(t, signet.V3Public)), pw, fast)
	wantErr(t, err, signet.ErrKeyUsage)
	// UnwrapPassword reads only -pw types.
	plain, _ := paserk.Encode(k4)
	_, err = paserk.UnwrapPassword(plain, pw)
	wantErr(t, err, signet.ErrUnsupported)
	wrapped, _ := paserk.Wrap(k4, generate(t, signet.V4Local))
	_, err = paserk.UnwrapPassword(wrapped, pw)
	wantErr(t, err, signet.ErrUnsupported)
	// Lengths are checked before the costs.
	s, _ := paserk.WrapPassword(k4, pw, fast)
	_, err = paserk.UnwrapPassword(s[:len(s)-4], pw)
	wantErr(t, err, signet.ErrMalformed)
	// A relabelled secret-pw is the wrong length.
	_, err = paserk.UnwrapPassword(strings.Replace(s, "local-pw", "secret-pw", 1), pw)
	wantErr(t, err, signet.ErrMalformed)
}

// TestWrapPasswordDefaults checks that zero parameters take the defaults,
// written into the string. Argon2id at 64 MiB is slow under -race: the k4
// half runs with -long only.
func TestWrapPasswordDefaults(t *testing.T) {
	pw := []byte("pw")
	algs := []signet.Algorithm{signet.V3Local}
	if *long {
		algs = append(algs, signet.V4Local)
	}
	for _, alg := range algs {
		s, err := paserk.WrapPassword(generate(t, alg), pw, paserk.PasswordParams{})
		if err != nil {
			t.Fatal(err)
		}
		d, _ := b64Decode(s[strings.LastIndexByte(s, '.')+1:])
		if alg == signet.V3Local {
			if it := binary.BigEndian.Uint32(d[32:]); it != paserk.DefaultIterations {
				t.Fatalf("iterations %d", it)
			}
		} else {
			mem, tm, para := binary.BigEndian.Uint64(d[16:]), binary.BigEndian.Uint32(d[24:]), binary.BigEndian.Uint32(d[28:])
			if mem != paserk.DefaultMemory*1024 || tm != paserk.DefaultTime || para != paserk.DefaultParallelism {
				t.Fatalf("costs %d, %d, %d", mem, tm, para)
			}
		}
		if _, err := paserk.UnwrapPassword(s, pw); err != nil {
			t.Fatal(err)
		}
	}
}
