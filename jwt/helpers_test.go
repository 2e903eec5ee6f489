package jwt_test

import (
	"crypto/sha256"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/b64"
	"github.com/signet-go/signet/jwk"
)

type bigInt = big.Int

var one = big.NewInt(1)

func sha256Of(s string) [32]byte { return sha256.Sum256([]byte(s)) }

func mustJWK(t *testing.T, k *signet.Key) string {
	t.Helper()
	b, err := jwk.MarshalPublic(k)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// fixed is a clock that always reads t (Policy.Now, Options.Now).
func fixed(t time.Time) func() time.Time { return func() time.Time { return t } }

// flipSignature returns tok with one bit of its signature flipped: a
// forgery whatever the signature was (replacing its last characters with
// fixed ones left it valid when it already ended in them).
func flipSignature(tok string) string {
	dot := strings.LastIndexByte(tok, '.')
	sig, _ := b64.DecodeString(tok[dot+1:])
	sig[0] ^= 1
	return tok[:dot+1] + b64.EncodeToString(sig)
}
