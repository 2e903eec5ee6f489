package jwt_test

import (
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwt"
)

func BenchmarkZZForged(b *testing.B) {
	k, _ := signet.GenerateKey(signet.HS256)
	c := jwt.Claims{Subject: "s", ExpiresAt: jwt.At(now.Add(time.Hour))}
	tok, _ := jwt.Sign(k, c)
	forged := flipSignature(tok)
	b.ReportAllocs()
	for b.Loop() {
		_, _ = jwt.Verify[jwt.Claims](k, forged, jwt.Policy{Now: now})
	}
}
