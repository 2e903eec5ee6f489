package paserk_test

import (
	"strings"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/paserk"
)

// tamper returns s with bit 0 of byte i of its decoded data flipped.
func tamper(t *testing.T, s string, i int) string {
	t.Helper()
	dot := strings.LastIndexByte(s, '.')
	d, err := b64Decode(s[dot+1:])
	if err != nil {
		t.Fatal(err)
	}
	d[i] ^= 1
	return s[:dot+1] + b64(d)
}

func TestWrapRoundTrip(t *testing.T) {
	for _, ver := range []struct {
		local  signet.Algorithm
		public signet.Algorithm
		prefix string
	}{{signet.V4Local, signet.V4Public, "k4."}, {signet.V3Local, signet.V3Public, "k3."}} {
		wk := generate(t, ver.local)
		for _, k := range []*signet.Key{generate(t, ver.local), generate(t, ver.public)} {
			s, err := paserk.Wrap(k, wk)
			if err != nil {
				t.Fatalf("Wrap %s: %v", k.Algorithm(), err)
			}
			typ := "local-wrap.pie."
			if k.CanSign() && !k.Symmetric() {
				typ = "secret-wrap.pie."
			}
			if !strings.HasPrefix(s, ver.prefix+typ) {
				t.Fatalf("Wrap = %q", s)
			}
			got, err := paserk.Unwrap(s, wk)
			if err != nil || !got.Equal(k) || got.Algorithm() != k.Algorithm() {
				t.Fatalf("Unwrap(Wrap(%s)): %v", k.Algorithm(), err)
			}
			// Another wrapping key of the same version: authentication fails.
			_, err = paserk.Unwrap(s, generate(t, ver.local))
			wantErr(t, err, signet.ErrSignatureInvalid)
			// Any changed byte fails authentication.
			n := len(s[strings.LastIndexByte(s, '.')+1:]) * 6 / 8
			for i := 0; i < n; i++ {
				_, err := paserk.Unwrap(tamper(t, s, i), wk)
				wantErr(t, err, signet.ErrSignatureInvalid)
			}
			// The header is authenticated: local and secret cannot be swapped.
			swapped := strings.Replace(s, "local-wrap", "secret-wrap", 1)
			if swapped == s {
				swapped = strings.Replace(s, "secret-wrap", "local-wrap", 1)
			}
			_, err = paserk.Unwrap(swapped, wk)
			wantErr(t, err, signet.ErrMalformed) // lengths differ
			// Truncated or extended data.
			_, err = paserk.Unwrap(s[:len(s)-4], wk)
			wantErr(t, err, signet.ErrMalformed)
			_, err = paserk.Unwrap(s+"AAAA", wk)
			wantErr(t, err, signet.ErrMalformed)
		}
	}
}

func TestWrapRefusals(t *testing.T) {
	wk4, wk3 := generate(t, signet.V4Local), generate(t, signet.V3Local)
	local4, secret4 := generate(t, signet.V4Local), generate(t, signet.V4Public)
	local3 := generate(t, signet.V3Local)

	// Cross-version: a k3 wrapping key neither wraps k4 keys nor unwraps k4 strings.
	_, err := paserk.Wrap(local4, wk3)
	wantErr(t, err, signet.ErrAlgorithmMismatch)
	_, err = paserk.Wrap(secret4, wk3)
	wantErr(t, err, signet.ErrAlgorithmMismatch)
	_, err = paserk.Wrap(local3, wk4)
	wantErr(t, err, signet.ErrAlgorithmMismatch)
	s4, _ := paserk.Wrap(local4, wk4)
	_, err = paserk.Unwrap(s4, wk3)
	wantErr(t, err, signet.ErrAlgorithmMismatch)
	s3, _ := paserk.Wrap(local3, wk3)
	_, err = paserk.Unwrap(s3, wk4)
	wantErr(t, err, signet.ErrAlgorithmMismatch)
	// Relabelled version: the k3 data under a k4 header does not verify.
	_, err = paserk.Unwrap("k4"+s3[2:], wk4)
	if err == nil {
		t.Fatal("relabelled k3 wrap unwrapped with a k4 key")
	}

	// Wrapping keys must be PASETO local keys.
	for _, bad := range []*signet.Key{generate(t, signet.V4Public), generate(t, signet.HS256), nil} {
		_, err = paserk.Wrap(local4, bad)
		wantErr(t, err, signet.ErrKeyUsage)
		_, err = paserk.Unwrap(s4, bad)
		wantErr(t, err, signet.ErrKeyUsage)
	}
	// Public keys are not wrapped.
	_, err = paserk.Wrap(publicOf(t, secret4), wk4)
	wantErr(t, err, signet.ErrKeyUsage)
	// Unwrap reads only pie wraps.
	plain, _ := paserk.Encode(local4)
	_, err = paserk.Unwrap(plain, wk4)
	wantErr(t, err, signet.ErrUnsupported)
	_, err = paserk.Unwrap("k4.local-wrap.aws-kms.AAAA", wk4)
	wantErr(t, err, signet.ErrUnsupported)
	_, err = paserk.Unwrap(strings.Repeat("k", paserk.MaxLength+1), wk4)
	wantErr(t, err, signet.ErrTooLarge)
}
