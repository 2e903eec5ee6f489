package b64

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"
)

func TestMatchesStdlib(t *testing.T) {
	std := base64.RawURLEncoding.Strict()
	for n := 0; n < 70; n++ {
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(i*73 + n*31)
		}
		enc := EncodeToString(src)
		if want := std.EncodeToString(src); enc != want {
			t.Fatalf("n=%d: got %q want %q", n, enc, want)
		}
		got, err := DecodeString(enc)
		if err != nil || !bytes.Equal(got, src) {
			t.Fatalf("n=%d: decode %x %v", n, got, err)
		}
	}
}

func TestRejects(t *testing.T) {
	for _, s := range []string{
		"A", "AAAAA", "AB==", "AB=", "A\nBC", "AB+C", "AB/C", "AB C", "AB\x00C", "\xffAAA",
		"AB",  // non-zero trailing bits? "AB" = 000000 000001: low 4 bits of B non-zero
		"AAB", // low 2 bits of B non-zero
	} {
		if _, err := DecodeString(s); err == nil {
			t.Errorf("%q: accepted", s)
		}
	}
	for _, s := range []string{"", "AA", "AAA", "AAAA", "_-_-", "AQ", "AAE"} {
		if _, err := DecodeString(s); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{"", "AA", "eyJhbGciOiJIUzI1NiJ9", "AB==", "A\nB", "____"} {
		f.Add(s)
	}
	std := base64.RawURLEncoding.Strict()
	f.Fuzz(func(t *testing.T, s string) {
		got, err := DecodeString(s)
		want, werr := std.DecodeString(s)
		// The standard decoder skips CR and LF; strict decoding refuses them.
		if bytes.ContainsAny([]byte(s), "\r\n") {
			if err == nil {
				t.Fatalf("%q: accepted a line break", s)
			}
			return
		}
		if (err == nil) != (werr == nil) {
			t.Fatalf("%q: ours %v, stdlib %v", s, err, werr)
		}
		if err == nil && (!bytes.Equal(got, want) || EncodeToString(got) != s) {
			t.Fatalf("%q: not canonical", s)
		}
	})
}

func BenchmarkEncode(b *testing.B) {
	src := make([]byte, 200)
	dst := make([]byte, 0, 300)
	b.Run("signet", func(b *testing.B) {
		for b.Loop() {
			dst = AppendEncode(dst[:0], src)
		}
	})
	b.Run("stdlib", func(b *testing.B) {
		for b.Loop() {
			dst = base64.RawURLEncoding.AppendEncode(dst[:0], src)
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	src := EncodeToString(make([]byte, 200))
	dst := make([]byte, 200)
	b.Run("signet", func(b *testing.B) {
		for b.Loop() {
			_, _ = Decode(dst, src)
		}
	})
	b.Run("stdlib", func(b *testing.B) {
		for b.Loop() {
			_, _ = base64.RawURLEncoding.Strict().Decode(dst, []byte(src))
		}
	})
}

func TestDecodeStaysInBounds(t *testing.T) {
	src := EncodeToString(make([]byte, 18)) // 24 characters
	dst := make([]byte, 20)
	dst[18], dst[19] = 0xAA, 0xBB
	if n, err := Decode(dst, src); err != nil || n != 18 {
		t.Fatal(n, err)
	}
	if dst[18] != 0xAA || dst[19] != 0xBB {
		t.Fatalf("wrote past the decoded length: %x", dst[18:])
	}
}

// TestDecodeStd checks DecodeStd against encoding/base64's strict standard
// decoder on valid and broken inputs.
func TestDecodeStd(t *testing.T) {
	strict := base64.StdEncoding.Strict()
	inputs := []string{"", "=", "==", "A===", "AA==", "AB==", "AAA=", "AAB=", "AAAA", "AA=A", "AA", "AAA", "+/+/", "-_-_", "AA==AA==", " AAA", "QUJD", "QUI=", "QQ=="}
	for n := range 70 {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i*37 + n)
		}
		inputs = append(inputs, base64.StdEncoding.EncodeToString(b))
	}
	for _, in := range inputs {
		want, werr := strict.DecodeString(in)
		dst := make([]byte, DecodedLen(len(in)))
		n, err := DecodeStd(dst, in)
		if (err == nil) != (werr == nil) || err == nil && !bytes.Equal(dst[:n], want) {
			t.Errorf("%q: got %x, %v; encoding/base64 %x, %v", in, dst[:n], err, want, werr)
		}
	}
}

func FuzzDecodeStd(f *testing.F) {
	f.Add("QUJD")
	f.Add("QQ==")
	strict := base64.StdEncoding.Strict()
	f.Fuzz(func(t *testing.T, in string) {
		want, werr := strict.DecodeString(in)
		if werr == nil && strings.ContainsAny(in, "\r\n") {
			return // encoding/base64 skips line breaks; Structured Fields do not
		}
		dst := make([]byte, DecodedLen(len(in)))
		n, err := DecodeStd(dst, in)
		if (err == nil) != (werr == nil) || err == nil && !bytes.Equal(dst[:n], want) {
			t.Fatalf("%q: got %x, %v; encoding/base64 %x, %v", in, dst[:n], err, want, werr)
		}
	})
}

// AppendEncode matches encoding/base64 on any input, appended after any
// prefix.
func FuzzEncode(f *testing.F) {
	f.Add([]byte("prefix."), []byte("a JSON object of claims, some 200 bytes long in a real token"))
	f.Add([]byte{}, []byte{0xff, 0xfe, 0xfd})
	f.Fuzz(func(t *testing.T, prefix, src []byte) {
		got := AppendEncode(append([]byte(nil), prefix...), src)
		want := base64.RawURLEncoding.AppendEncode(append([]byte(nil), prefix...), src)
		if !bytes.Equal(got, want) {
			t.Fatalf("AppendEncode(%q, %x) = %q, want %q", prefix, src, got, want)
		}
	})
}
