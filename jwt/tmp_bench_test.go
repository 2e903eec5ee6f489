package jwt

import (
	"testing"

	"github.com/signet-go/signet"
)

func BenchmarkTmpClaimsOnCustom(b *testing.B) {
	c := newBenchCase(b, signet.HS256)
	custom := customClaims{UserID: 42, Username: "alice", Perms: []string{"read", "write"}, Claims: benchClaims()}
	p := Policy{Issuer: "https://issuer.example", Audience: []string{"api"}, Now: fixed(benchNow)}
	tok, _ := Sign(c.key, custom)
	b.Log(len(tok), len(c.token))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Verify[Claims](c.pub, tok, p); err != nil {
			b.Fatal(err)
		}
	}
}
