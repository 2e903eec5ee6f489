package jwe

import (
	"crypto/rand"
	"testing"

	"github.com/signet-go/signet/internal/b64"
	"github.com/signet-go/signet/internal/unsafex"
	"github.com/signet-go/signet/jwt"
)

// BenchmarkParts costs, one by one, the work a dir+A256GCM token needs
// beyond its floor (AES-GCM on the same bytes), on the reference claims:
// what the ratios of BenchmarkRatio are made of.
//
//	go test -run '^$' -bench Parts -benchmem ./jwe
func BenchmarkParts(b *testing.B) {
	cs := benchCases(b)
	dir := cs[0]
	payload, err := jwt.AppendClaims(nil, benchClaims())
	if err != nil {
		b.Fatal(err)
	}
	p := benchPolicy()
	// The raw iv ‖ ciphertext ‖ tag of the token, and its encoding.
	raw := make([]byte, 12+len(payload)+16)
	enc := make([]byte, 0, b64.EncodedLen(len(raw))+8)
	seg := string(b64.AppendEncode(nil, payload))
	n := len(dir.tok)
	f := newDirFloor(b, dir.key, dir.tok)
	b.Run("FloorSeal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			f.seal()
		}
	})
	b.Run("FloorOpen", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			f.open()
		}
	})
	b.Run("AppendClaims", func(b *testing.B) {
		b.ReportAllocs()
		var scratch [512]byte
		for b.Loop() {
			if _, err := jwt.AppendClaims(scratch[:0], benchClaims()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ParseClaims", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := jwt.ParseClaims[jwt.Claims](payload, p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("RandomIV", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := rand.Read(raw[:12]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Encode", func(b *testing.B) { // iv, ciphertext and tag
		b.ReportAllocs()
		for b.Loop() {
			e := b64.AppendEncode(enc[:0], raw[:12])
			e = b64.AppendEncode(e, raw[12:12+len(payload)])
			b64.AppendEncode(e, raw[12+len(payload):])
		}
	})
	b.Run("Decode", func(b *testing.B) { // the ciphertext segment
		b.ReportAllocs()
		for b.Loop() {
			if _, err := b64.Decode(raw, seg); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("AllocToken", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sink = unsafex.MakeNoZero(n)
		}
	})
	b.Run("AllocPlaintext", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sink = unsafex.MakeNoZero(len(payload) + 16 + 12)
		}
	})
}

var sink []byte
