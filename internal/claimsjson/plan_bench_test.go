package claimsjson

import (
	"testing"
	"unsafe"
)

// BenchmarkPlan runs the plan of the lab's study type alone: decoding from
// the members a reader passed over (Rest), through Take (with the walk of
// the payload's members), and writing.
//
//	go test -run '^$' -bench Plan -benchmem ./internal/claimsjson
func BenchmarkPlan(b *testing.B) {
	const payload = `{"iss":"https://issuer.example","sub":"user@example.com","aud":"api","exp":1800003600,"jti":"x","user_id":42,"username":"alice","perms":["read","write"]}`
	pl := PlanFor[study](testFilter)
	rest := restOf(payload)
	reg := testReg{Issuer: "https://issuer.example"}
	b.Run("Finish/rest", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := restInto[study](pl, payload, rest, false, &reg); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Take/payload", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := takeInto[study](pl, payload, &reg); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Append", func(b *testing.B) {
		v := study{UserID: 42, Username: "alice", Perms: []string{"read", "write"}}
		var buf [256]byte
		b.ReportAllocs()
		for b.Loop() {
			if _, err := pl.Append(append(buf[:0], "{}"...), unsafe.Pointer(&v)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
